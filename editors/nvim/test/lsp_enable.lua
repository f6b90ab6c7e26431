-- lsp/aisbx.lua is a valid vim.lsp.config table on every version; on 0.11+
-- vim.lsp.enable("aisbx") starts aisbx from it and reports the config error.
local H = dofile(vim.env.AISBX_NVIM_TEST .. "/helpers.lua")
local root = vim.env.WORKSPACE

require("aisbx.config").set({ path = vim.env.AISBXD })
local files = vim.api.nvim_get_runtime_file("lsp/aisbx.lua", false)
H.check(#files == 1, "lsp/aisbx.lua not on the runtimepath")
local cfg = dofile(files[1])
H.check(type(cfg) == "table", "lsp/aisbx.lua returns " .. type(cfg))
H.check(cfg.cmd[1] == vim.env.AISBXD and cfg.cmd[2] == "serve", "cmd is " .. vim.inspect(cfg.cmd))
H.check(vim.tbl_contains(cfg.filetypes, "toml") and vim.tbl_contains(cfg.filetypes, "go"), "filetypes lack toml or go")
H.check(cfg.root_markers[1] == "aisbx.toml", "root_markers: " .. vim.inspect(cfg.root_markers))
H.check(type(cfg.handlers["aisbx/runFinished"]) == "function", "no aisbx/runFinished handler")
H.ok("lsp/aisbx.lua: cmd " .. table.concat(cfg.cmd, " "))

if not vim.lsp.enable then
  H.ok("vim.lsp.enable needs Neovim 0.11; config checked only")
  vim.cmd("qa!")
  return
end
vim.lsp.enable("aisbx")
vim.cmd("edit " .. root .. "/aisbx.toml")
local buf = vim.api.nvim_get_current_buf()
H.wait(15000, function() return #H.aisbx_diags(buf) > 0 end, "vim.lsp.enable('aisbx'): no diagnostic on aisbx.toml")
H.ok("vim.lsp.enable('aisbx') attached and reported: " .. H.aisbx_diags(buf)[1].message)
H.finish()
