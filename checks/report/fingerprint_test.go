package report

import (
	"reflect"
	"testing"
)

// TestLineHashesMatchGitHub uses the vectors of github/codeql-action's
// src/fingerprints.test.ts, which pin the values GitHub computes.
func TestLineHashesMatchGitHub(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{"c129715d7a2bc9a3:1"}},
		{" a\nb\n  \t\tc\n d", []string{"271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"}},
		{" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End", []string{"8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1", "b86d3392aea1be30:1", "e6ceba753e1a442:1"}},
		{" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", []string{"e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"}},
		{" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", []string{"e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"}},
	}
	for _, tt := range tests {
		if got := lineHashes([]byte(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("lineHashes(%q) =\n%q\nwant\n%q", tt.in, got, tt.want)
		}
	}
}
