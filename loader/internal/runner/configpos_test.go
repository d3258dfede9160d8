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
	dir, _, ws := probeWarnings(t, files, "")
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

// TestConfigPathsOfEveryTree: dbt_project.yml's unit_tests: and sources:
// trees are checked for config paths nothing reaches, as models: and
// seeds: are (they were not read), and a key named like a config whose
// value is a mapping (docs:, tags: without '+') is a folder as in dbt: one
// no folder matches is warned with the '+' it lacks (it was skipped as a
// config and applied to nothing in silence).
func TestConfigPathsOfEveryTree(t *testing.T) {
	files := shapeProject("cp", map[string]string{
		"models/sub/m.sql":  "select 1 as id",
		"models/tags/t.sql": "select 2 as id",
		"models/sub/m.yml": "sources:\n  - name: raw\n    tables:\n      - name: orders\n      - name: off\n        config:\n          enabled: false\n" +
			"unit_tests:\n  - name: ut\n    model: m\n    given: []\n    expect:\n      rows:\n        - {id: 1}\n" +
			"  - name: ut_off\n    model: m\n    config:\n      enabled: false\n    given: []\n    expect:\n      rows:\n        - {id: 1}\n",
	})
	files["dbt_project.yml"] += "models:\n  cp:\n    tags:\n      +materialized: table\n    docs:\n      show: false\n" +
		"unit_tests:\n  cp:\n    sub:\n      m:\n        ut:\n          +tags: [a]\n        ut_off:\n          +tags: [b]\n        ut_gone:\n          +tags: [c]\n" +
		"sources:\n  cp:\n    sub:\n      raw:\n        orders:\n          +meta: {a: 1}\n        off:\n          +meta: {a: 2}\n        gone:\n          +meta: {a: 3}\n"
	_, m, ws := probeWarnings(t, files, "config path")
	want := []string{
		"dbt_project.yml:9:5: models: cp.docs is a config path no model reaches (no folder or node docs): the configs under it apply to nothing (to set the config docs, write +docs)",
		"dbt_project.yml:19:9: unit_tests: cp.sub.m.ut_gone is a config path no unit test reaches (no folder or node sub/m/ut_gone): the configs under it apply to nothing",
		"dbt_project.yml:29:9: sources: cp.sub.raw.gone is a config path no source reaches (no folder or node sub/raw/gone): the configs under it apply to nothing",
	}
	if strings.Join(ws, "\n") != strings.Join(want, "\n") {
		t.Errorf("config path warnings:\n%s\nwant:\n%s", strings.Join(ws, "\n"), strings.Join(want, "\n"))
	}
	if n := m.Nodes["model.cp.t"]; n == nil || n.Config.Materialized != "table" {
		t.Errorf("the folder tags/ took no +materialized from tags: in dbt_project.yml")
	}
}
