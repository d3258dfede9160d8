package render

import "testing"

// TestNoneRendersNone: as Jinja2 prints Python's None (dbt-core compiles
// `{{ None }} and {{ none }}` to "None and None"), the literal, a name set
// to it, a parameter defaulting to it and a list holding it print None; an
// undefined value (a parameter the call leaves out) still prints "".
// Before, every None printed "".
func TestNoneRendersNone(t *testing.T) {
	e, errs := NewEnv(map[string]string{"m.sql": "{% macro d(a=none, b) %}{{ a }}/{{ b }}{% endmacro %}"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	src := "{{ None }} and {{ none }}|{% set y = none %}{{ y }}|{{ y is none }}|{{ d() }}|{{ [none] }}|{{ 'a' if none else 'b' }}"
	tpl, err := e.Parse("t", src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tpl.Render(nil)
	if want := "None and None|None|True|None/|[None]|b"; err != nil || out != want {
		t.Errorf("%q renders %q (%v), want %q", src, out, err, want)
	}
}

// TestNoneAsJinja2: None as jinja2 3.1.6 renders it (each expected text
// below is jinja2's output for the same template, with the do and
// loopcontrols extensions dbt loads): a host's None (dict.get,
// list.append, dict.update, a dict's value) prints "None" as the
// literal does (it printed ""), and so through ~, join, string, upper,
// replace, tojson, pprint, a list's or dict's repr; filters take
// str(None) (title gave "", center measured it as empty); what jinja2
// leaves Undefined prints "" ([] | first, loop.previtem at the first
// item, a macro parameter left out, an empty macro).
func TestNoneAsJinja2(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{"{{ none }}", "None"},
		{"{{ {}.get('x') }}", "None"},
		{"{{ [] | first }}", ""},
		{"{{ [] | last }}", ""},
		{"{{ [] | max }}", ""},
		{"{{ [] | min }}", ""},
		{"{{ none ~ 'x' }}", "Nonex"},
		{"{{ [none] | join(',') }}", "None"},
		{"{{ none | string }}", "None"},
		{"{{ none | default('d') }}", "None"},
		{"{% set d = {'a': none} %}{{ d.a }}|{{ d['a'] }}", "None|None"},
		{"{{ [1, none, 'a'] }}", "[1, None, 'a']"},
		{"{{ (none,) }}", "(None,)"},
		{"{{ none | upper }}", "NONE"},
		{"{{ none | lower }}", "none"},
		{"{{ none | trim }}", "None"},
		{"{{ none | replace('N', 'n') }}", "none"},
		{"{{ none | int }}|{{ none | float }}", "0|0.0"},
		{"{{ '%s' % none }}", "None"},
		{"{{ none | tojson }}", "null"},
		{"{% if none %}y{% else %}n{% endif %}", "n"},
		{"{{ 'a' if none else 'b' }}", "b"},
		{"{{ none == none }}", "True"},
		{"{{ [none, 1] | select | list }}", "[1]"},
		{"{{ [none, 1] | reject('none') | list }}", "[1]"},
		{"{{ {'a': none} | dictsort }}", "[('a', None)]"},
		{"{{ none | capitalize }}|{{ none | title }}|{{ none | e }}", "None|None|None"},
		{"{{ none | wordcount }}", "1"},
		{"{% macro m(x) %}[{{ x }}]{% endmacro %}{{ m() }}{{ m(none) }}", "[][None]"},
		{"{% set x = none %}{{ x }}", "None"},
		{"{% for i in [none] %}{{ i }}{% endfor %}", "None"},
		{"{% for i in [1] %}[{{ loop.previtem }}][{{ loop.nextitem }}]{% endfor %}", "[][]"},
		{"{{ range(0) | first }}", ""},
		{"{{ {'a': 1}.pop('b', none) }}", "None"},
		{"{{ [1, 2].append(3) }}", "None"},
		{"{{ {}.update({'a': 1}) }}", "None"},
		{"{{ [none] | first }}", "None"},
		{"{{ none | pprint }}", "None"},
		{"{% set ns = namespace(a=none) %}{{ ns.a }}", "None"},
		{"{{ dict(a=none) }}", "{'a': None}"},
		{"{{ none | safe }}", "None"},
		{"{{ [none] | map('string') | list }}", "['None']"},
		{"{{ [none] | sum(start=0) if false else 'skip' }}", "skip"},
		{"{% macro n() %}{% endmacro %}[{{ n() }}]", "[]"},
		{"{{ none | center(6) }}|", " None |"},
		{"{{ [{'a': none}] | map(attribute='a') | list }}", "[None]"},
		{"{{ [{'a': 1}, {'a': none}] | selectattr('a') | list }}", "[{'a': 1}]"},
		{"{{ none is defined }}|{{ none is undefined }}|{{ none is none }}", "True|False|True"},
		{"{{ [none] | unique | list }}", "[None]"},
		{"{{ none | list if false else 'x' }}", "x"},
		{"{{ [] | random if false else 'r' }}", "r"},
		{"{{ {'k': none}.items() | list }}", "[('k', None)]"},
		{"{{ none | striptags }}", "None"},
		{"{{ none | format }}", "None"},
		{"{{ 'x%sy' | format(none) }}", "xNoney"},
		{"{{ (none | string)[0] }}", "N"},
		{"{{ none | attr('x') if false else 'a' }}", "a"},
		{"{{ none | reverse if false else 'r' }}", "r"},
		{"{{ [none] | batch(1) | list }}", "[[None]]"},
		{"{{ [3, none] | slice(2) | list }}", "[[3], [None]]"},
		{"{{ none | xmlattr if false else 'xa' }}", "xa"},
		{"{{ none ~ none }}", "NoneNone"},
		{"{{ [none] ~ '' }}", "[None]"},
		{"{{ {'a': none} ~ '' }}", "{'a': None}"},
	})
}
