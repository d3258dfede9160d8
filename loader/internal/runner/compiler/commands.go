package compiler

// CommandTypes are the resource types a command runs (nil for an
// unknown command); the CLI selects with them, Execute runs them.
func CommandTypes(command string) []string { return append([]string(nil), commandTypes[command]...) }

var commandTypes = map[string][]string{
	"build":    {Model, Seed, Snapshot, Test, UnitTest},
	"snapshot": {Snapshot},
	"run":      {Model},
	"test":     {Test, UnitTest},
	"seed":     {Seed},
}
