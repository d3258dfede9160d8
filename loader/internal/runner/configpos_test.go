package runner

import (
	"strings"
	"testing"
)

// TestYAMLConfigWarnedAtItsLine: a config key written in a YAML file (a
// model's config: in its schema file, a YAML snapshot's config:) is
// warned at its own line of that file, and a YAML snapshot's run error at
// its key's line: they were placed at the model's .sql file (1:1) and at
// snapshots.yml:1:1; a snapshots: folder-level key in dbt_project.yml was
// warned at the snapshot's file, not where it is written.
func TestYAMLConfigWarnedAtItsLine(t *testing.T) {
	files := shapeProject("yp", map[string]string{
		"models/sub/m.sql": "select 1 as id",
		"models/sub/m.yml": "models:\n  - name: m\n    config:\n      materialized: table\n      bogus_key: 1\n",
		"snapshots/s.yml": "snapshots:\n  - name: s\n    relation: ref('m')\n    config:\n      unique_key: id\n      strategy: check\n" +
			"      check_cols: all\n      another_bogus: 2\n  - name: s2\n    relation: ref('m')\n    config:\n      strategy: check\n      check_cols: all\n      unique_key: nope\n",
	})
	files["dbt_project.yml"] += "snapshots:\n  yp:\n    +third_bogus: 3\n"
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var ws []string
	for _, w := range m.Warnings {
		ws = append(ws, w.String())
	}
	all := strings.Join(ws, "\n")
	for _, want := range []string{
		`models/sub/m.yml:5:7: unknown config key "bogus_key"`,
		`snapshots/s.yml:8:7: unknown config key "another_bogus"`,
		`dbt_project.yml:7:5: unknown config key "third_bogus"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings:\n%s\nwant one starting %s", all, want)
		}
	}
	for _, w := range ws {
		if strings.Contains(w, "third_bogus") && !strings.HasPrefix(w, "dbt_project.yml:") {
			t.Errorf("folder key warned away from dbt_project.yml: %s", w)
		}
	}
	rr, _ := runDir(t, dir)
	for _, r := range rr.Results {
		if r.Name == "s2" && !strings.Contains(r.Message, "snapshots/s.yml:14:") {
			t.Errorf("s2: %s %q, want its error at snapshots/s.yml:14 (unique_key)", r.Status, r.Message)
		}
	}
}
