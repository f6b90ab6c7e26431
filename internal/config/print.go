package config

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// Print writes the effective config as TOML, each value followed by a
// comment that says where it came from.
func Print(w io.Writer, c *Config, origins map[string]string) error {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(c); err != nil {
		return fmt.Errorf("encoding config: %w", err)
	}
	var table string
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") {
			table = strings.Trim(trimmed, "[]")
			fmt.Fprintln(w, line)
			continue
		}
		eq := keyEnd(trimmed)
		if eq < 0 {
			fmt.Fprintln(w, line)
			continue
		}
		key := strings.Join(splitKey(trimmed[:eq]), ".")
		if table != "" {
			key = table + "." + key
		}
		origin := "default"
		if o, ok := origins[key]; ok {
			origin = o
		}
		fmt.Fprintf(w, "%s  # %s\n", line, origin)
	}
	return nil
}

// Flatten returns the config as dotted key -> value, for JSON output.
func Flatten(c *Config) map[string]any {
	out := map[string]any{}
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := strings.Split(f.Tag.Get("toml"), ",")[0]
			if name == "" {
				continue
			}
			fv := v.Field(i)
			if f.Type.Kind() == reflect.Struct {
				walk(prefix+name+".", fv)
				continue
			}
			if m, ok := fv.Interface().(interface{ MarshalText() ([]byte, error) }); ok {
				b, _ := m.MarshalText()
				out[prefix+name] = string(b)
				continue
			}
			out[prefix+name] = fv.Interface()
		}
	}
	walk("", reflect.ValueOf(c).Elem())
	return out
}
