package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func imageEnv(dockerHost string) (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if k == "DOCKER_HOST" {
			return dockerHost
		}
		return os.Getenv(k)
	}}, &out, &errb
}

func TestImageCommandErrors(t *testing.T) {
	down := "unix://" + t.TempDir() + "/none.sock"
	cases := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"unknown subcommand", []string{"frobnicate"}, ExitUsage, "unknown subcommand"},
		{"bad flag", []string{"build", "--nope"}, ExitUsage, "flag provided but not defined"},
		{"import without tag", []string{"import", "x.tar"}, ExitUsage, "want --tag"},
		{"engine down", []string{"list"}, ExitInternal, "is dockerd running?"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, _, errb := imageEnv(down)
			if code := cmdImage(context.Background(), env, tc.args); code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errb)
			}
			if !strings.Contains(errb.String(), tc.message) {
				t.Errorf("stderr %q does not say %q", errb, tc.message)
			}
		})
	}
}

func TestImageList(t *testing.T) {
	env, out, errb := imageEnv(os.Getenv("DOCKER_HOST"))
	code := cmdImage(context.Background(), env, []string{"list", "--json"})
	if code == ExitInternal && strings.Contains(errb.String(), "not reachable") {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no Docker engine: %s", errb)
		}
		t.Skipf("no Docker engine: %s", errb)
	}
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var imgs []map[string]any
	if err := json.Unmarshal(out.Bytes(), &imgs); err != nil {
		t.Fatalf("not a JSON list: %v\n%s", err, out)
	}
	for _, im := range imgs {
		if im["profile"] == "" || im["id"] == "" {
			t.Errorf("image without profile or id: %v", im)
		}
	}
}
