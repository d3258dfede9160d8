package compiler

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// The printing methods of an agate table (run_query's result), which dbt
// run-operation macros call to show what they found: print_table
// (max_rows=20, max_columns=6, max_column_width=20, as agate's defaults),
// print_json (indent) and print_structure. agate writes to stdout; here the
// text goes where log(msg, info=True) and print() go (ParseOptions.Log),
// one message per line.

func (t *resultTable) print(method string, va *exec.VarArgs) error {
	if t.log == nil {
		return nil
	}
	kw := func(name string, pos, def int) int {
		if va != nil {
			v, ok := va.KwArgs[name]
			if !ok && pos < len(va.Args) {
				v, ok = va.Args[pos], true
			}
			switch {
			case ok && v.IsInteger():
				return v.Integer()
			case ok && v.IsNil():
				return -1 // None: no limit
			}
		}
		return def
	}
	var text string
	switch method {
	case "print_json":
		text = t.json(kw("indent", 0, -1))
	case "print_structure":
		text = t.structure()
	default:
		text = t.table(kw("max_rows", 0, 20), kw("max_columns", 1, 6), kw("max_column_width", 3, 20))
	}
	for _, line := range strings.Split(text, "\n") {
		t.log(line)
	}
	return nil
}

// table is agate's print_table (AgateTable) of the first maxCols columns
// and maxRows rows, values cut at maxWidth.
func (t *resultTable) table(maxRows, maxCols, maxWidth int) string {
	types := t.columnTypes()
	cols := make([]AgateColumn, len(t.names))
	for i, n := range t.names {
		cols[i] = AgateColumn{Name: n, Type: types[i]}
	}
	cells := make([][]*string, len(t.rows))
	for i, r := range t.rows {
		cells[i] = make([]*string, len(cols))
		for j, v := range r.vals {
			if v != nil && j < len(cols) {
				s := agateText(v)
				cells[i][j] = &s
			}
		}
	}
	return AgateTable(cols, cells, AgateLimits{Rows: maxRows, Columns: maxCols, Width: maxWidth})
}

// columnTypes is each column's agate type: as the driver gave the values
// (query), else as the values are now.
func (t *resultTable) columnTypes() []AgateType {
	if len(t.types) == len(t.names) {
		return t.types
	}
	vals := make([][]any, len(t.rows))
	for i, r := range t.rows {
		vals[i] = r.vals
	}
	return agateTypes(len(t.names), vals)
}

// AgateTypes is what dbt's type tester makes of each column of a DuckDB
// result (dbt_common's table_from_data_flat: Integer, Number, Date,
// DateTime, Boolean, Text, the first that takes every value; a string, list
// or dict forces Text): the agate type of the Python value DuckDB's client
// hands dbt-duckdb for the column's DuckDB type (AgateTypeOf), and Integer,
// the tester's first type, for a column with no value that is not null
// (nulls only, or no rows), whatever its DuckDB type. dbTypes[i] names
// column i's type as DESCRIBE or the driver spells it; hasValue[i] says
// whether it holds a value that is not null. dbt show and run_query build
// their tables this one way.
func AgateTypes(dbTypes []string, hasValue []bool) []AgateType {
	types := make([]AgateType, len(dbTypes))
	for i, t := range dbTypes {
		types[i] = AgateInteger
		if i < len(hasValue) && hasValue[i] {
			types[i] = AgateTypeOf(t)
		}
	}
	return types
}

