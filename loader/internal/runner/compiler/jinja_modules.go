package compiler

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// pyReplRe finds Python's \1 / \g<name> group references in a re.sub
// replacement.
var pyReplRe = regexp.MustCompile(`\\(\d+)|\\g<(\w+)>`)

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
	ctx["flags"] = map[string]any{"WHICH": "run", "FULL_REFRESH": false, "STORE_FAILURES": false, "WARN_ERROR": false}
	if rc.db == nil {
		ctx["flags"].(map[string]any)["WHICH"] = "compile"
	}
	ctx["exceptions"] = rc.exceptionsModule()
	ctx["modules"] = map[string]any{"re": reModule(), "datetime": datetimeModule()}
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

// reModule is Python's `re` as dbt's modules.re: sub, search, match,
// findall, escape over Go's RE2.
func reModule() map[string]any {
	compile := func(a render.Args) (*regexp.Regexp, error) {
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("modules.re needs a pattern")
		}
		return regexp.Compile(fmt.Sprint(a.Pos[0]))
	}
	str := posStr
	return map[string]any{
		"sub": render.Wrap(func(a render.Args) (any, error) {
			r, err := compile(a)
			if err != nil {
				return nil, err
			}
			repl := pyReplRe.ReplaceAllString(str(a, 1), `$${$1$2}`)
			return r.ReplaceAllString(str(a, 2), repl), nil
		}),
		"search": render.Wrap(func(a render.Args) (any, error) {
			r, err := compile(a)
			if err != nil {
				return nil, err
			}
			if m := r.FindString(str(a, 1)); m != "" || r.MatchString(str(a, 1)) {
				return m, nil
			}
			return nil, nil
		}),
		"match": render.Wrap(func(a render.Args) (any, error) {
			r, err := compile(a)
			if err != nil {
				return nil, err
			}
			s := str(a, 1)
			if loc := r.FindStringIndex(s); loc != nil && loc[0] == 0 {
				return s[loc[0]:loc[1]], nil
			}
			return nil, nil
		}),
		"findall": render.Wrap(func(a render.Args) (any, error) {
			r, err := compile(a)
			if err != nil {
				return nil, err
			}
			out := []any{}
			for _, m := range r.FindAllString(str(a, 1), -1) {
				out = append(out, m)
			}
			return out, nil
		}),
		"escape": render.Wrap(func(a render.Args) (any, error) { return regexp.QuoteMeta(str(a, 0)), nil }),
	}
}

// datetimeModule is dbt's modules.datetime as packages use it:
// datetime.now()/utcnow() with strftime, isoformat, year, month, day.
func datetimeModule() map[string]any {
	now := func() any {
		t := time.Now()
		return map[string]any{
			"strftime": render.Wrap(func(a render.Args) (any, error) { return strftime(t, posStr(a, 0)), nil }),
			"isoformat": render.Wrap(func(render.Args) (any, error) {
				return t.Format("2006-01-02T15:04:05.000000"), nil
			}),
			"year": t.Year(), "month": int(t.Month()), "day": t.Day(),
		}
	}
	return map[string]any{"datetime": map[string]any{
		"now":    render.Wrap(func(render.Args) (any, error) { return now(), nil }),
		"utcnow": render.Wrap(func(render.Args) (any, error) { return now(), nil }),
	}}
}

// strftime formats t with Python's common % directives.
func strftime(t time.Time, f string) string {
	r := strings.NewReplacer("%Y", "2006", "%m", "01", "%d", "02", "%H", "15", "%M", "04", "%S", "05",
		"%y", "06", "%b", "Jan", "%B", "January", "%a", "Mon", "%A", "Monday", "%f", "000000", "%%", "%")
	return t.Format(r.Replace(f))
}
