package sandbox

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// Sentinel errors, for errors.Is. Errors returned by this package wrap one of
// these when the cause is one of them.
var (
	// ErrEngineUnreachable: no Docker engine answers at the configured host.
	// Callers keep serving everything that needs no sandbox.
	ErrEngineUnreachable = errors.New("docker engine not reachable")
	// ErrImageNotBuilt: the profile's image for this workspace does not exist
	// yet; `aisbxd image build` makes it.
	ErrImageNotBuilt = errors.New("sandbox image not built")
	// ErrRuntimeUnknown: Options.Runtime names a runtime the engine lacks.
	ErrRuntimeUnknown = errors.New("container runtime unknown to the engine")
	// ErrUnknownProfile: no built-in or configured profile has that name.
	ErrUnknownProfile = errors.New("unknown sandbox profile")
	// ErrInvalidJob: the job cannot run as given (bad path, empty command).
	ErrInvalidJob = errors.New("invalid sandbox job")
	// ErrClosed: the Sandbox was closed.
	ErrClosed = errors.New("sandbox closed")
)

// EngineError is an engine failure with the operation that hit it. It
// matches ErrEngineUnreachable when the engine could not be reached at all.
type EngineError struct {
	Host string
	Op   string
	Err  error
	down bool
}

func (e *EngineError) Error() string {
	if e.down {
		return fmt.Sprintf("Docker engine not reachable at %s: is dockerd running? %s (%s: %v)",
			e.Host, startHint(e.Host), e.Op, e.Err)
	}
	return fmt.Sprintf("docker engine at %s: %s: %v", e.Host, e.Op, e.Err)
}

func (e *EngineError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrEngineUnreachable) true for a down engine.
func (e *EngineError) Is(target error) bool { return target == ErrEngineUnreachable && e.down }

func startHint(host string) string {
	u, err := url.Parse(host)
	switch {
	case err != nil:
		return "check DOCKER_HOST"
	case u.Scheme == "unix":
		return "Start it with `sudo systemctl start docker` (or `sudo dockerd &`), or point DOCKER_HOST at a running engine"
	case u.Scheme == "ssh":
		return "Check that `ssh " + u.Host + " docker version` works"
	default:
		return "Check that the engine listens there and that DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH are right"
	}
}

// isEngineDown tells a transport failure (engine stopped, socket missing,
// connection reset mid-call) from an answer the engine gave.
func isEngineDown(err error) bool {
	if err == nil {
		return false
	}
	if client.IsErrConnectionFailed(err) {
		return true
	}
	if isEngineAnswer(err) {
		return false
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"connection refused", "connection reset", "broken pipe", "use of closed network connection", "EOF"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// isEngineAnswer reports an error the engine returned as an HTTP answer.
func isEngineAnswer(err error) bool {
	return cerrdefs.IsNotFound(err) || cerrdefs.IsConflict(err) || cerrdefs.IsInvalidArgument(err) ||
		cerrdefs.IsInternal(err) || cerrdefs.IsUnavailable(err) || cerrdefs.IsPermissionDenied(err) ||
		cerrdefs.IsNotImplemented(err) || cerrdefs.IsUnknown(err) || cerrdefs.IsFailedPrecondition(err)
}

// isGone reports an engine answer meaning the object no longer exists or is
// already on its way out: for removals that is success.
func isGone(err error) bool {
	if err == nil {
		return false
	}
	if cerrdefs.IsNotFound(err) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "is already in progress") || strings.Contains(msg, "No such container")
}
