package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// RunModels runs one model-runner command (build, run, test, seed,
// compile, ls) and returns the exit code.
func RunModels(ctx context.Context, cmd string, args []string, p *project.Project, udfs []warehouse.UDF, stdout, stderr io.Writer) int {
	f, err := parseModelFlags(cmd, args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		if !strings.Contains(err.Error(), "flag provided but not defined") && !strings.Contains(err.Error(), "invalid value") {
			fmt.Fprintln(stderr, err)
		}
		return ExitUsage
	}
	pp, threads, vars, ok := f.settings(cmd, p, stderr)
	if !ok {
		return ExitUsage
	}
	mr := &modelRun{cmd: cmd, f: f, p: p, pp: &pp, threads: threads, udfs: udfs, stdout: stdout, stderr: stderr, info: stdout}
	if f.quiet {
		mr.info = io.Discard
	}
	mr.warnError = f.warnErrorOn(&pp, stderr)
	t0 := time.Now()
	m, code := mr.parse(vars)
	if m == nil {
		return code
	}
	if mr.warnError && len(p.Warnings)+len(m.Warnings) > 0 {
		// docket's notices (a setting it does not apply, at file:line) are
		// no dbt warning: dbt fires no event for them, so a project that
		// passes `dbt build --warn-error` is not stopped by them
		fmt.Fprintln(stderr, "docket: --warn-error: the project's notices above stay warnings: they are docket's own (settings it does not apply), not dbt's warnings")
	}
	parseTime := time.Since(t0)
	switch cmd {
	case "parse":
		return mr.parsed(m)
	case "ls":
		return listNodes(m, f, stdout, stderr)
	case "compile":
		return mr.compile(ctx, m, parseTime)
	case "show":
		return mr.show(ctx, m)
	case "build", "run", "test", "seed", "snapshot":
		return mr.execute(ctx, m)
	case "run-operation":
		return mr.operation(ctx, m)
	}
	fmt.Fprintf(stderr, "docket: unknown model command %q\n", cmd)
	return ExitUsage
}

// modelRun is one model-runner command once its flags are read.
type modelRun struct {
	cmd            string
	f              *modelFlags
	p              *project.Project // as loaded
	pp             *project.Project // with the command's settings (target, vars, ...)
	threads        int
	udfs           []warehouse.UDF
	stdout, stderr io.Writer
	// info is stdout for the lines --quiet leaves out (io.Discard then):
	// the counts, each node's line but a failure's, the summary but its
	// errors
	info      io.Writer
	warnError bool       // --warn-error (or its options, env or project flag)
	outMu     sync.Mutex // result and batch lines: a batch may end beside another node's result
}

// parse parses the project, printing its warnings and problems; a nil
// manifest (with the exit code) when it has problems.
func (mr *modelRun) parse(vars map[string]any) (*runner.Manifest, int) {
	stderr := mr.stderr
	var logMu sync.Mutex
	logf := func(msg string) { // {{ log(msg, info=True) }}: on stderr, stdout may be compiled SQL
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(stderr, "%s  %s\n", time.Now().Format("15:04:05"), termSafe(msg))
	}
	opts := parseOptions(mr.udfs)
	opts.Vars, opts.Log, opts.Inline = vars, logf, mr.f.inline
	opts.Which, opts.FullRefresh = dbtWhich(mr.cmd), mr.f.fullRefresh
	m, diags, err := runner.Parse(mr.pp, opts)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return nil, ExitUsage
	}
	for _, w := range m.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(stderr, d)
		}
		fmt.Fprintf(stderr, "docket %s: %d problem%s in the project; nothing was run\n", mr.cmd, len(diags), modelsPlural(len(diags)))
		return nil, ExitUsage
	}
	return m, ExitOK
}

// dbtWhich is dbt's flags.WHICH for a docket command: its name, but ls,
// which is dbt's list.
func dbtWhich(cmd string) string {
	if cmd == "ls" {
		return "list"
	}
	return cmd
}

