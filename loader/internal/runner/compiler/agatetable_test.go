package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// TestAgateTable: one renderer for dbt show and a macro's print_table,
// with agate's print_table rule: a Text column left-justified, every other
// column (Integer, Number, Boolean, Date) right-justified, its header too;
// a Number column grouped by thousands with the column's most decimal
// places (at most 3, then "…", half to even, the sign kept when it rounds
// to zero); an Integer as it is; a NULL
// blank; a value or name past the width cut to "..."; a "..." column and
// row for what the limits leave out (which, as agate's, widens no
// column). Before, show left-aligned booleans
// and dates and agate.go every header; neither grouped numbers.
func TestAgateTable(t *testing.T) {
	s := func(v string) *string { return &v }
	cols := []compiler.AgateColumn{{Name: "name"}, {Name: "n", Type: compiler.AgateInteger},
		{Name: "amount", Type: compiler.AgateNumber}, {Name: "ok", Type: compiler.AgateBoolean},
		{Name: "day", Type: compiler.AgateDate}}
	rows := [][]*string{
		{s("alpha"), s("7"), s("1234.5"), s("True"), s("2024-01-02")},
		{s("a rather long name indeed"), s("1234567"), s("-0.25"), s("False"), nil},
		{nil, nil, s("1000000"), nil, s("2024-12-31")},
	}
	for _, c := range []struct {
		lim  compiler.AgateLimits
		want []string
	}{
		{compiler.AgateLimits{Rows: 20, Columns: 6, Width: 20}, []string{
			"| name                 |       n |       amount |    ok |        day |",
			"| -------------------- | ------- | ------------ | ----- | ---------- |",
			"| alpha                |       7 |     1,234.50 |  True | 2024-01-02 |",
			"| a rather long nam... | 1234567 |        -0.25 | False |            |",
			"|                      |         | 1,000,000.00 |       | 2024-12-31 |"}},
		{compiler.AgateLimits{Rows: 1, Columns: 2, Width: -1}, []string{
			"| name  | n | ... |",
			"| ----- | - | --- |",
			"| alpha | 7 | ... |",
			"| ...   | ... | ... |"}}, // agate's: the "..." row widens nothing
		{compiler.AgateLimits{Rows: -1, Columns: -1, Width: 4}, []string{
			"| name |    n | a... |   ok |  day |",
			"| ---- | ---- | ---- | ---- | ---- |",
			"| a... |    7 | 1... | True | 2... |",
			"| a... | 1... | -... | F... |      |",
			"|      |      | 1... |      | 2... |"}},
	} {
		if got, want := compiler.AgateTable(cols, rows, c.lim), strings.Join(c.want, "\n"); got != want {
			t.Errorf("%+v:\n%s\nwant\n%s", c.lim, got, want)
		}
	}
	places := [][]*string{{s("0.12345")}, {s("2")}, {s("0.0625")}, {s("-1e3")}, {s("-0.0001")}}
	got := compiler.AgateTable([]compiler.AgateColumn{{Name: "x", Type: compiler.AgateNumber}}, places, compiler.AgateLimits{Rows: -1, Columns: -1, Width: -1})
	if want := "|           x |\n| ----------- |\n|      0.123… |\n|      2.000… |\n|      0.062… |\n| -1,000.000… |\n|     -0.000… |"; got != want {
		t.Errorf("places:\n%s\nwant\n%s", got, want)
	}
}

// TestAgateTypes: dbt show's and run_query's one mapping from a column's
// DuckDB type (as DESCRIBE or the driver spells it) to the agate type dbt's
// tester gives the Python value dbt-duckdb receives; a column with no
// value is Integer whatever its type.
func TestAgateTypes(t *testing.T) {
	types := []string{"INTEGER", "UHUGEINT", "DECIMAL(10,2)", "DOUBLE", "FLOAT", "BOOLEAN", "DATE", "TIMESTAMP_NS",
		"TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ", "TIME", "TIMETZ", "INTERVAL", "UUID", "VARCHAR", "DATE[]",
		"DECIMAL(3,1)[2]", "STRUCT(k INTEGER)", "BLOB", "", "DATE", "VARCHAR"}
	has := make([]bool, len(types))
	for i := range has {
		has[i] = i < len(types)-2
	}
	var got []string
	for _, typ := range compiler.AgateTypes(types, has) {
		got = append(got, typ.String())
	}
	want := "Integer Integer Number Number Number Boolean Date DateTime DateTime DateTime Text Text Text Text Text Text " +
		"Text Text Text Text Integer Integer"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}
