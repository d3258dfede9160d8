package render

import (
	"fmt"
	"testing"
	"time"
)

func TestRender(t *testing.T) {
	env, errs := NewEnv(map[string]string{
		"macros/a.sql": "{% macro cents(col, scale=100) %}({{ col }} / {{ scale }}){% endmacro %}",
		"macros/b.sql": "{% macro via_ref() %}{{ ref('x') }}{% endmacro %}{% macro cents() %}{% endmacro %}",
	})
	if len(errs) != 1 || errs[0].File != "macros/b.sql" {
		t.Fatalf("want one duplicate-macro error in b.sql, got %+v", errs)
	}
	ref := Wrap(func(a Args) (any, error) {
		if a.Pos[0] == "bad" {
			return nil, fmt.Errorf("unknown ref %q", a.Pos[0])
		}
		return "main." + fmt.Sprint(a.Pos[0]), nil
	})
	this := Relation{Schema: "s", Identifier: "t", Rendered: "s.t"}
	for _, tc := range []struct {
		src, out, err string
	}{
		{"select {{ cents('a') }}, {{ cents('b', scale=10) }}", "select (a / 100), (b / 10)", ""},
		{"from {{ via_ref() }} -- {{ this }} {{ this.schema }}", "from main.x -- s.t s", ""},
		{"select 1\n{{ ref('bad') }}", "", "2:1: unknown ref \"bad\""},
		{"select 1\n{% for x in [1] %}\n  {{ ref('bad') }}\n{% endfor %}", "", "3:3: unknown ref \"bad\""},
		{"select {{ 1 + }}", "", "1:15: Jinja syntax error: expected either a number, string, keyword or identifier. (near \"}}\")"},
		{"select 1\n{% if true %}", "", "2:14: Jinja syntax error: Unexpected EOF, expected tag elif or else or endif."},
	} {
		tpl, err := env.Parse("m.sql", tc.src)
		var out string
		if err == nil {
			out, err = tpl.Render(map[string]any{"ref": ref, "this": this})
		}
		if got := fmt.Sprint(err); (err != nil || tc.err != "") && got != tc.err {
			t.Errorf("%q: error %q, want %q", tc.src, got, tc.err)
		}
		if out != tc.out {
			t.Errorf("%q: got %q, want %q", tc.src, out, tc.out)
		}
	}
}

// An error two macros deep names the innermost macro's file and line, and
// the model's own line that made the call (not the calling macro's line).
func TestMacroErrorPositions(t *testing.T) {
	env, _ := NewEnv(map[string]string{
		"macros/a.sql": "{% macro outer(x) %}\n{{ return(inner(x)) }}\n{% endmacro %}\n{% macro inner(x) %}\n{% set y = 1 %}\n\n{{ boom(x) }}\n{% endmacro %}",
	})
	boom := Wrap(func(a Args) (any, error) { return nil, fmt.Errorf("kaput") })
	for _, tc := range []struct{ src, err string }{
		{"select 1\n\n-- x\n\n  {% set r = outer(1) %}\nselect 2", "5:3: in macro inner (macros/a.sql:7): kaput"},
		{"select 1\n{{ inner(1) }}", "2:1: in macro inner (macros/a.sql:7): kaput"},
		{"{% do adapter.no_such('x') %}", "1:1: no_such() is not a method docket provides (unknown to this object)"},
	} {
		tpl, err := env.Parse("m.sql", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tpl.Render(map[string]any{"boom": boom})
		if got := fmt.Sprint(err); got != tc.err {
			t.Errorf("%q: error %q, want %q", tc.src, got, tc.err)
		}
	}
}

// dbt's base-context functions render as dbt renders them; a project
// macro of the same name wins.
func TestBuiltins(t *testing.T) {
	env, _ := NewEnv(map[string]string{"macros/p.sql": "{% macro print(x) %}P{{ x }}{% endmacro %}"})
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{`{{ tojson({'a': [1, 'x']}) }}`, `{"a": [1, "x"]}`},
		// dbt's json.dumps: ensure_ascii, no HTML escaping; Jinja2's |tojson
		// filter: keys sorted, <>&' escaped (htmlsafe_json_dumps)
		{`{{ tojson({'k': 'é <&> \'😀'}) }}`, `{"k": "\u00e9 <&> '\ud83d\ude00"}`},
		{`{{ {'b': 1, 'a': ['<é>', "it's"]} | tojson }}`, `{"a": ["\u003c\u00e9\u003e", "it\u0027s"], "b": 1}`},
		{`{{ fromjson('{"a": [1, 2]}')['a'][1] }}`, `2`},
		{`{{ fromjson('nope', 'dflt') }}`, `dflt`},
		{`{{ fromyaml('a: {b: 3}')['a']['b'] }}`, `3`},
		{`{{ toyaml({'k': 'v'}) | trim }}`, `k: v`},
		{`{{ local_md5('abc') }}`, `900150983cd24fb0d6963f7d28e17f72`},
		{`{{ print('x') }}`, `Px`},
		{`{{ diff_of_two_dicts({'a': ['x', 'y'], 'b': ['z']}, {'A': ['X']}) }}`, `{'a': ['y'], 'b': ['z']}`},
	})
}

// Datetime prints and formats as dbt's run_started_at (a Python datetime).
func TestDatetime(t *testing.T) {
	env, _ := NewEnv(nil)
	at := Datetime{T: time.Date(2024, 3, 5, 7, 8, 9, 123456000, time.UTC)}
	tpl, err := env.Parse("m.sql", `{{ run_started_at }}|{{ run_started_at.strftime('%Y%m%d %H:%M') }}|{{ run_started_at.isoformat() }}|{{ run_started_at.year }}|{{ run_started_at.microsecond }}|{{ run_started_at.date().day }}|{{ run_started_at.date().hour is defined }}`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tpl.Render(map[string]any{"run_started_at": at})
	if want := "2024-03-05 07:08:09.123456+00:00|20240305 07:08|2024-03-05T07:08:09.123456+00:00|2024|123456|5|False"; err != nil || out != want {
		t.Errorf("got %q, %v; want %q", out, err, want)
	}
}

// adapter.behavior flags read as off (dbt's defaults), directly or as
// .no_warn / .setting (dbt-tests-adapter's equals macro reads one).
func TestBehaviorFlags(t *testing.T) {
	env, _ := NewEnv(nil)
	tpl, err := env.Parse("m.sql", `{{ 'on' if adapter.behavior.enable_truthy_nulls_equals_macro.no_warn else 'off' }} {{ 'on' if adapter.behavior.x else 'off' }} {{ adapter.behavior.y.setting }}`)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := tpl.Render(map[string]any{}); err != nil || out != "off off False" {
		t.Errorf("got %q, %v", out, err)
	}
}
