package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// modelFlags are the flags shared by build, run, test, seed, compile, ls.
type modelFlags struct {
	selects, excludes []string
	fullRefresh       bool
	force             bool
	empty             bool // --empty: refs and sources read no rows (dbt 1.8)
	vars              string
	threads           int
	targetDir         string
	resourceType      string
	indirect          string
	selector          string // --selector NAME: a selectors.yml selection
	target            string
	state             string // --state DIR: a previous run's artifacts
	deferState        bool   // --defer: unbuilt parents read from the state's relations
	favorState        bool   // --favor-state: ... even when the target has them
	macro, macroArgs  string // run-operation MACRO --args '{...}'
	// --event-time-start / --event-time-end: a microbatch model's window
	eventTimeStart, eventTimeEnd string
	sample                       string // --sample (dbt 1.10): refused
	// show: --inline SQL, --limit rows (negative: all), --output text|json
	inline, output string
	outputKeys     selectorList // ls --output json: the keys (dbt's --output-keys)
	limit          int
	failFast       bool // --fail-fast / -x
	noFailFast     bool // --no-fail-fast
	// dbt's --quiet / -q: only errors (and the command's own output: ls's
	// list, show's rows, compile's SQL) on stdout
	quiet bool
	// dbt's --warn-error, --no-warn-error and --warn-error-options
	warnError, noWarnError bool
	warnErrorOptions       string
}

func parseModelFlags(cmd string, args []string, stderr io.Writer) (*modelFlags, error) {
	f := &modelFlags{}
	fs := flag.NewFlagSet("docket "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if cmd == "run-operation" {
		return f, parseOperationFlags(f, fs, args)
	}
	var sel, exc selectorList
	fs.Var(&sel, "s", "select nodes: names, folders, path:, tag:, source:, with + for ancestors/descendants; space = union, comma = intersection")
	fs.Var(&sel, "select", "same as -s")
	fs.Var(&sel, "m", "same as -s (old dbt spelling)")
	fs.Var(&sel, "models", "same as -s")
	fs.Var(&exc, "exclude", "exclude nodes (same syntax as --select)")
	fs.StringVar(&f.selector, "selector", "", "a selection named in selectors.yml (instead of -s/--exclude)")
	fs.BoolVar(&f.fullRefresh, "full-refresh", false, "rebuild incremental models from scratch (implies --force)")
	if cmd == "build" || cmd == "run" {
		fs.BoolVar(&f.empty, "empty", false, "build the models with their columns and no rows: every ref and source reads none (dbt 1.8's --empty)")
		fs.StringVar(&f.eventTimeStart, "event-time-start", "", "microbatch models: the first batch starts here (a date or date and time, UTC unless it says)")
		fs.StringVar(&f.eventTimeEnd, "event-time-end", "", "microbatch models: the last batch ends here (default: now)")
		fs.StringVar(&f.sample, "sample", "", "dbt 1.10's sample mode: not supported yet (refused, nothing is run)")
	}
	fs.BoolVar(&f.force, "force", false, "run every selected node, even one whose inputs did not change since its last build")
	f.addDbtFlags(fs, "to build into", "")
	fs.StringVar(&f.indirect, "indirect-selection", "eager", "tests picked up from selected nodes: eager (any parent selected), cautious (all), buildable (all selected or upstream), empty")
	fs.IntVar(&f.threads, "threads", 0, "models built at once (default: project.yaml threads)")
	fs.StringVar(&f.state, "state", "", "a previous run's artifacts folder (a copy of its target/), for state: and result: selectors and --defer")
	fs.BoolVar(&f.deferState, "defer", false, "read parents this run does not build, and the target lacks, from the relations in --state's manifest.json")
	fs.BoolVar(&f.favorState, "favor-state", false, "with --defer: read unselected parents from --state's relations even when the target has them")
	if cmd == "ls" {
		fs.StringVar(&f.resourceType, "resource-type", "", "model, seed, snapshot, test, unit_test, source, exposure or udf")
		fs.StringVar(&f.output, "output", "", "dbt ls's forms: selector, name, path or json (default: docket's lines: type, relation, materialization)")
		fs.Var(&f.outputKeys, "output-keys", "with --output json: the node keys to print (dbt's; default: dbt's list)")
	}
	if cmd == "show" {
		fs.StringVar(&f.inline, "inline", "", "SQL to preview instead of a node (ref, source, var and macros work)")
		fs.IntVar(&f.limit, "limit", 5, "rows to show (a negative number: all)")
		fs.StringVar(&f.output, "output", "text", "text (a table) or json")
	}
	if err := fs.Parse(gatherSelectors(args)); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("docket %s: unexpected argument %q", cmd, fs.Arg(0))
	}
	f.selects, f.excludes = sel, exc
	sample := false // --sample= (empty) asks for sample mode too
	fs.Visit(func(fl *flag.Flag) { sample = sample || fl.Name == "sample" })
	if sample {
		// dbt 1.10's --sample filters every ref and source with an
		// event_time to a window (seeds too, when read). Running the whole
		// build instead would be a surprise (the user asked for a small
		// one), so it is refused, with what docket has instead.
		return nil, fmt.Errorf("docket %s: --sample %q (dbt 1.10's sample mode: every ref and source with an event_time read over a window) is not supported: nothing was run. "+
			"--event-time-start/--event-time-end build a window of the microbatch models; --empty builds the models with no rows", cmd, f.sample)
	}
	return f, nil
}

