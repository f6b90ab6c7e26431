package config

import "time"

// Config is the effective configuration. Each section documents its keys in
// docs/config.md; keep the two in step.
type Config struct {
	LSP     LSP     `toml:"lsp"`
	Daemon  Daemon  `toml:"daemon"`
	Log     Log     `toml:"log"`
	Checks  Checks  `toml:"checks"`
	Secrets Secrets `toml:"secrets"`
	Deps    Deps    `toml:"deps"`
	Linters Linters `toml:"linters"`
	Vulns   Vulns   `toml:"vulns"`
	Sandbox Sandbox `toml:"sandbox"`
	Tests   Tests   `toml:"tests"`
	Records Records `toml:"records"`
	Watch   Watch   `toml:"watch"`
	Agents  Agents  `toml:"agents"`
}

// LSP tunes the editor face.
type LSP struct {
	// Debounce is how long after the last change diagnostics are computed.
	Debounce Duration `toml:"debounce"`
}

// Daemon tunes the shared per-user daemon.
type Daemon struct {
	// IdleTimeout is how long the daemon lingers with no client connected.
	IdleTimeout Duration `toml:"idle_timeout"`
}

// Log sets the log level: debug, info, warn or error.
type Log struct {
	Level string `toml:"level"`
}

// Checks selects and tunes preflight checks.
type Checks struct {
	Enabled       []string          `toml:"enabled"`
	Timeout       Duration          `toml:"timeout"`
	Exclude       []string          `toml:"exclude"`
	DisabledRules []string          `toml:"disabled_rules"`
	Severity      map[string]string `toml:"severity"`
	FailOn        string            `toml:"fail_on"`
	MaxFileSize   Size              `toml:"max_file_size"`
}

// Secrets tunes the secret scanner.
type Secrets struct {
	EntropyThreshold  float64   `toml:"entropy_threshold"`
	UseGitleaksConfig bool      `toml:"use_gitleaks_config"`
	Allowlist         Allowlist `toml:"allowlist"`
}

// Allowlist lists what the secret scanner must not report. Fingerprints are
// "sha256:<hex>" of a value, so that the allowlist never holds the secret.
type Allowlist struct {
	Regexes      []string `toml:"regexes"`
	Paths        []string `toml:"paths"`
	Stopwords    []string `toml:"stopwords"`
	Fingerprints []string `toml:"fingerprints"`
}

// Deps tunes the hallucinated-dependency check.
type Deps struct {
	Online bool     `toml:"online"`
	Allow  []string `toml:"allow"`
}

// Linters selects the user's own linters aisbx runs when they are installed.
type Linters struct {
	Enabled []string `toml:"enabled"`
	Timeout Duration `toml:"timeout"`
}

// Vulns tunes known-vulnerability matching.
type Vulns struct {
	DB string `toml:"db"` // the OSV store; "" means the user cache dir
}

// Sandbox tunes the container sandbox and its warm pool.
type Sandbox struct {
	PoolSize    int                `toml:"pool_size"`
	Memory      Size               `toml:"memory"`
	CPUs        float64            `toml:"cpus"`
	PidsLimit   int64              `toml:"pids_limit"`
	TmpfsSize   Size               `toml:"tmpfs_size"`
	Timeout     Duration           `toml:"timeout"`
	OutputLimit Size               `toml:"output_limit"`
	OutputKeep  Size               `toml:"output_keep"`
	Runtime     string             `toml:"runtime"`
	Seccomp     string             `toml:"seccomp"`
	Exclude     []string           `toml:"exclude"`
	Profiles    map[string]Profile `toml:"profiles"`
}

// Profile overrides one language profile of the sandbox, or adds one.
type Profile struct {
	Base    string   `toml:"base"`
	Image   string   `toml:"image"`
	Test    []string `toml:"test"`
	Mounts  []string `toml:"mounts"`
	Env     []string `toml:"env"`
	Markers []string `toml:"markers"`
}

// Tests tunes test selection and runs.
type Tests struct {
	// Since is the git revision "affected" compares against by default.
	Since string `toml:"since"`
}

// Records tunes the run records (the audit trail).
type Records struct {
	Dir    string   `toml:"dir"`
	Keep   int      `toml:"keep"`
	MaxAge Duration `toml:"max_age"`
}

// Watch tunes workspace watching and AI-edit detection.
type Watch struct {
	Enabled bool `toml:"enabled"`
	// AIInsertLines marks a single edit inserting this many lines as likely
	// written by an AI.
	AIInsertLines int      `toml:"ai_insert_lines"`
	Exclude       []string `toml:"exclude"`
}

// Agents tunes what happens when coding agents edit.
type Agents struct {
	// BlockOn makes agent hooks refuse an edit: "never", "secret" or "error".
	BlockOn string `toml:"block_on"`
	// AutoTest runs tests after agent edits settle: "off" or "affected".
	AutoTest string `toml:"auto_test"`
}

// Defaults returns the built-in configuration.
func Defaults() *Config {
	return &Config{
		LSP:    LSP{Debounce: Duration(150 * time.Millisecond)},
		Daemon: Daemon{IdleTimeout: Duration(10 * time.Minute)},
		Log:    Log{Level: "info"},
		Checks: Checks{
			Enabled:     []string{"secrets", "dangerous", "deps", "linters", "vulns"},
			Timeout:     Duration(3 * time.Second),
			FailOn:      "error",
			MaxFileSize: Size(2 << 20),
			Severity:    map[string]string{},
		},
		Secrets: Secrets{EntropyThreshold: 0, UseGitleaksConfig: true},
		Linters: Linters{
			Enabled: []string{"go vet", "staticcheck", "golangci-lint", "ruff", "bandit", "eslint", "shellcheck"},
			Timeout: Duration(20 * time.Second),
		},
		Sandbox: Sandbox{
			PoolSize:    2,
			Memory:      Size(1 << 30),
			CPUs:        2,
			PidsLimit:   256,
			TmpfsSize:   Size(512 << 20),
			Timeout:     Duration(10 * time.Minute),
			OutputLimit: Size(64 << 20),
			OutputKeep:  Size(256 << 10),
			Seccomp:     "default",
			Exclude:     []string{".env", ".env.*", "*.pem", "*.key", "id_rsa*", "id_ed25519*", "id_ecdsa*", ".netrc", ".npmrc", ".pypirc", "credentials*", ".git/", ".aisbx/"},
			Profiles:    map[string]Profile{},
		},
		Tests:   Tests{Since: "HEAD"},
		Records: Records{Dir: ".aisbx/runs", Keep: 200, MaxAge: Duration(30 * 24 * time.Hour)},
		Watch:   Watch{Enabled: true, AIInsertLines: 20},
		Agents:  Agents{BlockOn: "never", AutoTest: "off"},
	}
}
