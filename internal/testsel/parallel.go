package testsel

import (
	"context"
	"runtime"
	"sync"
)

// parallel calls fn for each job on up to GOMAXPROCS goroutines and returns
// when all are done or ctx is cancelled (jobs not started are skipped).
func parallel[J any](ctx context.Context, jobs []J, fn func(J)) {
	work := make(chan J)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				fn(j)
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		work <- j
	}
	close(work)
	wg.Wait()
}
