package render

import (
	"errors"
	"time"

	"crypto/md5"
	"encoding/json"
	"fmt"
	"github.com/nikolalohinski/gonja/v2/exec"
	"math/big"
	"reflect"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// dbt's base context functions that need no node or database: tojson,
// fromjson, toyaml, fromyaml, local_md5, print, diff_of_two_dicts. A
// project macro of the same name wins, as in dbt.

// baseContext is the functions every template sees.
func baseContext() map[string]any {
	return map[string]any{
		"tojson": Wrap(func(a Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("tojson() needs a value")
			}
			// dbt's tojson(value, default=None, sort_keys=False):
			// json.dumps, ", " and ": ", ensure_ascii, no HTML escaping, a
			// dict in its insertion order
			sortKeys, _ := defaultArg(a, 2, "sort_keys").(bool)
			s, err := exec.PyJSON(a.Raw[0], sortKeys, false)
			var te *exec.PyTypeError
			if errors.As(err, &te) {
				return nil, err // dbt catches ValueError only: json.dumps's TypeError (a Decimal, a date) is raised
			}
			if err != nil {
				return defaultArg(a, 1, "default"), nil // dbt: the default (None) when not serializable
			}
			return s, nil
		}),
		"fromjson": Wrap(func(a Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("fromjson() needs a string")
			}
			d := json.NewDecoder(strings.NewReader(fmt.Sprint(a.Pos[0])))
			d.UseNumber()
			v, err := decodeJSON(d) // json.loads: an object keeps its key order
			if err != nil {
				return defaultArg(a, 1, "default"), nil
			}
			return v, nil
		}),
		"toyaml": Wrap(toYAML), // toyaml.go
		"fromyaml": Wrap(func(a Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("fromyaml() needs a string")
			}
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(fmt.Sprint(a.Pos[0])), &doc); err != nil {
				return defaultArg(a, 1, "default"), nil
			}
			v, err := DecodeYAML(&doc) // yaml.safe_load: a mapping keeps its key order
			if err != nil {
				return defaultArg(a, 1, "default"), nil
			}
			return v, nil
		}),
		"local_md5": Wrap(func(a Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("local_md5() needs a string")
			}
			return fmt.Sprintf("%x", md5.Sum([]byte(fmt.Sprint(a.Pos[0])))), nil
		}),
		// print writes to dbt's stdout; a render returns data and never
		// prints, so it is nothing here (log(msg, info=True) shows a message)
		"print": Wrap(func(Args) (any, error) { return "", nil }),
		"diff_of_two_dicts": Wrap(func(a Args) (any, error) {
			if len(a.Pos) < 2 {
				return nil, fmt.Errorf("diff_of_two_dicts() needs two dicts")
			}
			return diffOfTwoDicts(a.Pos[0], a.Pos[1]), nil
		}),
	}
}

// PyNumbers turns json.Numbers into int (whole: a *big.Int past int64,
// as Python's int is exact) or float64, as Python's json module reads
// them.
func PyNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		if b, ok := new(big.Int).SetString(x.String(), 10); ok {
			return b
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = PyNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = PyNumbers(e)
		}
	}
	return v
}

// defaultArg is the optional default of tojson/fromjson (position i or kw).
func defaultArg(a Args, i int, kw string) any {
	if i < len(a.Pos) {
		return a.Pos[i]
	}
	return a.Kw[kw]
}

// jsonable turns template values (maps with any keys) into what
// encoding/json and yaml write: string keys, sorted as Python's json
// module keeps insertion order (maps have none, so keys sort).
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonable(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Map {
		out := map[string]any{}
		for _, k := range rv.MapKeys() {
			out[fmt.Sprint(k.Interface())] = jsonable(rv.MapIndex(k).Interface())
		}
		return out
	}
	return v
}

