-- Small shims over the Neovim APIs that changed between 0.7 and 0.11, so
-- that the rest of the plugin is written once.
local M = {}

local has = function(v)
  return vim.fn.has(v) == 1
end

M.nvim08 = has("nvim-0.8")
M.nvim010 = has("nvim-0.10")
M.nvim011 = has("nvim-0.11")

--- Clients named name (all attached or running ones).
function M.clients(name, bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = name, bufnr = bufnr })
  end
  local out = {}
  local list = bufnr and vim.lsp.buf_get_clients(bufnr) or vim.lsp.get_active_clients()
  for _, c in pairs(list) do
    if c.name == name then
      table.insert(out, c)
    end
  end
  return out
end

--- client:request on 0.11+, client.request before (0.11 deprecates the dot call).
function M.request(client, method, params, handler, bufnr)
  if M.nvim011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.stop(client)
  if M.nvim011 then
    return client:stop()
  end
  return client.stop()
end

--- The UTF-16 column of a byte column in a line (LSP positions are UTF-16).
function M.utf16_col(line, byte_col)
  byte_col = math.min(byte_col, #line)
  if M.nvim011 then
    return vim.str_utfindex(line, "utf-16", byte_col, false)
  end
  local _, u16 = vim.str_utfindex(line, byte_col)
  return u16
end

local uv = vim.uv or vim.loop

function M.exists(path)
  return uv.fs_stat(path) ~= nil
end

function M.is_executable(path)
  return path ~= nil and path ~= "" and vim.fn.executable(path) == 1 and vim.fn.isdirectory(path) == 0
end

--- The nearest directory at or above start that holds one of markers, tried
--- in order: the nearest aisbx.toml wins over an outer .git.
function M.root(start, markers)
  for _, marker in ipairs(markers) do
    local dir = start
    while dir and dir ~= "" do
      if M.exists(dir .. "/" .. marker) then
        return dir
      end
      local parent = vim.fn.fnamemodify(dir, ":h")
      if parent == dir then
        break
      end
      dir = parent
    end
  end
  return nil
end

--- The health reporting functions: vim.health (0.9+) or health#report_* (0.7).
function M.health()
  local h = vim.health
  if h and h.start then
    return { start = h.start, ok = h.ok, warn = h.warn, error = h.error, info = h.info }
  end
  if h and h.report_start then
    return { start = h.report_start, ok = h.report_ok, warn = h.report_warn, error = h.report_error, info = h.report_info }
  end
  local f = function(name)
    return function(msg, advice)
      if advice ~= nil then
        vim.fn["health#report_" .. name](msg, advice)
      else
        vim.fn["health#report_" .. name](msg)
      end
    end
  end
  return { start = f("start"), ok = f("ok"), warn = f("warn"), error = f("error"), info = f("info") }
end

--- Runs a command and returns its stdout, its exit code (and whether it ran).
function M.system(cmd)
  local out = vim.fn.system(cmd)
  return out, vim.v.shell_error
end

return M
