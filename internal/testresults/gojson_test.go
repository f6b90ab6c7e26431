package testresults

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestDecodeGoEventMatchesEncodingJSON: the fast decoder agrees with
// encoding/json on every line of the Go fixtures and on hand-made lines
// with escapes, surrogates and invalid UTF-8; what it refuses, the parser
// hands to encoding/json.
func TestDecodeGoEventMatchesEncodingJSON(t *testing.T) {
	var lines [][]byte
	for _, name := range []string{"go_mixed", "go_timeout", "go_truncated"} {
		data, err := os.ReadFile(filepath.Join("testdata", "fixtures", name+".out"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			lines = append(lines, append([]byte(nil), sc.Bytes()...))
		}
	}
	lines = append(lines,
		[]byte(`{"Action":"output","Test":"T","Output":"tab\there \"q\" \\ \/ \u00e9 \ud83d\ude00 \ud800 end\n","Elapsed":1.5e-3}`),
		[]byte("{\"Action\":\"output\",\"Output\":\"bad \xff utf8 and é\"}"),
		[]byte(`  { "Action" : "pass" , "Elapsed" : 0 }  `),
		[]byte(`{"Action":"pass","Extra":{"nested":true}}`),
		[]byte(`{"Action":"pass"} trailing`),
		[]byte(`{"Action":"out`),
	)
	for _, l := range lines {
		var fast, slow goEvent
		ok := decodeGoEvent(l, &fast)
		err := json.Unmarshal(l, &slow)
		if ok && err != nil {
			t.Errorf("fast decoder accepted what encoding/json refuses: %s", l)
		}
		if ok && fast != slow {
			t.Errorf("%s:\n fast %+v\n json %+v", l, fast, slow)
		}
	}
}