// diffOfTwoDicts is dbt's diff_of_two_dicts: the keys of a (lowercased
// match) whose values hold items b lacks, with those items.
func diffOfTwoDicts(a, b any) map[string]any {
	am, _ := jsonable(a).(map[string]any)
	bm, _ := jsonable(b).(map[string]any)
	lower := map[string]string{}
	for k := range bm {
		lower[strings.ToLower(k)] = k
	}
	out := map[string]any{}
	keys := make([]string, 0, len(am))
	for k := range am {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		av, _ := am[k].([]any)
		bk, ok := lower[strings.ToLower(k)]
		if !ok {
			out[k] = am[k]
			continue
		}
		bv, _ := bm[bk].([]any)
		have := map[string]bool{}
		for _, e := range bv {
			have[strings.ToLower(fmt.Sprint(e))] = true
		}
		var missing []any
		for _, e := range av {
			if !have[strings.ToLower(fmt.Sprint(e))] {
				missing = append(missing, e)
			}
		}
		if len(missing) > 0 {
			out[k] = missing
		}
	}
	return out
}

// Date is a Python date as run_started_at.date() gives it: it prints as
// str(date) does, has the date parts, strftime() and isoformat(), and the
// runner compares it with a query's dates (compiler/querytime.go).
type Date struct{ T time.Time }

func (d Date) String() string { return d.T.Format("2006-01-02") }

// PyTypeName names it in Python's messages (exec.PyTypeNamer).
func (Date) PyTypeName() string { return "datetime.date" }

// PyOp implements exec.PyOperand: two dates compare by their day, a
// date less a date is a Timedelta, a date plus or less a Timedelta a
// date; any other arithmetic is left to the fork's TypeError
// (run_started_at + run_started_at was 0).
func (d Date) PyOp(op string, other *exec.Value, reflected bool) (*exec.Value, bool) {
	return timeOp(d, d.T, op, other, reflected)
}

// timeOp is op of d (at t) and other: d plus or less a Timedelta; when
// other is of d's type an order or an equality by their times (gonja
// compared the structs as 0, so date.today() > date(2020, 1, 1) was
// False) and d - other a Timedelta.
func timeOp(d exec.PyTypeNamer, t time.Time, op string, other *exec.Value, reflected bool) (*exec.Value, bool) {
	if td, ok := other.Interface().(Timedelta); ok && (op == "+" || op == "-" && !reflected) {
		shifted, err := TimeShift(t, td, op == "-", d.PyTypeName() == "datetime.date")
		if err != nil {
			return exec.AsValue(err), true
		}
		if _, isDate := d.(Date); isDate {
			return exec.AsValue(Date{shifted}), true
		}
		return exec.AsValue(Datetime{shifted}), true
	}
	o, ok := other.Interface().(exec.PyTypeNamer)
	if !ok || o.PyTypeName() != d.PyTypeName() {
		return nil, false // a date less a datetime: the fork's TypeError
	}
	var ot time.Time
	switch x := o.(type) {
	case Date:
		ot = x.T
	case Datetime:
		ot = x.T
	default:
		return nil, false // another host's date (a query's) compares itself
	}
	c := t.Compare(ot)
	if reflected {
		c = -c
	}
	switch op {
	case "==", "!=":
		return exec.AsValue((c == 0) == (op == "==")), true
	case "<", "<=", ">", ">=":
		return exec.AsValue(op == "<" && c < 0 || op == "<=" && c <= 0 || op == ">" && c > 0 || op == ">=" && c >= 0), true
	case "-": // a timedelta
		if reflected {
			return exec.AsValue(Since(ot, t)), true
		}
		return exec.AsValue(Since(t, ot)), true
	}
	return nil, false
}

// GetAttribute implements gonja's attribute lookup.
func (d Date) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "isoformat":
		return exec.AsValue(Wrap(func(Args) (any, error) { return d.String(), nil })), true
	case "replace":
		return exec.AsValue(Wrap(func(a Args) (any, error) {
			t, _, err := ReplaceTime(d.T, a, false)
			return Date{t}, err
		})), true
	}
	return TimeAttribute(d.T, name, false)
}

