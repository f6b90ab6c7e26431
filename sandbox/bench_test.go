package sandbox

import (
	"testing"
)

// BenchmarkRunWarm: one whole run of `true` on a warm pool, snapshot to
// destroyed container.
func BenchmarkRunWarm(b *testing.B) {
	sb := newTestSandbox(b, Options{PoolSize: 2})
	ws := writeTree(b, map[string]string{"main.go": "package main\n"})
	if err := sb.Warm(b.Context(), "go"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		waitIdleB(b, sb, "go", 2)
		b.StartTimer()
		res, err := sb.Run(b.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"true"}})
		if err != nil || res.Status != StatusPassed {
			b.Fatalf("%v %+v", err, res)
		}
	}
}

func waitIdleB(b *testing.B, sb *Sandbox, profile string, n int) {
	for range 3000 {
		if st, ok := sb.Pool(profile); ok && st.Idle >= n {
			return
		}
		sleepShort()
	}
	b.Fatalf("pool %s never reached %d idle", profile, n)
}