// parseOperationFlags reads `run-operation MACRO [--args YAML]` (dbt's
// order: the macro first) with the flags that apply to it.
func parseOperationFlags(f *modelFlags, fs *flag.FlagSet, args []string) error {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		f.macro, args = args[0], args[1:]
	}
	fs.StringVar(&f.macroArgs, "args", "", "YAML mapping of the macro's keyword arguments, e.g. '{role: reporter, days: 7}'")
	f.addDbtFlags(fs, "to run against", "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.macro == "" && fs.NArg() > 0 {
		f.macro = fs.Arg(0)
		fs.Parse(fs.Args()[1:])
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("docket run-operation: unexpected argument %q", fs.Arg(0))
	}
	if f.macro == "" {
		return fmt.Errorf("usage: docket run-operation MACRO [--args '{name: value}']")
	}
	return nil
}

// addDbtFlags registers the dbt flags the model commands, run-operation,
// source freshness and docs generate all take, parsed into f the same
// way: --vars, --target and --target-dir (settings applies them). use
// says what the command does with its target ("to build into"); varsUse,
// when set, replaces the --vars help (docs generate reads and does not
// apply them).
func (f *modelFlags) addDbtFlags(fs *flag.FlagSet, use, varsUse string) {
	if varsUse == "" {
		varsUse = "YAML mapping overriding the project's vars, e.g. '{min_chars: 20}'"
	}
	fs.StringVar(&f.vars, "vars", "", varsUse)
	fs.StringVar(&f.target, "target", "", "dbt target (profiles.yml output) "+use+"; default: the profile's target")
	fs.StringVar(&f.targetDir, "target-dir", "", "artifacts folder (default: project.yaml target_dir)")
	fs.StringVar(&f.targetDir, "target-path", "", "same as --target-dir (dbt's name)")
	fs.BoolVar(&f.failFast, "fail-fast", false, "after the first node that errors or fails, start no other (dbt's; the rest are skipped)")
	fs.BoolVar(&f.failFast, "x", false, "same as --fail-fast")
	fs.BoolVar(&f.noFailFast, "no-fail-fast", false, "run every node whatever fails, whatever DBT_FAIL_FAST or dbt_project.yml's flags say")
	fs.BoolVar(&f.quiet, "quiet", false, "only errors on stdout, and the command's own output (ls's list, show's rows, compile's SQL) (dbt's)")
	fs.BoolVar(&f.quiet, "q", false, "same as --quiet")
	fs.BoolVar(&f.warnError, "warn-error", false, "dbt's: a test that warns fails (docket's own notices, settings it does not apply, stay warnings)")
	fs.BoolVar(&f.noWarnError, "no-warn-error", false, "warnings stay warnings, whatever dbt_project.yml's flags say")
	fs.StringVar(&f.warnErrorOptions, "warn-error-options", "", "dbt's '{include: all}' (or error: all) is --warn-error; naming dbt events is not applied (docket's warnings are not dbt's events)")
}

