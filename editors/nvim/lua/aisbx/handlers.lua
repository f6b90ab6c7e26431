-- Client-local handlers for aisbx's custom notifications and $/progress.
-- They go in the client's config (config.handlers), never in the global
-- vim.lsp.handlers, so other servers and progress plugins are untouched.
local config = require("aisbx.config")
local format = require("aisbx.format")
local state = require("aisbx.state")

local M = {}

local function fire(pattern, data)
  -- `data` on User autocmds needs 0.8; 0.7 just gets the event.
  local ok = pcall(vim.api.nvim_exec_autocmds, "User", { pattern = pattern, modeline = false, data = data })
  if not ok then
    pcall(vim.api.nvim_exec_autocmds, "User", { pattern = pattern, modeline = false })
  end
end

function M.run_started(_, params)
  if type(params) ~= "table" then
    return
  end
  state.running[params.runId] = { title = params.title, root = params.root, done = 0, failed = 0,
    total = type(params.tests) == "table" and #params.tests or 0 }
  fire("AisbxRunStarted", params)
end

function M.test_result(_, params)
  if type(params) ~= "table" then
    return
  end
  local r = state.running[params.runId]
  if r and params.status ~= "started" then
    r.done = r.done + 1
    if params.status == "failed" then
      r.failed = r.failed + 1
    end
  end
end

function M.run_output(_, params)
  if type(params) == "table" and type(params.text) == "string" then
    state.add_output(params.text)
  end
end

function M.run_finished(_, summary)
  if type(summary) ~= "table" then
    return
  end
  M.remember(summary)
  fire("AisbxRunFinished", summary)
end

--- Keeps a RunSummary as its workspace's last run.
function M.remember(summary)
  if type(summary) ~= "table" or not summary.id then
    return
  end
  state.running[summary.id] = nil
  if type(summary.root) == "string" then
    state.last_run[summary.root] = summary
  end
  state.last_summary = summary
end

function M.status(_, params)
  if type(params) == "table" then
    state.status = params
    fire("AisbxStatus", params)
  end
end

-- Progress tokens seen begin, so that report and end name their title.
local titles = {}

--- $/progress: the handler in force (Neovim's default, or a plugin's that
--- replaced it) runs first, unchanged; then, when enabled, vim.notify says
--- when aisbx work begins (and when it ends without a summary: a run's
--- summary comes as window/showMessage).
function M.progress(err, result, ctx, cfg)
  local prev = vim.lsp.handlers["$/progress"]
  local ret
  if prev and prev ~= M.progress then
    ret = prev(err, result, ctx, cfg)
  end
  if not config.options.progress or type(result) ~= "table" or type(result.value) ~= "table" then
    return ret
  end
  local v = result.value
  local token = tostring(result.token)
  if v.kind == "begin" then
    titles[token] = v.title
    local msg = v.title .. ((type(v.message) == "string" and v.message ~= "") and (": " .. v.message) or "")
    vim.notify("aisbx: " .. msg, vim.log.levels.INFO, { title = "aisbx" })
  elseif v.kind == "end" then
    -- A run's summary also arrives as window/showMessage: say it once.
    local title = titles[token]
    titles[token] = nil
    if title and not (type(v.message) == "string" and v.message ~= "") then
      vim.notify("aisbx: " .. title .. ": done", vim.log.levels.INFO, { title = "aisbx" })
    end
  end
  return ret
end

--- The handlers table of an aisbx client config.
function M.table()
  return {
    ["aisbx/runStarted"] = M.run_started,
    ["aisbx/testResult"] = M.test_result,
    ["aisbx/runOutput"] = M.run_output,
    ["aisbx/runFinished"] = M.run_finished,
    ["aisbx/status"] = M.status,
    ["$/progress"] = M.progress,
  }
end

M.summary_line = format.summary_line

return M
