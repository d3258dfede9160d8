package render

import (
	"strings"
	"testing"
)

// TestDbtJinjaSyntax: Jinja that dbt packages (dbt-utils) use and that
// upstream gonja v2.9.1 could not parse; the fork in third_party/gonja
// reads each as Jinja2 does.
func TestDbtJinjaSyntax(t *testing.T) {
	env, errs := NewEnv(map[string]string{
		"macros/a.sql": "{% macro inner(a, b=1, c=2) %}{{ a }}-{{ b }}-{{ c }}{% endmacro %}" +
			"{% macro outer(a) %}{{ inner(a, **kwargs) }}{% endmacro %}" +
			"{% macro spread(first) %}{{ inner(first, *varargs) }}{% endmacro %}" +
			"{% macro star(*cols) %}{{ cols | join(',') }}{% endmacro %}",
	})
	if len(errs) > 0 {
		t.Fatalf("macros: %+v", errs)
	}
	wantRendered(t, env, map[string]any{"x_": false}, []struct{ src, out string }{
		{"{{ 'A' in ['a', 'b'] | map('lower') }}", "False"},
		{"{{ 'a'|upper|lower in ['A', 'B'] | map('lower') }}", "True"},
		{"{{ 'c' not in ['a', 'b'] }}", "True"},
		{"{{ 'a' not in ['a'] and 1 }}", "False"},
		{"{% if 'x' not in ['a'] | map('upper') and 2 in [1, 2] %}yes{% endif %}", "yes"},
		{"{{ 'cast(' ~ ('date' if false else 'ts') ~ ')' }}", "cast(ts)"},
		{"{% set x = 1 if none is none else 2 %}{{ x }}", "1"},
		{"{% set x = [1, 2] if true else [] %}{{ x | length }}", "2"},
		{"{{ [('a' if true), 'b'] | join }}", "ab"},
		{"{% for c in [1, 2, 3] if c > 1 %}{{ c }}{% endfor %}", "23"},
		{"{{ inner('x', c=3,) }}", "x-1-3"},
		{"{{ inner(\n  'x',\n  b=5,\n) }}", "x-5-2"},
		{"{{ outer('y', c=9) }}", "y-1-9"},
		{"{{ spread('z', 7, 8) }}", "z-7-8"},
		{"{{ star('a', 'b') }}", "a,b"},
		{"{{ inner(*['p', 'q']) }}", "p-q-2"},
		{"{{ inner('p', **{'c': 4}) }}", "p-1-4"},
		{"{{ none is none }}", "True"},
		{"{{ 'S'.lower() in ['s'] }} {{ 'X'.lower() not in ['Y', 'x']|map('lower') }}", "True False"},
		{"{{ (\n  1\n) }}{% if x_\n  and\n  1 %}{% endif %}", "1"},
	})
	// a macro that does not read kwargs still refuses an unknown keyword
	tpl, err := env.Parse("m.sql", "{{ inner('x', d=1) }}")
	if err == nil {
		_, err = tpl.Render(map[string]any{})
	}
	if err == nil {
		t.Errorf("inner(d=1): want an error for the unknown keyword")
	}
}

func TestDbtJinjaSyntaxMore(t *testing.T) {
	env, _ := NewEnv(nil)
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		// a name set only on one branch renders "" (Jinja2's undefined)
		{"{% if false %}{% set gb = 'a, ' %}{% endif %}[{{ gb }}]", "[]"},
		{"{%- if (\n  ('a'|lower in ['A']|map('lower') or not []) and\n  ('b'|lower not in ['c']|map('lower') or not ['c'])\n  ) -%}ok{%- endif -%}", "ok"},
	})
	// a name never set anywhere is still an error
	tpl, err := env.Parse("m.sql", "{{ nowhere }}")
	if err == nil {
		_, err = tpl.Render(map[string]any{})
	}
	if err == nil {
		t.Errorf("{{ nowhere }}: want an undefined-name error")
	}
}

// TestJinjaStringEscapes: a Jinja string literal decodes escapes as
// Jinja2 does (Python's unicode-escape): \n, \t, \\, \', \", \xhh and
// \uhhhh are decoded, any other backslash stays as written. A regular
// expression in a string ('^\s*([0-9]+)\s+(day|week)$', a real project's
// modules.re.match) was a syntax error that stopped the whole project,
// and its macros resolved to nothing.
func TestJinjaStringEscapes(t *testing.T) {
	env, _ := NewEnv(nil)
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{`{{ '^\s*([0-9]+)\s+(day|week)\s*$' }}`, `^\s*([0-9]+)\s+(day|week)\s*$`},
		{`{{ "a\.b\d" }}`, `a\.b\d`},
		{`{{ 'x\ty' }}|{{ 'l1\nl2' }}`, "x\ty|l1\nl2"},
		{`{{ 'it\'s' }} {{ "say \"hi\"" }} {{ 'back\\slash' }}`, `it's say "hi" back\slash`},
		{`{{ '\x41\u00e9' }}`, "Aé"},
	})
}

