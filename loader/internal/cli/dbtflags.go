package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/project"
	"gopkg.in/yaml.v3"
)

// dbt's global flags that change nothing docket does, so nothing is lost
// when docket takes them out: colors off (docket prints none), parsing
// and cache tuning, the version check (a require-dbt-version docket does
// not meet is warned, never stops), usage statistics (docket sends none),
// artifacts written (docket writes them).
var dbtSatisfied = map[string]bool{"no-use-colors": true, "no-use-colors-file": true, "partial-parse": true, "no-partial-parse": true,
	"version-check": true, "no-version-check": true, "send-anonymous-usage-stats": true, "no-send-anonymous-usage-stats": true,
	"static-parser": true, "no-static-parser": true, "use-experimental-parser": true, "no-use-experimental-parser": true,
	"cache-selected-only": true, "no-cache-selected-only": true, "populate-cache": true, "no-populate-cache": true,
	"introspect": true, "no-introspect": true, "write-json": true, "print": true, "no-debug": true, "no-warn-error": true}

// dbt's global flags docket takes but does not apply, with why: each is
// warned, as every setting docket does not apply. valued says the flag
// takes a value (--log-path DIR).
var dbtNotApplied = map[string]struct {
	why    string
	valued bool
}{
	"use-colors":         {"docket prints no colors", false},
	"use-colors-file":    {"docket writes no log file", false},
	"debug":              {"docket has no debug log (docket debug checks the setup)", false},
	"d":                  {"docket has no debug log (docket debug checks the setup)", false},
	"warn-error":         {"warnings stay warnings: they do not fail the run", false},
	"warn-error-options": {"warnings stay warnings: they do not fail the run", true},
	"no-write-json":      {"docket writes target/manifest.json and run_results.json anyway", false},
	"no-print":           {"print() output is shown anyway", false},
	"log-path":           {"docket writes no dbt.log (its lines go to the terminal; --log-format json for structured logs)", true},
	"log-level":          {"docket prints the same lines at every level", true},
	"log-level-file":     {"docket writes no log file", true},
	"log-format-file":    {"docket writes no log file", true},
	"printer-width":      {"docket's lines have their own width", true},
	"record-timing-info": {"docket writes no timing profile", true},
}

// modelApplied are dbt's global flags the model commands apply (their
// flags, models.go): written before the command (dbt --warn-error build)
// they move after it; another command warns them as not applied. (load
// has a --quiet of its own.)
var modelApplied = map[string]bool{"quiet": true, "q": true, "warn-error": true, "no-warn-error": true, "warn-error-options": true}

// modelCommands take the modelApplied flags.
var modelCommands = map[string]bool{"build": true, "run": true, "test": true, "seed": true, "snapshot": true, "compile": true,
	"ls": true, "run-operation": true, "show": true, "retry": true, "parse": true}

// dbtFlagName is a flag's name without its dashes and value ("" when arg
// is no flag).
func dbtFlagName(arg string) (name string, hasValue bool) {
	if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
		return "", false
	}
	name = strings.TrimLeft(arg, "-")
	name, _, hasValue = strings.Cut(name, "=")
	return name, hasValue
}

