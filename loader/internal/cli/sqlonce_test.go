package cli

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

// TestSQLRunsAFailingQueryOnce: docket sql runs the user's query once. A
// query that failed at run time ran twice (wrapped to cast its columns to
// VARCHAR, then on any error as written): a side effect happened twice
// and the error shown was the second run's. A statement the wrapping
// cannot take (SHOW) still runs as written, and a query with a
// placeholder fails with DuckDB's own message, as before.
func TestSQLRunsAFailingQueryOnce(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "create temp sequence s; create table t(a int)"); err != nil {
		t.Fatal(err)
	}
	rows, closeQ, err := queryAsText(ctx, conn, "select error('boom ' || nextval('s'))")
	if err == nil {
		rows.Close()
		closeQ()
		t.Fatal("the failing query succeeded")
	}
	var n int
	if err2 := conn.QueryRowContext(ctx, "select currval('s')").Scan(&n); err2 != nil || n != 1 || !strings.Contains(err.Error(), "boom 1") {
		t.Errorf("the query ran %d times (%v); error %v, want boom 1", n, err2, err)
	}
	for _, q := range []string{"show tables", "select 1 as x;"} {
		rows, closeQ, err := queryAsText(ctx, conn, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		var got []string
		for rows.Next() {
			v := make([]any, len(cols))
			p := make([]any, len(cols))
			for i := range v {
				p[i] = &v[i]
			}
			rows.Scan(p...)
			got = append(got, fmt.Sprint(v[0]))
		}
		rows.Close()
		closeQ()
		if len(got) != 1 || got[0] != map[string]string{"show tables": "t", "select 1 as x;": "1"}[q] {
			t.Errorf("%s: %v", q, got)
		}
	}
	_, _, perr := queryAsText(ctx, conn, "select ? as x")
	_, want := conn.QueryContext(ctx, "select ? as x")
	if perr == nil || want == nil || perr.Error() != want.Error() {
		t.Errorf("placeholder: %v, want DuckDB's own %v", perr, want)
	}
}
