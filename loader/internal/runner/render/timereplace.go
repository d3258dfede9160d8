package render

import (
	"fmt"
	"slices"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// timeFields are Python's date.replace / datetime.replace parameters in
// their positional order (a date takes the first three).
var timeFields = []string{"year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo"}

// ReplaceTime is Python's date.replace (clock false) or datetime.replace
// (clock true) of t: each field given by position or keyword, checked as
// Python checks it (ValueError "day is out of range for month", ...). zone
// is the tzinfo= given (nil when none was: t's own stays); a datetime's
// replace(tzinfo=None), which makes it naive, is an error docket names,
// since its aware datetimes (run_started_at) have no naive form here.
func ReplaceTime(t time.Time, a Args, clock bool) (out time.Time, zone *time.Location, err error) {
	return timeFromArgs("replace", t, a, clock)
}

// NewTime is Python's date(...) (clock false) or datetime(...) (clock
// true) of a: year, month and day required, the rest 0, each field
// checked as replace() checks it; zone is the tzinfo= given (nil: naive).
func NewTime(a Args, clock bool) (time.Time, *time.Location, error) {
	fn := "date"
	if clock {
		fn = "datetime"
	}
	for i, f := range timeFields[:3] {
		if _, kw := a.Kw[f]; i >= len(a.Pos) && !kw {
			return time.Time{}, nil, fmt.Errorf("TypeError as in Python (%s() missing required argument '%s' (pos %d))", fn, f, i+1)
		}
	}
	return timeFromArgs(fn, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), a, clock)
}

// timeFromArgs is t with the fields of a (fn names the call in errors).
func timeFromArgs(fn string, t time.Time, a Args, clock bool) (out time.Time, zone *time.Location, err error) {
	n := 3
	if clock {
		n = len(timeFields)
	}
	typ := "date"
	if clock {
		typ = "datetime"
	}
	if len(a.Pos) > n {
		return t, nil, fmt.Errorf("TypeError as in Python (%s() takes at most %d arguments (%d given))", fn, n, len(a.Pos))
	}
	given := map[string]any{}
	for i, v := range a.Pos {
		given[timeFields[i]] = v
	}
	for k, v := range a.Kw {
		i := slices.Index(timeFields[:n], k)
		if i < 0 {
			return t, nil, fmt.Errorf("TypeError as in Python ('%s' is an invalid keyword argument for %s())", k, fn)
		}
		if i < len(a.Pos) {
			return t, nil, fmt.Errorf("TypeError as in Python (argument for %s() given by name ('%s') and position (%d))", fn, k, i+1)
		}
		given[k] = v
	}
	f := []int{t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond() / 1000}
	for i, name := range timeFields[:min(n, 7)] {
		v, ok := given[name]
		if !ok {
			continue
		}
		x, isInt := v.(int)
		if b, isBool := v.(bool); isBool { // Python's bool is an int
			x, isInt = map[bool]int{false: 0, true: 1}[b], true
		}
		if !isInt {
			return t, nil, fmt.Errorf("TypeError as in Python ('%s' object cannot be interpreted as an integer)", exec.PyTypeName(exec.AsValue(v)))
		}
		f[i] = x
	}
	if err := checkTimeFields(f); err != nil {
		return t, nil, err
	}
	loc := t.Location()
	if v, ok := given["tzinfo"]; ok {
		z, isZone := v.(TZInfo)
		if !isZone {
			if v == nil {
				if fn != "replace" {
					return time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], f[6]*1000, loc), nil, nil // datetime(..., tzinfo=None): naive
				}
				return t, nil, fmt.Errorf("%s.replace(tzinfo=None) makes a naive datetime, which docket does not model for this value: format it with strftime() instead", typ)
			}
			return t, nil, fmt.Errorf("TypeError as in Python (tzinfo argument must be None or of a tzinfo subclass, not type '%s')", exec.PyTypeName(exec.AsValue(v)))
		}
		loc, zone = z.Loc, z.Loc
	}
	return time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], f[6]*1000, loc), zone, nil
}

// checkTimeFields is Python's ValueError for a field out of its range
// (year, month, day, hour, minute, second, microsecond).
func checkTimeFields(f []int) error {
	bad := func(msg string) error { return fmt.Errorf("ValueError as in Python (%s)", msg) }
	switch {
	case f[0] < 1 || f[0] > 9999:
		return bad(fmt.Sprintf("year %d is out of range", f[0]))
	case f[1] < 1 || f[1] > 12:
		return bad("month must be in 1..12")
	case f[2] < 1 || f[2] > time.Date(f[0], time.Month(f[1])+1, 0, 0, 0, 0, 0, time.UTC).Day():
		return bad("day is out of range for month")
	case f[3] < 0 || f[3] > 23:
		return bad("hour must be in 0..23")
	case f[4] < 0 || f[4] > 59:
		return bad("minute must be in 0..59")
	case f[5] < 0 || f[5] > 59:
		return bad("second must be in 0..59")
	case f[6] < 0 || f[6] > 999999:
		return bad("microsecond must be in 0..999999")
	}
	return nil
}
