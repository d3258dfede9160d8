package compiler

import (
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// resultTable is an agate-like table (dbt's run_query / load_result
// .table): iterable rows, .rows, .columns, .column_names.
type resultTable struct {
	names []string
	types []AgateType // as the driver gave the values (nil: from the values)
	rows  []*resultRow
	log   func(string) // print_table / print_json write here (nil: nowhere)
}

// JinjaList makes a table iterate (and count, and test true) as its rows.
func (t *resultTable) JinjaList() []any {
	out := make([]any, len(t.rows))
	for i, r := range t.rows {
		out[i] = r
	}
	return out
}

type resultRow struct {
	names *[]string
	vals  []any
}

func (r *resultRow) GetItem(key any) (*exec.Value, bool) {
	switch k := key.(type) {
	case int:
		if k < 0 {
			k += len(r.vals)
		}
		if k >= 0 && k < len(r.vals) {
			return exec.AsValue(r.vals[k]), true
		}
	case string:
		return r.GetAttribute(k)
	}
	return exec.AsValue(nil), false
}

func (r *resultRow) GetAttribute(name string) (*exec.Value, bool) {
	for i, n := range *r.names {
		if n == name {
			return exec.AsValue(r.vals[i]), true
		}
	}
	if v, ok := r.rowMethod(name); ok { // agateprint.go
		return v, true
	}
	return exec.AsValue(nil), false
}

// PyContains is Python's `x in row`: agate's Row (a MappedSequence)
// tests its values.
func (r *resultRow) PyContains(item *exec.Value) bool { return containsValue(r.vals, item) }

// PyContains is `x in column`: agate's Column tests its values
// (docket tested nothing: 'x' in t.columns['s'] was False).
func (c *resultColumn) PyContains(item *exec.Value) bool { return containsValue(c.vals, item) }

// containsValue is whether vals holds item as Python's == finds it.
func containsValue(vals []any, item *exec.Value) bool {
	for _, v := range vals {
		if item.EqualValueTo(exec.AsValue(v)) {
			return true
		}
	}
	return false
}

// resultColumn is one column of a resultTable: .name, .values().
type resultColumn struct {
	name string
	vals []any
}

// JinjaList makes a column iterate, count, test true and index as its
// values, as agate's Column (a MappedSequence) does: `column|list` was
// "'Column' object is not iterable" and `column|length` 0.
func (c *resultColumn) JinjaList() []any { return append([]any(nil), c.vals...) }

// PySlice is agate's MappedSequence slice: a tuple of the values (it was
// a list: [1, 2] where agate prints (1, 2)).
func (c *resultColumn) PySlice(start, stop, step int) any {
	return pySliceTuple(c.vals, start, stop, step)
}

// PySlice is a Row's slice, a tuple as agate gives it.
func (r *resultRow) PySlice(start, stop, step int) any {
	return pySliceTuple(r.vals, start, stop, step)
}

// pySliceTuple is vals[start:stop:step] (Python's bounds) as a tuple.
func pySliceTuple(vals []any, start, stop, step int) exec.Tuple {
	var out []any
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		if i >= 0 && i < len(vals) {
			out = append(out, vals[i])
		}
	}
	return pyTuple(out)
}

func (c *resultColumn) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "name":
		return exec.AsValue(c.name), true
	case "values":
		return exec.AsValue(func(*exec.VarArgs) (any, error) { return pyTuple(c.vals), nil }), true
	}
	return exec.AsValue(nil), false
}

// pyTuple is vals as a Python tuple (agate's Column.values(),
// Table.column_names): a list that prints as ('a', 'b').
func pyTuple(vals []any) exec.Tuple {
	t := make(exec.Tuple, len(vals))
	for i, v := range vals {
		t[i] = exec.AsValue(v)
	}
	return t
}

// resultColumns is .columns: indexed by position or name, .items().
type resultColumns []*resultColumn

func (cs resultColumns) GetItem(key any) (*exec.Value, bool) {
	switch k := key.(type) {
	case int:
		if k >= 0 && k < len(cs) {
			return exec.AsValue(cs[k]), true
		}
	case string:
		for _, c := range cs {
			if c.name == k {
				return exec.AsValue(c), true
			}
		}
	}
	return exec.AsValue(nil), false
}

func (cs resultColumns) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "items":
		return exec.AsValue(func(*exec.VarArgs) (any, error) {
			out := make([]any, len(cs))
			for i, c := range cs {
				out[i] = []any{c.name, c}
			}
			return out, nil
		}), true
	case "keys":
		return exec.AsValue(func(*exec.VarArgs) (any, error) {
			out := make([]any, len(cs))
			for i, c := range cs {
				out[i] = c.name
			}
			return out, nil
		}), true
	}
	return exec.AsValue(nil), false
}

