package cli

import (
	"github.com/aisbx/aisbx/checks/builtin"
	"github.com/aisbx/aisbx/internal/workspace"
)

// engineFactory builds each workspace's checks engine from its config. The
// daemon, standalone serve and the check command share it.
var engineFactory workspace.EngineFactory = builtin.NewEngine
