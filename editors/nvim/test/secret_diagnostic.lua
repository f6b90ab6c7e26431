-- A file holding an AWS access key id (not AWS's documented EXAMPLE key)
-- gets an aisbx diagnostic on its line, and the message never shows the key
-- in full.
local H = dofile(vim.env.AISBX_NVIM_TEST .. "/helpers.lua")
local root = vim.env.WORKSPACE

require("aisbx").setup({ path = vim.env.AISBXD })
vim.cmd("edit " .. root .. "/settings.py")
local buf = vim.api.nvim_get_current_buf()
local line = vim.fn.search(vim.env.SECRET_PREFIX, "n")
H.check(line > 0, "settings.py lacks the key")
H.wait(20000, function()
  for _, d in ipairs(H.aisbx_diags(buf)) do
    if d.lnum == line - 1 then
      return true
    end
  end
  return false
end, "no aisbx diagnostic on the key's line " .. line .. "; diagnostics: " .. vim.inspect(vim.diagnostic.get(buf)))
for _, d in ipairs(H.aisbx_diags(buf)) do
  H.check(not d.message:find(vim.env.SECRET_FULL, 1, true), "a diagnostic shows the whole key")
  if d.lnum == line - 1 then
    H.ok("secret reported on line " .. line .. ": " .. d.message .. " [" .. tostring(d.code) .. "]")
  end
end
H.finish()
