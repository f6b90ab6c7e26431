package runner

import (
	"strings"
	"testing"

	"github.com/aisbx/aisbx/checks/secrets"
)

func TestLineRedactorCatchesSplitSecrets(t *testing.T) {
	const key = "AKIAQ3EGUQ7Z4WJ5XK2M" // aisbx:ignore[aws-access-key-id]: invented for the test
	var got strings.Builder
	r := NewLineRedactor(secrets.RedactText, func(stream string, text []byte) { got.Write(text) })
	line := "export AWS_ACCESS_KEY_ID=" + key + "\nok\n"
	for i := 0; i < len(line); i += 3 { // chunks that cut the key apart
		r.Write("stdout", []byte(line[i:min(i+3, len(line))]))
	}
	r.Write("stdout", []byte("tail without newline"))
	r.Flush()
	if strings.Contains(got.String(), key) || !strings.Contains(got.String(), "ok\ntail without newline") {
		t.Fatalf("output = %q", got.String())
	}
}
