-- :checkhealth aisbx passes: binary, version, daemon reachable (the daemon
-- the attached client started), Docker engine reachable.
local H = dofile(vim.env.AISBX_NVIM_TEST .. "/helpers.lua")
local root = vim.env.WORKSPACE

require("aisbx").setup({ path = vim.env.AISBXD })
vim.cmd("edit " .. root .. "/aisbx.toml")
local buf = vim.api.nvim_get_current_buf()
H.wait(15000, function() return #require("aisbx.compat").clients("aisbx", buf) > 0 end, "aisbx did not attach")
-- Once initialize has answered, the daemon the client started is up.
H.wait(15000, function()
  local c = H.clients()[1]
  return c ~= nil and type(c.server_capabilities) == "table" and c.server_capabilities.executeCommandProvider ~= nil
end, "aisbx did not initialize")

vim.cmd("checkhealth aisbx")
local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
local text = table.concat(lines, "\n")
io.stdout:write(text .. "\n")
for _, want in ipairs({ "binary: " .. vim.env.AISBXD, "version: ", "daemon reachable: pid", "Docker engine: reachable" }) do
  H.check(text:find(want, 1, true) ~= nil, "checkhealth lacks " .. want)
end
H.check(not text:find("ERROR", 1, true), "checkhealth reports an ERROR")
H.ok("checkhealth aisbx passes")
H.finish()