// AgateTypeOf is the agate type of a value of DuckDB type t as dbt-duckdb
// sees it: int (TINYINT ... UHUGEINT) Integer; Decimal and float Number;
// bool Boolean; date Date; datetime (TIMESTAMP, _S, _MS, _NS, WITH TIME
// ZONE) DateTime; everything else (VARCHAR, a time, timedelta, UUID,
// bytes, a list or a dict) Text. "" (type unknown) is Text.
func AgateTypeOf(t string) AgateType {
	t = strings.ToUpper(strings.TrimSpace(t))
	switch {
	case strings.HasSuffix(t, "]"): // a LIST or ARRAY of any type
		return AgateText
	case strings.HasPrefix(t, "DECIMAL"), t == "FLOAT", t == "DOUBLE":
		return AgateNumber
	case strings.HasPrefix(t, "TIMESTAMP"):
		return AgateDateTime // TIMESTAMP, _S, _MS, _NS, TIMESTAMPTZ, TIMESTAMP WITH TIME ZONE
	}
	switch t {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT":
		return AgateInteger
	case "BOOLEAN":
		return AgateBoolean
	case "DATE":
		return AgateDate
	}
	return AgateText
}

// agateTypes is AgateTypes when the DuckDB types are not known: the type
// of each column's first value that is not null (a query's column has one
// type); a column of nulls only is an Integer, the tester's first type.
func agateTypes(n int, rows [][]any) []AgateType {
	types := make([]AgateType, n)
	for j := range types {
		types[j] = AgateInteger
		for _, r := range rows {
			if j >= len(r) || r[j] == nil {
				continue
			}
			switch r[j].(type) {
			case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, *big.Int:
			case float32, float64, floater:
				types[j] = AgateNumber
			case bool:
				types[j] = AgateBoolean
			case time.Time:
				types[j] = AgateDateTime
			default:
				types[j] = AgateText
			}
			break
		}
	}
	return types
}

// floater is a DECIMAL as the driver returns it.
type floater interface{ Float64() float64 }

// agateText is a value as agate prints it (True/False; a float as
// Python's repr, which AgateTable then formats as agate's Number).
func agateText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		if s, ok := nonFinite(x); ok {
			return s
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case exec.Decimal:
		return x.Plain()
	case floater:
		if s, ok := x.(fmt.Stringer); ok {
			return s.String()
		}
		return agateText(x.Float64())
	}
	return fmt.Sprint(v)
}

// json is agate's print_json: a list of one object per row (indent < 0:
// on one line), a timestamp in ISO form (2024-01-02T03:04:05).
func (t *resultTable) json(indent int) string {
	types := t.columnTypes()
	var b strings.Builder
	b.WriteString("[")
	for i, r := range t.rows {
		if i > 0 {
			b.WriteString(", ")
		}
		if indent >= 0 {
			b.WriteString("\n" + strings.Repeat(" ", indent))
		}
		b.WriteString("{")
		for j, n := range t.names {
			if j > 0 {
				b.WriteString(", ")
			}
			k, _ := json.Marshal(n)
			x := r.vals[j]
			if d, ok := x.(floater); ok {
				x = d.Float64()
			}
			if q, ok := x.(queryTime); ok {
				x = q.text
			}
			if s, ok := x.(string); ok && types[j] == AgateDateTime {
				x = strings.Replace(s, " ", "T", 1) // agate's DateTime.jsonify: isoformat()
			}
			v, err := json.Marshal(x)
			if f, ok := x.(float64); ok { // json.dumps writes Python's float repr: 1.0, 1e+20, NaN
				v, err = []byte(pyFloat(f)), nil
			}
			if err != nil {
				v, _ = json.Marshal(fmt.Sprint(r.vals[j]))
			}
			b.Write(k)
			b.WriteString(": ")
			b.Write(v)
		}
		b.WriteString("}")
	}
	if indent >= 0 && len(t.rows) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]")
	return b.String()
}

// structure is agate's print_structure: each column's name and agate
// type, every row.
func (t *resultTable) structure() string {
	types := t.columnTypes()
	cells := make([][]*string, len(t.names))
	for i, n := range t.names {
		name, typ := n, types[i].String()
		cells[i] = []*string{&name, &typ}
	}
	cols := []AgateColumn{{Name: "column"}, {Name: "data_type"}}
	return AgateTable(cols, cells, AgateLimits{Rows: -1, Columns: -1, Width: -1})
}
