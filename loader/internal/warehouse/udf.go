package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// UDF declares one Go scalar function for SQL. Types are DuckDB type
// strings from a small grammar: VARCHAR, BOOLEAN, INTEGER, BIGINT, UBIGINT,
// DOUBLE, FLOAT, T[] (list), T[n] (fixed array), STRUCT(name T, ...).
type UDF struct {
	Name     string
	Params   []string
	Result   string
	Version  string
	Doc      string
	Volatile bool
	// Fn receives one row's arguments (Go values as DuckDB hands them:
	// string, int32, int64, float64, []any, map[string]any…) and returns the result.
	Fn func(ctx context.Context, args []driver.Value) (any, error)
	// Batch, when set, is used instead of Fn: it receives the arguments of
	// every non-NULL row of a DuckDB chunk (up to 2048) and returns one
	// result per row, so a remote provider gets one request per chunk.
	Batch func(ctx context.Context, rows [][]driver.Value) ([]any, error)
}

// Signature renders "name(T, T) -> R".
func (u UDF) Signature() string {
	return fmt.Sprintf("%s(%s) -> %s", u.Name, strings.Join(u.Params, ", "), u.Result)
}

type scalar struct {
	cfg   duckdb.ScalarFuncConfig
	fn    func(ctx context.Context, args []driver.Value) (any, error)
	batch func(ctx context.Context, rows [][]driver.Value) ([]any, error)
}

func (s *scalar) Config() duckdb.ScalarFuncConfig { return s.cfg }
func (s *scalar) Executor() duckdb.ScalarFuncExecutor {
	if s.batch == nil {
		return duckdb.ScalarFuncExecutor{RowContextExecutor: s.fn}
	}
	return duckdb.ScalarFuncExecutor{ChunkContextExecutor: func(ctx context.Context, chunk *duckdb.ChunkIteratorState) error {
		var rows [][]driver.Value
		for row, err := range chunk.Rows() {
			if err != nil {
				return err
			}
			args := make([]driver.Value, row.ColumnCount())
			for i := range args {
				args[i] = *row.GetValuePtr(i)
			}
			rows = append(rows, args)
		}
		if len(rows) == 0 {
			return nil
		}
		out, err := s.batch(ctx, rows)
		if err != nil {
			return err
		}
		if len(out) != len(rows) {
			return fmt.Errorf("batch UDF returned %d results for %d rows", len(out), len(rows))
		}
		i := 0
		for row, err := range chunk.Rows() {
			if err != nil {
				return err
			}
			if err := row.SetResult(out[i]); err != nil {
				return err
			}
			i++
		}
		return nil
	}}
}

// registerUDFs registers each name once: several UDFs with one name become
// an overloaded function set.
func registerUDFs(c *sql.Conn, udfs []UDF) error {
	var order []string
	byName := map[string][]duckdb.ScalarFunc{}
	for _, u := range udfs {
		s, err := u.scalar()
		if err != nil {
			return fmt.Errorf("warehouse: UDF %s: %w", u.Name, err)
		}
		if _, ok := byName[u.Name]; !ok {
			order = append(order, u.Name)
		}
		byName[u.Name] = append(byName[u.Name], s)
	}
	for _, name := range order {
		fs := byName[name]
		var err error
		if len(fs) == 1 {
			err = duckdb.RegisterScalarUDF(c, name, fs[0])
		} else {
			err = duckdb.RegisterScalarUDFSet(c, name, fs...)
		}
		if err != nil {
			return fmt.Errorf("warehouse: register UDF %s: %w", name, err)
		}
	}
	return nil
}

func (u UDF) scalar() (*scalar, error) {
	cfg := duckdb.ScalarFuncConfig{Volatile: u.Volatile}
	for _, p := range u.Params {
		ti, err := ParseType(p)
		if err != nil {
			return nil, err
		}
		cfg.InputTypeInfos = append(cfg.InputTypeInfos, ti)
	}
	rt, err := ParseType(u.Result)
	if err != nil {
		return nil, err
	}
	cfg.ResultTypeInfo = rt
	return &scalar{cfg: cfg, fn: u.Fn, batch: u.Batch}, nil
}

// ParseType turns a DuckDB type string into a duckdb.TypeInfo.
func ParseType(s string) (duckdb.TypeInfo, error) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "]") {
		i := strings.LastIndex(s, "[")
		if i < 0 {
			return nil, fmt.Errorf("bad type %q", s)
		}
		child, err := ParseType(s[:i])
		if err != nil {
			return nil, err
		}
		if n := s[i+1 : len(s)-1]; n != "" {
			size, err := strconv.ParseUint(n, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("bad array size in %q", s)
			}
			return duckdb.NewArrayInfo(child, size)
		}
		return duckdb.NewListInfo(child)
	}
	up := strings.ToUpper(s)
	if strings.HasPrefix(up, "STRUCT(") && strings.HasSuffix(s, ")") {
		var entries []duckdb.StructEntry
		for _, f := range splitTop(s[len("STRUCT(") : len(s)-1]) {
			f = strings.TrimSpace(f)
			sp := strings.IndexByte(f, ' ')
			if sp < 0 {
				return nil, fmt.Errorf("bad struct field %q in %q", f, s)
			}
			ti, err := ParseType(f[sp+1:])
			if err != nil {
				return nil, err
			}
			e, err := duckdb.NewStructEntry(ti, f[:sp])
			if err != nil {
				return nil, err
			}
			entries = append(entries, e)
		}
		if len(entries) == 0 {
			return nil, fmt.Errorf("empty struct %q", s)
		}
		return duckdb.NewStructInfo(entries[0], entries[1:]...)
	}
	t, ok := map[string]duckdb.Type{
		"VARCHAR": duckdb.TYPE_VARCHAR, "BOOLEAN": duckdb.TYPE_BOOLEAN,
		"INTEGER": duckdb.TYPE_INTEGER, "BIGINT": duckdb.TYPE_BIGINT,
		"UBIGINT": duckdb.TYPE_UBIGINT, "DOUBLE": duckdb.TYPE_DOUBLE,
		"FLOAT": duckdb.TYPE_FLOAT, "ANY": duckdb.TYPE_ANY,
	}[up]
	if !ok {
		return nil, fmt.Errorf("unsupported UDF type %q", s)
	}
	return duckdb.NewTypeInfo(t)
}

// splitTop splits on commas not nested in parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
