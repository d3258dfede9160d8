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

// TestDelimiterOnAModelIsWarned: delimiter is a seed's config; on a model
// it does nothing, which is a warning naming where it was written (it was
// accepted silently once seeds applied it).
func TestDelimiterOnAModelIsWarned(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\n",
		"models/m.sql": "{{ config(delimiter=';') }}\nselect 1 as id\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].String(), "delimiter is not applied to a model") || m.Warnings[0].Path != "models/m.sql" {
		t.Errorf("warnings %q, want one about delimiter on models/m.sql", m.Warnings)
	}
}
