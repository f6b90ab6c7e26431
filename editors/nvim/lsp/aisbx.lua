-- Neovim 0.11+: vim.lsp.enable("aisbx") finds this file on 'runtimepath'.
-- Override with vim.lsp.config("aisbx", { ... }).
local cfg = require("aisbx").lsp_config()
return {
  cmd = cfg.cmd or { "aisbxd", "serve", "--stdio" },
  filetypes = cfg.filetypes,
  root_markers = cfg.root_markers,
  handlers = cfg.handlers,
  on_init = cfg.on_init,
}
