package executor

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// TestViewVersionMemo: a view's data version (version: its recorded one
// holds only while its inputs are those it was built on) is worked out
// once per view, not once per path to it. Each lookup walked every view
// below it again: in a DAG of views that each read the two before it,
// the number of fingerprints grew as the Fibonacci numbers (a second
// build of 24 such views took 5.6 s, 0.9 s with the memo).
func TestViewVersionMemo(t *testing.T) {
	const n = 22
	dir := t.TempDir()
	files := map[string]string{
		"dbt_project.yml": "name: dia\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: dia.duckdb, schema: main}\n",
		"models/v0.sql":   "{{ config(materialized='table') }} select 1 as id",
		"models/v1.sql":   "select id from {{ ref('v0') }}",
	}
	for i := 2; i <= n; i++ {
		files[fmt.Sprintf("models/v%d.sql", i)] = fmt.Sprintf("select a.id from {{ ref('v%d') }} a join {{ ref('v%d') }} b using (id)", i-1, i-2)
	}
	for f, b := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("DBT_PROFILES_DIR", dir)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := compiler.Parse(p, compiler.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// the versions a build records: the table's, then each view's from its fingerprint
	versions := map[string]string{"model.dia.v0": "table-version"}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("model.dia.v%d", i)
		st := &buildState{versions: versions}
		versions[id] = compiler.Digest("view", st.fingerprint(m, m.Nodes[id]))
	}
	st := &buildState{versions: versions}
	top := fmt.Sprintf("model.dia.v%d", n)
	if v := st.version(m, top); v != versions[top] {
		t.Fatalf("version of %s = %q, want the recorded %q", top, v, versions[top])
	}
	if got := st.fps.Load(); got > 2*n {
		t.Errorf("%d fingerprints worked out for the version of a %d-view DAG, want at most %d (one per view)", got, n, 2*n)
	}
}
