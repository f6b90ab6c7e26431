package sandbox

import (
	"context"
	"net"
	"net/url"
	"os/exec"
	"strings"
	"testing"

	"github.com/moby/moby/client"
)

// TestCommandConn runs a whole job over the connection the ssh transport
// uses, with `docker system dial-stdio` run locally instead of through ssh:
// the same stdio plumbing, half-close of exec stdin included.
func TestCommandConn(t *testing.T) {
	needEngine(t)
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("no docker CLI for dial-stdio")
	}
	cli, err := client.New(client.WithHost("http://docker.example.com"), client.WithDialContext(
		func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialCommand(ctx, "docker", "system", "dial-stdio")
		}))
	if err != nil {
		t.Fatal(err)
	}
	sb := newSandboxOn(t, &engine{cli: cli, host: "cmd://docker-system-dial-stdio", local: true}, Options{PoolSize: -1})
	ws := writeTree(t, map[string]string{"in.txt": "over stdio"})
	res, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"cat", "in.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusPassed || string(res.Output) != "over stdio" {
		t.Errorf("%s %q %s", res.Status, res.Output, res.Reason)
	}
}

func TestSSHDialerArgs(t *testing.T) {
	cases := []struct {
		host string
		ok   bool
	}{
		{"ssh://me@build.example:2222", true},
		{"ssh://build.example", true},
		{"ssh://", false},
		{"ssh://host/path", false},
	}
	for _, tc := range cases {
		u, err := url.Parse(tc.host)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sshDialer(u)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok=%v", tc.host, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "DOCKER_HOST") {
			t.Errorf("%s: error %q does not name DOCKER_HOST", tc.host, err)
		}
	}
}
