// Package main imports what an assistant might write. Each "want" comment
// names the rule that must fire on that line, and the text it must cover.
package main

import (
	"C"
	"encoding/yaml" // want go-unresolved-import "encoding/yaml"
	"fmt"
	"net/http"

	"github.com/BurntSushi/toml"
	"github.com/BurntSushi/toml/nope" // want go-unresolved-import "github.com/BurntSushi/toml/nope"
	gmux "github.com/gorila/mux"      // want go-unresolved-import "github.com/gorila/mux" fix="github.com/gorilla/mux"
	"github.com/gorilla/mux"
	"github.com/gorilla/mux/middleware" // want go-unresolved-import "github.com/gorilla/mux/middleware"
	"github.com/spf13/cobra/doc"
	"golang.org/x/sync/errgroup"

	"example.com/app/internal/cache" // want go-unresolved-import "example.com/app/internal/cache"
	"example.com/app/internal/store"
	"example.com/lib/nope" // want go-unresolved-import "example.com/lib/nope"
	"example.com/lib/sub"

	"github.com/gorillla/websocket"    // want go-unresolved-import "github.com/gorillla/websocket" fix="github.com/gorilla/websocket"
	"github.com/hallucinated/fastjson" // want go-unresolved-import "github.com/hallucinated/fastjson"
	"github.com/sirupsen/logrus"       // want go-unresolved-import "github.com/sirupsen/logrus"
)

func main() {
	// Imports written inside code or strings are not imports.
	s := `import "github.com/not/an/import"`
	fmt.Println(s, http.StatusOK, yaml.X, toml.X, nope.X, mux.X, middleware.X, gmux.X, doc.X, errgroup.X, cache.X, store.X, sub.X, fastjson.X, logrus.X, websocket.X)
}
