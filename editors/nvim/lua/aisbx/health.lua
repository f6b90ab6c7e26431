-- :checkhealth aisbx — the binary, its version, the shared daemon and the
-- Docker engine. Works with 0.7's health#report_* and 0.9+'s vim.health.
local compat = require("aisbx.compat")
local config = require("aisbx.config")

local M = {}

local function decode(s)
  local ok, v = pcall(vim.json and vim.json.decode or vim.fn.json_decode, s)
  if ok and type(v) == "table" then
    return v
  end
  return nil
end

function M.check()
  local h = compat.health()
  h.start("aisbx: aisbxd")
  local bin, how, err = config.find_binary()
  if not bin then
    h.error(err, {
      "Install it: `make install` in the aisbx repo (to /usr/local/bin), or `go build -o ~/.local/bin/aisbxd ./cmd/aisbxd`",
      "or point the plugin at it: require('aisbx').setup({ path = '/path/to/aisbxd' })",
    })
    return
  end
  h.ok("binary: " .. bin .. " (found via " .. how .. ")")

  local out, code = compat.system({ bin, "version" })
  if code ~= 0 then
    h.error("`aisbxd version` failed (exit " .. code .. "): " .. vim.trim(out))
    return
  end
  h.ok("version: " .. vim.trim(out))

  h.start("aisbx: daemon")
  local attached = #compat.clients("aisbx") > 0
  if config.options.standalone then
    h.info("standalone mode: each editor serves itself, no shared daemon")
  else
    out, code = compat.system({ bin, "status", "--json" })
    local st = decode(out)
    if st and st.running then
      h.ok(string.format("daemon reachable: pid %s, %d client(s), socket %s", tostring(st.pid), type(st.clients) == "table" and #st.clients or 0, tostring(st.socket)))
    elseif st then
      local msg = "daemon not running (socket " .. tostring(st.socket) .. ")"
      if attached then
        h.error(msg .. " although aisbx is attached", { "restart the client: :LspRestart, or reopen the file", "see the daemon log: ~/.cache/aisbx/daemon.log" })
      else
        h.warn(msg .. "; it starts when a buffer attaches (`aisbxd serve`), or by hand: `aisbxd daemon`")
      end
    else
      h.error("`aisbxd status --json` failed (exit " .. code .. "): " .. vim.trim(out))
    end
  end

  h.start("aisbx: sandbox")
  out, code = compat.system({ bin, "doctor", "--json" })
  local doc = decode(out)
  if not doc or type(doc.checks) ~= "table" then
    h.error("`aisbxd doctor --json` failed (exit " .. code .. "): " .. vim.trim(out))
    return
  end
  local found = false
  for _, c in ipairs(doc.checks) do
    if c.name == "docker engine" then
      found = true
      if c.status == "ok" then
        h.ok("Docker engine: " .. c.detail)
      else
        h.error("Docker engine: " .. c.detail, type(c.fix) == "string" and vim.split(c.fix, "\n") or nil)
      end
    end
  end
  if not found then
    h.error("`aisbxd doctor --json` has no \"docker engine\" check")
  end
  for _, c in ipairs(doc.checks) do
    if c.name ~= "docker engine" and (c.status == "fail" or c.status == "warn") then
      h.warn(c.name .. ": " .. c.detail, type(c.fix) == "string" and vim.split(c.fix, "\n") or nil)
    end
  end
end

return M
