package warehouse

import (
	"context"
	"database/sql/driver"
	"path/filepath"
	"strings"
	"testing"
)

func TestUDFOnEveryConn(t *testing.T) {
	ctx := context.Background()
	up := UDF{Name: "shout", Params: []string{"VARCHAR"}, Result: "VARCHAR", Version: "1",
		Fn: func(_ context.Context, a []driver.Value) (any, error) {
			return strings.ToUpper(a[0].(string)) + "!", nil
		}}
	parts := UDF{Name: "parts", Params: []string{"VARCHAR"}, Result: "STRUCT(a INTEGER, b VARCHAR)[]", Version: "1",
		Fn: func(_ context.Context, a []driver.Value) (any, error) {
			return []any{map[string]any{"a": int32(1), "b": a[0]}}, nil
		}}
	db, err := Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), Options{UDFs: []UDF{up, parts}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 2; i++ {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var s string
		if err := c.QueryRowContext(ctx, "select shout('hi')").Scan(&s); err != nil || s != "HI!" {
			t.Fatalf("got %q %v", s, err)
		}
		var n int
		if err := c.QueryRowContext(ctx, "select parts('x')[1].a").Scan(&n); err != nil || n != 1 {
			t.Fatalf("got %d %v", n, err)
		}
		defer c.Close()
	}
}
