package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration is a time.Duration written as a string in TOML: "150ms", "10m".
type Duration time.Duration

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("invalid duration %q (use a number with a unit, like \"150ms\" or \"10m\")", b)
	}
	if v < 0 {
		return fmt.Errorf("invalid duration %q: must not be negative", b)
	}
	*d = Duration(v)
	return nil
}

func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// D returns the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// Size is a byte count written as a string: "512MiB", "1GiB", "4MB", "100k".
type Size int64

var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30},
	{"b", 1},
}

func (s *Size) UnmarshalText(b []byte) error {
	str := strings.ToLower(strings.TrimSpace(string(b)))
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(str, u.suffix) {
			mult = u.mult
			str = strings.TrimSpace(strings.TrimSuffix(str, u.suffix))
			break
		}
	}
	v, err := strconv.ParseFloat(str, 64)
	if err != nil || v < 0 {
		return fmt.Errorf("invalid size %q (use a number with a unit, like \"512MiB\" or \"1GiB\")", b)
	}
	*s = Size(v * float64(mult))
	return nil
}

func (s Size) MarshalText() ([]byte, error) {
	v := int64(s)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if v >= u.mult && v%u.mult == 0 {
			return []byte(strconv.FormatInt(v/u.mult, 10) + u.suffix), nil
		}
	}
	return []byte(strconv.FormatInt(v, 10) + "B"), nil
}
