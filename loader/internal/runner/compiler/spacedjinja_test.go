package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestSpacedJinjaWarned: "{ { ref('a') } }" (a formatter's space between
// the braces) is no Jinja: dbt and docket send it to the database as
// written, so the node loses the ref without a word (the test below ran
// with no parent, then failed with "syntax error at or near {";
// zazu-22/ff_data_analytics' assert_sleeper_commissioner_roster_parity.sql).
// It is a warning at its line; the same text in a comment or a string
// literal is not.
func TestSpacedJinjaWarned(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\n",
		"models/a.sql": "select 1 as id",
		"tests/t.sql":  "-- { { ref('a') } } in a comment\nselect '{ { ref(''a'') } }' as s\nfrom { { ref('a') } }\nwhere { % if true % } 1 { % endif % }",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	var got []string
	for _, w := range compilertest.Strings(m.Warnings) {
		if strings.Contains(w, "is not Jinja") {
			got = append(got, w)
		}
	}
	want := []string{
		"tests/t.sql:3:6: \"{ { ref\" is not Jinja (a space between the braces): dbt and docket send it to the database as written, so this ref is not read; write {{ ref",
		"tests/t.sql:4:7: \"{ % if\" is not Jinja (a space between the brace and %): dbt and docket send it to the database as written; write {% if",
		"tests/t.sql:4:25: \"{ % endif\" is not Jinja (a space between the brace and %): dbt and docket send it to the database as written; write {% endif",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
