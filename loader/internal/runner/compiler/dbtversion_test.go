package compiler_test

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestDbtVersion: dbt_version is a name templates may read (it was an
// undefined-name error), and manifest.json's metadata says the same.
func TestDbtVersion(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/v.sql": "{% if dbt_version.split('.')[0] | int >= 1 %}select '{{ dbt_version }}' as v{% endif %}",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	want := "select '" + compiler.DbtVersion + "' as v"
	if got := m.Nodes["model.mem.v"].CompiledCode; got != want {
		t.Errorf("compiled %q, want %q", got, want)
	}
	if got := m.ManifestDoc().Metadata["dbt_version"]; got != compiler.DbtVersion {
		t.Errorf("manifest metadata dbt_version %v, want %s", got, compiler.DbtVersion)
	}
}
