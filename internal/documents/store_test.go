package documents

import (
	"errors"
	"testing"

	"github.com/aisbx/aisbx/internal/textpos"
)

func rng(l1, c1, l2, c2 int) *Range {
	return &Range{Start: textpos.Position{Line: l1, Col: c1}, End: textpos.Position{Line: l2, Col: c2}}
}

func TestChange(t *testing.T) {
	tests := []struct {
		name    string
		initial string
		changes []Change
		want    string
		wantErr bool
	}{
		{"insert", "hello\nworld", []Change{{rng(1, 0, 1, 0), "big "}}, "hello\nbig world", false},
		{"replace across lines", "ab\ncd\nef", []Change{{rng(0, 1, 2, 1), "X"}}, "aXf", false},
		{"after emoji counts utf16", "😀ab", []Change{{rng(0, 3, 0, 4), "B"}}, "😀aB", false},
		{"crlf line", "a\r\nbc", []Change{{rng(1, 2, 1, 2), "d"}}, "a\r\nbcd", false},
		{"append at end without newline", "x", []Change{{rng(0, 1, 0, 1), "\ny"}}, "x\ny", false},
		{"full replace", "old", []Change{{nil, "new"}}, "new", false},
		{"sequential", "abc", []Change{{rng(0, 0, 0, 1), ""}, {rng(0, 2, 0, 2), "!"}}, "bc!", false},
		{"line past end", "abc", []Change{{rng(5, 0, 5, 0), "x"}}, "abc", true},
		{"column past end", "abc", []Change{{rng(0, 9, 0, 9), "x"}}, "abc", true},
		{"end before start", "abc", []Change{{rng(0, 2, 0, 1), "x"}}, "abc", true},
		{"second change bad keeps first unapplied", "abc", []Change{{rng(0, 0, 0, 0), "1"}, {rng(3, 0, 3, 0), "x"}}, "abc", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore()
			s.Open("/f", "go", 1, []byte(tt.initial))
			d, err := s.Change("/f", 2, tt.changes)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			got, _ := s.Get("/f")
			if string(got.Text) != tt.want {
				t.Fatalf("text = %q, want %q", got.Text, tt.want)
			}
			if tt.wantErr && got.Version != 1 {
				t.Errorf("failed change bumped the version to %d", got.Version)
			}
			if !tt.wantErr && (d.Version != 2 || !d.Dirty) {
				t.Errorf("version=%d dirty=%v", d.Version, d.Dirty)
			}
		})
	}
}

func TestUnknownDocument(t *testing.T) {
	s := NewStore()
	if _, err := s.Change("/nope", 1, []Change{{nil, "x"}}); !errors.Is(err, ErrUnknownDocument) {
		t.Fatalf("err = %v", err)
	}
	if s.Close("/nope") || s.Saved("/nope", nil) {
		t.Fatal("closing or saving an unknown document reported success")
	}
}

func BenchmarkChange2000Lines(b *testing.B) {
	text := make([]byte, 0, 2000*40)
	for i := 0; i < 2000; i++ {
		text = append(text, "    x := compute(a, b, c) // a line of code\n"...)
	}
	s := NewStore()
	s.Open("/f", "go", 1, text)
	v := int32(1)
	for b.Loop() {
		v++
		if _, err := s.Change("/f", v, []Change{{rng(1000, 4, 1000, 4), "y"}}); err != nil {
			b.Fatal(err)
		}
	}
}
