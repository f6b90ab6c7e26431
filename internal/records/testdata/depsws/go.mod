module example.com/depsws

go 1.22

require (
	github.com/BurntSushi/toml v1.6.0
	golang.org/x/mod v0.43.0 // indirect
)

require github.com/fsnotify/fsnotify v1.10.1

replace github.com/fsnotify/fsnotify => ../fsnotify
