package report

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// lineHashes computes GitHub code scanning's primaryLocationLineHash for
// every line of content, the way github/codeql-action's fingerprints.ts
// does when an upload lacks them: a rolling hash over the next 100 UTF-16
// code units that are not spaces or tabs, starting at each line, with line
// endings normalised to "\n", suffixed with ":n" for the n-th line with the
// same hash. Computing the same value lets GitHub match alerts across
// uploads whether or not the upload step re-hashes. Index 0 is line 1.
func lineHashes(content []byte) []string {
	const (
		blockSize = 100
		mod       = 37
		eof       = 65535
	)
	firstMod := int64(1)
	for range blockSize {
		firstMod *= mod
	}
	var (
		window      [blockSize]int64
		lineNumbers [blockSize]int
		hash        int64
		index       int
		lineNumber  int
		lineStart   = true
		prevCR      bool
		counts      = map[uint64]int{}
		out         []string
	)
	for i := range lineNumbers {
		lineNumbers[i] = -1
	}
	output := func() {
		h := uint64(hash)
		counts[h]++
		for len(out) < lineNumbers[index] {
			out = append(out, "")
		}
		out[lineNumbers[index]-1] = strconv.FormatUint(h, 16) + ":" + strconv.Itoa(counts[h])
		lineNumbers[index] = -1
	}
	update := func(c int64) {
		begin := window[index]
		window[index] = c
		hash = mod*hash + c - firstMod*begin
		index = (index + 1) % blockSize
	}
	process := func(c int64) {
		if c == ' ' || c == '\t' || (prevCR && c == '\n') {
			prevCR = false
			return
		}
		if c == '\r' {
			c = '\n'
			prevCR = true
		} else {
			prevCR = false
		}
		if lineNumbers[index] != -1 {
			output()
		}
		if lineStart {
			lineStart = false
			lineNumber++
			lineNumbers[index] = lineNumber
		}
		if c == '\n' {
			lineStart = true
		}
		update(c)
	}
	for i := 0; i < len(content); {
		r, size := utf8.DecodeRune(content[i:])
		i += size
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			process(int64(hi))
			process(int64(lo))
			continue
		}
		process(int64(r))
	}
	process(eof)
	for range blockSize {
		if lineNumbers[index] != -1 {
			output()
		}
		update(0)
	}
	return out
}
