package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/aisbx/aisbx/checks"
)

// validate checks values the decoder cannot: enums, ranges, severities.
// Problems carry the dotted key; LoadLayers fills in the file and line.
func validate(c *Config) []Problem {
	var ps []Problem
	bad := func(key, format string, args ...any) {
		ps = append(ps, Problem{Key: key, Leaf: key[strings.LastIndexByte(key, '.')+1:], Severity: "error", Message: key + ": " + fmt.Sprintf(format, args...)})
	}
	oneOf := func(key, v string, allowed ...string) {
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		bad(key, "%q is not one of %s", v, strings.Join(allowed, ", "))
	}
	oneOf("log.level", strings.ToLower(c.Log.Level), "debug", "info", "warn", "error")
	oneOf("checks.fail_on", c.Checks.FailOn, "error", "warning", "info", "never")
	for _, name := range c.Checks.Enabled {
		oneOf("checks.enabled", name, "secrets", "dangerous", "deps", "linters", "vulns")
	}
	for rule, sev := range c.Checks.Severity {
		if _, err := checks.ParseSeverity(sev); err != nil {
			bad("checks.severity."+rule, "%v", err)
		}
	}
	oneOf("agents.block_on", c.Agents.BlockOn, "never", "secret", "error")
	oneOf("agents.auto_test", c.Agents.AutoTest, "off", "affected")
	oneOf("sandbox.seccomp", c.Sandbox.Seccomp, "default", "strict")
	if c.Sandbox.PoolSize < 0 || c.Sandbox.PoolSize > 32 {
		bad("sandbox.pool_size", "%d is out of range 0..32", c.Sandbox.PoolSize)
	}
	if c.Sandbox.CPUs <= 0 {
		bad("sandbox.cpus", "must be positive")
	}
	if c.Sandbox.PidsLimit < 16 {
		bad("sandbox.pids_limit", "%d is too low for any test runner (minimum 16)", c.Sandbox.PidsLimit)
	}
	if c.Sandbox.Memory < 64<<20 {
		bad("sandbox.memory", "must be at least 64MiB")
	}
	if c.Sandbox.OutputKeep > c.Sandbox.OutputLimit {
		bad("sandbox.output_keep", "is larger than sandbox.output_limit")
	}
	for name, p := range c.Sandbox.Profiles {
		for _, m := range p.Mounts {
			if src, dst, ok := strings.Cut(m, ":"); !ok || !strings.HasPrefix(src, "/") || !strings.HasPrefix(dst, "/") {
				bad("sandbox.profiles."+name+".mounts", "%q: want \"/host/path:/container/path\"", m)
			}
		}
		for _, e := range p.Env {
			if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
				bad("sandbox.profiles."+name+".env", "%q: want \"NAME=value\"", e)
			}
		}
	}
	if c.Records.Keep < 1 {
		bad("records.keep", "must be at least 1")
	}
	if c.Watch.AIInsertLines < 1 {
		bad("watch.ai_insert_lines", "must be at least 1")
	}
	if c.Secrets.EntropyThreshold < 0 || c.Secrets.EntropyThreshold > 8 {
		bad("secrets.entropy_threshold", "%v is out of range 0..8 bits per character", c.Secrets.EntropyThreshold)
	}
	return ps
}

// knownKeys lists every dotted key of Config, for suggestions.
func knownKeys() []string {
	var keys []string
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := strings.Split(f.Tag.Get("toml"), ",")[0]
			if name == "" || name == "-" {
				continue
			}
			key := prefix + name
			keys = append(keys, key)
			if f.Type.Kind() == reflect.Struct && f.Type.Name() != "Duration" {
				walk(key+".", f.Type)
			}
		}
	}
	walk("", reflect.TypeOf(Config{}))
	sort.Strings(keys)
	return keys
}

// suggestKey proposes the known key closest to an unknown one.
func suggestKey(k toml.Key) string {
	unknown := k.String()
	best, bestD := "", 4
	for _, known := range knownKeys() {
		if d := editDistance(unknown, known); d < bestD {
			best, bestD = known, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