// TimeAttribute is the attribute of a Python date (clock false) or
// datetime (clock true) that every date type of the templates shares:
// year, month, day, weekday(), isoweekday() and strftime(), and a
// datetime's hour, minute, second and microsecond. The types add their
// own isoformat, replace, date() and the like; false for any other name.
func TimeAttribute(t time.Time, name string, clock bool) (*exec.Value, bool) {
	switch name {
	case "weekday": // Monday 0 .. Sunday 6
		return exec.AsValue(Wrap(func(Args) (any, error) { return (int(t.Weekday()) + 6) % 7, nil })), true
	case "isoweekday": // Monday 1 .. Sunday 7
		return exec.AsValue(Wrap(func(Args) (any, error) { return (int(t.Weekday())+6)%7 + 1, nil })), true
	case "year":
		return exec.AsValue(t.Year()), true
	case "month":
		return exec.AsValue(int(t.Month())), true
	case "day":
		return exec.AsValue(t.Day()), true
	case "strftime":
		return exec.AsValue(Wrap(func(a Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("strftime() needs a format")
			}
			return Strftime(t, fmt.Sprint(a.Pos[0])), nil
		})), true
	}
	if !clock {
		return exec.AsValue(nil), false
	}
	switch name {
	case "hour":
		return exec.AsValue(t.Hour()), true
	case "minute":
		return exec.AsValue(t.Minute()), true
	case "second":
		return exec.AsValue(t.Second()), true
	case "microsecond":
		return exec.AsValue(t.Nanosecond() / 1000), true
	}
	return exec.AsValue(nil), false
}

// Datetime is a Python datetime as templates use dbt's run_started_at:
// it prints as str(datetime) does and has strftime, isoformat, date,
// timestamp and the date parts.
type Datetime struct{ T time.Time }

func (d Datetime) String() string {
	s := d.T.Format("2006-01-02 15:04:05")
	if d.T.Nanosecond() >= 1000 { // Python's str() leaves out a zero microsecond
		s = d.T.Format("2006-01-02 15:04:05.000000")
	}
	return s + d.T.Format("-07:00") // aware: its offset (+00:00 for run_started_at, +09:00 in Tokyo)
}

// PyTypeName names it in Python's messages (exec.PyTypeNamer).
func (Datetime) PyTypeName() string { return "datetime.datetime" }

// PyOp implements exec.PyOperand (see Date.PyOp).
func (d Datetime) PyOp(op string, other *exec.Value, reflected bool) (*exec.Value, bool) {
	return timeOp(d, d.T, op, other, reflected)
}

// GetAttribute implements gonja's attribute lookup.
func (d Datetime) GetAttribute(name string) (*exec.Value, bool) {
	t := d.T
	if v, ok := d.zoneMethod(name); ok { // isoformat, astimezone, replace (pytz.go)
		return v, true
	}
	switch name {
	case "tzinfo":
		return exec.AsValue(TZInfo{t.Location()}), true
	case "timestamp":
		return exec.AsValue(Wrap(func(Args) (any, error) { return float64(t.UnixMicro()) / 1e6, nil })), true
	case "date":
		return exec.AsValue(Wrap(func(Args) (any, error) {
			return Date{time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)}, nil
		})), true
	}
	return TimeAttribute(t, name, true)
}

// behaviorFlags is dbt's adapter.behavior: every flag reads as off, the
// default of the flags packages test (enable_truthy_nulls_equals_macro,
// ...), whether read directly, as .setting or as .no_warn.
type behaviorFlags struct{}

// GetAttribute implements gonja's attribute lookup.
func (behaviorFlags) GetAttribute(string) (*exec.Value, bool) { return exec.AsValue(flagOff(0)), true }

// flagOff is a behavior flag that is off: false in a test, and its
// .setting and .no_warn are false.
type flagOff int

// GetAttribute implements gonja's attribute lookup.
func (flagOff) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "setting", "no_warn":
		return exec.AsValue(false), true
	}
	return exec.AsValue(nil), false
}

// ConfigFunc is dbt's config in a template: called as config(...), and
// with config.get / require / set / meta_get / meta_require, which reach
// the same function with the method's name in the keyword ConfigMethod.
type ConfigFunc func(*exec.VarArgs) (any, error)

// ConfigMethod is the keyword that carries a config method's name.
const ConfigMethod = "__config_method"

// GetAttribute implements gonja's attribute lookup.
func (c ConfigFunc) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "get", "require", "set", "meta_get", "meta_require", "persist_relation_docs", "persist_column_docs":
		return exec.AsValue(Func(func(va *exec.VarArgs) (any, error) {
			kw := map[string]*exec.Value{ConfigMethod: exec.AsValue(name)}
			for k, v := range va.KwArgs {
				kw[k] = v
			}
			return c(&exec.VarArgs{Args: va.Args, KwArgs: kw})
		})), true
	}
	return exec.AsValue(nil), false
}