// compile is `docket compile`: the selected nodes rendered for this
// invocation (with the warehouse when it exists), target/ written.
func (mr *modelRun) compile(ctx context.Context, m *runner.Manifest, parseTime time.Duration) int {
	f, stderr := mr.f, mr.stderr
	ids, err := f.choose(m, "eager", stderr, runner.Model, runner.Test, runner.UnitTest, runner.Analysis)
	if err != nil {
		fmt.Fprintln(stderr, "docket compile:", err)
		return ExitUsage
	}
	// templates that read graph or selected_resources see this invocation's
	forRun, err := m.ForRun(runner.RunContext{Selected: ids, Args: map[string]any{"which": "compile", "full_refresh": f.fullRefresh}})
	if err != nil {
		fmt.Fprintln(stderr, "docket compile:", err)
		return ExitUsage
	}
	compiled, code := compileWithWarehouse(ctx, forRun, ids, mr.pp, mr.udfs, stderr)
	if code != ExitOK {
		return code
	}
	for _, id := range ids { // what their compiled renders logged, as dbt compile shows it
		if n := compiled.Node(id); n != nil {
			compiled.ShowCompileLogs(n)
		}
	}
	if err := runner.WriteArtifacts(compiled, mr.pp.TargetDir, nil); err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	printCompiled(compiled, ids, f.narrowed(), parseTime, modelsRel(mr.p.Dir, filepath.Join(mr.pp.TargetDir, "compiled")), mr.stdout)
	return ExitOK
}

// parsed is dbt parse: the project read (its warnings and problems
// printed) and target/manifest.json written; nothing compiled against the
// warehouse, nothing run.
func (mr *modelRun) parsed(m *runner.Manifest) int {
	if err := os.MkdirAll(mr.pp.TargetDir, 0o755); err != nil {
		fmt.Fprintln(mr.stderr, "docket:", err)
		return ExitFailed
	}
	path := filepath.Join(mr.pp.TargetDir, "manifest.json")
	if err := compiler.WriteJSON(path, m.ManifestDoc()); err != nil {
		fmt.Fprintln(mr.stderr, "docket:", err)
		return ExitFailed
	}
	fmt.Fprintf(mr.info, "Found %s\nManifest: %s\n", nodeCounts(m), modelsRel(mr.p.Dir, path))
	return ExitOK
}

// execute runs build, run, test, seed or snapshot on the selected nodes
// and writes the artifacts.
func (mr *modelRun) execute(ctx context.Context, m *runner.Manifest) int {
	cmd, f, stdout, stderr := mr.cmd, mr.f, mr.info, mr.stderr
	ids, err := f.choose(m, f.indirect, stderr, runner.CommandTypes(cmd)...)
	if err != nil {
		fmt.Fprintf(stderr, "docket %s: %v\n", cmd, err)
		return ExitUsage
	}
	fmt.Fprintf(stdout, "Found %s\n", nodeCounts(m))
	if len(ids) == 0 {
		return mr.nothingSelected(ctx, m)
	}
	db, err := openWriter(ctx, mr.pp, mr.udfs, 0, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitUsage
	}
	defer db.Close()
	warnUnknownSettings(ctx, db, m, stderr)
	m, code := mr.deferred(ctx, db, m, ids)
	if m == nil {
		return code
	}
	fmt.Fprintf(stdout, "Concurrency: %d threads (target='%s')\n\n", mr.threads, mr.pp.Target.Name)
	opts := runner.RunOptions{Command: cmd, Selected: ids, FullRefresh: f.fullRefresh, Force: f.force, Empty: f.empty, Threads: mr.threads, FailFast: f.failFastOn(mr.pp, stderr), WarnError: mr.warnError,
		OnResult: mr.onResult(ctx), OnBatch: mr.onBatch, RetryBatches: retryBatches(ctx)}
	if opts.EventTimeStart, opts.EventTimeEnd, err = f.eventTimes(); err != nil {
		fmt.Fprintf(stderr, "docket %s: %v\n", cmd, err)
		return ExitUsage
	}
	rr, err := runner.Execute(ctx, m, db, opts)
	return mr.finish(ctx, m, rr, err)
}

// nothingSelected: dbt writes the manifest and an empty run_results.json
// all the same.
func (mr *modelRun) nothingSelected(ctx context.Context, m *runner.Manifest) int {
	fmt.Fprintln(mr.info, "Nothing to do: the selection matched no node. Try `docket ls` with the same -s.")
	rr, err := runner.Execute(ctx, m, nil, runner.RunOptions{Command: mr.cmd, Selected: []string{}})
	if err == nil {
		err = runner.WriteArtifacts(m, mr.pp.TargetDir, rr)
	}
	if err != nil {
		fmt.Fprintln(mr.stderr, "docket:", err)
		return ExitFailed
	}
	return ExitOK
}

