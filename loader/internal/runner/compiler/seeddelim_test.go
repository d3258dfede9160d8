package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestSeedDelimiter: a seed's delimiter config reaches read_csv (it was
// warned as not applied, and DuckDB's sniffer guessed).
func TestSeedDelimiter(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":    "version: 1\nname: mem\nseeds:\n  +delimiter: \";\"\n",
		"seeds/notes.csv": "id;note\n1;a,b\n",
	})
	if len(diags) > 0 || len(m.Warnings) > 0 {
		t.Fatal(compilertest.Strings(diags), m.Warnings)
	}
	if got := compiler.SeedCSVOptions(m.Nodes["seed.mem.notes"]); !strings.Contains(got, "delim = ';'") {
		t.Errorf("seed options %q lack delim = ';'", got)
	}
}
