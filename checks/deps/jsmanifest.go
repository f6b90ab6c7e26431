package deps

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// packageJSON is what a package.json declares.
type packageJSON struct {
	name       string
	entries    []depEntry
	workspaces []string
}

// depSections are the package.json objects whose keys are dependencies.
var depSections = map[string]bool{
	"dependencies": true, "devDependencies": true, "peerDependencies": true, "optionalDependencies": true,
}

// parsePackageJSON reads package.json with a streaming decoder, so every
// dependency keeps the byte range of its name.
func parsePackageJSON(data []byte) (*packageJSON, error) {
	pj := &packageJSON{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return nil, jsonErr(data, dec, err)
	}
	for dec.More() {
		key, err := stringToken(dec)
		if err != nil {
			return nil, jsonErr(data, dec, err)
		}
		switch {
		case key == "name":
			t, err := dec.Token()
			if err != nil {
				return nil, jsonErr(data, dec, err)
			}
			pj.name, _ = t.(string)
		case depSections[key]:
			err = pj.readDeps(data, dec)
		case key == "bundleDependencies" || key == "bundledDependencies":
			err = skipValue(dec)
		case key == "workspaces":
			pj.workspaces, err = readWorkspaces(dec)
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return nil, jsonErr(data, dec, err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, jsonErr(data, dec, err)
	}
	return pj, nil
}

// readDeps reads one dependency object: name -> version spec.
func (pj *packageJSON) readDeps(data []byte, dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		if d, ok := t.(json.Delim); ok && d == '[' {
			return skipRest(dec)
		}
		return nil
	}
	for dec.More() {
		name, err := stringToken(dec)
		if err != nil {
			return err
		}
		end := int(dec.InputOffset()) - 1
		start := end - len(name)
		if start < 0 || end > len(data) || string(data[start:end]) != name {
			// An escaped name; keep it without a range rather than a wrong one.
			start, end = 0, 0
		}
		e := depEntry{name: name, start: start, end: end}
		v, err := dec.Token()
		if err != nil {
			return err
		}
		spec, isString := v.(string)
		if !isString {
			if d, ok := v.(json.Delim); ok && (d == '{' || d == '[') {
				if err := skipRest(dec); err != nil {
					return err
				}
			}
		}
		if real, ok := strings.CutPrefix(spec, "npm:"); ok {
			// "alias": "npm:real-name@^1": the registry package is real-name.
			if at := strings.LastIndexByte(real, '@'); at > 0 {
				real = real[:at]
			}
			vEnd := int(dec.InputOffset()) - 1
			vStart := vEnd - len(spec) + len("npm:")
			if vStart > 0 && vStart+len(real) <= len(data) && string(data[vStart:vStart+len(real)]) == real {
				e.regName, e.regStart, e.regEnd = real, vStart, vStart+len(real)
			} else {
				e.regName = real
			}
		}
		e.local = localSpec(spec)
		pj.entries = append(pj.entries, e)
	}
	return expectDelim(dec, '}')
}

// localSpec reports version specs that do not come from the registry.
func localSpec(spec string) bool {
	for _, p := range []string{"file:", "link:", "workspace:", "portal:", "git+", "git:", "github:", "http:", "https:", "./", "../", "/"} {
		if strings.HasPrefix(spec, p) {
			return true
		}
	}
	// "user/repo" is a GitHub shorthand.
	return strings.Count(spec, "/") == 1 && !strings.HasPrefix(spec, "@") && !strings.ContainsAny(spec, " ^~<>=*")
}

func readWorkspaces(dec *json.Decoder) ([]string, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := t.(json.Delim)
	if !ok {
		return nil, nil
	}
	var out []string
	switch d {
	case '[':
		for dec.More() {
			v, err := dec.Token()
			if err != nil {
				return nil, err
			}
			if s, ok := v.(string); ok {
				out = append(out, s)
			} else if d, ok := v.(json.Delim); ok && (d == '{' || d == '[') {
				if err := skipRest(dec); err != nil {
					return nil, err
				}
			}
		}
		return out, expectDelim(dec, ']')
	case '{':
		for dec.More() {
			k, err := stringToken(dec)
			if err != nil {
				return nil, err
			}
			if k == "packages" {
				ws, err := readWorkspaces(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, ws...)
			} else if err := skipValue(dec); err != nil {
				return nil, err
			}
		}
		return out, expectDelim(dec, '}')
	}
	return nil, nil
}

func stringToken(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("expected a key, found %v", t)
	}
	return s, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, found %v", want, t)
	}
	return nil
}

// skipValue skips the next value, however nested.
func skipValue(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); ok && (d == '{' || d == '[') {
		return skipRest(dec)
	}
	return nil
}

// skipRest skips to the end of the object or array just opened.
func skipRest(dec *json.Decoder) error {
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
	}
	return nil
}

// jsonErr says where JSON went wrong, as line:column.
func jsonErr(data []byte, dec *json.Decoder, err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	if off > len(data) {
		off = len(data)
	}
	line := bytes.Count(data[:off], []byte("\n")) + 1
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Errorf("invalid JSON at line %d, column %d: %w", line, col, err)
}

// lockNames reads the package names a JavaScript lockfile installs.
func lockNames(name string, data []byte) (map[string]bool, error) {
	out := map[string]bool{}
	switch name {
	case "package-lock.json", "npm-shrinkwrap.json":
		var lock struct {
			Packages     map[string]json.RawMessage `json:"packages"`
			Dependencies map[string]json.RawMessage `json:"dependencies"`
		}
		if err := json.Unmarshal(data, &lock); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for k := range lock.Packages {
			if i := strings.LastIndex(k, "node_modules/"); i >= 0 {
				out[k[i+len("node_modules/"):]] = true
			}
		}
		for k := range lock.Dependencies {
			out[k] = true
		}
	case "yarn.lock":
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || line[0] == ' ' || line[0] == '#' || !strings.HasSuffix(line, ":") {
				continue
			}
			for _, spec := range strings.Split(strings.TrimSuffix(line, ":"), ",") {
				if n := specName(strings.Trim(strings.TrimSpace(spec), `"`)); n != "" {
					out[n] = true
				}
			}
		}
	case "pnpm-lock.yaml":
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
		section := ""
		for sc.Scan() {
			line := sc.Text()
			if line != "" && line[0] != ' ' {
				section = strings.TrimSuffix(line, ":")
				continue
			}
			if (section != "packages" && section != "snapshots") || !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "   ") {
				continue
			}
			key := strings.Trim(strings.TrimSuffix(strings.TrimSpace(line), ":"), `'"`)
			key = strings.TrimPrefix(key, "/")
			if i := strings.IndexByte(key, '('); i > 0 {
				key = key[:i]
			}
			if n := specName(key); n != "" {
				out[n] = true
			}
		}
	case "bun.lock":
		var lock struct {
			Packages map[string]json.RawMessage `json:"packages"`
		}
		if err := json.Unmarshal(jsoncToJSON(data), &lock); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for k := range lock.Packages {
			out[k] = true
		}
	}
	return out, nil
}

// specName is the package of "name@range" ("@scope/name@range" too).
func specName(spec string) string {
	if spec == "" {
		return ""
	}
	if i := strings.IndexByte(spec[1:], '@'); i >= 0 {
		return spec[:i+1]
	}
	return spec
}