func (t *resultTable) columnNames() []string { return t.names }

func (t *resultTable) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "rows":
		return exec.AsValue(append(resultRows(nil), t.rows...)), true
	case "column_names":
		out := []any{}
		for _, n := range t.columnNames() {
			out = append(out, n)
		}
		return exec.AsValue(pyTuple(out)), true
	case "columns":
		cs := resultColumns{}
		for i, n := range t.columnNames() {
			c := &resultColumn{name: n, vals: []any{}}
			for _, r := range t.rows {
				c.vals = append(c.vals, r.vals[i])
			}
			cs = append(cs, c)
		}
		return exec.AsValue(cs), true
	case "print_table", "print_json", "print_structure":
		return exec.AsValue(func(va *exec.VarArgs) (any, error) { return "", t.print(name, va) }), true
	}
	return exec.AsValue(nil), false
}

// query runs q and returns its rows as a resultTable (and as plain lists,
// load_result's data).
func (d *dbConn) query(q string) (*resultTable, []any, error) {
	var cols, dbTypes []string
	var rows [][]any
	var err error
	if tq, ok := d.q.(TypedQuerier); ok {
		cols, dbTypes, rows, err = tq.QueryTyped(d.ctx, q)
	} else {
		cols, rows, err = d.q.Query(d.ctx, q)
	}
	if err != nil {
		return nil, nil, err
	}
	t := &resultTable{names: cols, log: d.log}
	if len(dbTypes) == len(cols) {
		has := make([]bool, len(cols))
		for _, r := range rows {
			for i, v := range r {
				has[i] = has[i] || v != nil
			}
		}
		t.types = AgateTypes(dbTypes, has)
	} else {
		t.types = agateTypes(len(cols), rows)
	}
	data := []any{}
	for _, vals := range rows {
		for i, v := range vals {
			if i < len(dbTypes) {
				if q, ok := queryTimeOf(v, dbTypes[i]); ok {
					v = q // a date or datetime, not its text (querytime.go)
				} else {
					v = pythonValue(v, dbTypes[i])
				}
			}
			vals[i] = jinjaValue(v)
		}
		t.rows = append(t.rows, &resultRow{names: &t.names, vals: vals})
		data = append(data, append([]any{}, vals...))
	}
	return t, data, nil
}

// pythonTime is a DATE, TIME or TIMESTAMP value as str() of the Python
// value dbt-duckdb hands dbt prints it: 2024-01-02, 03:04:05,
// 2024-01-02 03:04:05.500000 (microseconds, six digits, when not zero).
// TIMESTAMP_S, _MS and _NS and TIME_NS are Python's datetime and time too,
// whose precision is the microsecond: DuckDB's Python client cuts the
// nanoseconds off, and so does this. A TIMESTAMPTZ is an aware datetime
// and a TIMETZ an aware time, whose str() ends in the UTC offset:
// 2024-01-02 03:04:05+00:00, 03:04:05+02:00 (the driver's TIMESTAMPTZ is
// in UTC: DuckDB's Python client shows it in its TimeZone setting, UTC
// where dbt runs in a UTC machine). Another type stays the driver's.
func pythonTime(t time.Time, dbType string) any {
	t = t.Truncate(time.Microsecond)
	frac := ""
	if t.Nanosecond() != 0 {
		frac = ".000000"
	}
	switch dbType {
	case "DATE":
		return t.Format("2006-01-02")
	case "TIME", "TIME_NS":
		return t.Format("15:04:05" + frac)
	case "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS":
		return t.Format("2006-01-02 15:04:05" + frac)
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		return t.Format("2006-01-02 15:04:05" + frac + "-07:00")
	case "TIMETZ", "TIME WITH TIME ZONE":
		return t.Format("15:04:05" + frac + "-07:00")
	}
	return t
}

// jinjaValue turns a driver value into one templates handle.
func jinjaValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case time.Time:
		return x.Format("2006-01-02 15:04:05.999999")
	case int32:
		return int(x)
	case int64:
		return int(x)
	case int16:
		return int(x)
	case int8:
		return int(x)
	case uint8:
		return int(x)
	case uint16:
		return int(x)
	case uint32:
		return int(x)
	case float32:
		return float64(x)
	}
	return v
}

// dbColumn is what adapter.get_columns_in_relation returns (dbt's Column).
type dbColumn struct{ name, dataType string }

