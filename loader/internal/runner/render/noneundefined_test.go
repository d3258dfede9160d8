package render

import "testing"

// TestNoneIsNotUndefined: None (the literal, a dict's None value, a host
// function's nil such as config.get of an unset key) is defined and
// kept by default(), as jinja2 does; what is undefined (a missing
// attribute or key, a macro parameter the call leaves out) is not
// defined, not none, and replaced by default(). On main None was
// undefined: `none is defined` False, none | default('D') 'D', and a
// host's nil | default('y') 'y' where dbt keeps None.
func TestNoneIsNotUndefined(t *testing.T) {
	env, errs := NewEnv(map[string]string{"macros/m.sql": "{% macro p(a, b) %}{{ b is defined }} {{ b is none }} {{ b is undefined }} {{ b | default('D') }}{% endmacro %}"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx := map[string]any{"d": map[string]any{"a": nil}, "get": Wrap(func(Args) (any, error) { return nil, nil })}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ none is defined }} {{ none is undefined }} {{ none is none }} {{ none | default('D') }} {{ none | d('D') }} {{ none | default('D', true) }}`,
			`True False True None None D`},
		{`{{ d.a is defined }} {{ d['a'] is none }} {{ d.b is defined }} {{ d.b is undefined }} {{ d.b is none }} {{ d.b | default('D') }} {{ d['b'] | default('D') }}`,
			`True True False True False D D`},
		{`{{ get() is defined }} {{ get() is none }} {{ (get() | default('y')) is none }} {{ d.get('a') is defined }} {{ (d.get('a') | default('y')) is none }}`,
			`True True True True True`},
		{`{{ p(1) }}|{{ p(1, none) }}|{{ p(1, 'x') }}`, `False False True D|True True False None|True False False x`},
		{`{{ '' | default('D') }}|{{ '' | default('D', true) }}|{{ 0 | default('D', boolean=true) }}|{{ [] | default('D') }}`, `|D|D|[]`},
	})
}
