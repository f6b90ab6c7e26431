package provenance

import (
	"bytes"
	"hash/maphash"
)

// maxDiffCost bounds the edit distance RangesFromDiff searches; past it the
// changed middle is reported as one range, which is still correct, only
// coarser.
const maxDiffCost = 2000

// RangesFromDiff returns the lines of after that are not in before: the
// lines an edit from before to after wrote. The daemon uses it when an agent
// reports an edit without saying where, and it knows the earlier content.
func RangesFromDiff(before, after []byte) []Range {
	a, b := splitLines(before), splitLines(after)
	// Common prefix and suffix are untouched; only the middle needs a diff.
	p := 0
	for p < len(a) && p < len(b) && bytes.Equal(a[p], b[p]) {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && bytes.Equal(a[len(a)-1-s], b[len(b)-1-s]) {
		s++
	}
	am, bm := a[p:len(a)-s], b[p:len(b)-s]
	if len(bm) == 0 {
		return nil
	}
	if len(am) == 0 {
		return []Range{{p, p + len(bm)}}
	}
	ins, ok := insertedLines(am, bm)
	if !ok {
		return []Range{{p, p + len(bm)}}
	}
	var out []Range
	for _, i := range ins {
		out = append(out, Range{p + i, p + i + 1})
	}
	return normalize(out)
}

func splitLines(text []byte) [][]byte {
	if len(text) == 0 {
		return nil
	}
	lines := bytes.SplitAfter(text, []byte{'\n'})
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// insertedLines runs Myers' O(ND) diff on line hashes and returns the
// indexes of b's lines that are insertions; false when the distance exceeds
// maxDiffCost.
func insertedLines(a, b [][]byte) ([]int, bool) {
	seed := maphash.MakeSeed()
	ha, hb := make([]uint64, len(a)), make([]uint64, len(b))
	for i, l := range a {
		ha[i] = maphash.Bytes(seed, l)
	}
	for i, l := range b {
		hb[i] = maphash.Bytes(seed, l)
	}
	n, m := len(ha), len(hb)
	maxD := min(n+m, maxDiffCost)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	// trace[d] keeps the frontier before step d, only the diagonals step d
	// reads (-d-1 .. d+1): the whole array per step would cost O(D·N).
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && ha[x] == hb[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m, d), true
			}
		}
	}
	return nil, false
}

// backtrack walks the saved frontiers from the end and collects the lines
// of b reached by a downward (insertion) step.
func backtrack(trace [][]int, x, y, d int) []int {
	var ins []int
	for ; d > 0; d-- {
		v, off := trace[d], d+1 // trace[d][off+k] is diagonal k
		k := x - y
		var prevK int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY { // the diagonal: equal lines
			x, y = x-1, y-1
		}
		if prevK == k+1 {
			ins = append(ins, prevY) // moved down: b[prevY] inserted
		}
		x, y = prevX, prevY
	}
	return ins
}
