package cli

import (
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/aisbx/aisbx/internal/logging"
)

// logFlags are the logging flags every long-running command takes.
type logFlags struct {
	file  string
	level string
}

func (l *logFlags) register(fs *flag.FlagSet, env *Env) {
	fs.StringVar(&l.file, "log-file", "", "log file; - for stderr (default: under the user cache dir)")
	def := env.Getenv("AISBX_LOG_LEVEL")
	if def == "" {
		def = "info"
	}
	fs.StringVar(&l.level, "log-level", def, "log level: debug, info, warn or error (env AISBX_LOG_LEVEL)")
}

// open opens the logger for mode ("daemon", "serve").
func (l *logFlags) open(mode string, env *Env) (*slog.Logger, io.Closer, error) {
	level, err := logging.ParseLevel(l.level)
	if err != nil {
		return nil, nil, err
	}
	path := l.file
	if path == "" {
		path = logging.DefaultFile(mode)
	}
	return logging.Open(path, level, env.Stderr)
}

// args returns the flags to pass on to a daemon this process starts.
func (l *logFlags) args() []string {
	var a []string
	if l.level != "" {
		a = append(a, "--log-level", l.level)
	}
	return a
}

// newFlagSet returns a FlagSet that prints usage to stderr and reports
// errors instead of exiting.
func newFlagSet(name, usage string, env *Env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "Usage: aisbxd %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args and returns an exit code when the command must stop
// (-h: 0; bad flags: 2) or -1 to go on.
func parse(fs *flag.FlagSet, args []string) int {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitUsage
	}
	return -1
}
