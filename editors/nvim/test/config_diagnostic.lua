-- Headless Neovim test: aisbx reports an unknown key in aisbx.toml on its
-- line, and fixing the buffer clears it. Driven by editors/nvim/nvim_test.go,
-- which sets AISBXD (the binary) and WORKSPACE (a temp dir whose aisbx.toml
-- has the unknown key on line 5). Works on Neovim 0.7 (start_client).
local aisbxd = os.getenv("AISBXD")
local root = os.getenv("WORKSPACE")

local function fail(msg)
  io.stderr:write("FAIL: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local function ok(msg)
  io.stdout:write("ok: " .. msg .. "\n")
end

vim.cmd("edit " .. root .. "/aisbx.toml")
local bufnr = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "aisbx",
  cmd = { aisbxd, "serve", "--stdio" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "ws" } },
})
if not client_id then
  fail("could not start aisbxd")
end
vim.lsp.buf_attach_client(bufnr, client_id)

local function aisbx_diags()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == "aisbx" then
      table.insert(out, d)
    end
  end
  return out
end

if not vim.wait(15000, function() return #aisbx_diags() > 0 end, 50) then
  fail("no aisbx diagnostic on aisbx.toml")
end
local d = aisbx_diags()[1]
-- vim.diagnostic lines are 0-based: line 5 of the file is 4.
if d.lnum ~= 4 then
  fail("diagnostic on line " .. (d.lnum + 1) .. ", want 5: " .. d.message)
end
if not d.message:find("pool_sise", 1, true) or not d.message:find("pool_size", 1, true) then
  fail("unexpected message: " .. d.message)
end
ok("unknown key reported on line 5: " .. d.message)

-- Fix the typo in the buffer; the diagnostic must go without a save.
vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { "pool_size = 3" })
if not vim.wait(15000, function() return #aisbx_diags() == 0 end, 50) then
  fail("diagnostic not cleared after fixing the key")
end
ok("fixing the key cleared the diagnostic")

vim.lsp.stop_client(client_id)
vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
vim.cmd("qa!")
