package fails

import "testing"

func TestGreeting(t *testing.T) {
	if got := Greeting("ada"); got != "Hello, ada" {
		t.Errorf("Greeting(ada) = %q,\nwant %q", got, "Hello, ada") // FAILS-HERE TestGreeting
	}
}

func TestSubtests(t *testing.T) {
	t.Run("passes", func(t *testing.T) {})
	t.Run("fails too", func(t *testing.T) {
		t.Fatalf("boom %d", 42) // FAILS-HERE TestSubtests/fails_too
	})
}

func TestHelper(t *testing.T) {
	check(t, 1, 2) // FAILS-HERE TestHelper
}

func check(t *testing.T, a, b int) {
	t.Helper()
	if a != b {
		t.Errorf("%d != %d", a, b)
	}
}
