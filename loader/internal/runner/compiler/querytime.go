package compiler

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// timeKind is which Python type a date-time value is.
type timeKind int

const (
	kindDate  timeKind = iota // datetime.date
	kindNaive                 // datetime.datetime without a zone
	kindAware                 // datetime.datetime with one (TIMESTAMPTZ)
)

// queryTime is a DATE, TIMESTAMP or TIMESTAMPTZ value of a run_query
// result as dbt's agate table holds it: Python's datetime.date or
// datetime.datetime, not its text. It prints as str() does (pythonTime's
// text), has the date parts, strftime(), isoformat(), date(), weekday()
// and isoweekday(), and compares as Python: with a date or datetime of
// its own kind by time; == anything else is False, and < anything else
// is Python's TypeError. Date arithmetic is an error: docket has no
// timedelta, so it says to compute it in SQL rather than give a wrong
// number.
type queryTime struct {
	t    time.Time
	kind timeKind
	text string
}

// queryTimeOf is v as a queryTime when it is a time of a DATE, TIMESTAMP
// (any precision) or TIMESTAMPTZ column; false for any other value (TIME
// and TIMETZ stay their text).
func queryTimeOf(v any, dbType string) (queryTime, bool) {
	t, ok := v.(time.Time)
	if !ok {
		return queryTime{}, false
	}
	var k timeKind
	switch dbType {
	case "DATE":
		k = kindDate
	case "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS":
		k = kindNaive
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		k = kindAware
	default:
		return queryTime{}, false
	}
	text, _ := pythonTime(t, dbType).(string)
	return queryTime{t: t.Truncate(time.Microsecond), kind: k, text: text}, true
}

func (q queryTime) String() string { return q.text }

// MarshalJSON writes its str(), as docket writes it anywhere as text.
func (q queryTime) MarshalJSON() ([]byte, error) { return json.Marshal(q.text) }

// PyTypeName implements exec.PyTypeNamer: len(), iter() and json.dumps
// refuse it as Python's TypeError names it.
func (q queryTime) PyTypeName() string { return q.typeName() }

func (q queryTime) typeName() string {
	if q.kind == kindDate {
		return "datetime.date"
	}
	return "datetime.datetime"
}

// GetAttribute implements gonja's attribute lookup.
func (q queryTime) GetAttribute(name string) (*exec.Value, bool) {
	t := q.t
	call := func(f func() any) (*exec.Value, bool) {
		return exec.AsValue(render.Wrap(func(render.Args) (any, error) { return f(), nil })), true
	}
	switch name {
	case "replace":
		return exec.AsValue(render.Wrap(func(a render.Args) (any, error) {
			r, zone, err := render.ReplaceTime(t, a, q.kind != kindDate)
			if err != nil {
				return nil, err
			}
			return q.as(r, zone != nil), nil
		})), true
	case "tzinfo": // a naive datetime's is None (docket: undefined); a date has none
		switch q.kind {
		case kindNaive:
			return exec.AsValue(nil), true
		case kindAware:
			return exec.AsValue(render.TZInfo{Loc: t.Location()}), true
		}
	case "isoformat":
		return call(func() any { return strings.Replace(q.text, " ", "T", 1) })
	case "date":
		if q.kind == kindDate {
			break
		}
		return call(func() any {
			d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
			return queryTime{t: d, kind: kindDate, text: d.Format("2006-01-02")}
		})
	}
	return render.TimeAttribute(t, name, q.kind != kindDate)
}

// timeOf is v's time and kind when v is a date or datetime a template
// holds: a query's, modules.datetime's (naive) or run_started_at (aware)
// and its date().
func timeOf(v any) (time.Time, timeKind, bool) {
	switch x := v.(type) {
	case queryTime:
		return x.t, x.kind, true
	case pyDatetime:
		return x.t, kindNaive, true
	case render.Datetime:
		return x.T, kindAware, true
	case render.Date: // run_started_at.date()
		return x.T, kindDate, true
	}
	return time.Time{}, 0, false
}

// PyOp implements exec.PyOperand: Python's comparisons of a date or
// datetime; '%s' % d formats its str(); other operators are an error.
func (q queryTime) PyOp(op string, other *exec.Value, reflected bool) (*exec.Value, bool) {
	ot, okind, isTime := timeOf(other.Interface())
	switch op {
	case "==", "!=":
		eq := isTime && okind == q.kind && q.t.Equal(ot)
		return exec.AsValue(eq == (op == "==")), true
	case "<", "<=", ">", ">=":
		if !isTime || okind != q.kind {
			return exec.AsValue(q.typeError(op, other, isTime, okind, reflected)), true
		}
		c := q.t.Compare(ot)
		if reflected {
			c = -c
		}
		return exec.AsValue(op == "<" && c < 0 || op == "<=" && c <= 0 || op == ">" && c > 0 || op == ">=" && c >= 0), true
	case "%":
		if reflected {
			return nil, false // '%s' % d
		}
	case "-":
		if isTime && okind == q.kind { // a timedelta
			if reflected {
				return exec.AsValue(render.Since(ot, q.t)), true
			}
			return exec.AsValue(render.Since(q.t, ot)), true
		}
	}
	if td, ok := other.Interface().(render.Timedelta); ok && (op == "+" || op == "-" && !reflected) {
		return exec.AsValue(q.shifted(td, op == "-")), true
	}
	// a date takes a timedelta only: any other operand is Python's
	// TypeError (was "docket does not compute", as if Python would have)
	a, b := q.typeName(), exec.PyTypeName(other)
	if reflected {
		a, b = b, a
	}
	return exec.AsValue(fmt.Errorf("TypeError as in Python (unsupported operand type(s) for %s '%s' and '%s')", op, a, b)), true
}

// shifted is q + td (sub: q - td) as the template type of q's kind: a
// date, a naive datetime or an aware one.
func (q queryTime) shifted(td render.Timedelta, sub bool) any {
	t, err := render.TimeShift(q.t, td, sub, q.kind == kindDate)
	if err != nil {
		return err
	}
	return q.as(t, false)
}

// as is t as the template type of q's kind: a date, a naive datetime
// (aware when a zone was given: replace(tzinfo=tz)) or an aware one.
func (q queryTime) as(t time.Time, zoned bool) any {
	switch {
	case q.kind == kindDate:
		return render.Date{T: t}
	case q.kind == kindNaive && !zoned:
		return pyDatetime{t}
	}
	return render.Datetime{T: t}
}

// typeError is Python's TypeError for an order comparison q cannot make.
func (q queryTime) typeError(op string, other *exec.Value, isTime bool, k timeKind, reflected bool) error {
	switch {
	case isTime && (k == kindDate) != (q.kind == kindDate):
		a, b := q.typeName(), "datetime.date"
		if q.kind == kindDate {
			b = "datetime.datetime"
		}
		if reflected {
			a, b = b, a
		}
		return fmt.Errorf("TypeError as in Python (can't compare %s to %s)", a, b)
	case isTime:
		return fmt.Errorf("TypeError as in Python (can't compare offset-naive and offset-aware datetimes)")
	}
	a, b := q.typeName(), exec.PyTypeName(other)
	if reflected {
		a, b = b, a
	}
	return fmt.Errorf("TypeError as in Python ('%s' not supported between instances of '%s' and '%s')", op, a, b)
}

// PyFormat is a query date's or datetime's __format__ (exec.PyFormatter).
func (q queryTime) PyFormat(spec string) (string, error) {
	return render.PyFormatTime(q, q.t, spec), nil
}
