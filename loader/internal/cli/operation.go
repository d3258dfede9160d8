package cli

import (
	"context"
	"fmt"

	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// operation is `docket run-operation MACRO [--args YAML]` as dbt's: the
// macro called once with the mapping as its keyword arguments on a
// connection of the warehouse (no hooks, no models); target/ gets
// manifest.json and a run_results.json of one result (macro.<pkg>.<name>).
// Exit 0 when the macro ran, 1 when it failed (its error on stderr, as
// dbt's "Encountered an error while running operation"), 2 for a macro no
// package defines or --args that is not a YAML mapping.
func (mr *modelRun) operation(ctx context.Context, m *runner.Manifest) int {
	stderr := mr.stderr
	var args map[string]any
	if mr.f.macroArgs != "" {
		var err error
		if args, err = render.DecodeYAMLMapping(mr.f.macroArgs); err != nil { // a mapping keeps its order
			fmt.Fprintf(stderr, "docket run-operation: --args is not a YAML mapping: %v\n", err)
			return ExitUsage
		}
	}
	op, err := m.FindOperation(mr.f.macro)
	if err != nil {
		fmt.Fprintln(stderr, "docket run-operation:", err)
		return ExitUsage
	}
	db, err := openWriter(ctx, mr.pp, mr.udfs, 0, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitUsage
	}
	defer db.Close()
	warnUnknownSettings(ctx, db, m, stderr)
	rr, err := runner.RunOperation(ctx, m, db, op, args)
	if code, ok := reportInterrupted(ctx, mr.cmd, stderr); ok {
		return code
	}
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	if werr := runner.WriteArtifacts(m, mr.pp.TargetDir, rr); werr != nil {
		fmt.Fprintln(stderr, "docket:", werr)
		return ExitFailed
	}
	if r := rr.Results[0]; r.Failed() {
		fmt.Fprintf(stderr, "docket: encountered an error while running operation %s: %s\n", mr.f.macro, termSafeLines(r.Message))
		return ExitFailed
	}
	return ExitOK
}
