// Package cli is docket's command line: flags, printing and exit codes
// only. Every other package returns data; this one turns it into text.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Exit codes.
const (
	ExitOK     = 0
	ExitFailed = 1 // a model, test or document failed
	ExitUsage  = 2 // usage, config, parse or lock error
)

const usage = `docket turns folders of documents into a DuckDB warehouse.

Usage:
  docket init DIR                 scaffold a project
  docket load                     land new, changed and deleted files (raw + staging)
  docket plan --shards N --out DIR    decide every file's action and write N shard plans (nothing extracted)
  docket load --plan DIR --shard K    extract shard K anywhere the files are readable (no warehouse opened)
  docket land DIR                 land a plan's finished shards into the warehouse
  docket build [-s SELECTOR]      seeds, models and their tests in DAG order
  docket run | test | seed | snapshot | compile | ls | parse
  docket show -s MODEL | --inline 'SQL' [--limit 5] [--output json]   preview rows (dbt show; nothing written)
  docket run-operation MACRO [--args '{name: value}']   call a macro (run_query, statement) as dbt does
  docket search "QUERY" [-k 10] [--mode hybrid|vector|bm25] [--json]
  docket sql "SELECT ..."         query what readers see (the published copy)
  docket connect [--python|--node|--cli|--path]   how a notebook connects
  docket publish                  publish the warehouse's current state for readers
  docket compact                  rewrite the warehouse into a fresh file (gives free blocks back)
  docket retry                    re-run what failed or was skipped in target/run_results.json
  docket source freshness         how long ago each source was loaded (target/sources.json)
  docket clean [--dry-run]        remove target/ (and dbt_project.yml's clean-targets)
  docket debug                    check config, warehouse, lock, Tesseract, vss, versions
  docket docs generate | serve    catalog.json and a static site (lineage, health, documents)
  docket version

Common flags:
  --project DIR                   folder holding project.yaml (default: current folder or a parent; dbt's --project-dir too)
  --profiles-dir DIR              folder holding profiles.yml (dbt's; or DBT_PROFILES_DIR)
  --log-format text|json          structured logs on stderr
  --wait DURATION                 how long to wait for another writer (default loader.lock_timeout, 10s)
  dbt's global flags, before or after the command: taken silently where they change nothing docket
  does (--no-use-colors, --no-partial-parse, --no-version-check, --no-send-anonymous-usage-stats, ...),
  applied by the model commands (--quiet/-q, --warn-error, --warn-error-options, --no-warn-error),
  else warned as not applied (--log-path, --log-level, --use-colors, --debug, --printer-width, ...)

Run 'docket COMMAND -h' for a command's flags.
`

