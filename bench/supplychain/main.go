// Command supplychain drives bench/supply-chain.sh: it writes the
// synthetic project and OSV export the benchmark uses, and runs aisbx's
// import and scan the way `aisbxd vulndb import` and `aisbxd vulndb scan`
// do, timing them in-process as well as from outside.
//
//	supplychain gen -n 1500 -extra 50000 -out DIR
//	supplychain import -db DBDIR SRC
//	supplychain scan -db DBDIR DIR
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/aisbx/aisbx/checks/vulns"
	"github.com/aisbx/aisbx/internal/vulndb"
	"github.com/aisbx/aisbx/internal/vulndb/synth"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: supplychain gen|import|scan ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "import":
		err = doImport(os.Args[2:])
	case "scan":
		err = scan(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "supplychain:", err)
		os.Exit(1)
	}
}

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	n := fs.Int("n", 1500, "packages in the lockfile")
	extra := fs.Int("extra", 50000, "advisories for packages the project does not use")
	out := fs.String("out", "", "output directory")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("gen: -out is required")
	}
	pj, lock, pkgs := synth.NPMProject(*n, 1)
	proj := filepath.Join(*out, "project")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(proj, "package.json"), pj, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(proj, "package-lock.json"), lock, 0o644); err != nil {
		return err
	}
	// osv-scanner's offline layout: <local-db-path>/osv-scalibr/<ecosystem>/all.zip
	zp := filepath.Join(*out, "osvdb", "osv-scalibr", "npm", "all.zip")
	if err := os.MkdirAll(filepath.Dir(zp), 0o755); err != nil {
		return err
	}
	f, err := os.Create(zp)
	if err != nil {
		return err
	}
	advs := synth.NPMAdvisories(pkgs, *extra, 2)
	if err := synth.WriteZip(f, advs); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("wrote %d packages (%d bytes of lockfile) and %d advisories to %s\n", len(pkgs), len(lock), len(advs), *out)
	return nil
}

func doImport(args []string) error {
	fs := flag.NewFlagSet("import", flag.ExitOnError)
	db := fs.String("db", "", "store directory")
	fs.Parse(args)
	start := time.Now()
	res, err := vulndb.Import(context.Background(), *db, fs.Arg(0), vulndb.ImportOptions{})
	if err != nil {
		return err
	}
	for _, m := range res.Stored {
		fmt.Printf("%s: %d advisories, %d packages, %d bytes, imported in %s\n", m.Ecosystem, m.Advisories, m.Packages, m.Bytes, time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// scan is `aisbxd vulndb scan` without the CLI around it: every manifest
// and lockfile under DIR through the vulns check (Check.Scan).
func scan(args []string) error {
	fs := flag.NewFlagSet("scan", flag.ExitOnError)
	db := fs.String("db", "", "store directory")
	fs.Parse(args)
	ctx := context.Background()
	root, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return err
	}
	start := time.Now()
	c := vulns.New(vulns.Options{DBDir: *db})
	defer c.Close()
	found, err := c.Scan(ctx, root)
	if err != nil {
		return err
	}
	n := len(found)
	fmt.Printf("%d vulnerabilities in %s\n", n, time.Since(start).Round(time.Microsecond))
	return nil
}
