// Edge cases written by hand: indirect requirements, replace directives
// (to another module version and to a local directory), and a go line
// that names a language version rather than a release.
module example.com/replaced

go 1.21

require golang.org/x/text v0.3.5

require (
	github.com/gorilla/websocket v1.4.0 // indirect
	example.com/local v1.0.0
	golang.org/x/crypto v0.0.0-20200622213623-75b288015ac9 // indirect
)

replace golang.org/x/crypto => golang.org/x/crypto v0.17.0

replace example.com/local => ../local
