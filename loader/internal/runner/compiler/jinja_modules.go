package compiler

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// setOf is Python's set() as templates compare them: the distinct
// values, sorted (two sets are equal when their sorted lists are).
func setOf(a render.Args) (any, error) {
	seen := map[string]bool{}
	out := []any{}
	if len(a.Pos) > 0 {
		items, _ := a.Pos[0].([]any)
		for _, v := range items {
			if k := fmt.Sprint(v); !seen[k] {
				seen[k] = true
				out = append(out, v)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
	return out, nil
}

// contextModules are dbt's `exceptions` and `modules` (re, datetime's
// now().strftime): the parts dbt packages use. Python regular expressions
// run as Go's RE2, which lacks backreferences and lookaround (an error).
func (rc *renderCtx) contextModules(ctx map[string]any) {
	ctx["set"] = render.Wrap(setOf)
	ctx["set_strict"] = render.Wrap(setOf)
	ctx["zip"] = render.Wrap(func(a render.Args) (any, error) {
		out := []any{}
		for i := 0; ; i++ {
			row := []any{}
			for _, p := range a.Pos {
				l, _ := p.([]any)
				if i >= len(l) {
					return out, nil
				}
				row = append(row, l[i])
			}
			if len(row) == 0 {
				return out, nil
			}
			out = append(out, row)
		}
	})
	// dbt's flags: docket runs no `dbt compile` with a connection, so a
	// render with one is a run
	flags := map[string]any{"WHICH": "run", "FULL_REFRESH": false, "STORE_FAILURES": false, "WARN_ERROR": false}
	if rc.db == nil {
		flags["WHICH"] = "compile"
	}
	if rc.m != nil && rc.m.which != "" {
		// the invocation's command and --full-refresh, at parse too: a
		// config() branching on them decides there (ParseOptions.Which)
		flags["WHICH"], flags["FULL_REFRESH"] = rc.m.which, rc.m.fullRefresh
	}
	if rc.m != nil && rc.m.run != nil {
		// a run's render: --full-refresh and the command as the
		// invocation has them (dbt's WHICH is the subcommand: build,
		// run-operation, compile, ...)
		if fr, ok := rc.m.run.Args["full_refresh"].(bool); ok {
			flags["FULL_REFRESH"] = fr
		}
		if w, ok := rc.m.run.Args["which"].(string); ok && w != "" {
			flags["WHICH"] = w
		}
		ctx["flags"] = flags
	} else {
		ctx["flags"] = &flagsValue{rc: rc, vals: flags}
	}
	ctx["exceptions"] = rc.exceptionsModule()
	ctx["modules"] = map[string]any{"re": reModule(), "datetime": datetimeModule(), "pytz": render.PytzModule()}
}

// exceptionsModule is dbt's `exceptions`: raise_compiler_error (an error
// at the caller's line), warn (a logged warning), raise_not_implemented.
func (rc *renderCtx) exceptionsModule() map[string]any {
	return map[string]any{
		"raise_compiler_error": render.Wrap(func(a render.Args) (any, error) {
			return nil, &render.UserError{Msg: strings.TrimSpace(fmt.Sprint(a.Pos...))}
		}),
		"warn": render.Wrap(func(a render.Args) (any, error) {
			if rc.m.log != nil {
				rc.m.log("warning: " + strings.TrimSpace(fmt.Sprint(a.Pos...)))
			}
			return "", nil
		}),
		"raise_not_implemented": render.Wrap(func(a render.Args) (any, error) {
			return nil, fmt.Errorf("not implemented: %s", fmt.Sprint(a.Pos...))
		}),
	}
}

// posStr is the i-th positional argument as a string ("" when absent).
func posStr(a render.Args, i int) string {
	if i < len(a.Pos) {
		return fmt.Sprint(a.Pos[i])
	}
	return ""
}

// datetimeModule is dbt's modules.datetime as packages use it:
// datetime.now()/utcnow(), and datetime(year, month, day[, hour, minute,
// second, microsecond, tzinfo]) by position or keyword (a microbatch
// model's begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0), as dbt's
// own adapter tests write it: it was "datetime() is not a method docket
// provides"), a pyDatetime (aware with tzinfo=: a render.Datetime).
func datetimeModule() map[string]any {
	return map[string]any{"date": dateClass(pyDate), "timedelta": render.Wrap(render.NewTimedelta), "datetime": datetimeClass(func(va *exec.VarArgs) (any, error) {
		t, zone, err := newTime(va, true)
		if err != nil {
			return nil, err
		}
		if zone != nil {
			return render.Datetime{T: t}, nil
		}
		return pyDatetime{t}, nil
	})}
}

// pyDate is Python's date(year, month, day): a render.Date (the type of
// run_started_at.date()). modules.datetime had no date: date(2024, 1, 2)
// and date.today() were "not a method docket provides".
func pyDate(va *exec.VarArgs) (any, error) {
	t, _, err := newTime(va, false)
	if err != nil {
		return nil, err
	}
	return render.Date{T: t}, nil
}

// newTime is Python's date(...) (clock false) or datetime(...) of va
// (render.NewTime).
func newTime(va *exec.VarArgs, clock bool) (time.Time, *time.Location, error) {
	a := render.Args{Kw: map[string]any{}}
	for _, v := range va.Args {
		a.Pos = append(a.Pos, v.Interface())
	}
	for k, v := range va.KwArgs {
		a.Kw[k] = v.Interface()
	}
	return render.NewTime(a, clock)
}

// dateClass is Python's date class: called, a date; its today() and
// fromisoformat('YYYY-MM-DD').
type dateClass func(va *exec.VarArgs) (any, error)

func (dateClass) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "today":
		return exec.AsValue(render.Wrap(func(render.Args) (any, error) {
			y, mo, d := time.Now().Date()
			return render.Date{T: time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)}, nil
		})), true
	case "fromisoformat":
		return exec.AsValue(render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) != 1 {
				return nil, fmt.Errorf("date.fromisoformat() takes one string")
			}
			t, err := time.Parse("2006-01-02", fmt.Sprint(a.Pos[0]))
			if err != nil {
				return nil, fmt.Errorf("Invalid isoformat string: %s", exec.PyStrRepr(fmt.Sprint(a.Pos[0])))
			}
			return render.Date{T: t}, nil
		})), true
	}
	return nil, false
}