var (
	numericTypeRe = regexp.MustCompile(`(?i)^(decimal|numeric)`)
	floatTypeRe   = regexp.MustCompile(`(?i)^(double|float|real)`)
	intTypeRe     = regexp.MustCompile(`(?i)^(tinyint|smallint|integer|bigint|hugeint|utinyint|usmallint|uinteger|ubigint|uhugeint|int)`)
	stringTypeRe  = regexp.MustCompile(`(?i)^(varchar|text|string|char|bpchar)`)
)

func (c dbColumn) GetAttribute(name string) (*exec.Value, bool) {
	is := func(ok bool) *exec.Value {
		return exec.AsValue(func(*exec.VarArgs) (any, error) { return ok, nil })
	}
	switch name {
	case "name", "column":
		return exec.AsValue(c.name), true
	case "quoted":
		return exec.AsValue(Quote(c.name)), true
	case "data_type", "dtype":
		return exec.AsValue(c.dataType), true
	case "is_string":
		return is(stringTypeRe.MatchString(c.dataType)), true
	case "is_number":
		return is(numericTypeRe.MatchString(c.dataType) || floatTypeRe.MatchString(c.dataType) || intTypeRe.MatchString(c.dataType)), true
	case "is_float":
		return is(floatTypeRe.MatchString(c.dataType)), true
	case "is_numeric":
		return is(numericTypeRe.MatchString(c.dataType)), true
	case "is_integer":
		return is(intTypeRe.MatchString(c.dataType)), true
	}
	return c.sizeAttribute(name)
}

// typeArgsRe reads a type's size arguments: varchar(20), decimal(10, 2).
var typeArgsRe = regexp.MustCompile(`\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)`)

// typeArg is the type's size argument i (0 or 1), or nil.
func (c dbColumn) typeArg(i int) any {
	m := typeArgsRe.FindStringSubmatch(c.dataType)
	if m == nil || m[i+1] == "" {
		return nil
	}
	n, _ := strconv.Atoi(m[i+1])
	return n
}

// stringSize is dbt's Column.string_size(): the char size, 256 when the
// type has none; an error on a non-string column, as dbt raises.
func (c dbColumn) stringSize() (int, error) {
	if !stringTypeRe.MatchString(c.dataType) {
		return 0, fmt.Errorf("Called string_size() on non-string field!")
	}
	if n, ok := c.typeArg(0).(int); ok {
		return n, nil
	}
	return 256, nil
}

// sizeAttribute answers dbt Column's size attributes and methods.
func (c dbColumn) sizeAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "char_size":
		if stringTypeRe.MatchString(c.dataType) {
			return exec.AsValue(c.typeArg(0)), true
		}
		return exec.AsValue(nil), true
	case "numeric_precision", "numeric_scale":
		if !numericTypeRe.MatchString(c.dataType) {
			return exec.AsValue(nil), true
		}
		i := 0
		if name == "numeric_scale" {
			i = 1
		}
		return exec.AsValue(c.typeArg(i)), true
	case "string_size":
		return exec.AsValue(func(*exec.VarArgs) (any, error) { return c.stringSize() }), true
	case "can_expand_to":
		return exec.AsValue(func(va *exec.VarArgs) (any, error) { return c.canExpandTo(va) }), true
	}
	return exec.AsValue(nil), false
}

// canExpandTo is dbt's Column.can_expand_to(other): both strings and the
// other one longer.
func (c dbColumn) canExpandTo(va *exec.VarArgs) (any, error) {
	if len(va.Args) != 1 {
		return nil, fmt.Errorf("can_expand_to takes one column")
	}
	o, ok := va.Args[0].Interface().(dbColumn)
	if !ok || !stringTypeRe.MatchString(c.dataType) || !stringTypeRe.MatchString(o.dataType) {
		return false, nil
	}
	a, _ := c.stringSize()
	b, _ := o.stringSize()
	return b > a, nil
}

func (c dbColumn) String() string { return c.name }

// PyClassName: agate's class names, as Python's messages give them.
func (t *resultTable) PyClassName() string  { return "Table" }
func (r *resultRow) PyClassName() string    { return "Row" }
func (c *resultColumn) PyClassName() string { return "Column" }

// PyItems is agate's Row.items(): (column name, value) pairs, which
// jinja2's dictsort reads (a Row sorted to [] before).
func (r *resultRow) PyItems() []*exec.Pair {
	out := make([]*exec.Pair, len(r.vals))
	for i, v := range r.vals {
		out[i] = &exec.Pair{Key: exec.AsValue((*r.names)[i]), Value: exec.AsValue(v)}
	}
	return out
}
