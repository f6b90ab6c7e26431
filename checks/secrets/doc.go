// Package secrets is aisbx's secret scanner: it finds credentials written
// into source (provider tokens, private keys, passwords in URLs, high-entropy
// values assigned to secret-like names), offers a fix that reads them from
// the environment, and redacts secrets in text aisbx shows or stores.
//
// How it stays fast: one Aho-Corasick pass (prefilter.go) finds keywords;
// only the bytes around each hit are examined again, by an anchored regex
// for provider formats or by a hand-written assignment lexer (assign.go)
// for generic secrets, which is where gitleaks spends its time in regexp.
//
// It imports checks and the standard library (plus BurntSushi/toml for
// .gitleaks.toml); it must never import lsp/, cmd/ or other checks.
//
// Read New and Check.Run first, then scanner.scan; Redact and RedactText
// are what run records and logs use.
package secrets
