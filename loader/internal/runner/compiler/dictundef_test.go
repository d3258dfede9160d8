package compiler_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestDictMissingKeyIsUndefined: a key a dict lacks, read as an attribute
// or by a string subscript, is Jinja2's Undefined as dbt's run-time
// environment has it (Jinja2's default Undefined): "" printed, falsy,
// `is defined` false, default() and `or` fall back; a name set nowhere is
// still an error. Each line's want is jinja2 3.1.6's output. Both were
// "attribute 'x' not found": dbt-project-evaluator's graph unpacking
// (`node.raw_sql or node.raw_code`, a source's `node.alias`, a model's
// `node.column_name`) stopped its stg_nodes and stg_sources.
func TestDictMissingKeyIsUndefined(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "{% set d = {'a': 1} %}select '[{{ d.x }}] {{ d.x is defined }} {{ d['y'] is defined }} {{ d.x or 'fb' }} " +
			"[{{ d.x | replace('a', 'b') }}] {{ d.x | trim }}|{{ d.x ~ 'z' }}|{{ d.x | length }}|{{ d.x | default('dd') }}|{{ d.get('x') is none }}' as v",
		"models/sources.yml": "version: 2\nsources:\n  - name: raw\n    tables:\n      - name: docs\n",
		"models/g.sql": "select 1 as one -- a\n{% for n in graph.nodes.values() | sort(attribute='name') %}, '{{ n.name }}:{{ (n.raw_sql or n.raw_code) | length > 0 }}:{{ n.column_name is defined }}' as n{{ loop.index }}{% endfor %}" +
			"{% for s in graph.sources.values() %}, '{{ s.alias is defined }}:{{ 'NULL' if not s.alias else s.alias }}:{{ s.identifier }}' as s{% endfor %}",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	if got, want := strings.TrimSpace(m.Nodes["model.mem.a"].CompiledCode), "select '[] False False fb [] |z|0|dd|True' as v"; got != want {
		t.Errorf("a.sql\n got  %s\n want %s", got, want)
	}
	run, err := m.ForRun(compiler.RunContext{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.RenderDB(context.Background(), nil, m.Nodes["model.mem.g"], false)
	if err != nil {
		t.Fatal(err)
	}
	if want := ", 'a:True:False' as n1, 'g:True:False' as n2, 'False:NULL:docs' as s"; !strings.Contains(out, want) {
		t.Errorf("g.sql rendered\n%s\nwant it to hold\n%s", out, want)
	}
	_, diags = compilertest.Compile(t, map[string]string{"models/bad.sql": "select '{{ not_a_name.x }}' as v"})
	if got := compilertest.Strings(diags); len(got) != 1 || !strings.Contains(got[0], "not_a_name") {
		t.Errorf("diagnostics %q, want the undefined name", got)
	}
}

// TestDictMissingKeyRaisesAsJinja2: a dict's missing key is Jinja2's
// Undefined, not None (review45 on e07f0d62): dbt raises UndefinedError
// where it is compared, computed with, or given to int, float, abs, round,
// indent or tojson, and Undefined == None is False. docket went on silently:
// d.x | int was 0, d.x > 1 False (`{% if node.config.threshhold > 5 %}` took
// the else branch where dbt stops), d.x == none True. Wants printed by
// jinja2 3.1.6's default Undefined (dbt's run-time environment).
func TestDictMissingKeyRaisesAsJinja2(t *testing.T) {
	pre := "{% set d = {'a': 1} %}"
	m, diags := compilertest.Compile(t, map[string]string{
		"models/ok.sql": pre + "select '{{ d.x == none }} {{ d.x != none }} {{ d.x == d.y }} {{ 'a' in d.x }} [{{ d.x | lower }}] {{ d.x | length }} {{ d.x is none }}' as v",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	if got, want := strings.TrimSpace(m.Nodes["model.mem.ok"].CompiledCode), "select 'False True True False [] 0 False' as v"; got != want {
		t.Errorf("ok.sql\n got  %s\n want %s", got, want)
	}
	for _, expr := range []string{"d.x | int", "d.x | float", "d.x > 1", "d.x < 1", "d.x + 1", "-d.x", "d.x | abs", "d.x | round", "d.x | indent(2)", "d['x'] >= 0", "d.x | tojson"} {
		_, diags := compilertest.Compile(t, map[string]string{"models/bad.sql": pre + "select '{{ " + expr + " }}' as v"})
		if got := compilertest.Strings(diags); len(got) != 1 || !strings.Contains(got[0], "'dict object' has no attribute 'x'") {
			t.Errorf("%s: diagnostics %q, want Jinja2's UndefinedError", expr, got)
		}
	}
}
