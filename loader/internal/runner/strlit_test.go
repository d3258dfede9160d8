package runner

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestStringLiteralOfARelation: dbt.string_literal(relation) is the
// relation as dbt-duckdb prints it, "database"."schema"."identifier", so
// dbt_utils.union_relations' source column holds what a dbt project parses
// (robust29's hunt: a project took split_part(_src, '.', 3) of it and got ”
// for every row, as docket wrote 'm.a'). Names in SQL stay two-part.
func TestStringLiteralOfARelation(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as x",
		"models/m/b.sql": "select {{ dbt.string_literal(ref('a').render()) }} as src, {{ dbt.string_literal(ref('a')) }} as src2,\n" +
			"  {{ dbt.string_literal('it') }} as plain, x from {{ ref('a') }}",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if r := resultsByName(rr)["b"]; r.Status != executor.StatusSuccess {
		t.Fatalf("%s %s", r.Status, r.Message)
	}
	var src, src2, plain, db3 string
	if err := db.SQL().QueryRow("select src, src2, plain, current_database() from m.b").Scan(&src, &src2, &plain, &db3); err != nil {
		t.Fatal(err)
	}
	if want := `"` + db3 + `"."m"."a"`; src != want || src2 != want || plain != "it" {
		t.Errorf("string_literal(ref('a').render()) = %s, string_literal(ref('a')) = %s, want %s; string_literal('it') = %s",
			src, src2, want, plain)
	}
}
