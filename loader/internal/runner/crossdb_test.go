package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestCrossDBDates: dbt.dateadd, dbt.datediff and dbt.split_part give
// what dbt-duckdb's duckdb__ versions give: weeks crossed start on Sunday
// (DuckDB's date_diff('week') counts 7-day spans), a fractional amount
// of a datepart, a split part past the end is ”; dateadd reads a quoted
// literal as a timestamp (as Postgres/Snowflake do; DuckDB has no
// string-literal + interval, which failed dbt-utils' date_spine).
func TestCrossDBDates(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/d.sql": "{{ config(materialized='table') }} select\n" +
			"  {{ dbt.datediff(\"date '2024-01-06'\", \"date '2024-01-08'\", 'week') }} as w_fwd,\n" +
			"  {{ dbt.datediff(\"date '2024-01-08'\", \"date '2024-01-06'\", 'week') }} as w_back,\n" +
			"  {{ dbt.datediff(\"date '2024-01-01'\", \"date '2024-01-21'\", 'week') }} as w_three,\n" +
			"  {{ dbt.datediff(\"timestamp '2023-12-31 23:00:00'\", \"timestamp '2024-01-01 01:00:00'\", 'year') }} as y,\n" +
			"  {{ dbt.datediff(\"timestamp '2024-01-01 10:59:00'\", \"timestamp '2024-01-01 11:01:00'\", 'hour') }} as h,\n" +
			"  cast({{ dbt.dateadd('hour', '1.5', \"timestamp '2024-01-01'\") }} as varchar) as added,\n" +
			"  cast({{ dbt.dateadd('quarter', 1, \"date '2024-01-31'\") }} as date) as q,\n" +
			"  cast({{ dbt.dateadd('day', 2, \" '2018-01-01' \") }} as varchar) as lit,\n" +
			"  {{ dbt.split_part(\"'a,b'\", \"','\", 3) }} as past_end,\n" +
			"  {{ dbt.split_part(\"'a,b,c'\", \"','\", -1) }} as last_part",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if r := resultsByName(rr)["d"]; r.Status != executor.StatusSuccess {
		t.Fatalf("%s %s", r.Status, r.Message)
	}
	var got []string
	row := db.SQL().QueryRow("select concat_ws('|', w_fwd, w_back, w_three, y, h, added, q, lit, '[' || past_end || ']', last_part) from m.d")
	var s string
	if err := row.Scan(&s); err != nil {
		t.Fatal(err)
	}
	got = strings.Split(s, "|")
	want := []string{"1", "-1", "3", "1", "1", "2024-01-01 01:30:00", "2024-04-30", "2018-01-03 00:00:00", "[]", "c"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}
