package compiler_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/nikolalohinski/gonja/v2/exec"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestMetaMergesAcrossLayers: meta written in the project file, a YAML
// config and the model's config() merges as dbt's (MergeBehavior.Update,
// the more specific key wins); a dict written in config() counts (it was
// dropped silently, and each layer replaced the one before).
func TestMetaMergesAcrossLayers(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nmodels:\n  +meta: {owner: a, tier: 0}\n",
		"models/s.yml": "version: 2\nmodels:\n  - name: m\n    config:\n      meta: {team: t}\n",
		"models/m.sql": "{{ config(meta={'tier': 1}) }}\nselect 1 as id\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	got := m.Nodes["model.mem.m"].Config.Meta.Vals
	if fmt.Sprintf("%v %v %v", got["owner"], got["team"], got["tier"]) != "a t 1" || len(got) != 3 {
		t.Errorf("meta %v, want owner a, team t, tier 1", got)
	}
}

// TestTopLevelMeta: a YAML entry's meta: beside config: is the node's
// config.meta (dbt's normalize_meta_attribute), a column's meta: and
// tags: are its ColumnInfo's and its tests carry the tags, and the
// template graph keeps a whole number an int. On main the three were
// dropped without a word and graph meta {n: 1} read 1.0. An entry with
// both meta: and config: meta: is refused, as dbt refuses it.
func TestTopLevelMeta(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\n",
		"models/s.yml": "version: 2\nmodels:\n  - name: m\n    meta: {owner: a, n: 1, f: 2.5, r: 2.0, big: 12345678901234567890}\n    columns:\n" +
			"      - name: id\n        meta: {pii: true}\n        tags: [key]\n        tests: [unique]\n",
		"models/m.sql": "select 1 as id\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	n := m.Nodes["model.mem.m"]
	if got := fmt.Sprintf("%v", n.Config.Meta.Vals); got != "map[big:12345678901234567890 f:2.5 n:1 owner:a r:2]" {
		t.Errorf("config.meta %s, want the entry's meta:", got)
	}
	col := n.Columns["id"]
	if fmt.Sprintf("%v %v", col.Meta.Vals, col.Tags) != "map[pii:true] [key]" {
		t.Errorf("column meta %v tags %v, want map[pii:true] [key]", col.Meta.Vals, col.Tags)
	}
	test := m.Nodes["test.mem.unique_m_id"]
	if test == nil || fmt.Sprint(test.Config.Tags) != "[key]" {
		t.Errorf("the column's test: %+v, want tags [key]", test)
	}
	graph := m.FlatGraph()["nodes"].(map[string]any)["model.mem.m"].(map[string]any)
	meta := dictVals(t, graph["meta"])
	if _, isInt := meta["n"].(int); !isInt || meta["f"] != 2.5 {
		t.Errorf("graph meta n %T %v f %v, want int 1 and 2.5", meta["n"], meta["n"], meta["f"])
	}
	// a whole float stays a float (review38: 2.0 read 2), a big int exact
	if r, isFloat := meta["r"].(float64); !isFloat || r != 2 {
		t.Errorf("graph meta r %T %v, want the float 2.0", meta["r"], meta["r"])
	}
	if fmt.Sprint(meta["big"]) != "12345678901234567890" {
		t.Errorf("graph meta big %T %v, want the exact int", meta["big"], meta["big"])
	}
	cols := graph["columns"].(map[string]any)["id"].(map[string]any)
	if fmt.Sprint(dictVals(t, cols["meta"]), cols["tags"]) != "map[pii:true] [key]" {
		t.Errorf("graph column %v", cols)
	}

	_, diags = compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\n",
		"models/s.yml": "version: 2\nmodels:\n  - name: m\n    meta: {owner: a}\n    config:\n      meta: {owner: b}\n",
		"models/m.sql": "select 1 as id\n",
	})
	if s := strings.Join(compilertest.Strings(diags), "\n"); !strings.Contains(s, "s.yml:4") || !strings.Contains(s, "as top-level key") {
		t.Errorf("meta: and config: meta: both: %s, want refused at s.yml:4", s)
	}
}

// TestDictArgumentTestName: a generic test given a dict argument is
// named from the dict's values in the file's order, as dbt's
// synthesize_generic_test_names takes list(arg_val.values()); main
// sorted the keys (expect_x_m_a1__z1).
func TestDictArgumentTestName(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":               "version: 1\nname: mem\n",
		"tests/generic/expect_x.sql": "{% test expect_x(model, opts) %}select 1 as x where false{% endtest %}\n",
		"models/s.yml": "version: 2\nmodels:\n  - name: m\n    tests:\n      - expect_x:\n          opts: {zeta: z1, alpha: a1}\n" +
			"      - expect_x:\n          arguments:\n            opts: {yy: y2, bb: b2}\n",
		"models/m.sql": "select 1 as id\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	for _, id := range []string{"test.mem.expect_x_m_z1__a1", "test.mem.expect_x_m_y2__b2"} {
		if m.Nodes[id] == nil {
			var tests []string
			for k := range m.Nodes {
				if strings.HasPrefix(k, "test.") {
					tests = append(tests, k)
				}
			}
			t.Errorf("no %s (tests: %v)", id, tests)
		}
	}
}

// dictVals is a template dict's values by key (the graph's meta is an
// ordered dict).
func dictVals(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := render.PyValue(exec.AsValue(v)).(*render.Mapping)
	if !ok {
		t.Fatalf("%T %v is not a dict", v, v)
	}
	return m.Vals
}
