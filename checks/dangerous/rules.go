package dangerous

import (
	"github.com/aisbx/aisbx/checks"
)

// rule is one entry of the catalog. Advice names the safe alternative and
// ends every message of the rule, so a user never sees a warning without a
// way out.
type rule struct {
	id       string
	lang     checks.Language // the language whose analyzer owns the rule
	severity checks.Severity
	score    float64 // GitHub code scanning's security-severity
	title    string
	advice   string
}

// catalog lists every rule this check can report. Ids are stable: they
// appear in suppression comments, configs and SARIF baselines.
var catalog = []rule{
	// Python.
	{"py-eval", checks.LangPython, checks.SeverityError, 9.0, "eval() of a non-literal expression",
		"Parse data with ast.literal_eval or json.loads instead of evaluating it."},
	{"py-exec", checks.LangPython, checks.SeverityError, 9.0, "exec() of non-literal code",
		"Do not execute code built at run time; dispatch to known functions instead."},
	{"py-compile", checks.LangPython, checks.SeverityWarning, 7.5, "compile() of non-literal source",
		"Do not compile code built at run time; use ast.literal_eval for data."},
	{"py-subprocess-shell", checks.LangPython, checks.SeverityError, 8.8, "subprocess call through a shell",
		"Pass the command as a list with shell=False (the default), e.g. subprocess.run([\"ls\", path])."},
	{"py-os-system", checks.LangPython, checks.SeverityError, 8.8, "os.system runs its argument through a shell",
		"Use subprocess.run([...]) with a list of arguments and no shell."},
	{"py-os-popen", checks.LangPython, checks.SeverityError, 8.8, "os.popen runs its argument through a shell",
		"Use subprocess.run([...], capture_output=True) with a list of arguments and no shell."},
	{"py-pickle-load", checks.LangPython, checks.SeverityError, 8.1, "pickle/dill deserialization can run arbitrary code",
		"Load untrusted data with json, or authenticate it (hmac) before unpickling."},
	{"py-marshal-load", checks.LangPython, checks.SeverityError, 8.1, "marshal deserialization of untrusted data",
		"Use json for data exchange; marshal is not safe against malicious input."},
	{"py-shelve-open", checks.LangPython, checks.SeverityWarning, 7.0, "shelve is backed by pickle",
		"Only open shelves you wrote yourself; store exchanged data as json or in sqlite3."},
	{"py-yaml-load", checks.LangPython, checks.SeverityError, 8.1, "yaml.load without a safe loader",
		"Use yaml.safe_load(...) or yaml.load(..., Loader=yaml.SafeLoader)."},
	{"py-torch-load", checks.LangPython, checks.SeverityError, 8.1, "torch.load unpickles the file",
		"Pass weights_only=True, or use safetensors for model weights."},
	{"py-requests-verify-false", checks.LangPython, checks.SeverityError, 7.4, "HTTPS request with certificate verification disabled",
		"Keep verify=True; to trust a private CA pass verify=\"/path/to/ca.pem\"."},
	{"py-ssl-unverified", checks.LangPython, checks.SeverityError, 7.4, "TLS context without certificate verification",
		"Use ssl.create_default_context() and keep check_hostname and CERT_REQUIRED; load a private CA with cafile=."},
	{"py-sql-injection", checks.LangPython, checks.SeverityError, 8.8, "SQL built from strings and passed to execute",
		"Use placeholders and pass the values separately: cursor.execute(\"... WHERE id = %s\", (id,))."},
	{"py-weak-password-hash", checks.LangPython, checks.SeverityError, 7.5, "MD5/SHA-1 used to hash a password",
		"Hash passwords with hashlib.scrypt, argon2-cffi or bcrypt, with a per-user salt."},
	{"py-tempfile-mktemp", checks.LangPython, checks.SeverityWarning, 5.5, "tempfile.mktemp is racy",
		"Use tempfile.mkstemp() or tempfile.NamedTemporaryFile(), which create the file atomically."},
	{"py-tarfile-extractall", checks.LangPython, checks.SeverityError, 7.5, "tarfile.extractall without a filter",
		"Pass filter=\"data\" (Python 3.12+ and security releases of 3.8–3.11) so members cannot escape the target directory."},
	{"py-flask-debug", checks.LangPython, checks.SeverityError, 8.1, "Flask debug mode exposes an interactive debugger",
		"Read debug from the environment (FLASK_DEBUG) and keep it off in production."},
	{"py-world-writable", checks.LangPython, checks.SeverityWarning, 5.5, "world-writable file mode",
		"Use 0o755 for directories and 0o644 (or 0o600) for files."},
	{"py-insecure-random", checks.LangPython, checks.SeverityError, 7.5, "random module used for a secret",
		"Use the secrets module: secrets.token_urlsafe(), secrets.token_hex(), secrets.choice()."},

	// JavaScript and TypeScript.
	{"js-eval", checks.LangJavaScript, checks.SeverityError, 9.0, "eval() of a non-literal expression",
		"Parse data with JSON.parse; never evaluate strings as code."},
	{"js-new-function", checks.LangJavaScript, checks.SeverityError, 9.0, "Function constructor with non-literal code",
		"Write the function in source; pass data to it as arguments."},
	{"js-child-process-exec", checks.LangJavaScript, checks.SeverityError, 8.8, "child_process exec with a non-literal command",
		"Use execFile/spawn with an argument array (no shell): execFile(\"git\", [\"log\", ref])."},
	{"js-spawn-shell", checks.LangJavaScript, checks.SeverityError, 8.8, "child process spawned with shell: true",
		"Drop the shell option and pass the arguments as an array."},
	{"js-vm-run", checks.LangJavaScript, checks.SeverityError, 8.1, "vm runs code built at run time",
		"node:vm is not a security boundary; do not run untrusted code, or isolate it in a separate process or container."},
	{"js-tls-reject-unauthorized", checks.LangJavaScript, checks.SeverityError, 7.4, "TLS certificate verification disabled",
		"Keep rejectUnauthorized: true; to trust a private CA pass it with the ca option."},
	{"js-node-tls-reject-unauthorized", checks.LangJavaScript, checks.SeverityError, 7.4, "NODE_TLS_REJECT_UNAUTHORIZED=0 disables TLS verification process-wide",
		"Remove it; to trust a private CA set NODE_EXTRA_CA_CERTS=/path/to/ca.pem."},
	{"js-inner-html", checks.LangJavaScript, checks.SeverityError, 7.5, "HTML sink fed with a non-literal value",
		"Set textContent (or build nodes with createElement); sanitize with DOMPurify if you must render HTML."},
	{"js-document-write", checks.LangJavaScript, checks.SeverityError, 7.5, "document.write with a non-literal value",
		"Build the DOM with createElement and textContent instead."},
	{"js-string-timer", checks.LangJavaScript, checks.SeverityWarning, 7.0, "setTimeout/setInterval with a string evaluates it as code",
		"Pass a function: setTimeout(() => work(), ms)."},
	{"js-insecure-random", checks.LangJavaScript, checks.SeverityError, 7.5, "Math.random used for a secret",
		"Use crypto.randomBytes / crypto.randomUUID (Node) or crypto.getRandomValues (browsers)."},

	// Go.
	{"go-exec-shell", checks.LangGo, checks.SeverityError, 8.8, "shell command built from a variable",
		"Run the program directly with separate arguments: exec.Command(\"git\", \"log\", ref)."},
	{"go-insecure-skip-verify", checks.LangGo, checks.SeverityError, 7.4, "TLS certificate verification disabled",
		"Keep InsecureSkipVerify false; trust a private CA through tls.Config.RootCAs."},
	{"go-math-rand-secret", checks.LangGo, checks.SeverityError, 7.5, "math/rand used for a secret",
		"Use crypto/rand (rand.Read, rand.Text) for tokens, keys and nonces."},
	{"go-sql-injection", checks.LangGo, checks.SeverityError, 8.8, "SQL built with Sprintf or concatenation",
		"Use placeholders and pass the values as arguments: db.Query(\"... WHERE id = $1\", id)."},
	{"go-world-writable", checks.LangGo, checks.SeverityWarning, 5.5, "world-writable file mode",
		"Use 0o755 for directories and 0o644 (or 0o600) for files."},
	{"go-weak-hash", checks.LangGo, checks.SeverityWarning, 5.3, "MD5/SHA-1 are broken for security use",
		"Use crypto/sha256 (or sha512); for passwords use golang.org/x/crypto/argon2 or bcrypt."},
	{"go-weak-cipher", checks.LangGo, checks.SeverityError, 7.5, "DES/RC4 are broken ciphers",
		"Use AES-GCM (crypto/aes with cipher.NewGCM) or golang.org/x/crypto/chacha20poly1305."},
	{"go-ssh-insecure-host-key", checks.LangGo, checks.SeverityError, 7.4, "SSH host key not verified",
		"Verify host keys with golang.org/x/crypto/ssh/knownhosts.New or ssh.FixedHostKey."},

	// Shell.
	{"sh-curl-pipe-shell", checks.LangShell, checks.SeverityError, 8.1, "downloaded script piped into a shell",
		"Download to a file, verify its checksum or signature, read it, then run it."},
	{"sh-rm-rf-var", checks.LangShell, checks.SeverityError, 7.5, "rm -r on a path that becomes / when a variable is empty",
		"Guard the variable: rm -rf \"${VAR:?}/\" aborts when VAR is unset or empty."},
	{"sh-chmod-world-writable", checks.LangShell, checks.SeverityWarning, 5.5, "chmod makes a file world-writable",
		"Use 755 for directories and 644 (or 600) for files; grant group access instead of world access."},
	{"sh-curl-insecure", checks.LangShell, checks.SeverityError, 7.4, "download with TLS verification disabled",
		"Drop -k/--insecure/--no-check-certificate; trust a private CA with --cacert or --ca-certificate."},
	{"sh-node-tls-reject-unauthorized", checks.LangShell, checks.SeverityError, 7.4, "NODE_TLS_REJECT_UNAUTHORIZED=0 disables TLS verification for Node",
		"Remove it; to trust a private CA set NODE_EXTRA_CA_CERTS=/path/to/ca.pem."},
}

var rulesByID = func() map[string]*rule {
	m := make(map[string]*rule, len(catalog))
	for i := range catalog {
		m[catalog[i].id] = &catalog[i]
	}
	return m
}()

// Rules lists the check's rules for SARIF metadata, docs and
// `aisbxd check --list-rules`.
func (c *Check) Rules() []checks.Rule {
	out := make([]checks.Rule, 0, len(catalog))
	for _, r := range catalog {
		out = append(out, checks.Rule{
			ID:               r.id,
			Category:         checks.CategoryDangerous,
			Severity:         r.severity,
			Title:            r.title,
			Description:      r.title + ". " + r.advice,
			DocURL:           checks.RuleDocURL(r.id),
			SecuritySeverity: r.score,
		})
	}
	return out
}
