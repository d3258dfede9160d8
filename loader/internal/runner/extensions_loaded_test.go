package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
)

// TestBuiltInExtensionsAreLoaded: every extension project.BuiltInExtensions
// names (a profile's extensions: list is not warned for them) is loaded in
// the runner's DuckDB, so a DuckDB upgrade that stops linking one turns the
// warning back on here first (review29's nit on 9914f44).
func TestBuiltInExtensionsAreLoaded(t *testing.T) {
	dir := writeProbe(t, map[string]string{"models/m/a.sql": "select 1 as id"})
	q := shapeQuery(t, shapeDB(t, dir))
	names := project.BuiltInExtensions()
	got := q("select string_agg(extension_name, ',' order by extension_name) from duckdb_extensions() where loaded and extension_name in ('" +
		strings.Join(names, "','") + "')")
	if want := strings.Join(names, ","); got != want {
		t.Errorf("loaded %s, want %s", got, want)
	}
}
