-- Shared by the headless Neovim tests (driven by editors/nvim/nvim_test.go):
-- ok/fail reporting, waiting, and the aisbx diagnostics of a buffer.
local H = {}

-- -u NONE leaves filetype detection off; every user config has it on.
vim.cmd("filetype on")

function H.fail(msg)
  io.stderr:write("FAIL: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

function H.ok(msg)
  io.stdout:write("ok: " .. msg .. "\n")
end

function H.check(cond, msg)
  if not cond then
    H.fail(msg)
  end
end

--- Waits up to ms for fn() to be truthy; fails with msg when it is not.
function H.wait(ms, fn, msg)
  if not vim.wait(ms, fn, 50) then
    H.fail(msg)
  end
end

function H.aisbx_diags(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == "aisbx" then
      table.insert(out, d)
    end
  end
  return out
end

function H.clients()
  return require("aisbx.compat").clients("aisbx")
end

--- Stops every aisbx client and quits with success.
function H.finish()
  for _, c in ipairs(H.clients()) do
    require("aisbx.compat").stop(c)
  end
  vim.wait(3000, function() return #H.clients() == 0 end, 50)
  vim.cmd("qa!")
end

--- Records vim.notify calls (messages only), keeping the real one working.
function H.record_notify()
  local seen = {}
  local real = vim.notify
  vim.notify = function(msg, level, opts)
    table.insert(seen, msg)
    return real(msg, level, opts)
  end
  return seen
end

return H
