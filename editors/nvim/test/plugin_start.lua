-- setup() starts aisbx on FileType with the root found from aisbx.toml, one
-- client per root; the diagnostics namespace gets the plugin's options; the
-- user commands exist and :AisbxStatus answers. WORKSPACE has an aisbx.toml
-- whose line 5 holds an unknown key, and a sub/ folder.
local H = dofile(vim.env.AISBX_NVIM_TEST .. "/helpers.lua")
local root = vim.env.WORKSPACE

vim.cmd("runtime! plugin/aisbx.lua")
require("aisbx").setup({
  path = vim.env.AISBXD,
  diagnostics = { virtual_text = false, severity_sort = true },
})
for _, name in ipairs({ "AisbxRun", "AisbxRunNearest", "AisbxRunFile", "AisbxLastRun", "AisbxStatus" }) do
  H.check(vim.fn.exists(":" .. name) == 2, "command :" .. name .. " missing")
end
H.ok("the five user commands exist")

vim.cmd("edit " .. root .. "/aisbx.toml")
local toml = vim.api.nvim_get_current_buf()
H.wait(15000, function() return #H.aisbx_diags(toml) > 0 end, "no aisbx diagnostic on aisbx.toml")
local d = H.aisbx_diags(toml)[1]
H.check(d.lnum == 4, "diagnostic on line " .. (d.lnum + 1) .. ", want 5")
H.check(d.message:find("pool_sise", 1, true) ~= nil, "unexpected message: " .. d.message)
H.ok("setup started aisbx on FileType toml: unknown key reported on line 5")

local client = H.clients()[1]
H.check(client.config.root_dir == root, "root_dir " .. tostring(client.config.root_dir) .. ", want " .. root)
local ns = vim.lsp.diagnostic.get_namespace(client.id)
local cfg = vim.diagnostic.config(nil, ns)
H.check(cfg.virtual_text == false, "virtual_text not overridden in the aisbx namespace: " .. vim.inspect(cfg.virtual_text))
H.check(cfg.severity_sort == true, "severity_sort not set in the aisbx namespace")
H.ok("the aisbx diagnostics namespace has the plugin's options")

-- A file deeper in the same workspace reuses the client.
vim.cmd("edit " .. root .. "/sub/deep.go")
local go = vim.api.nvim_get_current_buf()
H.wait(10000, function() return #require("aisbx.compat").clients("aisbx", go) > 0 end, "aisbx not attached to sub/deep.go")
H.check(#H.clients() == 1, "want one aisbx client for one root, got " .. #H.clients())
H.ok("sub/deep.go attached to the same client (root " .. root .. ")")

local done, status = false, nil
require("aisbx").status(go, function(err, st)
  done = true
  status = err and { error = err } or st
end)
H.wait(10000, function() return done end, "aisbx.status did not answer")
H.check(type(status) == "table" and type(status.daemon) == "table", ":AisbxStatus failed: " .. vim.inspect(status))
H.check(status.daemon.shared == true, "want the shared daemon, got " .. vim.inspect(status.daemon))
H.ok("AisbxStatus shows aisbxd " .. tostring(status.daemon.version) .. " (shared daemon)")

H.finish()
