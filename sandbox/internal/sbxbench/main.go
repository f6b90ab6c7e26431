// Command sbxbench measures the sandbox side by side with its references,
// in one run with interleaved rounds: warm-pool start time against
// `docker run --rm` with the same hardening, `go test` in the sandbox
// against host `go test`, the pool refill rate, and the memory of a process
// holding a pool of 4. bench/sandbox.sh runs it; it prints Markdown.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aisbx/aisbx/sandbox"
)

func main() {
	rounds := flag.Int("rounds", 20, "interleaved rounds per comparison")
	goBase := flag.String("go-base", "aisbx-base/go:latest", "base image of the go profile")
	module := flag.String("module", "sandbox/testdata/gomod", "small Go module for the go test comparison")
	flag.Parse()
	if err := run(context.Background(), *rounds, *goBase, *module); err != nil {
		fmt.Fprintln(os.Stderr, "sbxbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, rounds int, goBase, module string) error {
	module, err := filepath.Abs(module)
	if err != nil {
		return err
	}
	sb, err := sandbox.New(ctx, sandbox.Options{Workspace: module, PoolSize: 2,
		Profiles: map[string]sandbox.Profile{
			"go":   {Base: goBase, Mounts: []sandbox.Mount{}},
			"bare": {Image: goBase, Workdir: "/work", TestCmd: []string{"true"}},
		}})
	if err != nil {
		return err
	}
	defer sb.Close(context.WithoutCancel(ctx))
	if err := sb.Ping(ctx); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "building (or reusing) the go image for", module)
	if _, err := sb.Build(ctx, sandbox.BuildOptions{Workspace: module, Profiles: []string{"go"}}); err != nil {
		return err
	}
	if err := sb.Warm(ctx, "bare", "go"); err != nil {
		return err
	}
	fmt.Printf("# aisbx sandbox benchmarks\n\n%s, %d CPUs, %d interleaved rounds, engine %s\n\n", time.Now().UTC().Format(time.RFC3339), runtime.NumCPU(), rounds, sb.Status(ctx).Engine.ServerVersion)

	// 1. Time to start.
	var warm, cli []time.Duration
	for i := range rounds {
		waitIdle(sb, "bare", 2)
		d, err := firstByteWarm(ctx, sb, module)
		if err != nil {
			return err
		}
		warm = append(warm, d)
		c, err := firstByteCLI(goBase)
		if err != nil {
			return err
		}
		cli = append(cli, c)
		fmt.Fprintf(os.Stderr, "start %d/%d: warm %v, cli %v\n", i+1, rounds, d, c)
	}
	fmt.Println("## Time to start (request to the user's first output byte)")
	fmt.Println()
	fmt.Println("| | p50 | p90 | ratio to CLI (p50) |\n|---|---|---|---|")
	fmt.Printf("| sandbox warm pool (API exec + workspace tar) | %s | %s | %.2fx |\n", ms(pct(warm, 50)), ms(pct(warm, 90)), float64(pct(warm, 50))/float64(pct(cli, 50)))
	fmt.Printf("| `docker run --rm`, same hardening, CLI | %s | %s | 1.00x |\n\n", ms(pct(cli, 50)), ms(pct(cli, 90)))

	// 2. go test overhead.
	var inSbx, host []time.Duration
	goRounds := max(rounds/2, 3)
	hostCmd := func() error {
		c := exec.Command("go", "test", "-count=1", "./...")
		c.Dir = module
		out, err := c.CombinedOutput()
		if err != nil {
			return fmt.Errorf("host go test: %v\n%s", err, out)
		}
		return nil
	}
	_ = hostCmd() // warm the host cache
	for i := range goRounds {
		waitIdle(sb, "go", 2)
		t0 := time.Now()
		res, err := sb.Run(ctx, sandbox.Job{Profile: "go", Cmd: []string{"go", "test", "-count=1", "./..."}})
		if err != nil {
			return err
		}
		if res.Status != sandbox.StatusPassed {
			return fmt.Errorf("go test in the sandbox: %s %s\n%s", res.Status, res.Reason, res.Output)
		}
		inSbx = append(inSbx, time.Since(t0))
		t0 = time.Now()
		if err := hostCmd(); err != nil {
			return err
		}
		host = append(host, time.Since(t0))
		fmt.Fprintf(os.Stderr, "go test %d/%d: sandbox %v, host %v\n", i+1, goRounds, inSbx[i], host[i])
	}
	fmt.Println("## `go test -count=1 ./...` on a small module")
	fmt.Println()
	fmt.Println("| | p50 | p90 | ratio to host (p50) |\n|---|---|---|---|")
	fmt.Printf("| sandbox, warm pool, build cache seeded from the image | %s | %s | %.2fx |\n", ms(pct(inSbx, 50)), ms(pct(inSbx, 90)), float64(pct(inSbx, 50))/float64(pct(host, 50)))
	fmt.Printf("| host, warm cache | %s | %s | 1.00x |\n\n", ms(pct(host, 50)), ms(pct(host, 90)))

	// 3. Refill rate and memory with a pool of 4.
	if err := sb.Close(ctx); err != nil {
		return err
	}
	var rates []float64
	var rss, heap uint64
	for i := range 3 {
		p4, err := sandbox.New(ctx, sandbox.Options{Workspace: module, PoolSize: 4, Profiles: map[string]sandbox.Profile{"bare": {Image: goBase, Workdir: "/work", TestCmd: []string{"true"}}}})
		if err != nil {
			return err
		}
		t0 := time.Now()
		if err := p4.Warm(ctx, "bare"); err != nil {
			return err
		}
		waitIdle(p4, "bare", 4)
		rates = append(rates, 4/time.Since(t0).Seconds())
		if i == 2 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			heap = m.HeapInuse
			rss = vmRSS()
		}
		if err := p4.Close(ctx); err != nil {
			return err
		}
	}
	sort.Float64s(rates)
	fmt.Println("## Pool")
	fmt.Println()
	fmt.Printf("- refill: a pool of 4 from empty to full, median of 3: %.1f containers/s\n", rates[1])
	fmt.Printf("- memory of this process holding a pool of 4: RSS %.1f MiB, Go heap in use %.1f MiB\n", float64(rss)/(1<<20), float64(heap)/(1<<20))
	return nil
}

