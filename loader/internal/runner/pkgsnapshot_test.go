package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestPackageSnapshot: a package's {% snapshot %} block is a node
// snapshot.<pkg>.<name> built by a run as the root's are, configured by
// the package's snapshots: tree under the root's snapshots: <pkg>: (root
// wins), read by a root model through ref('pkg', 'name'). It was warned
// and not built.
func TestPackageSnapshot(t *testing.T) {
	files := shapeProject("app", map[string]string{
		"dbt_packages/pp/dbt_project.yml":          "name: pk\nversion: '1'\nconfig-version: 2\nsnapshots:\n  pk:\n    +unique_key: id\n    +strategy: check\n    +tags: [own]\n",
		"dbt_packages/pp/snapshots/hist/items.sql": "{% snapshot items %}{{ config(check_cols='all') }}\nselect 1 as id, 'a' as v union all select 2, 'b'\n{% endsnapshot %}",
		"models/m.sql": "select count(*) as n from {{ ref('pk', 'items') }} where dbt_valid_to is null",
	})
	files["dbt_project.yml"] += "snapshots:\n  pk:\n    hist:\n      +tags: [root]\n"
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, w := range m.Warnings {
		if strings.Contains(w.String(), "snapshot") {
			t.Errorf("warning: %s", w)
		}
	}
	n := m.Nodes["snapshot.pk.items"]
	if n == nil || strings.Join(n.Tags, ",") != "own,root" || strings.Join(n.FQN, ".") != "pk.items" {
		t.Fatalf("snapshot.pk.items: %+v", n)
	}
	if got := strings.Join(m.Nodes["model.app.m"].DependsOn.Nodes, " "); got != "snapshot.pk.items" {
		t.Errorf("model m depends on %q", got)
	}
	db := shapeDB(t, dir)
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	for _, r := range rr.Results {
		ran = append(ran, r.UniqueID)
		if r.Status != executor.StatusSuccess {
			t.Errorf("%s %s: %s", r.UniqueID, r.Status, r.Message)
		}
	}
	if got := strings.Join(ran, " "); got != "snapshot.pk.items model.app.m" {
		t.Errorf("build ran %s", got)
	}
	q := shapeQuery(t, db)
	if got := q("select n::varchar from test_schema.m"); got != "2" {
		t.Errorf("m: %s current snapshot rows, want 2", got)
	}
}