// settings are the project as the flags set it (--target, --target-dir),
// the threads and the --vars; ok false after a usage error was written.
func (f *modelFlags) settings(cmd string, p *project.Project, stderr io.Writer) (pp project.Project, threads int, vars map[string]any, ok bool) {
	pp = *p
	if f.target != "" {
		if err := pp.UseTarget(f.target); err != nil {
			fmt.Fprintln(stderr, "docket:", err)
			return pp, 0, nil, false
		}
	}
	if f.targetDir != "" {
		if filepath.IsAbs(f.targetDir) {
			pp.TargetDir = f.targetDir
		} else {
			pp.TargetDir = filepath.Join(p.Dir, f.targetDir)
		}
	}
	threads = pp.Threads
	if f.threads > 0 {
		threads = f.threads
	}
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	if f.vars != "" {
		var err error
		if vars, err = render.DecodeYAMLMapping(f.vars); err != nil { // a mapping keeps its order
			fmt.Fprintf(stderr, "docket %s: --vars is not a YAML mapping: %v\n", cmd, err)
			return pp, 0, nil, false
		}
	}
	return pp, threads, vars, true
}

func modelsPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func modelsRel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// printCompiled prints the SQL of one selected model, analysis or unit
// test, or else a summary of what docket compile wrote.
func printCompiled(m *runner.Manifest, ids []string, selected bool, took time.Duration, where string, stdout io.Writer) {
	c, one := map[string]int{}, map[string]*runner.Node{}
	python := 0 // Python models: not compiled (docket does not run Python)
	for _, id := range ids {
		n := m.Node(id)
		if n.Language == "python" {
			python++
			continue
		}
		c[n.ResourceType]++
		one[n.ResourceType] = n
	}
	if selected {
		// one unit test alone, else the one model, else the one analysis
		for _, t := range []string{runner.UnitTest, runner.Model, runner.Analysis} {
			if n := one[t]; c[t] == 1 && (t != runner.UnitTest || (len(ids) == 1 && n.CompiledCode != "")) && (t != runner.Analysis || c[runner.Model] == 0) {
				fmt.Fprintln(stdout, strings.Trim(n.CompiledCode, "\n"))
				return
			}
		}
	}
	analyses := ""
	if c[runner.Analysis] > 0 {
		analyses = fmt.Sprintf(", %d analyses", c[runner.Analysis])
	}
	py := ""
	if python > 0 {
		py = fmt.Sprintf("; %d Python model%s not compiled (docket does not run Python)", python, modelsPlural(python))
	}
	fmt.Fprintf(stdout, "Compiled %d models and %d tests%s in %.2fs; SQL in %s%s\n", c[runner.Model],
		len(ids)-python-c[runner.Model]-c[runner.Analysis], analyses, took.Seconds(), where, py)
}

func nodeCounts(m *runner.Manifest) string {
	c := map[string]int{}
	for _, n := range m.Nodes {
		c[n.ResourceType]++
	}
	snaps := ""
	if c[runner.Snapshot] > 0 {
		snaps = fmt.Sprintf("%d snapshots, ", c[runner.Snapshot])
	}
	units := ""
	if c[runner.UnitTest] > 0 {
		units = fmt.Sprintf("%d unit tests, ", c[runner.UnitTest])
	}
	return fmt.Sprintf("%d models, %d data tests, %s%d seeds, %s%d sources, %d macros, %d UDFs",
		c[runner.Model], c[runner.Test], units, c[runner.Seed], snaps, len(m.Sources), len(m.Macros), len(m.UDFs))
}

func listNodes(m *runner.Manifest, f *modelFlags, stdout, stderr io.Writer) int {
	if f.resourceType == "udf" {
		udfs := append([]runner.Function(nil), m.UDFs...)
		sort.Slice(udfs, func(i, j int) bool { return udfs[i].Name < udfs[j].Name })
		for _, u := range udfs {
			fmt.Fprintf(stdout, "%s\t%s\tv%s\n", u.Name, u.Signature(), strings.TrimPrefix(u.Version, "v"))
		}
		return ExitOK
	}
	var types []string
	switch f.resourceType {
	case "":
		types = []string{runner.Model, runner.Seed, runner.Snapshot, runner.Test, runner.UnitTest, runner.Source, runner.Exposure}
	case runner.Model, runner.Seed, runner.Snapshot, runner.Test, runner.UnitTest, runner.Source, runner.Exposure:
		types = []string{f.resourceType}
	default:
		fmt.Fprintf(stderr, "docket ls: --resource-type must be model, seed, snapshot, test, unit_test, source, exposure or udf (got %q)\n", f.resourceType)
		return ExitUsage
	}
	ids, err := f.choose(m, "eager", stderr, types...)
	if err != nil {
		fmt.Fprintln(stderr, "docket ls:", err)
		return ExitUsage
	}
	if f.output != "" {
		return listDbtForm(m, ids, f, stdout, stderr)
	}
	for _, id := range ids {
		if m.IsExposure(id) {
			// docket runs nothing for an exposure; dbt ls lists it
			fmt.Fprintf(stdout, "exposure\t%s\t%s\n", strings.TrimPrefix(id, "exposure."+m.Name+"."), m.ExposureType(id))
			continue
		}
		n := m.Node(id)
		switch n.ResourceType {
		case runner.Model:
			name := n.Name
			if n.Version != "" {
				name = n.Alias // each version its own relation (dim_v1, dim_v2)
			}
			fmt.Fprintf(stdout, "model\t%s.%s\t%s\n", n.Schema, name, n.Config.Materialized)
		case runner.Seed:
			fmt.Fprintf(stdout, "seed\t%s.%s\n", n.Schema, n.Name)
		case runner.Snapshot:
			strategy := ""
			if n.SnapshotCfg != nil {
				strategy = n.SnapshotCfg.Strategy
			}
			fmt.Fprintf(stdout, "snapshot\t%s.%s\t%s\n", n.Schema, n.Alias, strategy)
		case runner.Test:
			fmt.Fprintf(stdout, "test\t%s\t%s\n", n.Name, n.Config.Severity)
		case runner.UnitTest:
			fmt.Fprintf(stdout, "unit_test\t%s\t%s\n", n.Name, n.FQN[len(n.FQN)-2])
		case runner.Source:
			fmt.Fprintf(stdout, "source\t%s.%s\t%s\n", n.SourceName, n.Name, n.Relation)
		}
	}
	return ExitOK
}

