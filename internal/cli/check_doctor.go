package cli

import (
	"context"
	"strings"

	"github.com/aisbx/aisbx/checks/linters"
)

// doctorLinters lists the linters aisbx would run and which are installed.
// A missing linter is information, not a failure: it is skipped quietly.
// (For the lead: append it to doctorChecks.)
func doctorLinters(ctx context.Context, root string) []doctorCheck {
	var found, missing []string
	var out []doctorCheck
	for _, st := range linters.Detect(ctx) {
		if !st.Found {
			missing = append(missing, st.Name)
			continue
		}
		found = append(found, st.Name)
		detail := st.Path
		if st.Version != "" {
			detail = st.Version + " at " + st.Path
		}
		out = append(out, doctorCheck{Name: "linter " + st.Name, Status: "ok", Detail: detail})
	}
	if len(missing) > 0 {
		out = append(out, doctorCheck{
			Name: "linters missing", Status: "info",
			Detail: strings.Join(missing, ", ") + " not found on PATH (nor in $GOPATH/bin); skipped. eslint and ruff are also used from the project's node_modules/.bin or .venv/bin.",
		})
	}
	if len(found) == 0 {
		out = append(out, doctorCheck{Name: "linters", Status: "info", Detail: "no linter installed; aisbx's own checks still run"})
	}
	return out
}
