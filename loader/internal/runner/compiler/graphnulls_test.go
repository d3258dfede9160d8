package compiler_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestGraphKeysDbtHasAsNone: the flat graph has the keys dbt's has as
// None when unset (to_dict(omit_none=False)): a node config's event_time,
// batch_size, begin, concurrent_batches (lookback 1), a model's
// time_spine and defer_relation, a source's external and
// loaded_at_query; `x == none` is True as in dbt (they were missing:
// Undefined, and Undefined == none is False). A relation's other
// attribute is Undefined as dbt's (`this.x` was an error).
func TestGraphKeysDbtHasAsNone(t *testing.T) {
	exprs := []string{
		"n.config.event_time == none", "n.config.batch_size is none", "n.config.begin == none", "n.config.concurrent_batches == none",
		"n.config.lookback", "n.time_spine == none", "n.defer_relation is none", "s.external == none", "s.loaded_at_query is none",
		"this.x is defined", "this.x == none", "this.x", "this.name",
	}
	want := []string{"True", "True", "True", "True", "1", "True", "True", "True", "True", "False", "False", "", "g"}
	var b strings.Builder
	b.WriteString("{% set n = graph.nodes['model.mem.a'] %}{% set s = graph.sources['source.mem.raw.docs'] %}-- ")
	for _, e := range exprs {
		b.WriteString("{{ " + e + " }}|")
	}
	b.WriteString("\nselect 1 as one")
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql":       "select 1 as x",
		"models/sources.yml": "version: 2\nsources:\n  - name: raw\n    tables:\n      - name: docs\n",
		"models/g.sql":       b.String(),
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	run, err := m.ForRun(compiler.RunContext{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.RenderDB(context.Background(), nil, m.Nodes["model.mem.g"], false)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimPrefix(strings.SplitN(out, "\n", 2)[0], "-- ")
	parts := strings.Split(line, "|")
	for i, e := range exprs {
		if i >= len(parts) || parts[i] != want[i] {
			t.Errorf("{{ %s }}: got %q, want %q (%s)", e, parts[min(i, len(parts)-1)], want[i], line)
		}
	}
}