func waitIdle(sb *sandbox.Sandbox, profile string, n int) {
	for range 3000 {
		if st, ok := sb.Pool(profile); ok && st.Idle >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func firstByteWarm(ctx context.Context, sb *sandbox.Sandbox, ws string) (time.Duration, error) {
	var once sync.Once
	var first time.Duration
	t0 := time.Now()
	res, err := sb.Run(ctx, sandbox.Job{Workspace: ws, Profile: "bare", Cmd: []string{"echo", "started"},
		Output: func(string, []byte) { once.Do(func() { first = time.Since(t0) }) }})
	if err != nil {
		return 0, err
	}
	if res.Status != sandbox.StatusPassed {
		return 0, fmt.Errorf("warm run: %s %s", res.Status, res.Reason)
	}
	return first, nil
}

func firstByteCLI(image string) (time.Duration, error) {
	tmpfs := "rw,exec,nosuid,nodev,size=536870912,uid=10001,gid=10001"
	c := exec.Command("docker", "run", "--rm", "--network", "none", "--read-only", "--cap-drop", "ALL",
		"--security-opt", "no-new-privileges", "--pids-limit", "256", "--memory", "1g", "--memory-swap", "1g",
		"--cpus", "1", "--user", "10001:10001", "--init", "--tmpfs", "/tmp:"+tmpfs, "--tmpfs", "/work:"+tmpfs,
		"--log-opt", "max-size=1m", "-w", "/work", image, "echo", "started")
	out, err := c.StdoutPipe()
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := c.Start(); err != nil {
		return 0, err
	}
	r := bufio.NewReader(out)
	if _, err := r.ReadByte(); err != nil {
		return 0, fmt.Errorf("docker run printed nothing: %w", err)
	}
	d := time.Since(t0)
	_, _ = r.WriteTo(io.Discard) // the rest of "started"; only the first byte is timed
	return d, c.Wait()
}

func pct(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, len(s)*p/100)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/1e6) }

func vmRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			var kb uint64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmRSS:")), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}