// progressLine renders "1 of 9 OK created sql table model curated.x ..... [OK 120 rows in 0.31s]".
func progressLine(r runner.Result) string {
	var desc, tag string
	secs := fmt.Sprintf("in %.2fs", r.ExecutionTime)
	rel := strings.ReplaceAll(r.RelationName, `"`, "")
	kind := r.ResourceType
	if r.UpToDate {
		// not run: inputs unchanged since its last build (runner/state.go)
		kind = "up to date"
		desc, tag = "UP TO DATE "+r.ResourceType+" "+rel, "[UP TO DATE]"
		if r.ResourceType == runner.Test || r.ResourceType == runner.UnitTest {
			desc = "UP TO DATE " + r.ResourceType + " " + r.Name
		}
	}
	switch kind {
	case runner.Model:
		switch r.Status {
		case runner.StatusSuccess:
			desc = fmt.Sprintf("OK created sql %s model %s", r.Materialized, rel)
			if r.Materialized == "view" {
				tag = "[OK " + secs + "]"
			} else {
				tag = fmt.Sprintf("[OK %d rows %s]", r.AdapterResponse.RowsAffected, secs)
			}
		case runner.StatusError:
			desc, tag = fmt.Sprintf("ERROR creating %s %s model %s", cmp.Or(r.Language, "sql"), r.Materialized, rel), "[ERROR "+secs+"]"
		case runner.StatusPartialSuccess:
			ok := 0
			if r.BatchResults != nil {
				ok = len(r.BatchResults.Successful)
			}
			desc = fmt.Sprintf("PARTIAL SUCCESS (%d/%d) creating sql microbatch model %s", ok, len(r.Batches), rel)
			tag = fmt.Sprintf("[PARTIAL SUCCESS %d rows %s]", r.AdapterResponse.RowsAffected, secs)
		default:
			desc, tag = "SKIP relation "+rel, "[SKIP]"
		}
	case runner.Seed:
		switch r.Status {
		case runner.StatusSuccess:
			desc, tag = "OK loaded seed file "+rel, fmt.Sprintf("[INSERT %d %s]", r.AdapterResponse.RowsAffected, secs)
		case runner.StatusError:
			desc, tag = "ERROR loading seed file "+rel, "[ERROR "+secs+"]"
		default:
			desc, tag = "SKIP seed "+rel, "[SKIP]"
		}
	case runner.Snapshot:
		desc, tag = snapshotLine(r, rel, secs)
	case runner.Operation: // an on-run-start/on-run-end hook, as dbt prints it
		switch r.Status {
		case runner.StatusSuccess:
			desc, tag = "OK hook: "+r.Name, "[OK "+secs+"]"
		case runner.StatusError:
			desc, tag = "ERROR hook: "+r.Name, "[ERROR "+secs+"]"
		default:
			desc, tag = "SKIP hook: "+r.Name, "[SKIP]"
		}
	case runner.Test, runner.UnitTest:
		var n int64
		if r.Failures != nil {
			n = *r.Failures
		}
		switch r.Status {
		case runner.StatusPass:
			desc, tag = "PASS "+r.Name, "[PASS "+secs+"]"
		case runner.StatusFail:
			desc, tag = fmt.Sprintf("FAIL %d %s", n, r.Name), fmt.Sprintf("[FAIL %d %s]", n, secs)
		case runner.StatusWarn:
			desc, tag = fmt.Sprintf("WARN %d %s", n, r.Name), fmt.Sprintf("[WARN %d %s]", n, secs)
		case runner.StatusError:
			desc, tag = "ERROR "+r.Name, "[ERROR "+secs+"]"
		default:
			desc, tag = "SKIP test "+r.Name, "[SKIP]"
		}
	}
	head := fmt.Sprintf("%d of %d %s ", r.Index, r.Total, desc)
	dots := 80 - len(head)
	if dots < 3 {
		dots = 3
	}
	return head + strings.Repeat(".", dots) + " " + tag
}

