package watcher

import "sort"

// mergeBatches folds a new batch into one the consumer has not taken yet, so
// a slow consumer sees one event per path with the net effect.
func mergeBatches(ready, batch []Event) []Event {
	if len(ready) == 0 {
		sortBatch(batch)
		return batch
	}
	at := make(map[string]int, len(ready))
	for i, e := range ready {
		at[e.Path] = i
	}
	drop := map[int]bool{}
	for _, e := range batch {
		i, ok := at[e.Path]
		if !ok {
			at[e.Path] = len(ready)
			ready = append(ready, e)
			continue
		}
		k, keep := combine(ready[i].Kind, e.Kind)
		ready[i].Kind, ready[i].Time = k, e.Time
		drop[i] = !keep
	}
	out := ready[:0]
	for i, e := range ready {
		if !drop[i] {
			out = append(out, e)
		}
	}
	sortBatch(out)
	return out
}

// combine is the net effect of change a followed by change b on one path;
// false when nothing is left to report.
func combine(a, b Kind) (Kind, bool) {
	switch b {
	case Removed, Renamed:
		return b, a != Created // created then gone: nothing happened
	case Written:
		if a == Created {
			return Created, true
		}
		return Written, true
	case Created:
		if a == Removed || a == Renamed {
			return Written, true // gone then back: it changed
		}
	}
	return b, true
}

func sortBatch(b []Event) {
	sort.Slice(b, func(i, j int) bool {
		if !b[i].Time.Equal(b[j].Time) {
			return b[i].Time.Before(b[j].Time)
		}
		return b[i].Path < b[j].Path
	})
}
