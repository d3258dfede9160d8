package compiler

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// pythonValue is a run_query value as dbt's agate table holds it: the
// Python value DuckDB's client hands dbt-duckdb, cast to the column's
// agate type (dbt_common's table_from_data_flat). A UUID, a timedelta
// (INTERVAL) and bytes (BLOB) are Text, so str() of the Python value:
// 00000000-0000-0000-0000-000000000001, "1 day, 2:00:00", b'a\xaa'; a
// LIST, ARRAY, STRUCT or MAP is json.dumps of it (pynested.go): ["a",
// "b"], {"b": 1, "a": "x"} in the STRUCT's field order. A DATE, TIME or
// TIMESTAMP is pythonTime's. Any other value is the driver's.
func pythonValue(v any, dbType string) any {
	switch x := v.(type) {
	case time.Time:
		return pythonTime(x, dbType)
	case []byte:
		switch {
		case dbType == "UUID" && len(x) == 16:
			return uuidText(x)
		case dbType == "BLOB":
			return bytesText(x)
		}
	case []any, map[string]any:
		if s, ok := nestedJSON(x, parseDBType(dbType)); ok {
			return s
		}
	case floater:
		return decimalNumber(x)
	case float64:
		return floatNumber(x, dbType)
	case float32:
		return floatNumber(float64(x), dbType)
	}
	if b, ok := driverUUID(v); ok {
		return uuidText(b)
	}
	if iv, ok := driverInterval(v); ok {
		return timedeltaText(iv)
	}
	if t := parseDBType(dbType); t.name == "MAP" {
		if s, ok := nestedJSON(v, t); ok {
			return s
		}
	}
	return v
}

// PythonText is str() of a typed value as dbt's agate table holds it
// (pythonValue), for dbt show; false when that is not text of its own (a
// number, a value pythonValue keeps as the driver's).
func PythonText(v any, dbType string) (string, bool) {
	s, ok := pythonValue(v, dbType).(string)
	return s, ok
}

// decimalNumber is a DECIMAL as dbt's agate table holds it: Python's
// Decimal (exec.Decimal), which computes and compares exactly whatever
// its width (d * 2, d > 1, sum) and prints with its scale (1.50). The
// driver's value (a struct of Value *big.Int and Scale) is read by its
// fields; one of another shape is read from its text.
func decimalNumber(d floater) any {
	r := reflect.Indirect(reflect.ValueOf(d))
	if r.Kind() == reflect.Struct {
		v, s := r.FieldByName("Value"), r.FieldByName("Scale")
		if b, ok := v.Interface().(*big.Int); ok && b != nil && s.CanUint() {
			return exec.NewDecimal(b, int(s.Uint()))
		}
	}
	if s, ok := d.(fmt.Stringer); ok {
		if dec, ok := exec.ParseDecimal(s.String()); ok {
			return dec
		}
	}
	return d.Float64()
}

// floatNumber is a DOUBLE or FLOAT as agate's Number casts Python's
// float: Decimal(repr(f)) (1.5, 1E+20), so templates compute with it as
// dbt's do (a Decimal times a float is Python's TypeError; / gives 28
// digits). NaN and the infinities stay floats, as anything not in a
// number column.
func floatNumber(f float64, dbType string) any {
	if AgateTypeOf(dbType) != AgateNumber {
		return f
	}
	if d, ok := exec.DecimalFromFloat(f); ok {
		return d
	}
	return f
}

// interval is a DuckDB INTERVAL.
type interval struct{ months, days, micros int64 }

// driverInterval reads the driver's INTERVAL value, a struct of Months,
// Days and Micros (by its fields: the compiler links no database driver).
func driverInterval(v any) (interval, bool) {
	r := reflect.ValueOf(v)
	if r.Kind() != reflect.Struct {
		return interval{}, false
	}
	var n [3]int64
	for i, f := range []string{"Months", "Days", "Micros"} {
		fv := r.FieldByName(f)
		if !fv.IsValid() || !fv.CanInt() {
			return interval{}, false
		}
		n[i] = fv.Int()
	}
	return interval{n[0], n[1], n[2]}, true
}

// driverUUID reads the driver's UUID value, an array of 16 bytes.
func driverUUID(v any) ([]byte, bool) {
	r := reflect.ValueOf(v)
	if r.Kind() != reflect.Array || r.Len() != 16 || r.Type().Elem().Kind() != reflect.Uint8 {
		return nil, false
	}
	b := make([]byte, 16)
	reflect.Copy(reflect.ValueOf(b), r)
	return b, true
}

