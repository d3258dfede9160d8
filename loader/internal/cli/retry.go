package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner"
)

// lastRun is what retry and result: selectors read of a run_results.json.
type lastRun struct {
	Args struct {
		Which       string `json:"which"`
		FullRefresh bool   `json:"full_refresh"`
		Empty       bool   `json:"empty"`
		// --event-time-start/end, as dbt 1.9 records them
		EventTimeStart string `json:"event_time_start"`
		EventTimeEnd   string `json:"event_time_end"`
		// run-operation's macro and --args
		Macro  string         `json:"macro"`
		OpArgs map[string]any `json:"args"`
	} `json:"args"`
	Results []struct {
		UniqueID     string `json:"unique_id"`
		Status       string `json:"status"`
		BatchResults *struct {
			Successful [][2]string `json:"successful"`
			Failed     [][2]string `json:"failed"`
		} `json:"batch_results"`
	} `json:"results"`
}

func readLastRun(dir string) (*lastRun, string, error) {
	path := filepath.Join(dir, "run_results.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, path, err
	}
	var lr lastRun
	if err := json.Unmarshal(b, &lr); err != nil {
		return nil, path, fmt.Errorf("%s: %w", path, err)
	}
	return &lr, path, nil
}

// nodeName maps a unique_id from run_results.json to the name a selector
// takes ("model.proj.doc_chunks" -> "doc_chunks"; a version of a
// versioned model, "model.proj.dim.v1", -> "dim.v1").
func nodeName(id string) string {
	parts := strings.Split(id, ".")
	if len(parts) > 3 && parts[0] == runner.Model {
		return strings.Join(parts[2:], ".")
	}
	return parts[len(parts)-1]
}

// runRetry is `docket retry`: run again, with the same command, the nodes
// that errored, failed or were skipped in the last run_results.json.
func runRetry(ctx context.Context, args []string, stdout, stderr io.Writer) (string, int) {
	dir, _, rest := splitProjectFlag(args)
	if len(rest) > 0 {
		fmt.Fprintln(stderr, "usage: docket retry (re-runs what failed or was skipped in target/run_results.json)")
		return "", ExitUsage
	}
	p, code := loadProject(dir, stderr)
	if p == nil {
		return "", code
	}
	lr, path, err := readLastRun(p.TargetDir)
	if err != nil {
		fmt.Fprintf(stderr, "docket retry: no previous run to retry (%v)\n", err)
		return "", ExitUsage
	}
	switch lr.Args.Which {
	case "build", "run", "test", "seed", "snapshot":
	case "run-operation":
		return retryOperation(ctx, lr, dir, p.Dir, path, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "docket retry: %s was written by %q, which retry cannot repeat\n", modelsRel(p.Dir, path), lr.Args.Which)
		return "", ExitUsage
	}
	var names []string
	for _, r := range lr.Results {
		switch r.Status {
		case runner.StatusError, runner.StatusFail, runner.StatusSkipped, "runtime error", runner.StatusPartialSuccess:
			names = append(names, nodeName(r.UniqueID))
		}
	}
	batches, err := failedBatches(lr)
	if err != nil {
		fmt.Fprintf(stderr, "docket retry: %s: %v\n", modelsRel(p.Dir, path), err)
		return "", ExitUsage
	}
	if len(names) == 0 {
		fmt.Fprintf(stdout, "Nothing to retry: every node of the last `docket %s` succeeded (%s).\n", lr.Args.Which, modelsRel(p.Dir, path))
		return lr.Args.Which, ExitOK
	}
	sort.Strings(names)
	fmt.Fprintf(stdout, "Retrying `docket %s` for %d node%s that failed or were skipped: %s\n", lr.Args.Which, len(names), modelsPlural(len(names)), strings.Join(names, " "))
	cmdArgs := []string{"--indirect-selection", "empty", "-s"}
	cmdArgs = append(cmdArgs, names...)
	if lr.Args.FullRefresh {
		cmdArgs = append(cmdArgs, "--full-refresh")
	}
	if lr.Args.Empty {
		cmdArgs = append(cmdArgs, "--empty")
	}
	if lr.Args.EventTimeStart != "" {
		cmdArgs = append(cmdArgs, "--event-time-start", lr.Args.EventTimeStart)
	}
	if lr.Args.EventTimeEnd != "" {
		cmdArgs = append(cmdArgs, "--event-time-end", lr.Args.EventTimeEnd)
	}
	if len(batches) > 0 {
		fmt.Fprintf(stdout, "Microbatch model%s with failed batches: only those run again: %s\n", modelsPlural(len(batches)), strings.Join(batchNames(batches), " "))
		ctx = withRetryBatches(ctx, batches)
	}
	if dir != "" {
		cmdArgs = append(cmdArgs, "--project", dir)
	}
	code = runModelsCmd(ctx, lr.Args.Which, cmdArgs, stdout, stderr)
	return lr.Args.Which, code
}

