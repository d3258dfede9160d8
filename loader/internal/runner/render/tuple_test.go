package render

import (
	"testing"
)

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

// TestSetUnpacks: {% set a, b = ... %} gives each name its item of a tuple,
// a list or a bare `1, 2` (itself a tuple), as Jinja2; a count that does
// not match is Python's error. It was a parse error ("Expected '=' or end
// of tag for block-set") that stopped the whole project.
func TestSetUnpacks(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{"pair": []any{"k", 2}}, []struct{ src, out string }{
		{`{% set a, b = 1, 2 %}{{ a }}-{{ b }}`, `1-2`},
		{`{% set a, b = ('x', none) %}{{ a }}-{{ b }}`, `x-None`},
		{`{% set k, v = pair %}{{ k }}={{ v + 1 }}`, `k=3`},
		{`{% set t = 1, 'y' %}{{ t }}`, `(1, 'y')`},
		{`{% set a, b, c = [1, [2, 3], 'z'] %}{{ b[1] }}{{ c }}`, `3z`},
	})
	wantRenderErrors(t, env, map[string]any{}, map[string]string{
		`{% set a, b = [1] %}`:       "not enough values to unpack (expected 2, got 1)",
		`{% set a, b = [1, 2, 3] %}`: "too many values to unpack (expected 2)",
	})
}

// TestDictGlobal: Jinja2's dict is Python's dict(): a positional mapping
// or list of key/value pairs, then keyword arguments. The fork read
// keywords only, so dict({'a': 1}) rendered {} without a word, and the
// keywords came in a map's random order (then sorted; now the call's).
func TestDictGlobal(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{`{{ dict({'a': 1}) }}`, `{'a': 1}`},
		{`{{ dict([('a', 1), ['b', 2]], c=3) }}`, `{'a': 1, 'b': 2, 'c': 3}`},
		{`{{ dict({'a': 1}, a=2) }}`, `{'a': 2}`},
		{`{{ dict(z=1, y=2, x=3, w=4, v=5) }}`, `{'z': 1, 'y': 2, 'x': 3, 'w': 4, 'v': 5}`}, // the call's order, as Python
		{`{{ dict() }}`, `{}`},
	})
	for _, src := range []string{`{{ dict(1) }}`, `{{ dict([1, 2]) }}`, `{{ dict({}, {}) }}`} {
		tpl, err := env.Parse("m.sql", src)
		if err == nil {
			_, err = tpl.Render(map[string]any{})
		}
		if err == nil {
			t.Errorf("%s: want an error", src)
		}
	}
}

// TestSequenceOperators: + and * on tuples and lists as Python's: a tuple
// plus a tuple is a tuple, a list or tuple times an integer repeats it.
// Before, ('a',) + ('b',) rendered the list ['a', 'b'], and [0] * 3 and
// ('-',) * 2 rendered 0 (the list read as the integer 0) without a word.
func TestSequenceOperators(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{`{{ ('a',) + ('b', 1) }}`, `('a', 'b', 1)`},
		{`{{ [1] + [2] }}`, `[1, 2]`},
		{`{{ [0] * 3 }} {{ 2 * ['x'] }}`, `[0, 0, 0] ['x', 'x']`},
		{`{{ ('-',) * 2 }} {{ [1] * 0 }} [{{ 'ab' * -1 }}]`, `('-', '-') [] []`},
		{`{{ 'ab' * 2 }} {{ 2 * 'ab' }} {{ 2 * 3 }} {{ 1.5 * 2 }}`, `abab abab 6 3.0`},
	})
}

// TestDictsKeepInsertionOrder: a dict keeps Python's insertion order
// wherever a template sees it: dict(b=1, a=2), keys(), values(), items()
// (as (key, value) tuples), copy(), update()'s new keys, a macro's
// **kwargs, and dbt's tojson (json.dumps without sort_keys; Jinja2's
// tojson filter still sorts, as it does); a float in JSON is Python's
// 1.0; a list plus a tuple is Python's TypeError. Before: dict(b=1, a=2)
// and kwargs printed {'a': 2, 'b': 1}, keys() ['a', 'b'], update() added
// keys sorted, tojson wrote {"a": 2, "b": 1} and 1, [1] + (2,) was [1, 2]:
// SQL or a config a macro built from them differed from dbt's silently.
func TestDictsKeepInsertionOrder(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	gm := map[string]any{"e": 5, "b": 2, "d": 4, "a": 1, "c": 3}
	wantRendered(t, env, map[string]any{"gm": gm}, []struct{ src, out string }{
		{`{{ dict(b=1, a=2) }} {{ dict({'z': 0}, b=1, a=2) }}`, `{'b': 1, 'a': 2} {'z': 0, 'b': 1, 'a': 2}`},
		{`{% set d = {'b': 1, 'a': 2} %}{{ d.keys() | list }} {{ d.values() | list }} {{ d.items() | list }} {{ d.copy().keys() | list }}`,
			`['b', 'a'] [1, 2] [('b', 1), ('a', 2)] ['b', 'a']`},
		{`{% set d = {'b': 1} %}{% do d.update({'z': 2, 'a': 3}) %}{% do d.update(y=1, c=2) %}{{ d }}`, `{'b': 1, 'z': 2, 'a': 3, 'y': 1, 'c': 2}`},
		{`{% macro m() %}{{ kwargs }} {{ kwargs.keys() | list }}{% endmacro %}{{ m(b=1, a=2) }}`, `{'b': 1, 'a': 2} ['b', 'a']`},
		{`{{ tojson({'b': 1.0, 'a': [2.5, 1e20]}) }} {{ tojson(dict(b=1, a=2), sort_keys=true) }} {{ tojson(1.0) }}`,
			`{"b": 1.0, "a": [2.5, 1e+20]} {"a": 2, "b": 1} 1.0`},
		{`{{ {'b': 1.0, 'a': 2} | tojson }}`, `{"a": 2, "b": 1.0}`},
		// dictsort and items see a dict literal, dict() and **kwargs (they
		// gave [] for all three: Value.Items read only Go maps), a Go map
		// (a YAML mapping) sorted, not in its random order
		{`{% macro m() %}{{ kwargs | dictsort }}|{{ kwargs | items | list }}{% endmacro %}{{ m(b=1, a=2) }}`,
			`[('a', 2), ('b', 1)]|[('b', 1), ('a', 2)]`},
		{`{{ {'b': 1, 'a': 2} | dictsort }} {{ dict(b=1) | items | list }} {{ gm | items | list }}`,
			`[('a', 2), ('b', 1)] [('b', 1)] [('a', 1), ('b', 2), ('c', 3), ('d', 4), ('e', 5)]`},
	})
	wantRenderErrors(t, env, map[string]any{}, map[string]string{
		`{{ [1] + (2,) }}`: `can only concatenate list (not "tuple") to list`,
		`{{ (1,) + [2] }}`: `can only concatenate tuple (not "list") to tuple`,
	})
}