func uuidText(b []byte) string {
	h := fmt.Sprintf("%x", b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// timedeltaText is str() of the datetime.timedelta DuckDB's client makes
// of an interval: timedelta(days=30*months+days, microseconds=micros),
// which Python keeps as days, 0 <= seconds < 86400, 0 <= microseconds <
// 10**6 ("-1 day, 23:58:30" is minus 90 seconds).
func timedeltaText(iv interval) string {
	const day = int64(86400e6)
	total := (30*iv.months+iv.days)*day + iv.micros
	days := total / day
	rest := total % day
	if rest < 0 {
		days--
		rest += day
	}
	secs, us := rest/1e6, rest%1e6
	s := fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	switch {
	case days == 1 || days == -1:
		s = fmt.Sprintf("%d day, %s", days, s)
	case days != 0:
		s = fmt.Sprintf("%d days, %s", days, s)
	}
	if us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return s
}

// bytesText is str() of Python bytes: b'...', quoted with " when the
// bytes hold a ' and no "; \t \n \r \\ and the quote escaped, other bytes
// outside printable ASCII as \xhh.
func bytesText(b []byte) string {
	q := byte('\'')
	if strings.IndexByte(string(b), '\'') >= 0 && strings.IndexByte(string(b), '"') < 0 {
		q = '"'
	}
	var s strings.Builder
	s.WriteString("b")
	s.WriteByte(q)
	for _, c := range b {
		switch {
		case c == q || c == '\\':
			s.WriteByte('\\')
			s.WriteByte(c)
		case c == '\t':
			s.WriteString(`\t`)
		case c == '\n':
			s.WriteString(`\n`)
		case c == '\r':
			s.WriteString(`\r`)
		case c < ' ' || c >= 0x7f:
			fmt.Fprintf(&s, `\x%02x`, c)
		default:
			s.WriteByte(c)
		}
	}
	s.WriteByte(q)
	return s.String()
}

// pyJSON is Python's json.dumps of a list of driver values as dbt's
// ForgivingJSONEncoder writes it (", " and ": ", non-ASCII as \uXXXX, a
// Decimal as float, a date or time isoformat(), anything else str());
// false when a value has no certain form (a STRUCT's dict: the driver's
// map has no field order).
func pyJSON(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(x), true
	case string:
		return pyJSONString(x), true
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, *big.Int:
		return fmt.Sprint(x), true
	case float32:
		return pyFloat(float64(x)), true
	case float64:
		return pyFloat(x), true
	case floater:
		return pyFloat(x.Float64()), true
	case time.Time:
		return "", false // date, time or datetime: the element type is not known here
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, ok := pyJSON(e)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	}
	if b, ok := driverUUID(v); ok {
		return pyJSONString(uuidText(b)), true
	}
	if iv, ok := driverInterval(v); ok {
		return pyJSONString(timedeltaText(iv)), true
	}
	return "", false
}

// pyJSONString is a JSON string as Python's json.dumps writes it
// (ensure_ascii: every character past ASCII as \uXXXX).
func pyJSONString(s string) string {
	out, _ := exec.PyJSONDumps(s, false) // a string always encodes
	return out
}

// pyFloat is Python's repr of a float as json.dumps writes it (1.0, 0.1,
// 1e+20, NaN, Infinity).
func pyFloat(f float64) string {
	if s, ok := nonFinite(f); ok {
		return s
	}
	return exec.AsValue(f).String() // gonja writes floats as Python's repr
}

// nonFinite is how agate and json.dumps write a float that is not finite.
func nonFinite(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		return "NaN", true
	case math.IsInf(f, 1):
		return "Infinity", true
	case math.IsInf(f, -1):
		return "-Infinity", true
	}
	return "", false
}

// pyStr is str(v) in Python for a YAML value; pyRepr is repr(v).
// pyStrOf is Python's str() of a template value as log() and print()
// write it: a list, tuple or dict with its items' reprs
// ([Decimal('1.50'), datetime.date(2024, 1, 31)]; log printed their str():
// [1.50, 2024-01-31]), None as None, an undefined value as "".
func pyStrOf(v *exec.Value) string {
	if v.IsNil() {
		if v.Undefined {
			return ""
		}
		return "None"
	}
	return v.String()
}

func pyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}

func pyRepr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return "'" + strings.ReplaceAll(x, "'", `\'`) + "'"
	case float64:
		if x == float64(int64(x)) {
			return fmt.Sprintf("%d.0", int64(x))
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case render.Tuple:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyRepr(e)
		}
		if len(x) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case map[string]any:
		var parts []string
		for _, k := range SortedKeys(x) {
			parts = append(parts, pyRepr(k)+": "+pyRepr(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *render.Mapping:
		parts := make([]string, len(x.Keys))
		for i, k := range x.Keys {
			parts[i] = pyRepr(k) + ": " + pyRepr(x.Vals[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = e
		}
		return pyRepr(m)
	}
	return fmt.Sprint(v)
}
