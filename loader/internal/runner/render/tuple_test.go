package render

import "testing"

// TestTuplesPrintAsPython: a tuple literal renders as Python's repr of a
// tuple, ('x',), ('a', 1), (), and stays a list for everything else
// (iteration, indexing, length, `in`, join, the list filter, %-format).
// Before, it rendered as a list: ('x',) -> ['x'], so `in {{ ids }}` built
// a DuckDB list literal where dbt's SQL has a tuple.
func TestTuplesPrintAsPython(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{`{{ ('x',) }}`, `('x',)`},
		{`{{ ('a', 1, none, true) }}`, `('a', 1, None, True)`},
		{`{{ () }}`, `()`},
		{`{{ [('a', 1), ('b', (2,))] }}`, `[('a', 1), ('b', (2,))]`},
		{`{{ "x" ~ ('y', 'z') }}`, `x('y', 'z')`},
		{`{{ ('a', 'b') | list }} {{ ('a', 'b') | join(',') }} {{ ('a', 'b') | length }} {{ ('a', 'b')[1] }}`, `['a', 'b'] a,b 2 b`},
		{`{% for x in (1, 2) %}{{ x }}{% endfor %} {{ 'b' in ('a', 'b') }} {{ 'c' in ('a', 'b') }}`, `12 True False`},
		{`{% set t = (1, 2) %}{{ '%s-%s' % t }} {{ (3) }}`, `1-2 3`},
	})
}
