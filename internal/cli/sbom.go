package cli

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/aisbx/aisbx/internal/inventory"
	"github.com/aisbx/aisbx/internal/sbom"
)

// cmdSBOM writes the workspace's bill of materials.
//
//	aisbxd sbom [--format cyclonedx-json|spdx-json] [--output FILE] [DIR]
func cmdSBOM(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("sbom", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	format := fs.String("format", sbom.CycloneDXJSON, "document format: cyclonedx-json (CycloneDX 1.5) or spdx-json (SPDX 2.3)")
	output := fs.String("output", "", "write the document to `FILE` instead of standard output")
	fs.StringVar(output, "o", "", "shorthand for --output")
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "Usage: aisbxd sbom [--format cyclonedx-json|spdx-json] [--output FILE] [DIR]")
		fmt.Fprintln(env.Stderr, "\nWrites a software bill of materials of DIR (default .) from its manifests and lockfiles.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return ExitUsage
	}
	if *format != sbom.CycloneDXJSON && *format != sbom.SPDXJSON {
		fmt.Fprintf(env.Stderr, "aisbxd sbom: unknown format %q (want %s or %s)\n", *format, sbom.CycloneDXJSON, sbom.SPDXJSON)
		return ExitUsage
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(env.Stderr, "aisbxd sbom: %s is not a directory\n", dir)
		return ExitUsage
	}
	inv, err := inventory.Scan(ctx, dir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd sbom: %v\n", err)
		return ExitInternal
	}
	for _, e := range inv.Errors {
		fmt.Fprintf(env.Stderr, "aisbxd sbom: warning: %v\n", e)
	}
	data, sum, err := sbom.Encode(ctx, inv, *format, sbom.Options{})
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd sbom: %v\n", err)
		return ExitInternal
	}
	if *output == "" {
		if _, err := env.Stdout.Write(data); err != nil {
			return ExitInternal
		}
		return ExitOK
	}
	if err := os.WriteFile(*output, data, 0o644); err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd sbom: %v\n", err)
		return ExitInternal
	}
	fmt.Fprintf(env.Stderr, "wrote %s: %d packages from %d files, sha256 %s\n", *output, len(inv.Packages()), len(inv.Sources), sum)
	return ExitOK
}
