package config

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestProblemsFromTestdata loads every testdata/*.toml as a workspace file
// and compares the problems with the file's "# want:" lines.
func TestProblemsFromTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.toml")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := wants(t, data)
			l := LoadLayers(Layer{Path: path, Data: data})
			if len(l.Problems) != len(want) {
				t.Fatalf("got %d problems, want %d:\n%v", len(l.Problems), len(want), l.Problems)
			}
			for i, w := range want {
				p := l.Problems[i]
				if p.Severity != w.severity || p.Line != w.line || !strings.Contains(p.Message, w.text) || p.Path != path {
					t.Errorf("problem %d = %+v, want %s at line %d containing %q", i, p, w.severity, w.line, w.text)
				}
			}
			if (l.Config == nil) != l.HasErrors() {
				t.Errorf("Config nil = %v but HasErrors = %v", l.Config == nil, l.HasErrors())
			}
		})
	}
}

type want struct {
	severity string
	line     int
	text     string
}

func wants(t *testing.T, data []byte) []want {
	var ws []want
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "# want: ")
		if !ok {
			continue
		}
		parts := strings.SplitN(rest, ":", 3)
		line, err := strconv.Atoi(parts[1])
		if err != nil || len(parts) != 3 {
			t.Fatalf("bad want line %q", sc.Text())
		}
		ws = append(ws, want{parts[0], line, parts[2]})
	}
	return ws
}

func TestLayersAndOrigins(t *testing.T) {
	user := Layer{Path: "/home/u/.config/aisbx/config.toml", Data: []byte("[sandbox]\npool_size = 3\nmemory = \"2GiB\"\n")}
	ws := Layer{Path: "/w/aisbx.toml", Data: []byte("[sandbox]\n\npool_size = 5\n[lsp]\ndebounce = \"50ms\"\n")}
	l := LoadLayers(user, ws)
	if l.Config == nil {
		t.Fatalf("problems: %v", l.Problems)
	}
	c := l.Config
	if c.Sandbox.PoolSize != 5 || c.Sandbox.Memory != 2<<30 || c.LSP.Debounce.D() != 50*time.Millisecond {
		t.Errorf("merged config wrong: pool=%d mem=%d debounce=%v", c.Sandbox.PoolSize, c.Sandbox.Memory, c.LSP.Debounce.D())
	}
	if c.Daemon.IdleTimeout.D() != 10*time.Minute {
		t.Errorf("default lost: %v", c.Daemon.IdleTimeout.D())
	}
	for key, wantOrigin := range map[string]string{
		"sandbox.pool_size": "/w/aisbx.toml:3",
		"sandbox.memory":    "/home/u/.config/aisbx/config.toml:3",
		"lsp.debounce":      "/w/aisbx.toml:5",
	} {
		if got := l.Origins[key]; got != wantOrigin {
			t.Errorf("origin of %s = %q, want %q", key, got, wantOrigin)
		}
	}
	var out bytes.Buffer
	if err := Print(&out, c, l.Origins); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pool_size = 5  # /w/aisbx.toml:3", "idle_timeout = \"10m0s\"  # default"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("Print output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestSizeAndDuration(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "1GiB": 1 << 30, "4MB": 4e6, "100k": 100 << 10, "10": 10} {
		var s Size
		if err := s.UnmarshalText([]byte(in)); err != nil || int64(s) != want {
			t.Errorf("Size(%q) = %d, %v; want %d", in, s, err, want)
		}
	}
	var s Size
	if err := s.UnmarshalText([]byte("lots")); err == nil {
		t.Error("Size accepted junk")
	}
	var d Duration
	if err := d.UnmarshalText([]byte("-1s")); err == nil {
		t.Error("negative duration accepted")
	}
}

func TestLoadFromDisk(t *testing.T) {
	root := t.TempDir()
	t.Setenv("AISBX_CONFIG", filepath.Join(root, "no-user-config.toml"))
	if l := Load(root); l.Config == nil || len(l.Problems) != 0 {
		t.Fatalf("no files: %+v", l)
	}
	os.WriteFile(filepath.Join(root, FileName), []byte("[sandbox]\npool_size = 1\n"), 0o644)
	if l := Load(root); l.Config == nil || l.Config.Sandbox.PoolSize != 1 {
		t.Fatalf("workspace file not applied: %+v", l)
	}
}
