package testresults

import _ "embed"

// The reporters run inside the sandbox, next to the user's tests; they speak
// the "@aisbx:" protocol that ParseOptions' parser reads.
var (
	//go:embed reporters/aisbx_pytest.py
	pytestPlugin []byte
	//go:embed reporters/aisbx_unittest.py
	unittestRunner []byte
	//go:embed reporters/aisbx-node-reporter.mjs
	nodeReporter []byte
	//go:embed reporters/aisbx-jest-reporter.mjs
	jestReporter []byte
	//go:embed reporters/aisbx-vitest-reporter.mjs
	vitestReporter []byte
	//go:embed reporters/aisbx-reporter-common.mjs
	jsReporterCommon []byte
)

const (
	pytestPluginName   = "aisbx_pytest.py"
	unittestRunnerName = "aisbx_unittest.py"
	nodeReporterName   = "aisbx-node-reporter.mjs"
	jestReporterName   = "aisbx-jest-reporter.mjs"
	vitestReporterName = "aisbx-vitest-reporter.mjs"
	jsCommonName       = "aisbx-reporter-common.mjs" // imported by the three JS reporters
)

// Marker starts every line the reporters print; it may follow other output
// on the same line (pytest's progress dots).
const Marker = "@aisbx:"
