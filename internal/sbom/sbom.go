package sbom

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/aisbx/aisbx/internal/inventory"
	"github.com/aisbx/aisbx/internal/version"
)

// Formats.
const (
	CycloneDXJSON = "cyclonedx-json"
	SPDXJSON      = "spdx-json"
)

// Options tunes a document. The zero value stamps the current time and a
// random serial number.
type Options struct {
	// Time is the creation time; zero means now.
	Time time.Time
	// Serial is the document's UUID (CycloneDX serialNumber, SPDX
	// namespace); "" means a random one.
	Serial string
	// Name names the described project; "" means the manifest's project
	// name, else the workspace directory's name.
	Name string
}

// Write writes inv in format ("cyclonedx-json" or "spdx-json") to w.
func Write(ctx context.Context, w io.Writer, inv *inventory.Inventory, format string) error {
	data, _, err := Encode(ctx, inv, format, Options{})
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// Encode renders inv in format and returns the document with the hex
// sha256 of its bytes.
func Encode(ctx context.Context, inv *inventory.Inventory, format string, opts Options) ([]byte, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	if opts.Time.IsZero() {
		opts.Time = time.Now()
	}
	opts.Time = opts.Time.UTC().Truncate(time.Second)
	if opts.Serial == "" {
		u, err := newUUID()
		if err != nil {
			return nil, "", err
		}
		opts.Serial = u
	}
	d := describe(inv, opts)
	var buf bytes.Buffer
	var err error
	switch format {
	case CycloneDXJSON, "cyclonedx", "cdx":
		err = writeCycloneDX(&buf, d, opts)
	case SPDXJSON, "spdx":
		err = writeSPDX(&buf, d, opts)
	default:
		return nil, "", fmt.Errorf("sbom: unknown format %q (want %s or %s)", format, CycloneDXJSON, SPDXJSON)
	}
	if err != nil {
		return nil, "", fmt.Errorf("sbom: %w", err)
	}
	return buf.Bytes(), Sum(buf.Bytes()), nil
}

// WriteFile writes the document to path and returns its sha256.
func WriteFile(ctx context.Context, path string, inv *inventory.Inventory, format string) (string, error) {
	data, sum, err := Encode(ctx, inv, format, Options{})
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("sbom: %w", err)
	}
	return sum, nil
}

// Sum is the hex sha256 of data, as run records store it.
func Sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// FileName is the conventional file name for a format: "sbom.cdx.json" or
// "sbom.spdx.json".
func FileName(format string) string {
	if strings.HasPrefix(format, "spdx") {
		return "sbom.spdx.json"
	}
	return "sbom.cdx.json"
}

// described is the inventory reduced to what both formats say.
type described struct {
	name, version string
	packages      []inventory.Package
	refs          map[string]string // Package.Key -> document reference
}

func describe(inv *inventory.Inventory, opts Options) *described {
	d := &described{name: opts.Name, refs: map[string]string{}}
	if d.name == "" {
		// The project named by a manifest at the workspace root.
		for _, s := range inv.Sources {
			if path.Dir(s.Path) == "." && s.Project.Name != "" {
				d.name, d.version = s.Project.Name, s.Project.Version
				break
			}
		}
	}
	if d.name == "" {
		d.name = filepath.Base(filepath.Clean(inv.Root))
	}
	d.packages = inv.Packages()
	for _, p := range d.packages {
		d.refs[p.Key()] = p.PURL()
	}
	return d
}

func toolVersion() string { return version.String() }

func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("sbom: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}
