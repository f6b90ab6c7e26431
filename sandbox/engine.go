package sandbox

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/moby/moby/client"
)

// engine is the Docker client plus what aisbx needs to know about the
// engine behind it.
type engine struct {
	cli  *client.Client
	host string
	// local: the engine runs on this machine, so host paths (cgroup files,
	// read-only mounts) mean the same thing to it and to us.
	local bool
}

// connect builds a client for host (empty: DOCKER_HOST, else the default
// socket). It does not contact the engine; ping does.
func connect(host string) (*engine, error) {
	if host == "" {
		host = os.Getenv("DOCKER_HOST")
	}
	if host == "" {
		host = client.DefaultDockerHost
	}
	u, err := url.Parse(host)
	if err != nil || u.Scheme == "" {
		return nil, fmt.Errorf("DOCKER_HOST %q: want unix://PATH, tcp://HOST:PORT or ssh://[USER@]HOST", host)
	}
	opts := []client.Opt{client.WithTLSClientConfigFromEnv(), client.WithAPIVersionFromEnv()}
	switch u.Scheme {
	case "ssh":
		dial, err := sshDialer(u)
		if err != nil {
			return nil, err
		}
		// The HTTP host is a placeholder: every connection goes through ssh.
		opts = append(opts, client.WithHost("http://docker.example.com"), client.WithDialContext(dial))
	default:
		opts = append(opts, client.WithHost(host))
	}
	cli, err := client.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("docker client for %s: %w", host, err)
	}
	return &engine{cli: cli, host: host, local: u.Scheme == "unix" || u.Scheme == "npipe"}, nil
}

// wrap classifies err from op: a down engine becomes an EngineError that
// matches ErrEngineUnreachable.
func (e *engine) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return &EngineError{Host: e.host, Op: op, Err: err, down: isEngineDown(err)}
}

// EngineInfo is what Status reports about the engine.
type EngineInfo struct {
	Host          string   `json:"host"`
	Reachable     bool     `json:"reachable"`
	Error         string   `json:"error,omitempty"`
	APIVersion    string   `json:"api_version,omitempty"`
	ServerVersion string   `json:"server_version,omitempty"`
	CgroupVersion string   `json:"cgroup_version,omitempty"`
	CgroupDriver  string   `json:"cgroup_driver,omitempty"`
	Runtimes      []string `json:"runtimes,omitempty"`
}

// info pings the engine and reads its version facts.
func (e *engine) info(ctx context.Context) (EngineInfo, error) {
	out := EngineInfo{Host: e.host}
	ping, err := e.cli.Ping(ctx, client.PingOptions{NegotiateAPIVersion: true})
	if err != nil {
		err = e.wrap("ping", err)
		out.Error = err.Error()
		return out, err
	}
	out.Reachable = true
	out.APIVersion = ping.APIVersion
	res, err := e.cli.Info(ctx, client.InfoOptions{})
	if err != nil {
		err = e.wrap("info", err)
		out.Error = err.Error()
		return out, err
	}
	out.ServerVersion = res.Info.ServerVersion
	out.CgroupVersion = res.Info.CgroupVersion
	out.CgroupDriver = res.Info.CgroupDriver
	for name := range res.Info.Runtimes {
		out.Runtimes = append(out.Runtimes, name)
	}
	return out, nil
}

func (e *engine) hasRuntime(ctx context.Context, name string) error {
	info, err := e.info(ctx)
	if err != nil {
		return err
	}
	for _, r := range info.Runtimes {
		if r == name {
			return nil
		}
	}
	return fmt.Errorf("%w: the engine at %s knows %s, not %q (install it and register it in daemon.json, or leave runtime empty)",
		ErrRuntimeUnknown, e.host, strings.Join(info.Runtimes, ", "), name)
}
