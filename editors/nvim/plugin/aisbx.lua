-- aisbx's user commands; require("aisbx").setup({...}) starts the server.
if vim.g.loaded_aisbx then
  return
end
vim.g.loaded_aisbx = true
require("aisbx.commands").create()
