package compiler

import (
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// How agate prints a run_query table's parts (agate's MappedSequence
// __str__: the repr of the first five values, then ", ..."), and a query
// value's repr inside them. They printed Go's internals:
// <compiler.resultRow Value>.

// String is str(row): <agate.Row: (1, 'x', Decimal('2.50'))>.
func (r *resultRow) String() string { return mappedSequence("Row", r.vals) }

// String is str(column): <agate.Column: (Decimal('1'), Decimal('2'))>.
func (c *resultColumn) String() string { return mappedSequence("Column", c.vals) }

// String is str(table): agate's Table.__str__ is its print_structure
// written to a StringIO (each line ends in "\n"), as wireservice/agate's
// table/__init__.py has it. It printed "<agate.table.Table object>".
func (t *resultTable) String() string { return t.structure() + "\n" }

// resultRows is a table's .rows: agate's MappedSequence of its rows (it
// was a plain list: str(tbl.rows) printed every row in brackets, and
// tojson named the first Row).
type resultRows []*resultRow

// String is str(tbl.rows): <agate.MappedSequence: (<agate.Row: (...)>, ...)>.
func (rs resultRows) String() string {
	vals := make([]any, len(rs))
	for i, r := range rs {
		vals[i] = r
	}
	return mappedSequence("MappedSequence", vals)
}

// String is str(tbl.columns), a MappedSequence of Columns likewise.
func (cs resultColumns) String() string {
	vals := make([]any, len(cs))
	for i, c := range cs {
		vals[i] = c
	}
	return mappedSequence("MappedSequence", vals)
}

// PyClassName: tbl.rows and tbl.columns are agate's MappedSequence in
// Python's messages (json.dumps: "Object of type MappedSequence").
func (resultRows) PyClassName() string    { return "MappedSequence" }
func (resultColumns) PyClassName() string { return "MappedSequence" }

func mappedSequence(kind string, vals []any) string {
	parts := make([]string, 0, 6)
	for i, v := range vals {
		if i == 5 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, exec.PyRepr(exec.AsValue(v)))
	}
	return "<agate." + kind + ": (" + strings.Join(parts, ", ") + ")>"
}

// rowMethod is agate's Row (a MappedSequence) keys(), values(), items(),
// get(key, default=None) and dict(); false for any other name.
func (r *resultRow) rowMethod(name string) (*exec.Value, bool) {
	call := func(f func(a render.Args) any) (*exec.Value, bool) {
		return exec.AsValue(render.Wrap(func(a render.Args) (any, error) { return f(a), nil })), true
	}
	switch name {
	case "keys":
		return call(func(render.Args) any { return pyTuple(anyStrings(*r.names)) })
	case "values":
		return call(func(render.Args) any { return pyTuple(r.vals) })
	case "items":
		return call(func(render.Args) any {
			out := make([]any, len(r.vals))
			for i, v := range r.vals {
				out[i] = pyTuple([]any{(*r.names)[i], v})
			}
			return pyTuple(out)
		})
	case "dict":
		return call(func(render.Args) any {
			m := &render.Mapping{Vals: map[string]any{}}
			for i, v := range r.vals {
				m.Set((*r.names)[i], v)
			}
			return m
		})
	case "get":
		return call(func(a render.Args) any {
			if len(a.Pos) > 0 {
				if v, ok := r.GetItem(a.Pos[0]); ok {
					return v.Interface()
				}
			}
			// agate's get: `if default: return default`, else None
			if len(a.Pos) > 1 {
				return a.Pos[1]
			}
			return a.Kw["default"]
		})
	}
	return nil, false
}

func anyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// PyRepr implements exec.PyReprer: datetime.date(2024, 1, 2), a naive
// datetime.datetime(2024, 1, 2, 10, 20, 30), an aware one with its tzinfo.
func (q queryTime) PyRepr() string {
	return render.TimeRepr(q.t, q.kind != kindDate, q.kind == kindAware)
}

// PyRepr implements exec.PyReprer (a naive datetime).
func (d pyDatetime) PyRepr() string { return render.TimeRepr(d.t, true, false) }

// JinjaList makes a row iterate as its values (agate's Row is a
// sequence: list(row), for v in row; it was "not iterable").
func (r *resultRow) JinjaList() []any { return append([]any(nil), r.vals...) }
