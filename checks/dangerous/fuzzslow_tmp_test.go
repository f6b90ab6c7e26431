package dangerous

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks"
)

func TestFuzzCorpusTiming(t *testing.T) {
	dir := os.Getenv("FZ")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	exts := []string{".go", ".py", ".js", ".ts", ".tsx", ".sh"}
	c := New(Options{TreeCacheEntries: -1})
	for _, p := range files {
		b, _ := os.ReadFile(p)
		lines := strings.SplitN(string(b), "\n", 4)
		w, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(lines[1], "byte("), ")"))
		if strings.HasPrefix(lines[1], "uint8(") {
			w, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(lines[1], "uint8("), ")"))
		}
		content, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[2], "[]byte("), ")"))
		if err != nil {
			t.Logf("%s: %v", p, err)
			continue
		}
		f := checks.NewFile("/w", "/w/fuzz"+exts[w%len(exts)], []byte(content))
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = c.Run(ctx, f)
		cancel()
		fmt.Printf("%v %s %d bytes %v %v\n", time.Since(start), exts[w%len(exts)], len(content), err, filepath.Base(p))
	}
}