// datetimeClass is Python's datetime class: called, a datetime; its
// attributes now() and utcnow().
type datetimeClass func(va *exec.VarArgs) (any, error)

func (datetimeClass) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "now":
		return exec.AsValue(render.Wrap(func(render.Args) (any, error) { return pyDatetime{time.Now()}, nil })), true
	case "utcnow":
		return exec.AsValue(render.Wrap(func(render.Args) (any, error) { return pyDatetime{time.Now().UTC()}, nil })), true
	case "fromisoformat":
		return exec.AsValue(render.Wrap(fromISOFormat)), true
	}
	return nil, false
}

// fromISOFormat is datetime.fromisoformat(text): a naive datetime, or an
// aware one when the text has an offset (dbt-airflow-macros parses its
// EXECUTION_DATE so; it was "not a method docket provides").
func fromISOFormat(a render.Args) (any, error) {
	if len(a.Pos) != 1 {
		return nil, fmt.Errorf("fromisoformat() takes one string")
	}
	s := fmt.Sprint(a.Pos[0])
	for _, layout := range []string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return render.Datetime{T: t}, nil
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return pyDatetime{t}, nil
		}
	}
	return nil, fmt.Errorf("ValueError as in Python (Invalid isoformat string: %s)", exec.PyStrRepr(s))
}

// pyDatetime is a Python datetime as a template sees it: printed as
// str() prints it; its attributes, methods and comparisons are a naive
// query datetime's (queryTime: year ... microsecond, date(), weekday(),
// strftime(), isoformat()); a config value of one (begin) is its time.
// It had its own attributes and strftime, a copy of render's that read
// the format's text as a Go layout ('%Y-%m-01' gave the month twice),
// an isoformat() with microseconds Python leaves out when they are 0,
// and two of them compared as gonja compares structs.
type pyDatetime struct{ t time.Time }

// a YAML date and time without a zone is this naive datetime
func init() { render.NaiveDatetime = func(t time.Time) any { return pyDatetime{t} } }

func (d pyDatetime) String() string {
	if d.t.Nanosecond() != 0 {
		return d.t.Format("2006-01-02 15:04:05.000000")
	}
	return d.t.Format("2006-01-02 15:04:05")
}

// MarshalJSON writes it as manifest.json's config shows dbt's: its str().
func (d pyDatetime) MarshalJSON() ([]byte, error) { return []byte(`"` + d.String() + `"`), nil }

// naive is d as a query's naive datetime.
func (d pyDatetime) naive() queryTime {
	return queryTime{t: d.t.Truncate(time.Microsecond), kind: kindNaive, text: d.String()}
}

// PyTypeName names it in Python's messages (exec.PyTypeNamer).
func (pyDatetime) PyTypeName() string { return "datetime.datetime" }

// Wall is its clock reading (render.TZInfo's localize takes it).
func (d pyDatetime) Wall() time.Time { return d.t }

// GetAttribute implements gonja's attribute lookup: replace(tzinfo=tz)
// makes it aware, isoformat takes sep and timespec; the rest is a naive
// query datetime's.
func (d pyDatetime) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "replace":
		return exec.AsValue(render.Wrap(func(a render.Args) (any, error) {
			t, zone, err := render.ReplaceTime(d.t, a, true)
			if err != nil {
				return nil, err
			}
			if zone != nil { // replace(tzinfo=tz): aware
				return render.Datetime{T: t}, nil
			}
			return pyDatetime{t}, nil
		})), true
	case "isoformat":
		return exec.AsValue(render.Wrap(func(a render.Args) (any, error) { return render.Isoformat(d.t, false, a) })), true
	}
	return d.naive().GetAttribute(name)
}

// PyOp implements exec.PyOperand (see queryTime.PyOp).
func (d pyDatetime) PyOp(op string, other *exec.Value, reflected bool) (*exec.Value, bool) {
	return d.naive().PyOp(op, other, reflected)
}

// PyFormat is a modules.datetime value's __format__ (exec.PyFormatter).
func (d pyDatetime) PyFormat(spec string) (string, error) {
	return render.PyFormatTime(d, d.t, spec), nil
}

// flagsValue is dbt's `flags` at parse: reading FULL_REFRESH or WHICH
// marks the node to render again at run time (n.needsDB, as graph does),
// where the run's --full-refresh and command are known; a template that
// branches on them was always rendered with false and "run" before.
type flagsValue struct {
	rc   *renderCtx
	vals map[string]any
}

func (f *flagsValue) get(name string) (*exec.Value, bool) {
	if name == "FULL_REFRESH" || name == "WHICH" {
		f.rc.needsDB = true
	}
	v, ok := f.vals[name]
	if !ok {
		return exec.AsValue(nil), false // undefined, as a dict's missing key
	}
	return exec.AsValue(v), true
}

func (f *flagsValue) GetAttribute(name string) (*exec.Value, bool) { return f.get(name) }

func (f *flagsValue) GetItem(key any) (*exec.Value, bool) {
	name, ok := key.(string)
	if !ok {
		return exec.AsValue(nil), false
	}
	return f.get(name)
}