// deferred applies --defer/--favor-state: unbuilt parents read the state's
// relations. A nil manifest (with the exit code) on a mistake.
func (mr *modelRun) deferred(ctx context.Context, db *warehouse.DB, m *runner.Manifest, ids []string) (*runner.Manifest, int) {
	cmd, f := mr.cmd, mr.f
	if f.favorState && !f.deferState {
		fmt.Fprintf(mr.stderr, "docket %s: --favor-state goes with --defer\n", cmd)
		return nil, ExitUsage
	}
	if !f.deferState {
		return m, ExitOK
	}
	deferred, names, err := deferParents(ctx, db, m, mr.pp, f.state, ids, f.favorState)
	if err != nil {
		fmt.Fprintf(mr.stderr, "docket %s: %v\n", cmd, err)
		return nil, ExitUsage
	}
	if len(names) > 0 {
		fmt.Fprintf(mr.info, "Deferred %d unbuilt parent%s to the state's relations: %s\n", len(names), modelsPlural(len(names)), strings.Join(names, " "))
	}
	return deferred, ExitOK
}

// onResult prints each node's result line and warnings as it finishes.
func (mr *modelRun) onResult(ctx context.Context) func(runner.Result) {
	return func(r runner.Result) {
		if _, stopped := interrupted(ctx); stopped && r.Status != runner.StatusSuccess && r.Status != runner.StatusPass {
			return // cut short by the signal, not failed
		}
		mr.outMu.Lock()
		defer mr.outMu.Unlock()
		for _, w := range r.Warnings {
			fmt.Fprintf(mr.stderr, "docket: warning: %s\n", w)
		}
		if r.RetriedAlone != "" {
			fmt.Fprintf(mr.stderr, "docket: warning: %s ran out of DuckDB's memory (build.memory_limit) while %s ran beside it; it ran again alone\n",
				r.Name, r.RetriedAlone[strings.LastIndex(r.RetriedAlone, ".")+1:])
		}
		if r.Failed() {
			fmt.Fprintln(mr.stdout, progressLine(r))
		} else {
			fmt.Fprintln(mr.info, progressLine(r))
		}
	}
}

// onBatch prints a microbatch model's batch line as the batch ends, as dbt
// does (the model's own line follows when its last batch is done).
func (mr *modelRun) onBatch(r runner.Result, i, total int, b runner.BatchRun) {
	mr.outMu.Lock()
	defer mr.outMu.Unlock()
	if b.Status == runner.StatusError {
		fmt.Fprintln(mr.stdout, batchLine(r, i, total, b))
	} else {
		fmt.Fprintln(mr.info, batchLine(r, i, total, b))
	}
}

// finish writes the artifacts and the summary of a run and says how it
// ended.
func (mr *modelRun) finish(ctx context.Context, m *runner.Manifest, rr *runner.RunResults, err error) int {
	stderr := mr.stderr
	if code, ok := reportInterrupted(ctx, mr.cmd, stderr); ok {
		return code // not a test or model error: the run was stopped
	}
	if rr == nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	if werr := runner.WriteArtifacts(m, mr.pp.TargetDir, rr); werr != nil {
		fmt.Fprintln(stderr, "docket:", werr)
		return ExitFailed
	}
	printSummary(mr.stdout, mr.p.Dir, m, rr, mr.f.quiet)
	if err != nil { // a run hook failed: its result is in the summary
		if !rr.Failed() {
			fmt.Fprintln(stderr, "docket:", err)
		}
		return ExitFailed
	}
	if rr.Failed() {
		return ExitFailed
	}
	return ExitOK
}

// warnUnknownSettings warns of the profile's settings docket's DuckDB
// does not have (runner.UnknownSettings); the runner leaves them out.
func warnUnknownSettings(ctx context.Context, db *warehouse.DB, m *runner.Manifest, stderr io.Writer) {
	ws, err := runner.UnknownSettings(ctx, db.SQL(), m)
	if err != nil {
		fmt.Fprintln(stderr, "docket: warning:", err)
	}
	for _, w := range ws {
		fmt.Fprintln(stderr, "warning:", w)
	}
}
