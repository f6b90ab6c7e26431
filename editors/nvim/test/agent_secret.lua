-- An agent (another process) writes a key into a file nobody has open: the
-- daemon's watcher sees the write, checks the file in the background, and
-- Neovim gets its diagnostics without the file ever being opened.
local H = dofile(vim.env.AISBX_NVIM_TEST .. "/helpers.lua")
local root = vim.env.WORKSPACE
local target = root .. "/agent/written.py"

require("aisbx").setup({ path = vim.env.AISBXD })
vim.cmd("edit " .. root .. "/main.py")
H.wait(15000, function() return #H.clients() > 0 end, "aisbx did not start")
-- Give the daemon's watcher a moment to set up, then write as the agent.
vim.wait(500)
local ok = os.execute("sh -c 'mkdir -p \"" .. root .. "/agent\" && printf \"%s\\n\" \"$AGENT_TEXT\" > \"" .. target .. "\"'")
H.check(ok == 0 or ok == true, "the agent's write failed")

local function target_diags()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    if d.source == "aisbx" and vim.api.nvim_buf_get_name(d.bufnr) == target then
      table.insert(out, d)
    end
  end
  return out
end
H.wait(20000, function()
  for _, d in ipairs(target_diags()) do
    if d.code == "aws-access-key-id" then
      return true
    end
  end
  return false
end, "no diagnostic for the agent's unopened file; all: " .. vim.inspect(vim.diagnostic.get()))
for _, d in ipairs(target_diags()) do
  H.check(not d.message:find(vim.env.SECRET_FULL, 1, true), "a diagnostic shows the whole key")
  H.ok("agent-written file reported: " .. tostring(d.code) .. " on line " .. (d.lnum + 1) .. ": " .. d.message)
end
H.check(vim.fn.bufloaded(target) == 0, "the agent's file was opened")
H.finish()
