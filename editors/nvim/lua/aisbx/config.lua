-- The plugin's options: defaults, the user's overrides, and what follows
-- from them (the aisbxd binary, the server command, the root of a file).
local compat = require("aisbx.compat")

local M = {}

M.defaults = {
  -- The aisbxd binary. nil: $PATH, then ~/.local/bin, /usr/local/bin, ~/go/bin.
  path = nil,
  -- The whole server command; nil: { path, "serve", "--stdio" } plus the flags below.
  cmd = nil,
  -- Serve this editor in its own process instead of the shared daemon.
  standalone = false,
  -- --log-level of aisbxd serve: "debug", "info", "warn" or "error"; nil: aisbxd's default.
  log_level = nil,
  -- Filetypes whose buffers start aisbx. Secrets hide in any file, tests in the first six.
  filetypes = {
    "go", "python", "javascript", "javascriptreact", "typescript", "typescriptreact",
    "sh", "bash", "zsh", "toml", "yaml", "json", "dockerfile", "make", "terraform",
    "ruby", "rust", "java", "php", "sql", "conf", "dotenv", "gomod",
  },
  -- Files or directories that mark a workspace root, tried in order.
  root_markers = { "aisbx.toml", ".git" },
  -- Start on FileType. false: start it yourself (lspconfig, vim.lsp.enable).
  autostart = true,
  -- Report $/progress through vim.notify (after any other progress handler).
  progress = true,
  -- vim.diagnostic options for aisbx's diagnostics namespace only.
  diagnostics = {
    virtual_text = { spacing = 2, source = "if_many" },
    signs = true,
    underline = true,
    severity_sort = true,
    update_in_insert = false,
  },
  -- Passed on to the client.
  on_attach = nil,
  capabilities = nil,
}

M.options = vim.deepcopy(M.defaults)

function M.set(opts)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts or {})
  -- Lists replace, they do not merge index by index.
  if opts and opts.filetypes then
    M.options.filetypes = opts.filetypes
  end
  if opts and opts.root_markers then
    M.options.root_markers = opts.root_markers
  end
  return M.options
end

--- Where aisbxd is looked for when it is not on PATH, in order.
function M.fallback_dirs()
  local home = vim.env.HOME or ""
  return { home .. "/.local/bin", "/usr/local/bin", home .. "/go/bin" }
end

--- The aisbxd binary and how it was found, or nil and what was tried.
function M.find_binary(opts)
  opts = opts or M.options
  if opts.path and opts.path ~= "" then
    local p = vim.fn.expand(opts.path)
    if compat.is_executable(p) then
      return p, "setup({ path })"
    end
    return nil, { p }, "path = " .. opts.path .. " is not an executable file"
  end
  local tried = {}
  local on_path = vim.fn.exepath("aisbxd")
  if on_path ~= "" then
    return on_path, "PATH"
  end
  table.insert(tried, "aisbxd on $PATH")
  for _, dir in ipairs(M.fallback_dirs()) do
    local p = dir .. "/aisbxd"
    table.insert(tried, p)
    if compat.is_executable(p) then
      return p, "fallback"
    end
  end
  return nil, tried, "aisbxd not found on $PATH, in ~/.local/bin, /usr/local/bin or ~/go/bin"
end

--- The server command; nil and a message when aisbxd is not found.
function M.cmd(opts)
  opts = opts or M.options
  if opts.cmd then
    return opts.cmd
  end
  local bin, _, err = M.find_binary(opts)
  if not bin then
    return nil, err
  end
  local cmd = { bin, "serve", "--stdio" }
  if opts.standalone then
    table.insert(cmd, "--standalone")
  end
  if opts.log_level then
    vim.list_extend(cmd, { "--log-level", opts.log_level })
  end
  return cmd
end

--- The workspace root of a buffer's file: the nearest root marker, else its directory.
function M.root_dir(fname, opts)
  opts = opts or M.options
  local dir = vim.fn.fnamemodify(fname, ":p:h")
  return compat.root(dir, opts.root_markers) or dir
end

return M
