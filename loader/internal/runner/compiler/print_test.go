package compiler_test

import (
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// TestPrintIsAMessage: dbt's print(msg) writes msg to stdout; docket
// passes it on as log(msg, info=True) does (it was dropped without a
// word), unless the project defines a print macro of its own. As in dbt,
// a template renders at parse (execute false) and again when compiled
// (execute true): an unguarded message shows twice, one under
// {% if execute %} once; the compiled render's shows when the node runs
// (ShowCompileLogs), not while parsing.
func TestPrintIsAMessage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"builtin", map[string]string{"models/a.sql": "{{ print('hello', 2) }}select 1 as x"}, []string{"hello 2", "hello 2"}},
		{"guarded", map[string]string{"models/a.sql": "{% if execute %}{{ print('compiled') }}{% else %}{{ print('parsed') }}{% endif %}select 1 as x"},
			[]string{"parsed", "compiled"}},
		{"own macro", map[string]string{"models/a.sql": "{{ print('hello') }}select 1 as x",
			"macros/p.sql": "{% macro print(x) %}{% do log('own ' ~ x, info=True) %}{% endmacro %}"}, []string{"own hello", "own hello"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, text := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(text)}
			}
			p, err := project.Parse("/nonexistent/docket-mapfs/project.yaml", []byte("version: 1\nname: mem\n"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			m, diags, err := compiler.Parse(p, compiler.ParseOptions{FS: fsys, Log: func(msg string) { got = append(got, msg) }})
			if err != nil || len(diags) > 0 {
				t.Fatal(err, diags)
			}
			m.ShowCompileLogs(m.Nodes["model.mem.a"]) // the node runs
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("messages %q, want %q", got, tc.want)
			}
		})
	}
}