// retryOperation runs again a run-operation that failed, with its
// --args, as dbt's retry does (nothing when it succeeded).
func retryOperation(ctx context.Context, lr *lastRun, dir, projectDir, path string, stdout, stderr io.Writer) (string, int) {
	failed := false
	for _, r := range lr.Results {
		failed = failed || r.Status == runner.StatusError
	}
	if !failed || lr.Args.Macro == "" {
		fmt.Fprintf(stdout, "Nothing to retry: the last `docket run-operation %s` succeeded (%s).\n", lr.Args.Macro, modelsRel(projectDir, path))
		return "run-operation", ExitOK
	}
	fmt.Fprintf(stdout, "Retrying `docket run-operation %s`, which failed\n", lr.Args.Macro)
	cmdArgs := []string{lr.Args.Macro}
	if len(lr.Args.OpArgs) > 0 {
		b, err := json.Marshal(lr.Args.OpArgs) // JSON is YAML: --args reads it back
		if err != nil {
			fmt.Fprintf(stderr, "docket retry: %s: args: %v\n", modelsRel(projectDir, path), err)
			return "", ExitUsage
		}
		cmdArgs = append(cmdArgs, "--args", string(b))
	}
	if dir != "" {
		cmdArgs = append(cmdArgs, "--project", dir)
	}
	return "run-operation", runModelsCmd(ctx, "run-operation", cmdArgs, stdout, stderr)
}

// expandResultSelectors turns result:STATUS words of -s/--exclude values
// into the names of the nodes with that status in the previous run
// (--state DIR's run_results.json, else the target folder's).
func expandResultSelectors(p *project.Project, args []string) ([]string, error) {
	stateDir := ""
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--state" || a == "-state":
			if i+1 >= len(args) {
				return nil, fmt.Errorf("--state needs a folder holding a previous run's artifacts")
			}
			stateDir = args[i+1]
			rest = append(rest, a, args[i+1]) // also --defer's
			i++
		case strings.HasPrefix(a, "--state="):
			stateDir = strings.TrimPrefix(a, "--state=")
			rest = append(rest, a)
		default:
			rest = append(rest, a)
		}
	}
	rest, err := expandStateSelectors(p, stateDir, rest)
	if err != nil {
		return nil, err
	}
	uses := false
	for _, a := range rest {
		if strings.Contains(a, "result:") {
			uses = true
		}
	}
	if !uses {
		return rest, nil
	}
	if stateDir == "" {
		stateDir = p.TargetDir
	} else if !filepath.IsAbs(stateDir) {
		stateDir = filepath.Join(p.Dir, stateDir)
	}
	lr, _, err := readLastRun(stateDir)
	if err != nil {
		return nil, fmt.Errorf("result: selectors read a previous run's run_results.json: %w", err)
	}
	byStatus := map[string][]string{}
	for _, r := range lr.Results {
		byStatus[r.Status] = append(byStatus[r.Status], nodeName(r.UniqueID))
	}
	out := make([]string, 0, len(rest))
	for _, a := range rest {
		if !strings.Contains(a, "result:") || strings.HasPrefix(a, "-") {
			out = append(out, a)
			continue
		}
		var words []string
		for _, w := range strings.Fields(a) {
			if !strings.Contains(w, "result:") {
				words = append(words, w)
				continue
			}
			if strings.Contains(w, ",") {
				return nil, fmt.Errorf("%q: result: selectors cannot be intersected with ',' in docket yet; use them on their own", w)
			}
			pre, post := "", ""
			core := w
			if strings.HasPrefix(core, "+") {
				pre, core = "+", core[1:]
			}
			if strings.HasSuffix(core, "+") {
				post, core = "+", core[:len(core)-1]
			}
			status := strings.TrimPrefix(core, "result:")
			switch status {
			case runner.StatusError, runner.StatusFail, runner.StatusWarn, runner.StatusPass, runner.StatusSuccess, runner.StatusSkipped:
			default:
				return nil, fmt.Errorf("%q: result: takes error, fail, warn, pass, success or skipped", w)
			}
			names := byStatus[status]
			if len(names) == 0 {
				// A name no node has: the selection stays empty.
				words = append(words, "__docket_no_"+status+"_in_last_run")
				continue
			}
			for _, n := range names {
				words = append(words, pre+n+post)
			}
		}
		out = append(out, strings.Join(words, " "))
	}
	return out, nil
}
