package deps

import "github.com/aisbx/aisbx/checks"

// Rule ids. They are stable: configs, suppressions and SARIF baselines name them.
const (
	RuleGoUnresolved = "go-unresolved-import"
	RulePyUnresolved = "py-unresolved-import"
	RuleJSUnresolved = "js-unresolved-import"
	RuleTyposquat    = "dep-typosquat"
	RuleNewUnknown   = "dep-new-unknown"
	RuleNotFound     = "dep-not-found"
)

var rules = []checks.Rule{
	{
		ID: RuleGoUnresolved, Category: checks.CategoryDependency, Severity: checks.SeverityWarning,
		Title:            "Go import not provided by the standard library, this module or go.mod",
		Description:      "The import path is not a standard library package, not a package of this module, and no module required in go.mod (or vendor/, a replace or go.work) provides it. AI assistants invent plausible paths; check the path, then `go get` the real module.",
		SecuritySeverity: 5.0,
	},
	{
		ID: RulePyUnresolved, Category: checks.CategoryDependency, Severity: checks.SeverityWarning,
		Title:            "Python import not declared, installed or local",
		Description:      "The module is not in the standard library, not a module of this project, not installed in the project's virtualenv, and no requirement in requirements*.txt, pyproject.toml, Pipfile or a lockfile provides it. AI assistants invent plausible names; check the name on PyPI, then declare the distribution.",
		SecuritySeverity: 5.0,
	},
	{
		ID: RuleJSUnresolved, Category: checks.CategoryDependency, Severity: checks.SeverityWarning,
		Title:            "JavaScript/TypeScript import of an undeclared package",
		Description:      "The package is not a Node.js built-in, not declared in package.json (or a workspace package, a lockfile entry, node_modules or a tsconfig path alias). AI assistants invent plausible names; check the name on npm, then add it with your package manager.",
		SecuritySeverity: 5.0,
	},
	{
		ID: RuleTyposquat, Category: checks.CategoryDependency, Severity: checks.SeverityWarning,
		Title:            "New dependency is a look-alike of a popular package",
		Description:      "A dependency added to the manifest is one edit away from a far more popular package and is not popular itself: the signature of a typo or of a typosquatting (slopsquatting) attack. Use the popular name unless you are sure.",
		SecuritySeverity: 7.5,
	},
	{
		ID: RuleNewUnknown, Category: checks.CategoryDependency, Severity: checks.SeverityInfo,
		Title:            "New dependency to review",
		Description:      "A dependency added to the manifest is not among the widely used packages aisbx knows. Check that it is the package you mean: its maintainers, age, downloads and source.",
		SecuritySeverity: 2.0,
	},
	{
		ID: RuleNotFound, Category: checks.CategoryDependency, Severity: checks.SeverityError,
		Title:            "Dependency does not exist in its registry",
		Description:      "The registry (PyPI, npm or the Go module proxy) has no package of that name: the name was most likely invented. Anyone can register it later and ship code to whoever installs it; remove it or use the real package.",
		SecuritySeverity: 8.0,
	},
}

func init() {
	for i := range rules {
		rules[i].DocURL = checks.RuleDocURL(rules[i].ID)
	}
}

// Rules lists the check's rules (checks.RuleLister).
func (c *Check) Rules() []checks.Rule { return append([]checks.Rule(nil), rules...) }

func ruleByID(id string) checks.Rule {
	for _, r := range rules {
		if r.ID == id {
			return r
		}
	}
	return checks.Rule{ID: id}
}

// finding builds a finding of rule on content[start:end] with the rule's
// defaults.
func finding(rule string, start, end int, msg string, fixes ...checks.Fix) checks.Finding {
	r := ruleByID(rule)
	return checks.Finding{
		Rule: rule, Category: checks.CategoryDependency, Severity: r.Severity,
		Message: msg, Start: start, End: end, DocURL: r.DocURL, Fixes: fixes,
	}
}

func replaceFix(title string, start, end int, text string) checks.Fix {
	return checks.Fix{Title: title, Edits: []checks.Edit{{Start: start, End: end, NewText: text}}, Preferred: true}
}
