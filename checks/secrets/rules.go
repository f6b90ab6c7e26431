package secrets

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/aisbx/aisbx/checks"
)

// ruleKind says how a rule finds its candidates once the prefilter fired.
type ruleKind int

const (
	// kindToken: the keyword is the token's literal prefix; an anchored
	// regex checks the rest.
	kindToken ruleKind = iota
	// kindAssign: found by the assignment lexer (generic names, AWS secret keys).
	kindAssign
	kindURL
	kindPrivateKey
	kindAzure
)

// ruleSpec is one detection rule.
type ruleSpec struct {
	idx      int // position in rules()
	id       string
	title    string
	kind     ruleKind
	severity checks.Severity
	score    float64 // SARIF security-severity
	// keywords are matched case-insensitively by the prefilter. For
	// kindToken rules each keyword is also the case-sensitive start of the
	// token.
	keywords []string
	// re must match the whole token (kindToken only); it is anchored at both
	// ends when compiled, which keeps most of them one-pass and fast.
	re *regexp.Regexp
	// matchFn replaces re where a regex would need large counted
	// repetitions, which Go's regexp runs slowly.
	matchFn func(tok []byte) bool
	maxLen  int
	// tail holds the characters, beyond ASCII letters, digits and '_', that
	// a token of this kind may contain: the candidate is the longest run of
	// such characters, and it must match as a whole.
	tail  string
	chars [256]bool
	// validate rejects a match (false) or marks it weak (e.g. a checksum that
	// does not add up is probably a made-up token).
	validate func(tok []byte) (ok, weak bool, note string)
	env      string // environment variable the quick fix reads by default
	advice   string // what to do; a format with one %s for the variable name
	desc     string // full description for SARIF and docs
}

func tokenRule(id, title string, score float64, env string, pattern string, maxLen int, tail string, keywords ...string) *ruleSpec {
	return &ruleSpec{
		id: id, title: title, kind: kindToken, severity: checks.SeverityError, score: score,
		keywords: keywords, re: regexp.MustCompile("^(?:" + pattern + ")$"), maxLen: maxLen, tail: tail, env: env,
	}
}

// rules returns the rule table, in the order findings on the same span are
// preferred: specific providers first, generic last. It is built on first
// use, not at init: every aisbxd process links this package, and most (the
// editor's forwarder, a hook call) never scan.
func rules() []*ruleSpec {
	rulesOnce.Do(func() { ruleTable = buildRules() })
	return ruleTable
}

var (
	rulesOnce sync.Once
	ruleTable []*ruleSpec
)

const (
	ruleAWSAccessKeyID   = "aws-access-key-id"
	ruleAWSSecretKey     = "aws-secret-access-key"
	ruleGitHubPAT        = "github-pat"
	ruleGenericSecret    = "generic-secret"
	ruleURLPassword      = "url-password"
	rulePrivateKey       = "private-key"
	ruleAzureStorage     = "azure-storage-connection-string"
	ruleJWT              = "jwt"
	ruleStripeSecretKey  = "stripe-secret-key"
	ruleSlackWebhook     = "slack-webhook-url"
	ruleGitHubFineGrain  = "github-fine-grained-pat"
	ruleGitHubOAuth      = "github-oauth-token"
	ruleGitHubApp        = "github-app-token"
	ruleGitHubRefresh    = "github-refresh-token"
	ruleNPMToken         = "npm-token"
	ruleTwilioAPIKey     = "twilio-api-key"
	ruleOpenAIKey        = "openai-api-key"
	ruleAnthropicKey     = "anthropic-api-key"
	ruleGitLabPAT        = "gitlab-pat"
	ruleGitLabToken      = "gitlab-token"
	ruleSlackToken       = "slack-token"
	ruleGoogleAPIKey     = "google-api-key"
	rulePyPIToken        = "pypi-token"
	ruleSendGridKey      = "sendgrid-api-key"
	ruleHuggingFace      = "huggingface-token"
	ruleShopifyToken     = "shopify-token"
	ruleDigitalOceanTokn = "digitalocean-token"
)