// Main runs docket with args (without the program name) and returns the
// exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	if args = dbtGlobalFlags(args, stderr); len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	cmd, rest := args[0], args[1:]
	if cmd == "worker" {
		if InProcessWorker == nil {
			fmt.Fprintln(stderr, "docket: extraction workers are the docket-worker binary (built beside docket by make build)")
			return ExitUsage
		}
		return InProcessWorker(stderr)
	}
	ctx, stop := notifyInterrupt(cmd, stderr)
	defer stop()
	wait, rest, err := splitWaitFlag(rest)
	if err != nil {
		fmt.Fprintf(stderr, "docket %s: %v\n", cmd, err)
		return ExitUsage
	}
	ctx = context.WithValue(ctx, waitKey{}, wait)
	if path := os.Getenv("DOCKET_CPUPROFILE"); path != "" {
		// For measuring: DOCKET_CPUPROFILE=/tmp/p docket load (workers write /tmp/p.worker.PID).
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	if path := os.Getenv("DOCKET_MEMPROFILE"); path != "" {
		// For measuring: DOCKET_MEMPROFILE=/tmp/h docket build writes the Go
		// heap profile at each new high of the live heap (see heapWatch).
		defer heapWatch(path)()
	}
	switch cmd {
	case "init":
		return runInit(rest, stdout, stderr)
	case "load":
		if hasPlanFlag(rest) {
			return runShard(ctx, rest, stdout, stderr) // a shard machine has no warehouse to publish
		}
		return loadAndPublish(ctx, rest, stdout, stderr)
	case "build", "run", "test", "seed", "snapshot", "compile", "ls", "run-operation", "show", "parse":
		return publishAfter(ctx, cmd, rest, runModelsCmd(ctx, cmd, rest, stdout, stderr), stderr)
	case "retry":
		which, code := runRetry(ctx, rest, stdout, stderr)
		return publishAfter(ctx, which, rest, code, stderr)
	case "plan":
		return runPlan(ctx, rest, stdout, stderr)
	case "land":
		return publishAfter(ctx, cmd, rest, runLand(ctx, rest, stdout, stderr), stderr)
	case "publish":
		return runPublish(ctx, rest, stdout, stderr)
	case "compact":
		return publishAfter(ctx, cmd, rest, runCompact(ctx, rest, stdout, stderr), stderr)
	case "connect":
		return runConnect(rest, stdout, stderr)
	case "source":
		return runSource(ctx, rest, stdout, stderr)
	case "clean":
		return runClean(rest, stdout, stderr)
	case "debug":
		return runDebug(ctx, rest, stdout, stderr)
	case "sql":
		return runSQL(ctx, rest, stdout, stderr)
	case "search":
		return runSearch(ctx, rest, stdout, stderr)
	case "docs":
		return runDocs(ctx, rest, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "docket", versionString())
		return ExitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	default:
		fmt.Fprintf(stderr, "docket: unknown command %q\n\n%s", cmd, usage)
		return ExitUsage
	}
}

// splitProjectFlag pulls --project DIR / --project=DIR (dbt's
// --project-dir too), --profiles-dir DIR (as DBT_PROFILES_DIR) and
// --log-format out of args so every command accepts them anywhere.
func splitProjectFlag(args []string) (dir, logFormat string, rest []string) {
	logFormat = "text"
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--project" || a == "-project" || a == "--project-dir":
			if i+1 < len(args) {
				dir = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--project="), strings.HasPrefix(a, "--project-dir="):
			_, dir, _ = strings.Cut(a, "=")
		case a == "--profiles-dir" || strings.HasPrefix(a, "--profiles-dir="):
			// dbt's flag for what DBT_PROFILES_DIR sets
			d, ok := strings.CutPrefix(a, "--profiles-dir=")
			if !ok && i+1 < len(args) {
				d, ok = args[i+1], true
				i++
			}
			if abs, err := filepath.Abs(d); ok && err == nil {
				os.Setenv("DBT_PROFILES_DIR", abs)
			}
		case a == "--log-format":
			if i+1 < len(args) {
				logFormat = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--log-format="):
			logFormat = strings.TrimPrefix(a, "--log-format=")
		default:
			rest = append(rest, a)
		}
	}
	return dir, logFormat, rest
}

func newLogger(format string, w io.Writer) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// loadProject finds and loads project.yaml, printing problems.
func loadProject(dir string, stderr io.Writer) (*project.Project, int) {
	root, err := project.Find(dir)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return nil, ExitUsage
	}
	p, err := project.Load(root)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, ExitUsage
	}
	return p, ExitOK
}

// openProjectWarehouse loads the project found from dir and opens its
// warehouse for writing (openWarehouseThreads); on failure it has printed
// why and returns the exit code with nil values.
func openProjectWarehouse(ctx context.Context, dir string, threads int, stderr io.Writer) (*project.Project, *warehouse.DB, int) {
	p, code := loadProject(dir, stderr)
	if p == nil {
		return nil, nil, code
	}
	db, code := openWarehouseThreads(ctx, p, false, threads, stderr)
	if db == nil {
		return nil, nil, code
	}
	return p, db, ExitOK
}

// openProjectReader is openProjectWarehouse for readers (openReader: the
// published copy).
func openProjectReader(ctx context.Context, dir string, stderr io.Writer) (*project.Project, *warehouse.DB, int) {
	p, code := loadProject(dir, stderr)
	if p == nil {
		return nil, nil, code
	}
	db, code := openReader(ctx, p, stderr)
	if db == nil {
		return nil, nil, code
	}
	return p, db, ExitOK
}

