-- aisbx for Neovim: starts `aisbxd serve` as a language server for the
-- buffers it serves and adds commands for sandboxed test runs. Read setup
-- first; lsp/aisbx.lua (Neovim 0.11's vim.lsp.enable) and the lspconfig
-- entry reuse lsp_config.
local compat = require("aisbx.compat")
local config = require("aisbx.config")
local format = require("aisbx.format")
local handlers = require("aisbx.handlers")
local state = require("aisbx.state")

local M = {}

M.name = "aisbx"

--- Applies the diagnostics options to a client's namespace.
local function configure_diagnostics(client_id)
  local ok, ns = pcall(vim.lsp.diagnostic.get_namespace, client_id)
  if ok and ns and config.options.diagnostics then
    vim.diagnostic.config(config.options.diagnostics, ns)
  end
end

local function on_init(client)
  configure_diagnostics(client.id)
end

--- The client configuration (cmd, handlers…) without root_dir: what
--- vim.lsp.start, vim.lsp.config and lspconfig all take.
function M.lsp_config(opts)
  opts = opts or config.options
  local cmd, err = config.cmd(opts)
  return {
    name = M.name,
    cmd = cmd,
    cmd_error = err,
    filetypes = opts.filetypes,
    root_markers = opts.root_markers,
    handlers = handlers.table(),
    on_init = on_init,
    on_attach = opts.on_attach,
    capabilities = opts.capabilities,
  }
end

-- Neovim 0.7 has no vim.lsp.start: one client per root, attached by hand.
local clients_by_root = {}

local warned_missing = false

--- Starts (or reuses) the aisbx client for a buffer. Returns the client id.
function M.start(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname == "" then
    return nil
  end
  local cfg = M.lsp_config()
  if not cfg.cmd then
    if not warned_missing then
      warned_missing = true
      vim.notify("aisbx: " .. tostring(cfg.cmd_error) .. "; set it with require('aisbx').setup({ path = ... }), see :checkhealth aisbx", vim.log.levels.ERROR)
    end
    return nil
  end
  local root = config.root_dir(fname)
  cfg.cmd_error = nil
  cfg.root_markers = nil
  -- Neovim derives workspace_folders from root_dir; 0.10 reuses a client
  -- by comparing root_dir with the folders' names, so leave them to it.
  cfg.root_dir = root
  if compat.nvim08 then
    return vim.lsp.start(cfg, { bufnr = bufnr })
  end
  local id = clients_by_root[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(cfg)
    if not id then
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Registers `aisbx` with nvim-lspconfig when it is installed, so that
--- `require("lspconfig").aisbx.setup({})` works.
function M.register_lspconfig()
  local ok, configs = pcall(require, "lspconfig.configs")
  if not ok or configs.aisbx then
    return ok
  end
  local util = require("lspconfig.util")
  local cfg = M.lsp_config()
  configs.aisbx = {
    default_config = {
      cmd = cfg.cmd or { "aisbxd", "serve", "--stdio" },
      filetypes = cfg.filetypes,
      root_dir = util.root_pattern(unpack(config.options.root_markers)),
      handlers = cfg.handlers,
      on_init = cfg.on_init,
    },
    docs = {
      description = "aisbx: preflight checks for AI-written code and sandboxed test runs (aisbxd serve).",
    },
  }
  return true
end

local group

function M.setup(opts)
  config.set(opts)
  group = vim.api.nvim_create_augroup("aisbx", { clear = true })
  if config.options.autostart then
    vim.api.nvim_create_autocmd("FileType", {
      group = group,
      pattern = config.options.filetypes,
      callback = function(args)
        M.start(args.buf)
      end,
      desc = "start aisbx",
    })
    -- Buffers already open when setup runs (lazy loading).
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(config.options.filetypes, vim.bo[b].filetype) then
        M.start(b)
      end
    end
  end
  M.register_lspconfig()
  require("aisbx.commands").create()
end

--- The aisbx client of a buffer (or any aisbx client).
function M.client(bufnr)
  local list = compat.clients(M.name, bufnr)
  if #list == 0 and bufnr then
    list = compat.clients(M.name)
  end
  return list[1]
end

--- Calls an aisbx command through workspace/executeCommand; cb(err, result).
function M.execute(command, args, cb, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    local msg = "aisbx is not running for this buffer (:checkhealth aisbx)"
    if cb then
      cb({ message = msg }, nil)
    else
      vim.notify("aisbx: " .. msg, vim.log.levels.WARN)
    end
    return
  end
  compat.request(client, "workspace/executeCommand", { command = command, arguments = { args } }, function(err, result)
    if cb then
      cb(err, result)
    elseif err then
      vim.notify("aisbx: " .. command .. ": " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
  end, bufnr)
end

--- The workspace root of a buffer, as its aisbx client sees it.
function M.root(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if client and client.config and client.config.root_dir then
    return client.config.root_dir
  end
  local fname = vim.api.nvim_buf_get_name(bufnr)
  return fname ~= "" and config.root_dir(fname) or vim.fn.getcwd()
end

local function after_run(err, summary)
  if err then
    vim.notify("aisbx: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    return
  end
  -- The server already shows the summary (window/showMessage); keep it.
  if type(summary) == "table" then
    handlers.remember(summary)
  end
end

function M.run_affected(bufnr)
  M.execute("aisbx.runAffected", { uri = vim.uri_from_fname(M.root(bufnr)) }, after_run, bufnr)
end

function M.run_file(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  M.execute("aisbx.runFile", { uri = vim.uri_from_bufnr(bufnr) }, after_run, bufnr)
end

--- Runs the test at the cursor (aisbx.runTest with a 0-based, UTF-16 position).
function M.run_nearest(bufnr, cb)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local line = vim.api.nvim_buf_get_lines(bufnr, row - 1, row, false)[1] or ""
  local args = { uri = vim.uri_from_bufnr(bufnr), line = row - 1, character = compat.utf16_col(line, col) }
  M.execute("aisbx.runTest", args, function(err, summary)
    after_run(err, summary)
    if cb then
      cb(err, summary)
    end
  end, bufnr)
end

--- Opens a floating window with lines; returns its buffer and window.
local function float(lines, title)
  local buf, win = vim.lsp.util.open_floating_preview(lines, "markdown", {
    border = "rounded",
    focus_id = "aisbx",
    max_width = math.max(40, math.floor(vim.o.columns * 0.8)),
    title = compat.nvim010 and title or nil,
  })
  return buf, win
end

--- Shows a RunSummary in a float and puts its failures in the quickfix list.
function M.show_run(summary)
  local items = format.quickfix_items(summary)
  vim.fn.setqflist({}, " ", { title = "aisbx: " .. format.summary_line(summary), items = items })
  return float(format.summary_lines(summary), " aisbx last run ")
end

function M.last_run(bufnr, cb)
  M.execute("aisbx.lastRun", { uri = vim.uri_from_fname(M.root(bufnr)) }, function(err, summary)
    if err then
      vim.notify("aisbx: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    elseif type(summary) ~= "table" then
      summary = state.last_run[M.root(bufnr)]
      if not summary then
        vim.notify("aisbx: no sandbox run yet in this workspace", vim.log.levels.INFO)
      end
    end
    if type(summary) == "table" then
      handlers.remember(summary)
      M.show_run(summary)
    end
    if cb then
      cb(err, summary)
    end
  end, bufnr)
end

function M.status(bufnr, cb)
  M.execute("aisbx.status", {}, function(err, st)
    if err then
      vim.notify("aisbx: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    elseif type(st) == "table" then
      state.status = st
      float(format.status_lines(st), " aisbx ")
    end
    if cb then
      cb(err, st)
    end
  end, bufnr)
end

--- A short status for statuslines: "aisbx ✓", "aisbx ✗ 3", "aisbx 12/40".
function M.statusline()
  for _, r in pairs(state.running) do
    return string.format("aisbx %d/%d", r.done, r.total)
  end
  local s = state.last_summary
  if not s then
    return "aisbx"
  end
  if format.green(s) then
    return "aisbx ✓"
  end
  return "aisbx ✗" .. ((s.failed or 0) > 0 and (" " .. s.failed) or "")
end

return M
