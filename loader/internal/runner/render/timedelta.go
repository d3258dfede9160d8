package render

import (
	"fmt"
	"math"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// Timedelta is Python's datetime.timedelta (modules.datetime.timedelta,
// a date or datetime less another): a whole number of microseconds.
// `run_started_at - modules.datetime.timedelta(days=3)` is how many
// incremental models set their window; docket refused it ("timedelta ...
// not modelled").
type Timedelta struct{ US int64 }

// NewTimedelta is timedelta(days, seconds, microseconds, milliseconds,
// minutes, hours, weeks) from its positional and keyword arguments.
func NewTimedelta(a Args) (any, error) {
	names := []string{"days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"}
	unit := map[string]float64{"days": 86400e6, "seconds": 1e6, "microseconds": 1, "milliseconds": 1e3, "minutes": 60e6, "hours": 3600e6, "weeks": 7 * 86400e6}
	if len(a.Pos) > len(names) {
		return nil, fmt.Errorf("timedelta() takes at most 7 arguments (%d given)", len(a.Pos))
	}
	vals := map[string]any{}
	for i, v := range a.Pos {
		vals[names[i]] = v
	}
	for k, v := range a.Kw {
		if _, ok := unit[k]; !ok {
			return nil, fmt.Errorf("TypeError as in Python ('%s' is an invalid keyword argument for __new__())", k)
		}
		vals[k] = v
	}
	total := 0.0
	for k, v := range vals {
		f, ok := toFloat(v)
		if !ok {
			return nil, fmt.Errorf("TypeError as in Python (unsupported type for timedelta %s component: %s)", k, exec.PyTypeName(exec.AsValue(v)))
		}
		total += f * unit[k]
	}
	return Timedelta{US: int64(math.RoundToEven(total))}, nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// parts are Python's days, seconds and microseconds (seconds and
// microseconds never negative).
func (d Timedelta) parts() (days, secs, us int64) {
	days = floorDiv(d.US, 86400e6)
	rest := d.US - days*86400e6
	return days, rest / 1e6, rest % 1e6
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// String is str(td): "2 days, 3:04:05", "0:00:01.500000", "-1 day, 23:59:59".
func (d Timedelta) String() string {
	days, secs, us := d.parts()
	s := fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	if us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	if days != 0 {
		unit := "days"
		if days == 1 || days == -1 {
			unit = "day"
		}
		s = fmt.Sprintf("%d %s, %s", days, unit, s)
	}
	return s
}

// PyTypeName names it in Python's messages (exec.PyTypeNamer).
func (Timedelta) PyTypeName() string { return "datetime.timedelta" }

// GetAttribute implements gonja's attribute lookup: days, seconds,
// microseconds, total_seconds().
func (d Timedelta) GetAttribute(name string) (*exec.Value, bool) {
	days, secs, us := d.parts()
	switch name {
	case "days":
		return exec.AsValue(int(days)), true
	case "seconds":
		return exec.AsValue(int(secs)), true
	case "microseconds":
		return exec.AsValue(int(us)), true
	case "total_seconds":
		return exec.AsValue(Wrap(func(Args) (any, error) { return float64(d.US) / 1e6, nil })), true
	}
	return nil, false
}

// PyOp implements exec.PyOperand: timedeltas add, subtract, compare,
// scale by a number and divide; a date or datetime on the other side
// computes itself (TimeShift).
func (d Timedelta) PyOp(op string, other *exec.Value, reflected bool) (*exec.Value, bool) {
	if o, ok := other.Interface().(Timedelta); ok {
		a, b := d.US, o.US
		if reflected {
			a, b = b, a
		}
		switch op {
		case "+":
			return exec.AsValue(Timedelta{a + b}), true
		case "-":
			return exec.AsValue(Timedelta{a - b}), true
		case "/":
			if b == 0 {
				return exec.AsValue(fmt.Errorf("ZeroDivisionError as in Python (division by zero)")), true
			}
			return exec.AsValue(float64(a) / float64(b)), true
		case "//":
			if b == 0 {
				return exec.AsValue(fmt.Errorf("ZeroDivisionError as in Python (division by zero)")), true
			}
			return exec.AsValue(int(floorDiv(a, b))), true
		case "==", "!=":
			return exec.AsValue((a == b) == (op == "==")), true
		case "<", "<=", ">", ">=":
			return exec.AsValue(op == "<" && a < b || op == "<=" && a <= b || op == ">" && a > b || op == ">=" && a >= b), true
		}
	}
	if f, ok := toFloat(other.Interface()); ok && !other.IsBool() {
		switch {
		case op == "*":
			return exec.AsValue(Timedelta{int64(math.RoundToEven(float64(d.US) * f))}), true
		case (op == "/" || op == "//") && !reflected:
			if f == 0 {
				return exec.AsValue(fmt.Errorf("ZeroDivisionError as in Python (division by zero)")), true
			}
			q := float64(d.US) / f
			if op == "//" {
				q = math.Floor(q)
			}
			return exec.AsValue(Timedelta{int64(math.RoundToEven(q))}), true
		}
	}
	switch op {
	case "==":
		return exec.AsValue(false), true
	case "!=":
		return exec.AsValue(true), true
	}
	return nil, false // a date or datetime computes it; anything else the fork's TypeError
}

// TimeShift is t + d (sub: t - d) for a date (days only, as Python's
// date + timedelta takes td.days) or a datetime, or Python's
// OverflowError when the result leaves years 1-9999 (Go's time went on
// to 10000-01-01 where Python refuses: 9999-12-31 is a common open-ended
// valid_to, so one day past it is a template's mistake to report).
func TimeShift(t time.Time, d Timedelta, sub, isDate bool) (time.Time, error) {
	var r time.Time
	if isDate {
		// Python's date - td is date + timedelta(-td.days): the days of
		// td itself, so date(2024, 3, 1) - timedelta(hours=1) is the same
		// day (negating td first, -1 day + 23 hours, gave the day before)
		days, _, _ := d.parts()
		if sub {
			days = -days
		}
		r = t.AddDate(0, 0, int(days))
	} else {
		us := d.US
		if sub {
			us = -us
		}
		days, secs, micros := Timedelta{us}.parts()
		// whole days by the calendar, the rest as a Duration: a Duration holds
		// ±292 years only, so t.Add(us) overflowed past it (200,000 days back
		// from 2024 is 1476, as in Python)
		r = t.AddDate(0, 0, int(days)).Add(time.Duration(secs)*time.Second + time.Duration(micros)*time.Microsecond)
	}
	if y := r.Year(); y < 1 || y > 9999 {
		return time.Time{}, fmt.Errorf("OverflowError as in Python (date value out of range)")
	}
	return r, nil
}

// Since is t - u as a Timedelta (a date less a date, a datetime less a
// datetime), counted from Unix seconds: time.Time.Sub saturates at ±292
// years, so a date less 0001-01-01 or 9999-12-31 less today (an SCD's
// open-ended valid_to) gave 106751 days, 23:47:16.854775.
func Since(t, u time.Time) Timedelta {
	return Timedelta{US: (t.Unix()-u.Unix())*1_000_000 + int64(t.Nanosecond()/1000-u.Nanosecond()/1000)}
}
