-- What the plugin remembers between notifications: each workspace's last
-- run and the daemon's last status. Kept apart so the UI and the handlers
-- share it without requiring each other.
local M = {
  --- RunSummary by workspace root.
  last_run = {},
  --- The last aisbx/status notification or aisbx.status answer.
  status = nil,
  --- Runs in flight, by run id: { title, root, done, total, failed }.
  running = {},
  --- The last lines of test output (aisbx/runOutput), newest last.
  output = {},
}

M.max_output = 2000

function M.add_output(text)
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    table.insert(M.output, line)
  end
  -- The text ended with a newline: drop the empty tail the pattern leaves.
  if M.output[#M.output] == "" then
    table.remove(M.output)
  end
  while #M.output > M.max_output do
    table.remove(M.output, 1)
  end
end

return M
