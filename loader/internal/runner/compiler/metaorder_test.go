package compiler_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestMetaOrder: meta keeps dbt's dict order end to end: the project file's
// +meta keys, then the YAML's, then config()'s (dict.update: a key set
// again keeps its first place), a nested mapping in its file's order,
// in manifest.json and the template graph (node.meta, node.config.meta,
// a column's meta). Main sorted every one (Go maps).
func TestMetaOrder(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nmodels:\n  +meta: {zz: 1, aa: 2, b: 0}\n",
		"models/s.yml": "version: 2\nmodels:\n  - name: m\n    config:\n      meta: {zeta: 1, alpha: 2.0, mid: {y: 1, b: 2}}\n" +
			"    columns:\n      - name: id\n        meta: {z: 1, a: 2}\n",
		"models/m.sql": "{{ config(meta={'q': 1, 'b': 2}) }}\nselect 1 as id\n",
		"models/g.sql": "{% for n in graph.nodes.values() if n.name == 'm' %}{{ n.meta }}|{{ n.config.meta.keys() | list }}|" +
			"{{ tojson(n.columns.id.meta) }}|{% for k, v in n.meta.mid.items() %}{{ k }}{% endfor %}{% endfor %}",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	const want = `{"zz":1,"aa":2,"b":2,"zeta":1,"alpha":2.0,"mid":{"y":1,"b":2},"q":1}`
	doc := m.ManifestDoc().Nodes["model.mem.m"]
	for _, got := range []any{doc["meta"], doc["config"].(map[string]any)["meta"]} {
		b, err := json.Marshal(got)
		if err != nil || string(b) != want {
			t.Errorf("manifest meta %s (%v), want %s", b, err, want)
		}
	}
	col := doc["columns"].(map[string]any)["id"].(map[string]any)["meta"]
	if b, _ := json.Marshal(col); string(b) != `{"z":1,"a":2}` {
		t.Errorf("manifest column meta %s, want z then a", b)
	}
	run, err := m.ForRun(compiler.RunContext{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.RenderDB(context.Background(), nil, m.Nodes["model.mem.g"], false)
	if err != nil {
		t.Fatal(err)
	}
	wantOut := "{'zz': 1, 'aa': 2, 'b': 2, 'zeta': 1, 'alpha': 2.0, 'mid': {'y': 1, 'b': 2}, 'q': 1}|" +
		"['zz', 'aa', 'b', 'zeta', 'alpha', 'mid', 'q']|{\"z\": 1, \"a\": 2}|yb"
	if strings.TrimSpace(out) != wantOut {
		t.Errorf("graph:\n got %s\nwant %s", out, wantOut)
	}
}
