package vulndb

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestUpdateFromServer serves the fixture exports over HTTP the way OSV's
// bucket does, with an ETag, and checks a second update is conditional.
func TestUpdateFromServer(t *testing.T) {
	zips := fixtureZips(t)
	var full, notModified atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		eco := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/all.zip")
		etag := `"` + eco + `-v1"`
		if r.Header.Get("If-None-Match") == etag {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		data, err := os.ReadFile(filepath.Join(zips, eco, "all.zip"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		full.Add(1)
		w.Header().Set("ETag", etag)
		w.Write(data)
	}))
	defer srv.Close()

	dir := t.TempDir()
	var log strings.Builder
	res, err := Update(context.Background(), dir, UpdateOptions{BaseURL: srv.URL, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || full.Load() != 3 {
		t.Fatalf("first update: %+v (%d downloads)", res, full.Load())
	}
	for _, r := range res {
		if r.Meta.ETag == "" || !strings.HasPrefix(r.Meta.Source, srv.URL) {
			t.Errorf("meta not recorded: %+v", r.Meta)
		}
	}
	res, err = Update(context.Background(), dir, UpdateOptions{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if notModified.Load() != 3 || full.Load() != 3 || !res[0].NotModified {
		t.Errorf("second update downloaded again: %d full, %d not modified", full.Load(), notModified.Load())
	}
	if !strings.Contains(log.String(), "npm: 4 advisories") {
		t.Errorf("log: %q", log.String())
	}
}

// TestUpdateUnreachable points Update at a port nothing listens on: the
// error must say the site cannot be reached and how to import instead,
// and the existing store must survive.
func TestUpdateUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()

	dir := t.TempDir()
	if _, err := Import(context.Background(), dir, fixtureZips(t), ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = Update(context.Background(), dir, UpdateOptions{BaseURL: "http://" + addr})
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("got %v, want ErrUnreachable", err)
	}
	for _, want := range []string{"cannot be reached", "left as it was", "aisbxd vulndb import"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %v", want, err)
		}
	}
	if st, _ := Status(dir); len(st) != 3 {
		t.Errorf("store damaged after a failed update: %+v", st)
	}
}

func TestUpdateServerError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer srv.Close()
	_, err := Update(context.Background(), t.TempDir(), UpdateOptions{BaseURL: srv.URL, Ecosystems: []string{"npm"}})
	if err == nil || errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "500") {
		t.Errorf("got %v, want a plain HTTP 500 error", err)
	}
	if _, err := Update(context.Background(), t.TempDir(), UpdateOptions{Ecosystems: []string{"crates.io"}}); err == nil {
		t.Error("unsupported ecosystem accepted")
	}
}
