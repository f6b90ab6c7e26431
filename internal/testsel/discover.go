package testsel

import (
	"fmt"
	"strings"
)

// Kind says what sort of test a discovered Test is.
type Kind string

const (
	KindFunc      Kind = "func"      // Go Test*, pytest function
	KindSubtest   Kind = "subtest"   // Go t.Run("name", ...)
	KindBenchmark Kind = "benchmark" // Go Benchmark*
	KindFuzz      Kind = "fuzz"      // Go Fuzz*
	KindExample   Kind = "example"   // Go Example*
	KindClass     Kind = "class"     // pytest Test* class, unittest.TestCase subclass
	KindMethod    Kind = "method"    // test method of a class
	KindSuite     Kind = "suite"     // JS describe(...)
	KindCase      Kind = "case"      // JS test(...) / it(...)
)

// Test is one test found in a file's content, for a code lens or "run this
// test".
type Test struct {
	Lang Lang
	File string // as given to Discover
	// Path is the test's name from the outermost container down: Go
	// ["TestX", "sub"], pytest ["TestA", "test_b"], JS ["suite", "case"].
	Path []string
	Kind Kind
	// Start and End are the byte offsets of the whole declaration or call;
	// NameStart and NameEnd those of its name (identifier or string literal).
	Start, End         int
	NameStart, NameEnd int
}

// Name is the test's display name: Go "TestX/sub", pytest
// "TestA::test_b", JS "suite > case".
func (t Test) Name() string {
	switch t.Lang {
	case LangGo:
		return strings.Join(t.Path, "/")
	case LangPython:
		return strings.Join(t.Path, "::")
	}
	return strings.Join(t.Path, " > ")
}

// ResultName is the name test results report for this test (see
// testresults.Result.Name), for matching results to code lenses: Go
// rewrites subtest names (spaces become underscores); the aisbx reporters
// use Name's form for the other languages. Parametrized pytest tests
// report "name[params]".
func (t Test) ResultName() string {
	if t.Lang != LangGo {
		return t.Name()
	}
	parts := make([]string, len(t.Path))
	for i, p := range t.Path {
		parts[i] = goRewriteName(p)
	}
	return strings.Join(parts, "/")
}

// Ref is the reference a Selector needs to run this test alone.
func (t Test) Ref() TestRef {
	return TestRef{File: t.File, Path: append([]string(nil), t.Path...), Kind: t.Kind}
}

// TestRef names a test to run: the file that holds it (for Go any file of
// its package, or the package directory) and its name path. Package may
// carry a Go import path instead of File, as test results report it.
type TestRef struct {
	File    string   `json:"file,omitempty"`
	Package string   `json:"package,omitempty"`
	Path    []string `json:"path"`
	Kind    Kind     `json:"kind,omitempty"`
}

// Discover lists the tests declared in a file, given its name (to choose the
// language and test-file conventions) and content. Files that are not test
// files by their runner's conventions hold no tests. Content with syntax
// errors yields the tests that still parse.
func Discover(name string, content []byte) ([]Test, error) {
	if !IsTestFile(name) {
		return nil, nil
	}
	lang, _ := LangOf(name)
	var tests []Test
	var err error
	switch lang {
	case LangGo:
		tests, err = discoverGo(name, content)
	case LangPython:
		tests, err = discoverPython(name, content)
	case LangJS:
		tests, err = discoverJS(name, content)
	}
	if err != nil {
		return nil, fmt.Errorf("discovering tests in %s: %w", name, err)
	}
	return tests, nil
}

// TestAt returns the innermost test whose range contains offset.
func TestAt(tests []Test, offset int) (Test, bool) {
	best, found := Test{}, false
	for _, t := range tests {
		if offset < t.Start || offset > t.End {
			continue
		}
		if !found || t.End-t.Start < best.End-best.Start {
			best, found = t, true
		}
	}
	return best, found
}
