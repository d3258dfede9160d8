package runner

import (
	"fmt"
	"strings"
	"testing"
)

// TestUnitTestValueTypes: given and expected values are cast as dbt casts
// str() of what PyYAML read (dbt-duckdb's TestUnitTestingTypesDuckDB): a
// YAML list (`[1, 2, 3]`, `['a','b']`), a flow mapping (a STRUCT) and a
// timestamp with an offset (`2013-11-03 00:00:00-0`). They were errors
// ('1 2 3' to INT32, map[...] to STRUCT, "not UTC"). A wrong expectation
// still fails.
func TestUnitTestValueTypes(t *testing.T) {
	cases := [][2]string{{"ARRAY[1,2,3]", "[1, 2, 3]"}, {"ARRAY['a','b']", "['a','b']"},
		{"{'Alberta':'Edmonton','Manitoba':'Winnipeg'}", "{'Alberta':'Edmonton','Manitoba':'Winnipeg'}"},
		{"TIMESTAMP '2013-11-03 00:00:00-0'", "2013-11-03 00:00:00-0"}, {"'2013-11-03 00:00:00-0'::TIMESTAMPTZ", "2013-11-03 00:00:00-0"},
		{"ARRAY[1,2,3]", "[1, 2, 4]"}} // the last one's expectation is wrong
	files := map[string]string{}
	yml := []string{"unit_tests:"}
	for i, c := range cases {
		files[fmt.Sprintf("models/up_%d.sql", i)] = "select " + c[0] + " as v"
		files[fmt.Sprintf("models/m_%d.sql", i)] = fmt.Sprintf("select * from {{ ref('up_%d') }}", i)
		given := c[1]
		if i == len(cases)-1 {
			given = "[1, 2, 3]"
		}
		yml = append(yml, fmt.Sprintf("  - name: t_%d\n    model: m_%d\n    given:\n      - input: ref('up_%d')\n        rows:\n          - {v: %s}\n    expect:\n      rows:\n        - {v: %s}", i, i, i, given, c[1]))
	}
	files["models/unit.yml"] = strings.Join(yml, "\n") + "\n"
	dir := writeProbe(t, shapeProject("ut", files))
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	_, rr := buildProbe(t, m)
	got := resultsByName(rr)
	for i := range cases {
		want := "pass"
		if i == len(cases)-1 {
			want = "fail"
		}
		if r := got[fmt.Sprintf("t_%d", i)]; r.Status != want {
			t.Errorf("t_%d (%s): %s %q, want %s", i, cases[i][1], r.Status, r.Message, want)
		}
	}
}
