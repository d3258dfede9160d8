package runner

import (
	"path/filepath"
	"testing"
)

// TestGraphReaderNotSkipped: a model whose SQL comes from graph renders
// again at run time, so its parse-time SQL does not say what it builds: a
// second build after a new model joined the project must not skip it as
// up to date (it counted 2 models, now 3).
func TestGraphReaderNotSkipped(t *testing.T) {
	files := shapeProject("gs", map[string]string{"models/a.sql": "select 1 as id",
		"models/b.sql": "{{ config(materialized='table') }} select {{ graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | list | length }} as n"})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	if got := queryStrings(t, db.SQL(), "select n::varchar from test_schema.b"); len(got) != 1 || got[0] != "2" {
		t.Fatalf("first build: b %v, want [2]", got)
	}
	writeFile(t, filepath.Join(dir, "models", "c.sql"), []byte("select 2 as id"))
	shapeRun(t, db, dir, "build", nil)
	if got := queryStrings(t, db.SQL(), "select n::varchar from test_schema.b"); len(got) != 1 || got[0] != "3" {
		t.Errorf("after a third model joined: b %v, want [3] (skipped as up to date?)", got)
	}
}
