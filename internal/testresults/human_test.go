package testresults

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHumanOnRealOutput: the captured outputs of real runs read as test
// output, with no protocol left in them and every failure visible.
func TestHumanOnRealOutput(t *testing.T) {
	files, _ := filepath.Glob("testdata/fixtures/*.out")
	checked := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		var out strings.Builder
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		failed := false
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, `"status":"failed"`) || strings.Contains(line, `"Action":"fail","Package"`) && strings.Contains(line, `"Test"`) {
				failed = true
			}
			out.Write(Human([]byte(line + "\n")))
		}
		fh.Close()
		text := out.String()
		if strings.Contains(text, Marker) || strings.Contains(text, `{"Time"`) {
			t.Errorf("%s: protocol left in the human output", f)
		}
		if failed && !strings.Contains(text, "FAIL") {
			t.Errorf("%s: a failure does not show", f)
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d captured outputs: the fixtures moved?", checked)
	}
}
