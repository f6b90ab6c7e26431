package cli

import (
	"context"
	"fmt"
	"runtime"

	"github.com/aisbx/aisbx/internal/version"
)

func cmdVersion(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintf(env.Stdout, "aisbxd %s (%s, %s/%s)\n", version.String(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return ExitOK
}
