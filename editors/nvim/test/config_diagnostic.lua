-- Headless Neovim test: aisbx reports an unknown key in aisbx.toml on its
-- line, and fixing the buffer clears it. Driven by editors/nvim/nvim_test.go,
-- which sets AISBXD (the binary) and WORKSPACE (a temp dir whose aisbx.toml
-- has the unknown key on line 5). No plugin: a bare start_client, as any
-- Neovim 0.7+ user could configure by hand.
local H = dofile(vim.env.AISBX_NVIM_TEST .. "/helpers.lua")
local root = vim.env.WORKSPACE

vim.cmd("edit " .. root .. "/aisbx.toml")
local bufnr = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "aisbx",
  cmd = { vim.env.AISBXD, "serve", "--stdio" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "ws" } },
})
H.check(client_id, "could not start aisbxd")
vim.lsp.buf_attach_client(bufnr, client_id)

H.wait(15000, function() return #H.aisbx_diags(bufnr) > 0 end, "no aisbx diagnostic on aisbx.toml")
local d = H.aisbx_diags(bufnr)[1]
-- vim.diagnostic lines are 0-based: line 5 of the file is 4.
H.check(d.lnum == 4, "diagnostic on line " .. (d.lnum + 1) .. ", want 5: " .. d.message)
H.check(d.message:find("pool_sise", 1, true) and d.message:find("pool_size", 1, true),
  "unexpected message: " .. d.message)
H.ok("unknown key reported on line 5: " .. d.message)

-- Fix the typo in the buffer; the diagnostic must go without a save.
vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { "pool_size = 3" })
H.wait(15000, function() return #H.aisbx_diags(bufnr) == 0 end, "diagnostic not cleared after fixing the key")
H.ok("fixing the key cleared the diagnostic")

vim.lsp.stop_client(client_id)
vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
vim.cmd("qa!")