// TestForUnpacksManyNames: {% for a, b, c in rows %} unpacks each row
// into the names, as Jinja2 does (a real project's self-check macro loops
// `for name, expr, expected in cases`); the fork took two names at most
// and the whole project failed to parse ("Expected keyword 'in'"). An
// item of another length is an error.
func TestForUnpacksManyNames(t *testing.T) {
	env, _ := NewEnv(nil)
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{"{% for a, b, c in [[1, 2, 3], ('x', 'y', 'z')] %}{{ a }}{{ b }}{{ c }}{{ loop.index }};{% endfor %}", "1231;xyz2;"},
		{"{% for n, e, x, y in [['a', 1, none, 2]] if e > 0 %}{{ n }}{{ x is none }}{{ y }}{% endfor %}", "aTrue2"},
		{"{% for k, v in {'a': 1}.items() %}{{ k }}={{ v }}{% endfor %}", "a=1"},
	})
	tpl, err := env.Parse("m.sql", "{% for a, b, c in [[1, 2]] %}{{ a }}{% endfor %}")
	if err == nil {
		_, err = tpl.Render(map[string]any{})
	}
	if err == nil || !strings.Contains(err.Error(), "cannot unpack") {
		t.Errorf("a row of 2 into 3 names: %v, want an unpack error", err)
	}
}

// TestControlStructureErrorIsPlaced: a malformed tag inside a macro is
// reported at the tag, without the template's text: it was placed at 1:1
// with the whole file quoted ("failed to parse template '{% macro ...
// <every line> ...': Unable to parse controlStructure ...").
func TestControlStructureErrorIsPlaced(t *testing.T) {
	env, _ := NewEnv(nil)
	src := "{% macro m() %}\n  {% set xs = [1, 2] %}\n  {%- for a b in xs -%}{{ a }}{% endfor %}\n{% endmacro %}"
	_, err := env.Parse("macros/m.sql", src)
	re, ok := err.(*Error)
	if !ok || re.Line != 3 || re.Col != 7 || !strings.Contains(re.Msg, `Unable to parse controlStructure "for": Expected keyword 'in'`) ||
		strings.Contains(re.Msg, "set xs") {
		t.Errorf("error %#v", err)
	}
}

// TestTrailingCommas: Jinja2 takes a trailing comma in a dict, list,
// tuple, call and macro signature (dbt projects write
// snapshot_meta_column_names={"dbt_valid_from": "x", "dbt_valid_to": "y",}
// in snapshot configs). A dict's was a syntax error ("expected either a
// number, string, keyword or identifier") that stopped the whole project
// (Fatombe/dbt_amelin's four snapshots).
func TestTrailingCommas(t *testing.T) {
	env, _ := NewEnv(nil)
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{"{% set d = {'a': 1, 'b': 2,} %}{{ d.a }}{{ d.b }}{{ d | length }}", "122"},
		{"{% set d = {\n  'a': 1,\n  } %}{{ d.a }}", "1"},
		{"{{ [1, 2,] | length }}{{ (1,) | length }}{{ (1, 2,) | length }}", "212"},
		{"{% macro m(a, b=2,) %}{{ a }}{{ b }}{% endmacro %}{{ m(1,) }}{{ m(a=3, b={'k': 4,}.k,) }}", "1234"},
	})
	if _, err := env.Parse("m.sql", "{% set d = {'a': 1,, 'b': 2} %}"); err == nil {
		t.Errorf("{'a': 1,, 'b': 2}: parsed, want a syntax error as Jinja2's")
	}
}

// TestDbtTextFilters: dbt's as_bool, as_number, as_native and as_text
// filters, which in SQL and macro text (dbt's TEXT_FILTERS) hand their
// value on as it is. They were "filter 'as_bool' not found", a macro's
// error (Fatombe/dbt_amelin's drop_old_relation: `dryrun | as_bool`).
func TestDbtTextFilters(t *testing.T) {
	env, _ := NewEnv(nil)
	src := "{{ x | as_bool }} {{ (x | as_bool) == true }} {{ '3' | as_number }} {{ [1] | as_native | length }} {{ 'a' | as_text }}"
	tpl, err := env.Parse("m.sql", src)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := tpl.Render(map[string]any{"x": true}); err != nil || out != "True True 3 1 a" {
		t.Errorf("got %q, %v; want %q", out, err, "True True 3 1 a")
	}
}

// wantRenderErrors parses each src (a key of cases) and renders it with
// ctx: the render must fail with an error holding cases[src] (the
// render tests' shared loop for Python's errors).
func wantRenderErrors(t *testing.T, env *Env, ctx map[string]any, cases map[string]string) {
	t.Helper()
	for src, want := range cases {
		tpl, err := env.Parse("m.sql", src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if out, err := tpl.Render(ctx); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %q, error %v, want %q", src, out, err, want)
		}
	}
}

// wantRendered parses each case's src and renders it with ctx: the output
// must be out, with no error (the render tests' shared loop).
func wantRendered(t *testing.T, env *Env, ctx map[string]any, cases []struct{ src, out string }) {
	t.Helper()
	for _, tc := range cases {
		tpl, err := env.Parse("m.sql", tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		out, err := tpl.Render(ctx)
		if err != nil || out != tc.out {
			t.Errorf("%q: got %q, %v; want %q", tc.src, out, err, tc.out)
		}
	}
}