// dbtGlobalFlags takes dbt's global flags out of a command line, wherever
// they stand (dbt takes them before or after the command): those that
// change nothing docket does silently, the others with a warning on stderr
// saying what is not applied; --quiet / -q and --warn-error go to the
// model commands, which apply them (modelApplied). Flags of docket's model commands written before the
// command (dbt --fail-fast build) move after it.
func dbtGlobalFlags(args []string, stderr io.Writer) []string {
	cmd := ""
	for i := 0; i < len(args); i++ {
		if name, _ := dbtFlagName(args[i]); name == "" {
			cmd = args[i]
			break
		} else if d, ok := dbtNotApplied[name]; ok && d.valued && !strings.Contains(args[i], "=") {
			i++
		} else if takesValue[name] && !strings.Contains(args[i], "=") {
			i++
		}
	}
	var out, before []string
	seenCmd := false
	warned := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, hasValue := dbtFlagName(a)
		if name == "" && !seenCmd {
			seenCmd = true
			out = append(out, a)
			out = append(out, before...)
			continue
		}
		switch d, ok := dbtNotApplied[name]; {
		case modelCommands[cmd] && cmd != "retry" && modelApplied[name]:
			// the model commands apply it: it goes to the command's flags
		case (name == "quiet" || name == "q") && cmd == "retry":
			if !warned[name] {
				warned[name] = true
				fmt.Fprintf(stderr, "warning: %s is a dbt flag docket retry reads but does not apply: every node's line is printed\n", a)
			}
			continue
		case dbtSatisfied[name]:
			continue
		case ok:
			if d.valued && !hasValue && i+1 < len(args) {
				i++
			}
			if !warned[name] {
				warned[name] = true
				fmt.Fprintf(stderr, "warning: %s is a dbt flag docket reads but does not apply: %s\n", a, d.why)
			}
			continue
		}
		if !seenCmd {
			// a flag of the command, written before it
			before = append(before, a)
			if takesValue[name] && !hasValue && i+1 < len(args) {
				i++
				before = append(before, args[i])
			}
			continue
		}
		out = append(out, a)
	}
	if !seenCmd {
		out = append(out, before...)
	}
	return out
}

// takesValue are the flags written before a command whose next argument is
// their value (so it is not taken for the command).
var takesValue = map[string]bool{"project": true, "project-dir": true, "profiles-dir": true, "log-format": true, "target": true,
	"target-path": true, "target-dir": true, "vars": true, "threads": true, "wait": true, "profile": true, "state": true,
	"warn-error-options": true}

// warnErrorOn says whether warnings are errors for this command: the
// flags, then DBT_WARN_ERROR / DBT_WARN_ERROR_OPTIONS, then
// dbt_project.yml's flags (dbt's order). What of --warn-error-options is
// not applied is warned.
func (f *modelFlags) warnErrorOn(p *project.Project, stderr io.Writer) bool {
	if f.noWarnError {
		return false
	}
	options := func(src, text string) bool {
		if text == "" {
			return false
		}
		var v any
		if err := yaml.Unmarshal([]byte(text), &v); err != nil {
			fmt.Fprintf(stderr, "warning: %s is not YAML (%v): not applied\n", src, err)
			return false
		}
		all, why := project.WarnErrorOptions(v)
		if why != "" {
			fmt.Fprintf(stderr, "warning: %s: %s\n", src, why)
		}
		return all
	}
	if f.warnError || options("--warn-error-options", f.warnErrorOptions) {
		return true
	}
	if b, ok := envBool("DBT_WARN_ERROR", stderr); ok {
		return b
	}
	if options("DBT_WARN_ERROR_OPTIONS", os.Getenv("DBT_WARN_ERROR_OPTIONS")) {
		return true
	}
	return p.DBT != nil && p.DBT.WarnError
}

// failFastOn says whether the run stops at the first failure: the flags,
// then DBT_FAIL_FAST, then dbt_project.yml's flags (dbt's order); an
// unreadable DBT_FAIL_FAST is warned.
func (f *modelFlags) failFastOn(p *project.Project, stderr io.Writer) bool {
	switch {
	case f.noFailFast:
		return false
	case f.failFast:
		return true
	}
	if b, ok := envBool("DBT_FAIL_FAST", stderr); ok {
		return b
	}
	return p.DBT != nil && p.DBT.FailFast
}

// envBool is a dbt environment flag (DBT_WARN_ERROR=true); ok is false
// when it is unset or unreadable, the latter warned as not applied.
func envBool(name string, stderr io.Writer) (v, ok bool) {
	env, set := os.LookupEnv(name)
	if !set {
		return false, false
	}
	b, err := strconv.ParseBool(env)
	if err != nil {
		fmt.Fprintf(stderr, "warning: %s=%q is not true or false: not applied\n", name, env)
		return false, false
	}
	return b, true
}