// batchLine is batch i of total of a microbatch model, as dbt prints it
// ("  Batch 2 of 4 OK batch 20240102 of m.events ... [INSERT 3 in 0.01s]").
func batchLine(r runner.Result, i, total int, b runner.BatchRun) string {
	rel := strings.ReplaceAll(r.RelationName, `"`, "")
	desc, tag := "OK batch "+b.ID+" of "+rel, fmt.Sprintf("[%s in %.2fs]", b.Message, b.Seconds)
	if b.Status != runner.StatusSuccess {
		desc, tag = "ERROR batch "+b.ID+" of "+rel, fmt.Sprintf("[ERROR in %.2fs]", b.Seconds)
	}
	head := fmt.Sprintf("  Batch %d of %d %s ", i, total, desc)
	return head + strings.Repeat(".", max(3, 80-len(head))) + " " + tag
}

// printSummary prints a run's summary as dbt does; quiet (--quiet) keeps
// only its errors and failures.
func printSummary(w io.Writer, dir string, m *runner.Manifest, rr *runner.RunResults, quiet bool) {
	info := w
	if quiet {
		info = io.Discard
	}
	kinds := map[string]int{}
	var pass, warn, errs, skip, upToDate int
	for _, r := range rr.Results {
		if r.UpToDate {
			upToDate++
		}
		switch r.ResourceType {
		case runner.Model:
			kinds[r.Materialized+" model"]++
		case runner.Test:
			kinds["data test"]++
		case runner.UnitTest:
			kinds["unit test"]++
		case runner.Seed:
			kinds["seed"]++
		case runner.Snapshot:
			kinds["snapshot"]++
		case runner.Operation:
			kinds["project hook"]++
		}
		switch r.Status {
		case runner.StatusSuccess, runner.StatusPass:
			pass++
		case runner.StatusWarn:
			warn++
		case runner.StatusError, runner.StatusFail, runner.StatusPartialSuccess:
			errs++
		case runner.StatusSkipped:
			skip++
		}
	}
	var parts []string
	order := []string{"project hook", "seed", "snapshot", "view model", "table model", "incremental model"}
	var custom []string // a custom materialization's models
	for k := range kinds {
		if !slices.Contains(order, k) && k != "data test" && k != "unit test" {
			custom = append(custom, k)
		}
	}
	sort.Strings(custom)
	order = append(order, custom...)
	for _, k := range append(order, "data test", "unit test") {
		if kinds[k] > 0 {
			s := "s"
			if kinds[k] == 1 {
				s = ""
			}
			parts = append(parts, fmt.Sprintf("%d %s%s", kinds[k], k, s))
		}
	}
	fmt.Fprintf(info, "\nFinished running %s in %.2fs.\n", strings.Join(parts, ", "), rr.ElapsedTime)
	if upToDate > 0 {
		fmt.Fprintf(info, "%d of them up to date (inputs unchanged since their last build; --force runs them anyway).\n", upToDate)
	}
	if errs == 0 && warn == 0 {
		fmt.Fprintln(info, "\nCompleted successfully")
	} else if !quiet || errs > 0 {
		fmt.Fprintf(w, "\nCompleted with %d error%s and %d warning%s:\n", errs, modelsPlural(errs), warn, modelsPlural(warn))
		for _, r := range rr.Results {
			if !(r.Failed() || r.Status == runner.StatusWarn && !quiet) {
				continue
			}
			n := m.Node(r.UniqueID)
			what := "Failure"
			if r.Status == runner.StatusWarn {
				what = "Warning"
			} else if r.Status == runner.StatusError {
				what = "Error"
			} else if r.Status == runner.StatusPartialSuccess {
				what = "Partial success"
			}
			fmt.Fprintf(w, "\n%s in %s %s (%s)\n", what, r.ResourceType, r.Name, n.Path)
			for _, l := range strings.Split(r.Message, "\n") {
				fmt.Fprintf(w, "  %s\n", l)
			}
			for _, b := range r.Batches {
				if b.Status == runner.StatusError {
					fmt.Fprintf(w, "  batch %s (%s to %s) failed: %s\n", b.ID, b.Start.Format(time.RFC3339), b.End.Format(time.RFC3339), b.Message)
				}
			}
			if r.Sample != nil && len(r.Sample.Rows) > 0 {
				fmt.Fprintf(w, "  sample of failing rows:\n    %s\n", strings.Join(r.Sample.Columns, " | "))
				for _, row := range r.Sample.Rows {
					fmt.Fprintf(w, "    %s\n", strings.Join(row, " | "))
				}
			}
			if n.CompiledPath != "" && r.Status != runner.StatusError {
				fmt.Fprintf(w, "  compiled code at %s\n", n.CompiledPath)
			}
		}
		var skipped []string
		for _, r := range rr.Results {
			if r.Status == runner.StatusSkipped && !strings.HasPrefix(r.Message, "skipped: reads ") {
				skipped = append(skipped, r.Name)
			}
		}
		if len(skipped) > 0 {
			fmt.Fprintf(info, "\nSkipped because of upstream failures: %s\n", strings.Join(skipped, ", "))
		}
	}
	for _, r := range rr.Results {
		if r.Status == runner.StatusSkipped && strings.HasPrefix(r.Message, "skipped: reads ") {
			fmt.Fprintf(info, "\nNot run yet: test %s %s\n", r.Name, strings.TrimPrefix(r.Message, "skipped: "))
		}
	}
	fmt.Fprintf(info, "\nDone. PASS=%d WARN=%d ERROR=%d SKIP=%d TOTAL=%d\n", pass, warn, errs, skip, len(rr.Results))
}

