module example.com/app

go 1.22

require (
	github.com/BurntSushi/toml v1.3.2
	github.com/gorilla/mux v1.8.1
	github.com/spf13/cobra v1.8.0
	golang.org/x/sync v0.11.0
	example.com/lib v0.0.0
)

replace example.com/lib => ../lib
