-- Text shown to the user, the same wording as the VS Code extension:
-- `3 failed, 37 passed in 2.1 s (sandbox go@sha256:…)`.
local M = {}

-- Like aisbxd: one decimal under a minute, else Go's rounded duration ("1m5s").
local function seconds(ms)
  if ms < 60000 then
    return string.format("%.1f s", ms / 1000)
  end
  local rest = math.floor(ms / 1000 + 0.5)
  local h = math.floor(rest / 3600)
  rest = rest - h * 3600
  local m = math.floor(rest / 60)
  return (h > 0 and (h .. "h") or "") .. m .. "m" .. (rest - m * 60) .. "s"
end

function M.short_image(image)
  if type(image) ~= "table" or type(image.ref) ~= "string" or image.ref == "" then
    return nil
  end
  if type(image.digest) ~= "string" or image.digest == "" then
    return image.ref
  end
  local profile = image.ref:gsub("^aisbx/", ""):gsub(":.*$", "")
  local d = #image.digest > 19 and (image.digest:sub(1, 19) .. "…") or image.digest
  return profile .. "@" .. d
end

function M.green(s)
  return s.status == "passed" or s.status == "no-tests"
end

local function str(v)
  return type(v) == "string" and v ~= "" and v or nil
end

--- One line: the server's `message` when it sends one, else the same wording.
function M.summary_line(s)
  if str(s.message) then
    return (s.message:gsub("^aisbx: ", ""))
  end
  if s.status == "no-tests" then
    return str(s.reason) or "no tests"
  end
  local what = tostring(s.status)
  if (s.total or 0) > 0 then
    local parts = {}
    if (s.failed or 0) > 0 then
      table.insert(parts, s.failed .. " failed")
    end
    table.insert(parts, (s.passed or 0) .. " passed")
    if (s.skipped or 0) > 0 then
      table.insert(parts, s.skipped .. " skipped")
    end
    what = table.concat(parts, ", ")
  end
  local line = what .. " in " .. seconds(s.durationMs or 0)
  local img = M.short_image(s.image)
  if img then
    line = line .. " (sandbox " .. img .. ")"
  end
  if s.status ~= "passed" and s.status ~= "failed" and str(s.reason) then
    line = line .. ": " .. s.reason
  end
  return line
end

local function list(v)
  if type(v) ~= "table" then
    return {}
  end
  return v
end
M.list = list

--- The lines of the :AisbxLastRun window.
function M.summary_lines(s)
  local lines = {
    string.format("%s aisbx run %s", M.green(s) and "✓" or "✗", s.id or "?"),
    "",
    M.summary_line(s),
    "root: " .. (s.root or "?"),
  }
  if type(s.selection) == "table" then
    table.insert(lines, "selection: " .. (s.selection.mode or "?"))
    for _, e in ipairs(list(s.selection.explanation)) do
      table.insert(lines, "  " .. e)
    end
  end
  local failed = {}
  for _, t in ipairs(list(s.tests)) do
    if t.status == "failed" then
      table.insert(failed, t)
    end
  end
  if #failed > 0 then
    table.insert(lines, "")
    table.insert(lines, "failed (in the quickfix list, :copen):")
    for _, t in ipairs(failed) do
      local msg = type(t.message) == "string" and t.message:match("^[^\n]*") or ""
      table.insert(lines, "  ✗ " .. t.name .. (msg ~= "" and (": " .. msg) or ""))
    end
  end
  if type(s.record) == "string" then
    table.insert(lines, "")
    table.insert(lines, "record: " .. s.record)
  end
  return lines
end

--- Quickfix items for the failed tests of a summary.
function M.quickfix_items(s)
  local items = {}
  for _, t in ipairs(list(s.tests)) do
    if t.status ~= "passed" and t.status ~= "skipped" then
      local item = { text = t.name .. ": " .. (type(t.message) == "string" and t.message:match("^[^\n]*") or t.status), type = "E" }
      if type(t.location) == "table" and t.location.uri then
        item.filename = vim.uri_to_fname(t.location.uri)
        item.lnum = t.location.range.start.line + 1
        item.col = t.location.range.start.character + 1
      elseif type(s.root) == "string" then
        item.filename = s.root
      end
      table.insert(items, item)
    end
  end
  return items
end

--- The lines of :AisbxStatus.
function M.status_lines(st)
  local d = st.daemon or {}
  local lines = {
    string.format("aisbxd %s, pid %s%s", d.version or "?", tostring(d.pid or "?"), d.shared and ", shared daemon" or ", standalone"),
  }
  local e = st.engine or {}
  if e.reachable then
    table.insert(lines, "Docker engine: reachable" .. ((e.apiVersion and e.apiVersion ~= vim.NIL) and (", API " .. e.apiVersion) or ""))
  else
    table.insert(lines, "Docker engine: NOT reachable" .. ((type(e.error) == "string") and (": " .. e.error) or "") .. " (sandboxed runs are off)")
  end
  for _, w in ipairs(list(st.workspaces)) do
    table.insert(lines, "workspace " .. w.root)
    local pools = list(w.pools)
    if #pools == 0 then
      table.insert(lines, "  sandbox pool: cold")
    end
    for _, p in ipairs(pools) do
      table.insert(lines, string.format("  pool %s: %d/%d warm", p.profile, p.warm, p.size))
    end
    if type(w.lastRun) == "table" then
      table.insert(lines, "  last run: " .. (M.green(w.lastRun) and "✓ " or "✗ ") .. M.summary_line(w.lastRun))
    end
  end
  return lines
end

return M