func buildRules() []*ruleSpec {
	const b62 = `[A-Za-z0-9]`
	rs := []*ruleSpec{
		tokenRule(ruleAWSAccessKeyID, "AWS access key id", 9.0, "AWS_ACCESS_KEY_ID",
			`(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16}`, 20, "", "akia", "asia", "abia", "acca", "a3t"),
		tokenRule(ruleGitHubPAT, "GitHub personal access token (classic)", 8.5, "GITHUB_TOKEN",
			`ghp_`+b62+`{36}`, 40, "", "ghp_"),
		tokenRule(ruleGitHubFineGrain, "GitHub fine-grained personal access token", 8.5, "GITHUB_TOKEN",
			`github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}`, 93, "", "github_pat_"),
		tokenRule(ruleGitHubOAuth, "GitHub OAuth access token", 8.5, "GITHUB_TOKEN",
			`gho_`+b62+`{36}`, 40, "", "gho_"),
		tokenRule(ruleGitHubApp, "GitHub App token", 8.5, "GITHUB_TOKEN",
			`gh[us]_`+b62+`{36}`, 40, "", "ghu_", "ghs_"),
		tokenRule(ruleGitHubRefresh, "GitHub refresh token", 8.5, "GITHUB_REFRESH_TOKEN",
			`ghr_`+b62+`{36}`, 40, "", "ghr_"),
		tokenRule(ruleGitLabPAT, "GitLab personal access token", 8.5, "GITLAB_TOKEN",
			`glpat-(?:[0-9A-Za-z_-]{27,300}\.[0-9a-z]{2}[0-9a-z]{7}|[0-9A-Za-z_-]{20})`, 320, "-.", "glpat-"),
		tokenRule(ruleGitLabToken, "GitLab token (deploy, runner, trigger, OAuth, feed, agent)", 8.0, "GITLAB_TOKEN",
			`(?:gldt-[0-9A-Za-z_-]{20}|glrt-[0-9A-Za-z_-]{20,300}|glptt-[0-9a-f]{40}|gloas-[0-9A-Za-z_-]{64}|glft-[0-9A-Za-z_-]{20}|glagent-[0-9A-Za-z_-]{50}|glsoat-[0-9A-Za-z_-]{20}|glcbt-[0-9A-Za-z]{1,5}_[0-9A-Za-z_-]{20}|GR1348941[0-9A-Za-z_-]{20})`,
			320, "-", "gldt-", "glrt-", "glptt-", "gloas-", "glft-", "glagent-", "glsoat-", "glcbt-", "gr1348941"),
		tokenRule(ruleSlackToken, "Slack token", 8.0, "SLACK_TOKEN",
			`(?:xox[bpaors]-(?:[0-9]{8,14}-){1,3}[A-Za-z0-9-]{18,64}|xapp-[0-9]-[A-Z0-9]{6,16}-[0-9]{6,16}-[a-f0-9]{32,80}|xoxe\.xox[bp]-[0-9]-[A-Za-z0-9]{150,170})`,
			260, "-.", "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxr-", "xoxs-", "xapp-", "xoxe."),
		tokenRule(ruleSlackWebhook, "Slack incoming webhook URL", 7.5, "SLACK_WEBHOOK_URL",
			`https://hooks\.slack\.com/(?:services|workflows|triggers)/T[A-Z0-9]{6,12}/[A-Z0-9]{6,14}/[A-Za-z0-9]{20,32}`, 140, ":/.", "https://hooks.slack.com/"),
		tokenRule(ruleStripeSecretKey, "Stripe secret or restricted key", 9.0, "STRIPE_SECRET_KEY",
			`[sr]k_(?:live|test|prod)_[A-Za-z0-9]{20,247}`, 256, "", "sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"),
		tokenRule(ruleGoogleAPIKey, "Google API key", 7.5, "GOOGLE_API_KEY",
			`AIza[0-9A-Za-z_-]{35}`, 39, "-", "aiza"),
		tokenRule(ruleAnthropicKey, "Anthropic API key", 9.0, "ANTHROPIC_API_KEY",
			`sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA`, 120, "-", "sk-ant-"),
		tokenRule(ruleOpenAIKey, "OpenAI API key", 9.0, "OPENAI_API_KEY",
			`sk-.*T3BlbkFJ.*`, 420, "-", "sk-"),
		tokenRule(ruleNPMToken, "npm access token", 8.5, "NPM_TOKEN",
			`npm_`+b62+`{36}`, 40, "", "npm_"),
		tokenRule(rulePyPIToken, "PyPI upload token", 8.5, "PYPI_TOKEN",
			`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}`, 1024, "-", "pypi-ageichlwas5vcmc"),
		tokenRule(ruleSendGridKey, "SendGrid API key", 8.0, "SENDGRID_API_KEY",
			`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`, 69, "-.", "sg."),
		tokenRule(ruleTwilioAPIKey, "Twilio API key", 8.0, "TWILIO_API_KEY",
			`SK[0-9a-fA-F]{32}`, 34, "", "sk"),
		tokenRule(ruleHuggingFace, "Hugging Face access token", 8.0, "HF_TOKEN",
			`(?:hf_[A-Za-z]{34}|api_org_[A-Za-z]{34})`, 42, "", "hf_", "api_org_"),
		tokenRule(ruleShopifyToken, "Shopify access token or shared secret", 8.0, "SHOPIFY_ACCESS_TOKEN",
			`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, 38, "", "shpat_", "shpca_", "shppa_", "shpss_"),
		tokenRule(ruleDigitalOceanTokn, "DigitalOcean token", 8.5, "DIGITALOCEAN_TOKEN",
			`do[por]_v1_[a-f0-9]{64}`, 71, "", "dop_v1_", "doo_v1_", "dor_v1_"),
		tokenRule(ruleJWT, "JSON Web Token", 6.5, "JWT",
			`eyJ[A-Za-z0-9_-]{10,}={0,2}\.eyJ[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]{16,}={0,2}`, 8192, "-.=", "eyj"),
		{id: ruleAzureStorage, title: "Azure storage account key in a connection string", kind: kindAzure,
			severity: checks.SeverityError, score: 9.0, keywords: []string{"accountkey="}, env: "AZURE_STORAGE_CONNECTION_STRING"},
		{id: rulePrivateKey, title: "Private key", kind: kindPrivateKey,
			severity: checks.SeverityError, score: 9.0, keywords: []string{"-----begin"}, env: "PRIVATE_KEY"},
		{id: ruleURLPassword, title: "Password embedded in a URL", kind: kindURL,
			severity: checks.SeverityError, score: 8.0, keywords: []string{"://"}, env: "DATABASE_URL"},
		{id: ruleAWSSecretKey, title: "AWS secret access key", kind: kindAssign,
			severity: checks.SeverityError, score: 9.0, env: "AWS_SECRET_ACCESS_KEY"},
		{id: ruleGenericSecret, title: "Hard-coded secret assigned to a secret-like name", kind: kindAssign,
			severity: checks.SeverityError, score: 7.0, keywords: genericKeywords, env: "SECRET"},
	}
	for i, r := range rs {
		r.idx = i
		r.desc, r.advice = describe(r)
		for c := 0; c < 256; c++ {
			r.chars[c] = isWordByte(byte(c)) || strings.IndexByte(r.tail, byte(c)) >= 0
		}
		if r.id == ruleOpenAIKey {
			r.matchFn = matchOpenAIKey
		}
		switch r.id {
		case ruleGitHubPAT, ruleGitHubOAuth, ruleGitHubApp, ruleGitHubRefresh, ruleNPMToken:
			r.validate = validateCRC32Token
		case ruleJWT:
			r.validate = validateJWT
		case ruleStripeSecretKey:
			r.validate = validateStripe
		}
	}
	return rs
}

// genericKeywords start the assignment lexer: a hit means "a secret-like name
// may be here". The name is then split into words and judged whole.
var genericKeywords = []string{"pass", "pwd", "secret", "token", "key", "auth", "cred", "bearer"}

func describe(r *ruleSpec) (desc, advice string) {
	// advice is a format with one %s: the environment variable to use.
	advice = "read it from the environment (%s) or a secret manager instead, and rotate it"
	switch r.id {
	case rulePrivateKey:
		return "A private key block (PEM, OpenSSH or PGP) is in the source. Anyone who reads the repository can impersonate its owner. Load the key from a file outside the repository or a secret manager, and replace the key pair.",
			"load it at run time from a file outside the repository or a secret manager (%s), and replace the key pair"
	case ruleURLPassword:
		return "A URL carries a password in its user-info part (scheme://user:password@host). Read the whole URL, or the password, from the environment instead, and change the password.",
			"read the URL from the environment (%s) instead, and change the password"
	case ruleGenericSecret:
		return "A high-entropy literal is assigned to a name that says it is a secret (password, token, api_key, client_secret...). Read it from the environment or a secret manager instead, and rotate it.", advice
	case ruleJWT:
		return "A signed JSON Web Token is in the source. Until it expires it grants whatever its claims say. Obtain tokens at run time instead of committing them.", "obtain it at run time (%s) instead, and revoke it if it has not expired"
	case ruleAzureStorage:
		return "An Azure storage connection string with its AccountKey is in the source; the key grants full access to the storage account. Read the connection string from the environment, or use a managed identity, and rotate the key.", advice
	}
	return "A " + r.title + " is in the source. Anyone who can read the repository can use it. Read it from the environment or a secret manager instead, and revoke or rotate it at the provider.", advice
}

// ruleByID finds a rule; nil when there is none.
func ruleByID(id string) *ruleSpec {
	for _, r := range rules() {
		if r.id == id {
			return r
		}
	}
	return nil
}

// Rules lists the secret rules for SARIF and docs.
func (c *Check) Rules() []checks.Rule {
	out := make([]checks.Rule, 0, len(rules()))
	for _, r := range rules() {
		out = append(out, checks.Rule{
			ID: r.id, Category: checks.CategorySecret, Severity: r.severity, Title: r.title,
			Description: r.desc, DocURL: checks.RuleDocURL(r.id), SecuritySeverity: r.score,
		})
	}
	return out
}

// matchOpenAIKey accepts sk-[proj-|svcacct-|admin-]<20-200>T3BlbkFJ<20-200>
// (the marker is "openai" in base64) and the legacy sk-<20>T3BlbkFJ<20>.
func matchOpenAIKey(tok []byte) bool {
	rest := tok[3:]
	legacy := true
	for _, p := range []string{"proj-", "svcacct-", "admin-"} {
		if bytes.HasPrefix(rest, []byte(p)) {
			rest, legacy = rest[len(p):], false
			break
		}
	}
	i := bytes.Index(rest, []byte("T3BlbkFJ"))
	if i < 0 {
		return false
	}
	before, after := rest[:i], rest[i+8:]
	if legacy {
		return len(before) == 20 && len(after) == 20 && isAlnum(before) && isAlnum(after)
	}
	return len(before) >= 20 && len(before) <= 200 && len(after) >= 20 && len(after) <= 200
}

func isAlnum(b []byte) bool {
	for _, c := range b {
		if !isWordByte(c) || c == '_' {
			return false
		}
	}
	return true
}