// openWarehouse opens the project's warehouse with docket's UDFs.
func openWarehouse(ctx context.Context, p *project.Project, readOnly bool, stderr io.Writer) (*warehouse.DB, int) {
	return openWarehouseThreads(ctx, p, readOnly, 0, stderr)
}

// openWarehouseThreads opens the warehouse with a DuckDB thread count (0 =
// DuckDB's default, one per core).
func openWarehouseThreads(ctx context.Context, p *project.Project, readOnly bool, threads int, stderr io.Writer) (*warehouse.DB, int) {
	return openWarehouseWith(ctx, p, openOpts{readOnly: readOnly, threads: threads}, stderr)
}

// openLoadWarehouse opens the warehouse for a command that lands
// documents (`docket load`, `docket land`: one DuckDB thread) under
// loader.memory_limit from the open on, so that replaying a write-ahead
// log an earlier command left (killed, or stopped by a failed commit)
// runs under it: oom21 measured 887 MiB re-opening after a failed 100k
// load under DuckDB's default (80 % of the memory). When the replay
// cannot run under it, the warehouse opens under DuckDB's default and the
// command says so, and runs under the limit from then on. It gives the
// load's other settings too (loadMemory) and returns the limit.
func openLoadWarehouse(ctx context.Context, p *project.Project, stderr io.Writer) (*warehouse.DB, project.Size, int) {
	limit, warn := p.Loader.DuckDBMemory()
	if warn != "" {
		fmt.Fprintln(stderr, "docket: warning:", warn)
	}
	db, code := openWarehouseWith(ctx, p, openOpts{threads: 1, memory: limit}, stderr)
	if db == nil {
		return nil, limit, code
	}
	if db.MemoryFallback != nil {
		fmt.Fprintf(stderr, "docket: warning: the write-ahead log an earlier command left in %s.wal could not be replayed under loader.memory_limit (%dMiB) (%v); it was replayed under DuckDB's default limit (80 %% of the memory): raise loader.memory_limit if this happens again\n",
			p.Warehouse, int64(limit)>>20, firstLine(db.MemoryFallback.Error()))
	}
	if err := loadMemory(ctx, db, limit, db.MemoryFallback != nil); err != nil {
		db.Close()
		fmt.Fprintln(stderr, "docket:", err)
		return nil, limit, ExitFailed
	}
	return db, limit, ExitOK
}

// openOpts are how a command opens the warehouse (openWarehouseWith).
type openOpts struct {
	readOnly bool
	threads  int          // DuckDB threads (0 = DuckDB's default, one per core)
	memory   project.Size // DuckDB's memory_limit from the open on (0 = DuckDB's default)
}

// openWarehouseWith opens the warehouse as o says: under build.memory_limit
// (limitBuildMemory) unless o gives a memory_limit of its own.
func openWarehouseWith(ctx context.Context, p *project.Project, o openOpts, stderr io.Writer) (*warehouse.DB, int) {
	limit, onWait := lockOptions(ctx, p, stderr)
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{ReadOnly: o.readOnly, LockTimeout: limit, OnWait: onWait,
		UDFs: projectUDFs(p), Threads: o.threads, SpillDir: p.BuildTempDir(), SpillDirOwned: p.BuildTempDirOwned(), MemoryLimit: int64(o.memory)})
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		if warehouse.IsLockError(err) {
			return nil, ExitUsage
		}
		return nil, ExitUsage
	}
	if o.memory > 0 {
		return db, ExitOK
	}
	if _, err := limitBuildMemory(ctx, p, db); err != nil && !o.readOnly {
		db.Close()
		fmt.Fprintln(stderr, "docket:", err)
		return nil, ExitUsage
	}
	return db, ExitOK
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func errorsAs[T error](err error) (T, bool) {
	var t T
	ok := errors.As(err, &t)
	return t, ok
}