// compileWithWarehouse compiles the selected nodes that need the database
// on a read connection, as dbt compiles with its connection: those whose
// templates read it (run_query, adapter.get_relation, …) render again,
// unit tests get their model's SQL on their fixtures. Without a warehouse
// yet the first stay as parsed (execute=false) and unit tests are left
// out, with a note. It returns the manifest with that SQL.
func compileWithWarehouse(ctx context.Context, m *runner.Manifest, ids []string, p *project.Project, udfs []warehouse.UDF, stderr io.Writer) (*runner.Manifest, int) {
	reads, units := 0, 0
	for _, id := range ids {
		switch n := m.Node(id); {
		case n.ReadsDatabase():
			reads++
		case n.NeedsDatabase():
			units++
		}
	}
	if reads+units == 0 {
		return m, ExitOK
	}
	if _, err := os.Stat(p.Warehouse); err != nil {
		if reads > 0 {
			fmt.Fprintf(stderr, "docket compile: note: %d node%s read%s the database while rendering and there is no warehouse yet: compiled as dbt parses (execute=false)\n",
				reads, modelsPlural(reads), map[bool]string{true: "s"}[reads == 1])
		}
		if units > 0 {
			fmt.Fprintf(stderr, "docket compile: note: %d unit test%s not compiled: fixtures take the inputs' column types from the warehouse, which does not exist yet\n",
				units, modelsPlural(units))
		}
		return m, ExitOK
	}
	db, code := openReaderWith(ctx, p, udfs, stderr)
	if db == nil {
		return m, code
	}
	defer db.Close()
	c, err := db.Conn(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return m, ExitFailed
	}
	defer c.Close()
	if err := runner.Attach(ctx, c, m); err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return m, ExitFailed
	}
	warnUnknownSettings(ctx, db, m, stderr)
	if err := runner.Settings(ctx, c, m); err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return m, ExitFailed
	}
	m, diags, unitWarn := m.CompileWith(ctx, runner.SQLQuerier(c), ids)
	for _, w := range unitWarn {
		fmt.Fprintln(stderr, "warning:", w)
	}
	for _, d := range diags {
		fmt.Fprintln(stderr, d)
	}
	if len(diags) > 0 {
		fmt.Fprintf(stderr, "docket compile: %d problem%s rendering with the warehouse\n", len(diags), modelsPlural(len(diags)))
		return m, ExitFailed
	}
	return m, ExitOK
}
