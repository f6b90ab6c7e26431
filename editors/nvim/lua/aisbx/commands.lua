-- The user commands. plugin/aisbx.lua creates them at startup, so they
-- exist however the client was started (setup, lspconfig, vim.lsp.enable).
local M = {}

local function aisbx()
  return require("aisbx")
end

M.list = {
  AisbxRun = { function() aisbx().run_affected() end, "run the affected tests in the sandbox" },
  AisbxRunNearest = { function() aisbx().run_nearest() end, "run the test at the cursor in the sandbox" },
  AisbxRunFile = { function() aisbx().run_file() end, "run this file's tests in the sandbox" },
  AisbxLastRun = { function() aisbx().last_run() end, "show the last run; its failures go to the quickfix list" },
  AisbxStatus = { function() aisbx().status() end, "show the daemon, the Docker engine, the pools and the last run" },
}

function M.create()
  for name, spec in pairs(M.list) do
    vim.api.nvim_create_user_command(name, spec[1], { desc = "aisbx: " .. spec[2], force = true })
  end
end

return M
