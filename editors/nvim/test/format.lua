-- The plugin words runs exactly as the VS Code extension (and aisbxd) do:
-- the same table of summaries (editors/vscode/test/testdata/summaries.json)
-- and the run recorded from the real aisbxd (real-run.json).
local H = dofile(vim.env.AISBX_NVIM_TEST .. "/helpers.lua")
local format = require("aisbx.format")

local function read(name)
  local f = assert(io.open(vim.env.VSCODE_TESTDATA .. "/" .. name))
  local data = vim.fn.json_decode(f:read("*a"))
  f:close()
  return data
end

for _, c in ipairs(read("summaries.json").cases) do
  local got = format.summary_line(c.summary)
  H.check(got == c.line, c.name .. ": got " .. got .. ", want " .. c.line)
  H.check(format.green(c.summary) == c.green, c.name .. ": green is " .. tostring(format.green(c.summary)))
end
H.ok("summary lines match the VS Code table")

local real = read("real-run.json").answer
local message = real.message
real.message = nil
H.check(format.summary_line(real) == message, "got " .. format.summary_line(real) .. ", aisbxd said " .. message)
local items = format.quickfix_items(real)
H.check(#items == 1 and items[1].lnum == 7 and items[1].text:find("want 5", 1, true) ~= nil, "quickfix items: " .. vim.inspect(items))
H.ok("a real aisbxd run is worded as aisbxd words it: " .. message)
vim.cmd("qa!")
