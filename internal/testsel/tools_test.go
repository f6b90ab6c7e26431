package testsel

import (
	"os"
	"os/exec"
	"testing"
)

// needTool returns the path of an external tool, skipping the test when it
// is missing, unless CI=true, where a missing tool fails the test.
func needTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required in CI: %v", name, err)
		}
		t.Skipf("%s not found: %v", name, err)
	}
	return p
}
