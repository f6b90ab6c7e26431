package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/checks/report"
	"github.com/aisbx/aisbx/internal/gitx"
	"github.com/aisbx/aisbx/internal/ignore"
)

// selectFiles lists the files to check, as sorted absolute paths: every
// file that git would consider (tracked, or untracked and not ignored) under
// each directory path, and each file path unless checks.exclude or an
// ignore rule drops it. The listing is made once at the root, so that the
// root's .gitignore applies to a subdirectory too.
func selectFiles(ctx context.Context, root string, paths, exclude []string) ([]string, error) {
	var rootFiles []string
	listed := false
	matcher := ignore.NewMatcher(root, exclude...)
	seen := map[string]bool{}
	add := func(p string) { seen[p] = true }
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		rel, inside := relInside(root, p)
		if !fi.IsDir() {
			if !inside || !matcher.Ignored(rel, false) {
				add(p)
			}
			continue
		}
		if !inside {
			// A directory outside the workspace is listed on its own terms.
			files, err := ignore.Files(ctx, p, exclude...)
			if err != nil {
				return nil, fmt.Errorf("listing %s: %w", p, err)
			}
			for _, f := range files {
				add(filepath.Join(p, filepath.FromSlash(f)))
			}
			continue
		}
		if !listed {
			if rootFiles, err = ignore.Files(ctx, root, exclude...); err != nil {
				return nil, fmt.Errorf("listing %s: %w", root, err)
			}
			listed = true
		}
		prefix := ""
		if rel != "." {
			prefix = rel + "/"
		}
		for _, f := range rootFiles {
			if strings.HasPrefix(f, prefix) {
				add(filepath.Join(root, filepath.FromSlash(f)))
			}
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// relInside returns p relative to root, slash-separated, and whether p is
// inside root.
func relInside(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// changedFiles returns the absolute paths of the files that differ from rev
// in the work tree (committed since, staged or not) plus untracked files that
// are not ignored: what a pull request or a commit would bring in.
func changedFiles(ctx context.Context, dir, rev string) (map[string]bool, error) {
	top, err := gitText(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git repository", dir)
	}
	top = strings.TrimSpace(top)
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%q is not a valid git revision", rev)
	}
	if _, err := gitText(ctx, top, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("%q is not a valid git revision in %s", rev, top)
	}
	diff, err := gitText(ctx, top, "diff", "--name-only", "-z", "--no-relative", rev, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := gitText(ctx, top, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, name := range strings.Split(diff+untracked, "\x00") {
		if name != "" {
			set[filepath.Join(top, filepath.FromSlash(name))] = true
		}
	}
	// The listing may reach files through a symlinked path; compare both.
	if real, err := filepath.EvalSymlinks(top); err == nil && real != top {
		for p := range set {
			set[filepath.Join(real, strings.TrimPrefix(p, top))] = true
		}
	}
	return set, nil
}

// scanResult is what scanning the selected files produced.
type scanResult struct {
	files   []report.FileFindings
	errors  []report.FileError
	scanned int
	bytes   int64
}

// binarySniff is how much of a file is searched for a NUL byte.
const binarySniff = 8 << 10

// scanFiles runs the engine over files, GOMAXPROCS at a time. Files larger
// than maxSize (when positive) and binaries are skipped and not counted.
func scanFiles(ctx context.Context, e *checks.Engine, root string, files []string, maxSize int64) scanResult {
	var (
		mu  sync.Mutex
		res scanResult
		wg  sync.WaitGroup
	)
	if batchLinters {
		e.Prepare(ctx, prepared(root, files, maxSize))
	}
	jobs := make(chan string)
	workers := max(runtime.GOMAXPROCS(0), 1)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range jobs {
				ff, errs, n, ok := scanOne(ctx, e, root, path, maxSize)
				mu.Lock()
				if ok {
					res.scanned++
					res.bytes += int64(n)
				}
				if len(ff.Findings) > 0 {
					res.files = append(res.files, ff)
				}
				res.errors = append(res.errors, errs...)
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	sort.Slice(res.files, func(i, j int) bool { return res.files[i].Path < res.files[j].Path })
	sort.SliceStable(res.errors, func(i, j int) bool { return res.errors[i].Path < res.errors[j].Path })
	return res
}

// batchLinters is off only in BenchmarkCheckTree's AISBX_BENCH_BATCH=0
// variant, which measures the process-per-file path batches replaced.
var batchLinters = true

// prepared lists the files scanFiles will check, in its order, for the
// checks that batch (a linter that starts a process per file). Content is
// not read here: a batch reads the files itself, and Run checks that each
// is unchanged.
func prepared(root string, files []string, maxSize int64) []*checks.File {
	out := make([]*checks.File, 0, len(files))
	for _, path := range files {
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() || (maxSize > 0 && fi.Size() > maxSize) {
			continue
		}
		f := checks.NewFile(root, path, nil)
		f.OnDisk = true
		out = append(out, f)
	}
	return out
}

// scanOne checks one file. ok is false when the file was skipped.
func scanOne(ctx context.Context, e *checks.Engine, root, path string, maxSize int64) (ff report.FileFindings, errs []report.FileError, n int, ok bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, report.FileError{Path: path, Check: "read", Message: err.Error()})
		}
		return ff, errs, 0, false
	}
	if maxSize > 0 && fi.Size() > maxSize {
		return ff, nil, 0, false
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return ff, []report.FileError{{Path: path, Check: "read", Message: err.Error()}}, 0, false
	}
	if bytes.IndexByte(content[:min(len(content), binarySniff)], 0) >= 0 {
		return ff, nil, 0, false
	}
	f := checks.NewFile(root, path, content)
	f.OnDisk = true
	r := e.Run(ctx, f)
	for _, ce := range r.Errors {
		errs = append(errs, report.FileError{Path: path, Check: ce.Check, Message: ce.Err.Error()})
	}
	ff = report.FileFindings{Path: path, Content: content, Findings: r.Findings}
	return ff, errs, len(content), true
}

func gitText(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitx.Output(ctx, dir, args...)
	return string(out), err
}
