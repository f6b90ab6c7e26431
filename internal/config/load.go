package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// FileName is the workspace config file, at the workspace root.
const FileName = "aisbx.toml"

// Layer is one config file's content. Data nil means the file is absent.
type Layer struct {
	Path string
	Data []byte
}

// Problem is something wrong in a config file, at a 1-based line.
type Problem struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Key  string `json:"key,omitempty"`
	// Leaf is the key's last part, unquoted, as written on its line: editors
	// underline it.
	Leaf     string `json:"-"`
	Severity string `json:"severity"` // "error" or "warning"
	Message  string `json:"message"`
}

func (p Problem) String() string {
	loc := p.Path
	if p.Line > 0 {
		loc += ":" + strconv.Itoa(p.Line)
	}
	return fmt.Sprintf("%s: %s: %s", loc, p.Severity, p.Message)
}

// Loaded is the result of loading config layers.
type Loaded struct {
	// Config is the effective configuration, or nil when any layer has an
	// error: the caller then keeps its last good Config.
	Config *Config
	// Origins maps each dotted key that a file set ("sandbox.pool_size") to
	// "path:line". Keys absent here have their default.
	Origins  map[string]string
	Problems []Problem
	// Layers are the files that were read, lowest precedence first.
	Layers []Layer
}

// HasErrors reports whether any problem is an error.
func (l *Loaded) HasErrors() bool {
	for _, p := range l.Problems {
		if p.Severity == "error" {
			return true
		}
	}
	return false
}

// UserPath returns the user config file: $XDG_CONFIG_HOME/aisbx/config.toml
// or ~/.config/aisbx/config.toml. AISBX_CONFIG overrides it.
func UserPath() string {
	if p := os.Getenv("AISBX_CONFIG"); p != "" {
		return p
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "aisbx", "config.toml")
}

// Load reads the user file and root's aisbx.toml (root may be "") and
// layers them over the defaults.
func Load(root string) *Loaded {
	var layers []Layer
	for _, p := range []string{UserPath(), workspacePath(root)} {
		if p == "" {
			continue
		}
		data, err := os.ReadFile(p)
		switch {
		case err == nil:
			layers = append(layers, Layer{Path: p, Data: data})
		case !errors.Is(err, os.ErrNotExist):
			return &Loaded{Problems: []Problem{{Path: p, Severity: "error", Message: fmt.Sprintf("cannot read: %v", err)}}}
		}
	}
	return LoadLayers(layers...)
}

func workspacePath(root string) string {
	if root == "" {
		return ""
	}
	return filepath.Join(root, FileName)
}

// LoadLayers decodes layers over the defaults, lowest precedence first. A
// workspace layer's content may come from an unsaved editor buffer.
func LoadLayers(layers ...Layer) *Loaded {
	cfg := Defaults()
	l := &Loaded{Origins: map[string]string{}, Layers: layers}
	for _, layer := range layers {
		if layer.Data == nil {
			continue
		}
		lines := keyLines(layer.Data)
		md, err := toml.Decode(string(layer.Data), cfg)
		if err != nil {
			l.Problems = append(l.Problems, decodeProblem(layer.Path, err))
			continue
		}
		for _, k := range md.Keys() {
			if md.Type(k...) == "Hash" || md.Type(k...) == "ArrayHash" {
				continue
			}
			l.Origins[k.String()] = fmt.Sprintf("%s:%d", layer.Path, lines[k.String()])
		}
		for _, k := range md.Undecoded() {
			if md.Type(k...) == "Hash" && hasUndecodedChild(md.Undecoded(), k) {
				continue // report the leaves, not every table above them
			}
			l.Problems = append(l.Problems, Problem{
				Path: layer.Path, Line: lines[k.String()], Key: k.String(), Leaf: k[len(k)-1], Severity: "warning",
				Message: unknownKeyMessage(k),
			})
		}
	}
	for _, p := range validate(cfg) {
		p.Path, p.Line = originOf(l.Origins, p.Key, layers)
		l.Problems = append(l.Problems, p)
	}
	if !l.HasErrors() {
		l.Config = cfg
	}
	return l
}

func hasUndecodedChild(all []toml.Key, parent toml.Key) bool {
	prefix := parent.String() + "."
	for _, k := range all {
		if strings.HasPrefix(k.String(), prefix) {
			return true
		}
	}
	return false
}

func unknownKeyMessage(k toml.Key) string {
	msg := fmt.Sprintf("unknown key %q", k.String())
	if s := suggestKey(k); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg + " (see docs/config.md)"
}

var lineRE = regexp.MustCompile(`line (\d+)`)

func decodeProblem(path string, err error) Problem {
	p := Problem{Path: path, Severity: "error", Message: strings.TrimPrefix(err.Error(), "toml: ")}
	var pe toml.ParseError
	if errors.As(err, &pe) {
		p.Line = pe.Position.Line
		p.Key = pe.LastKey
		p.Message = pe.Message
		if pe.LastKey != "" {
			p.Message = fmt.Sprintf("%s: %s", pe.LastKey, pe.Message)
		}
		return p
	}
	// Type mismatches are not ParseErrors; their text carries the line.
	if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
		p.Line, _ = strconv.Atoi(m[1])
		p.Message = strings.TrimSpace(lineRE.ReplaceAllString(p.Message, ""))
		p.Message = strings.TrimPrefix(p.Message, ": ")
	}
	return p
}

// originOf finds the file and line where key was set, for validation errors.
func originOf(origins map[string]string, key string, layers []Layer) (string, int) {
	if o, ok := origins[key]; ok {
		i := strings.LastIndexByte(o, ':')
		line, _ := strconv.Atoi(o[i+1:])
		return o[:i], line
	}
	if len(layers) > 0 {
		return layers[len(layers)-1].Path, 0
	}
	return "(defaults)", 0
}
