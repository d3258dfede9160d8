package compiler

import (
	"reflect"
	"strings"
	"time"
)

// A nested run_query value (LIST, ARRAY, STRUCT, MAP) is Text in dbt's
// agate table: json.dumps of the Python value DuckDB's client makes (a
// list; a dict in the STRUCT's field order or the MAP's key order), as
// dbt_common's table_from_data_flat writes it. The driver's STRUCT is a Go
// map, which has lost the field order: the column's type name has it.

// dbType is a DuckDB type name read into its parts: a LIST or ARRAY's
// element, a STRUCT's fields, a MAP's key and value; any other type is its
// name alone.
type dbType struct {
	name   string // upper-case: STRUCT, MAP, LIST, or the type's own name
	elem   *dbType
	key    *dbType
	fields []dbField
}

type dbField struct {
	name string
	typ  *dbType
}

// parseDBType reads a type name as DESCRIBE and the driver write it:
// INTEGER[], VARCHAR[3], STRUCT(a INTEGER, "b c" VARCHAR[]),
// MAP(VARCHAR, STRUCT(x DATE)).
func parseDBType(s string) *dbType {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "]") {
		if i := matchingOpen(s, len(s)-1, '[', ']'); i > 0 {
			return &dbType{name: "LIST", elem: parseDBType(s[:i])}
		}
	}
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return &dbType{name: strings.ToUpper(s)}
	}
	head := strings.ToUpper(strings.TrimSpace(s[:open]))
	parts := splitTopLevel(s[open+1 : len(s)-1])
	switch {
	case head == "STRUCT":
		t := &dbType{name: head}
		for _, p := range parts {
			name, rest := fieldName(strings.TrimSpace(p))
			t.fields = append(t.fields, dbField{name, parseDBType(rest)})
		}
		return t
	case head == "MAP" && len(parts) == 2:
		return &dbType{name: head, key: parseDBType(parts[0]), elem: parseDBType(parts[1])}
	}
	return &dbType{name: strings.ToUpper(s)} // DECIMAL(10,2), UNION(...), ENUM(...)
}

// matchingOpen is the index of the open bracket that closes at end.
func matchingOpen(s string, end int, open, close byte) int {
	depth, quoted := 0, false
	for i := end; i >= 0; i-- {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == close:
			depth++
		case c == open:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTopLevel splits at the commas outside brackets and quotes.
func splitTopLevel(s string) []string {
	var parts []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == ',' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// fieldName splits `name TYPE` or `"a ""b""" TYPE`.
func fieldName(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		for i := 1; i < len(s); i++ {
			if s[i] != '"' {
				continue
			}
			if i+1 < len(s) && s[i+1] == '"' {
				i++
				continue
			}
			return strings.ReplaceAll(s[1:i], `""`, `"`), s[i+1:]
		}
	}
	if i := strings.IndexAny(s, " \t"); i > 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// nestedJSON is json.dumps of a nested value of type t as dbt's encoder
// writes it (a date, time or datetime as isoformat()); false when a value
// has no certain form.
func nestedJSON(v any, t *dbType) (string, bool) {
	if v == nil {
		return "null", true
	}
	switch x := v.(type) {
	case []any:
		if t.name != "LIST" {
			return pyJSON(x)
		}
		parts := make([]string, len(x))
		for i, e := range x {
			s, ok := nestedJSON(e, t.elem)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	case map[string]any:
		if t.name != "STRUCT" || len(t.fields) != len(x) {
			return "", false
		}
		keys, vals := make([]any, len(t.fields)), make([]any, len(t.fields))
		for i, f := range t.fields {
			e, ok := x[f.name]
			if !ok {
				return "", false
			}
			keys[i], vals[i] = f.name, e
		}
		return jsonObject(keys, vals, func(i int) *dbType { return t.fields[i].typ })
	case time.Time:
		return isoJSON(x, t.name)
	}
	if keys, vals, ok := driverOrderedMap(v); ok && t.name == "MAP" {
		return jsonObject(keys, vals, func(int) *dbType { return t.elem })
	}
	return pyJSON(v)
}

// jsonObject writes a dict's pairs in order; a key as Python's json turns
// it into a string (1 -> "1", True -> "true", None -> "null").
func jsonObject(keys, vals []any, typeOf func(int) *dbType) (string, bool) {
	parts := make([]string, len(keys))
	for i, k := range keys {
		var ks string
		switch x := k.(type) {
		case string:
			ks = x
		case nil:
			ks = "null"
		default:
			s, ok := pyJSON(x)
			if !ok {
				return "", false
			}
			ks = strings.Trim(s, `"`)
		}
		vs, ok := nestedJSON(vals[i], typeOf(i))
		if !ok {
			return "", false
		}
		parts[i] = pyJSONString(ks) + ": " + vs
	}
	return "{" + strings.Join(parts, ", ") + "}", true
}

// isoJSON is a DATE, TIME or TIMESTAMP inside a nested value as dbt's
// JSON encoder writes it: isoformat() (2024-01-02T03:04:05).
func isoJSON(t time.Time, name string) (string, bool) {
	s, ok := pythonTime(t, name).(string)
	if !ok {
		return "", false
	}
	if name != "DATE" && !strings.HasPrefix(name, "TIME ") && name != "TIME" && name != "TIMETZ" && name != "TIME_NS" {
		s = strings.Replace(s, " ", "T", 1)
	}
	return pyJSONString(s), true
}

// driverOrderedMap reads the driver's MAP value, an ordered map with Keys()
// and Values() (by its methods: the compiler links no database driver).
func driverOrderedMap(v any) ([]any, []any, bool) {
	r := reflect.ValueOf(v)
	if r.Kind() == reflect.Struct {
		p := reflect.New(r.Type())
		p.Elem().Set(r)
		r = p
	}
	k, vs := r.MethodByName("Keys"), r.MethodByName("Values")
	if !k.IsValid() || !vs.IsValid() || k.Type().NumIn() != 0 || vs.Type().NumIn() != 0 {
		return nil, nil, false
	}
	keys, ok1 := k.Call(nil)[0].Interface().([]any)
	vals, ok2 := vs.Call(nil)[0].Interface().([]any)
	return keys, vals, ok1 && ok2 && len(keys) == len(vals)
}
