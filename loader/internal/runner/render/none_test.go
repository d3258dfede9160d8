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
