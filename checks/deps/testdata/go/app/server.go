// Package main: a typical file whose imports all resolve.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"example.com/app/internal/store"
)

type server struct {
	mu    sync.Mutex
	store *store.Store
}

func (s *server) routes() *mux.Router {
	r := mux.NewRouter()
	r.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"status": "ok"})
	})
	return r
}

func run(ctx context.Context, cmd *cobra.Command) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
			return errors.New("timeout")
		}
	})
	slog.Info("started", "args", strings.Join(os.Args, " "))
	fmt.Fprintln(os.Stderr, cmd.Use)
	return g.Wait()
}
