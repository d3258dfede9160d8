package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/loader"
)

// hasPlanFlag reports whether load's arguments ask for a shard.
func hasPlanFlag(args []string) bool {
	for _, a := range args {
		if a == "--plan" || a == "-plan" || strings.HasPrefix(a, "--plan=") || strings.HasPrefix(a, "-plan=") {
			return true
		}
	}
	return false
}

// runPlan: docket plan --shards N --out DIR.
func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shards := fs.Int("shards", 1, "number of shards")
	out := fs.String("out", "", "folder to write the plan to (shared storage the shard machines read)")
	retry := fs.Bool("retry-quarantined", false, "extract again the documents quarantined earlier")
	reocr := fs.Bool("reocr", false, "OCR again the pages that were OCR'd")
	asJSON := fs.Bool("json", false, "print the plan manifest as JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if *out == "" || *shards < 1 {
		fmt.Fprintln(stderr, "docket plan: --out DIR and --shards N (1 or more) are required")
		return ExitUsage
	}
	p, db, code := openProjectWarehouse(ctx, dir, 1, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	m, err := loader.PlanShards(ctx, db, loader.Options{Project: p, RetryQuarantined: *retry, ReOCR: *reocr}, *shards, *out)
	if err != nil {
		fmt.Fprintln(stderr, "docket: plan:", err)
		return ExitFailed
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(m)
		return ExitOK
	}
	files, bytes := 0, int64(0)
	for _, s := range m.Shards {
		files += s.Files
		bytes += s.Bytes
	}
	fmt.Fprintf(stdout, "plan %s: %d files to execute (%.1f MiB) in %d shards; %d unchanged, %d to delete, %d entries skipped; written to %s\n",
		m.PlanID, files, float64(bytes)/(1<<20), len(m.Shards), len(m.Unchanged), len(m.Deleted), len(m.Skips), *out)
	for _, s := range m.Shards {
		fmt.Fprintf(stdout, "  shard %d: %d files, %.1f MiB\n", s.Shard, s.Files, float64(s.Bytes)/(1<<20))
	}
	return ExitOK
}

// shardIndex is K from --shard, or from the batch engine's own variable.
func shardIndex(flagVal int) (int, string, error) {
	if flagVal >= 0 {
		return flagVal, "--shard", nil
	}
	for _, v := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
		if s := os.Getenv(v); s != "" {
			k, err := strconv.Atoi(s)
			if err != nil {
				return 0, v, fmt.Errorf("%s=%q is not a shard number", v, s)
			}
			return k, v, nil
		}
	}
	return 0, "", fmt.Errorf("which shard? give --shard K (or run under a Kubernetes Indexed Job or a Slurm array)")
}

// runShard: docket load --plan DIR [--shard K].
func runShard(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	planDir := fs.String("plan", "", "plan folder written by `docket plan`")
	shard := fs.Int("shard", -1, "shard to run (default: $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID)")
	workers := fs.Int("workers", 0, "worker processes (default: loader.workers, one per core)")
	asJSON := fs.Bool("json", false, "print the shard's manifest as JSON")
	fs.Bool("quiet", false, "no progress output")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	k, from, err := shardIndex(*shard)
	if err != nil {
		fmt.Fprintln(stderr, "docket load:", err)
		return ExitUsage
	}
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	if *workers > 0 {
		p.Loader.Workers = *workers
	}
	workerCmd, err := workerArgv()
	if err != nil {
		fmt.Fprintln(stderr, "docket load:", err)
		return ExitFailed
	}
	warnExtraction(p, stderr)
	sm, done, err := loader.RunShard(ctx, *planDir, k, loader.Options{Project: p, WorkerCommand: workerCmd})
	if err != nil {
		fmt.Fprintf(stderr, "docket: load shard %d (from %s): %v\n", k, from, err)
		return ExitFailed
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(sm)
		return ExitOK
	}
	if done {
		fmt.Fprintf(stdout, "shard %d of plan %s: already finished at %s (nothing to do)\n", k, sm.PlanID, sm.FinishedAt.Format("15:04:05"))
		return ExitOK
	}
	s := sm.Summary
	fmt.Fprintf(stdout, "shard %d of plan %s: landed %d, quarantined %d, pages %d (%d OCR) in %s; written to %s\n",
		k, sm.PlanID, s.Landed, s.Quarantined, s.Pages, s.OCRPages, s.Duration.Round(1e6), loader.ShardDir(*planDir, k))
	for _, c := range sm.ChangedSincePlan {
		fmt.Fprintf(stdout, "  changed since the plan, not extracted: %s\n", c.RelPath)
	}
	return ExitOK
}

// runLand: docket land DIR...
func runLand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("land", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "docket land: give the plan folder(s) written by `docket plan --out DIR`")
		return ExitUsage
	}
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	// Landing shards is the load's last step: the same memory_limit, and
	// the same closing checkpoint (deferred: it runs before db.Close).
	db, limit, code := openLoadWarehouse(ctx, p, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	defer checkpointLoad(ctx, db, limit, stderr)
	exit := ExitOK
	var reports []*loader.LandReport
	for _, planDir := range fs.Args() {
		rep, err := loader.LandPlan(ctx, db, planDir)
		if err != nil {
			fmt.Fprintf(stderr, "docket: land %s: %v\n", planDir, err)
			return ExitFailed
		}
		reports = append(reports, rep)
		if !rep.Complete() {
			exit = ExitFailed
		}
		if *asJSON {
			continue
		}
		if rep.RunID == "" {
			fmt.Fprintf(stdout, "land %s: nothing to land (shards landed before: %v)\n", rep.PlanID, rep.Already)
		} else {
			s := rep.Summary
			fmt.Fprintf(stdout, "land %s (%s): shards %v landed; seen %d, new %d, changed %d, unchanged %d, deleted %d, quarantined %d, pages %d (%d OCR) in %s\n",
				rep.PlanID, rep.RunID, rep.Landed, s.Seen, s.New, s.Changed, s.Unchanged, s.Deleted, s.Quarantined, s.Pages, s.OCRPages, s.Duration.Round(1e6))
			if s.Flagged > 0 {
				fmt.Fprintf(stdout, "  %d landed document(s) flagged for review (see staging.reviews)\n", s.Flagged)
			}
		}
		for _, c := range rep.ChangedSincePlan {
			fmt.Fprintf(stdout, "  changed since the plan, not landed (the next load takes it): %s\n", c.RelPath)
		}
		if len(rep.Unfinished) > 0 {
			fmt.Fprintf(stdout, "  unfinished shards (no manifest: still running or killed; run them again): %v\n", rep.Unfinished)
		}
		if len(rep.Missing) > 0 {
			fmt.Fprintf(stdout, "  missing shards (no output yet): %v\n", rep.Missing)
		}
		for k, why := range rep.Bad {
			fmt.Fprintf(stdout, "  shard %d not landed: %s\n", k, why)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(reports)
	}
	return exit
}
