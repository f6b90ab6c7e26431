// Command secretscan runs the secrets check alone over files and trees. It
// exists for bench/secrets.sh, which compares it with the gitleaks CLI; users
// get the same check from `aisbxd check`.
//
// Usage: secretscan [-q] [-max-bytes N] PATH...
//
// It prints one line per finding (path:line:col rule message, redacted) and
// a summary on stderr; it exits 1 when it found something, 2 on errors.
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/secrets"
	"github.com/aisbx/aisbx/internal/ignore"
	"github.com/aisbx/aisbx/internal/textpos"
)

func main() { os.Exit(run(context.Background(), os.Args[1:])) }

type job struct{ root, path string }

func run(ctx context.Context, args []string) int {
	fl := flag.NewFlagSet("secretscan", flag.ContinueOnError)
	quiet := fl.Bool("q", false, "print only the summary")
	maxBytes := fl.Int64("max-bytes", 10<<20, "skip files larger than this")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: secretscan [-q] [-max-bytes N] PATH...")
		return 2
	}
	start := time.Now()
	var jobs []job
	for _, p := range fl.Args() {
		abs, err := filepath.Abs(p)
		if err != nil {
			slog.Error("bad path", "path", p, "err", err)
			return 2
		}
		fi, err := os.Stat(abs)
		if err != nil {
			slog.Error("cannot scan", "path", p, "err", err)
			return 2
		}
		if !fi.IsDir() {
			jobs = append(jobs, job{root: filepath.Dir(abs), path: abs})
			continue
		}
		files, err := ignore.Walk(ctx, abs, ignore.NewMatcher(abs))
		if err != nil {
			slog.Error("cannot list", "path", p, "err", err)
			return 2
		}
		for _, f := range files {
			jobs = append(jobs, job{root: abs, path: filepath.Join(abs, filepath.FromSlash(f))})
		}
	}
	c, err := secrets.New(secrets.DefaultOptions())
	if err != nil {
		slog.Error("secrets check", "err", err)
		return 2
	}

	var mu sync.Mutex
	var lines []string
	var nbytes, nfiles, nfindings int64
	ch := make(chan job)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				out, n, scanned := scanOne(ctx, c, j, *maxBytes)
				mu.Lock()
				lines = append(lines, out...)
				nfindings += int64(len(out))
				if scanned {
					nbytes += n
					nfiles++
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
	sort.Strings(lines)
	if !*quiet {
		for _, l := range lines {
			fmt.Println(l)
		}
	}
	d := time.Since(start)
	fmt.Fprintf(os.Stderr, "secretscan: %d files, %d bytes, %d findings in %v (%.1f MB/s)\n",
		nfiles, nbytes, nfindings, d.Round(time.Millisecond), float64(nbytes)/1e6/d.Seconds())
	if nfindings > 0 {
		return 1
	}
	return 0
}

func scanOne(ctx context.Context, c *secrets.Check, j job, maxBytes int64) (out []string, n int64, scanned bool) {
	fi, err := os.Stat(j.path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxBytes {
		return nil, 0, false
	}
	data, err := os.ReadFile(j.path)
	if err != nil {
		if !errorsIsNotExist(err) {
			slog.Warn("cannot read", "path", j.path, "err", err)
		}
		return nil, 0, false
	}
	f := checks.NewFile(j.root, j.path, data)
	if !c.Applies(f) {
		return nil, int64(len(data)), true
	}
	fs, err := c.Run(ctx, f)
	if err != nil {
		slog.Warn("scan failed", "path", j.path, "err", err)
	}
	idx := textpos.NewIndex(data)
	for _, fd := range fs {
		p := idx.Bytes(fd.Start)
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", f.Rel(), p.Line+1, p.Col+1, fd.Rule, fd.Message))
	}
	return out, int64(len(data)), true
}

func errorsIsNotExist(err error) bool { return os.IsNotExist(err) || err == fs.ErrNotExist }
