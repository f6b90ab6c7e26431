-- The headline flow: in a Go workspace whose TestAdd fails, the code action
-- at TestAdd runs it in the sandbox, and the failing assertion (line 7 of
-- calc_test.go) gets an aisbx diagnostic. Along the way: $/progress reaches
-- the handler that was in force before (as a progress plugin installs it)
-- and vim.notify; :AisbxLastRun puts the failure in the quickfix list.
local H = dofile(vim.env.AISBX_NVIM_TEST .. "/helpers.lua")
local root = vim.env.WORKSPACE

-- A progress plugin of the old kind replaces the global handler; aisbx must
-- chain to it, not bypass it.
local seen_progress = {}
local default_progress = vim.lsp.handlers["$/progress"]
vim.lsp.handlers["$/progress"] = function(err, result, ctx, config)
  if type(result) == "table" and type(result.value) == "table" then
    table.insert(seen_progress, result.value.kind)
  end
  if default_progress then
    return default_progress(err, result, ctx, config)
  end
end
local notes = H.record_notify()

vim.cmd("runtime! plugin/aisbx.lua")
require("aisbx").setup({ path = vim.env.AISBXD })
local test_file = root .. "/calc_test.go"
vim.cmd("edit " .. test_file)
local buf = vim.api.nvim_get_current_buf()
H.wait(15000, function()
  local c = require("aisbx.compat").clients("aisbx", buf)[1]
  return c ~= nil and type(c.server_capabilities) == "table" and c.server_capabilities.codeActionProvider ~= nil
end, "aisbx did not attach to calc_test.go")

-- The cursor in TestAdd (line 5), then the code action menu, answered the
-- way a vim.ui.select plugin would.
vim.api.nvim_win_set_cursor(0, { 5, 6 })
local offered, picked = {}, nil
vim.ui.select = function(items, opts, on_choice)
  for _, item in ipairs(items) do
    local action = item[2] or item.action or item
    table.insert(offered, action.title)
    if not picked and action.title:lower():find("run this test", 1, true) then
      picked = item
    end
  end
  on_choice(picked)
end
if require("aisbx.compat").nvim08 then
  vim.lsp.buf.code_action({ context = { diagnostics = {} } })
else
  vim.lsp.buf.code_action({ diagnostics = {} })
end
H.wait(10000, function() return #offered > 0 end, "no code actions at TestAdd")
H.check(picked ~= nil, "no \"Run this test in sandbox\" action at TestAdd; offered: " .. table.concat(offered, " | "))
H.ok("code actions at TestAdd: " .. table.concat(offered, " | "))

H.wait(120000, function()
  for _, d in ipairs(H.aisbx_diags(buf)) do
    if d.lnum == 6 then
      return true
    end
  end
  return false
end, "no aisbx diagnostic on line 7 of calc_test.go after the sandbox run; diagnostics: " .. vim.inspect(vim.diagnostic.get(buf)))
local failing
for _, d in ipairs(H.aisbx_diags(buf)) do
  if d.lnum == 6 then
    failing = d
  end
end
H.check(failing.message:find("want 5", 1, true) ~= nil, "the diagnostic lacks the assertion's message: " .. failing.message)
H.ok("the failing assertion has a diagnostic on line 7: " .. failing.message:match("^[^\n]*"))

H.wait(30000, function() return vim.tbl_contains(seen_progress, "end") end,
  "the progress handler in force before aisbx saw no end of progress: " .. vim.inspect(seen_progress))
H.check(vim.tbl_contains(seen_progress, "begin"), "no progress begin reached the previous handler")
local notified = false
for _, n in ipairs(notes) do
  if type(n) == "string" and n:find("^aisbx: ") then
    notified = true
  end
end
H.check(notified, "no vim.notify from aisbx progress: " .. vim.inspect(notes))
H.ok("progress reached the previous $/progress handler (" .. table.concat(seen_progress, ",") .. ") and vim.notify")

local done, summary = false, nil
require("aisbx").last_run(buf, function(err, s)
  done, summary = true, s
  if err then
    H.fail("aisbx.lastRun: " .. vim.inspect(err))
  end
end)
H.wait(10000, function() return done end, "aisbx.lastRun did not answer")
H.check(type(summary) == "table" and summary.status == "failed", "last run is not a failed run: " .. vim.inspect(summary))
local qf = vim.fn.getqflist()
local hit = false
for _, item in ipairs(qf) do
  if vim.api.nvim_buf_get_name(item.bufnr) == test_file and item.lnum == 7 then
    hit = true
  end
end
H.check(hit, "the quickfix list lacks calc_test.go:7: " .. vim.inspect(qf))
H.ok("AisbxLastRun: " .. require("aisbx.format").summary_line(summary) .. "; failure in the quickfix list")

-- :AisbxRunNearest with the cursor in TestSub (line 11) runs that test only.
vim.api.nvim_win_set_cursor(0, { 12, 4 })
local nearest
require("aisbx").run_nearest(buf, function(err, s) nearest = err and { error = err } or s end)
H.wait(120000, function() return nearest ~= nil end, "AisbxRunNearest did not answer")
H.check(nearest.status == "passed" and nearest.total == 1, "AisbxRunNearest in TestSub: " .. vim.inspect(nearest))
H.ok("AisbxRunNearest ran TestSub: " .. require("aisbx.format").summary_line(nearest))

-- :AisbxRunFile runs both tests; the plugin keeps the answer as the last run.
local state = require("aisbx.state")
local before = state.last_summary
vim.cmd("AisbxRunFile")
H.wait(120000, function() return state.last_summary ~= before and state.last_summary.total == 2 end,
  "AisbxRunFile: no run of both tests; last: " .. vim.inspect(state.last_summary))
H.ok("AisbxRunFile: " .. require("aisbx.format").summary_line(state.last_summary))

H.finish()
