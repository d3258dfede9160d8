package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// waitKey carries --wait DURATION (the bound on waiting for another
// writer's lock) from Main to every command that opens the warehouse.
type waitKey struct{}

// splitWaitFlag pulls --wait DURATION out of args, for every command.
func splitWaitFlag(args []string) (time.Duration, []string, error) {
	var wait time.Duration
	var rest []string
	for i := 0; i < len(args); i++ {
		a, val := args[i], ""
		switch {
		case a == "--wait" || a == "-wait":
			if i+1 >= len(args) {
				return 0, nil, fmt.Errorf("--wait needs a duration, like 30s or 10m")
			}
			val = args[i+1]
			i++
		case strings.HasPrefix(a, "--wait="), strings.HasPrefix(a, "-wait="):
			val = a[strings.Index(a, "=")+1:]
		default:
			rest = append(rest, a)
			continue
		}
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 {
			return 0, nil, fmt.Errorf("--wait %q is not a duration (like 30s or 10m)", val)
		}
		wait = d
	}
	return wait, rest, nil
}

// lockOptions are the lock wait bound (--wait, else loader.lock_timeout)
// and a callback that says, while waiting, who holds the warehouse.
func lockOptions(ctx context.Context, p *project.Project, stderr io.Writer) (time.Duration, func(warehouse.LockWait)) {
	limit := p.Loader.LockTimeout.Duration
	if w, ok := ctx.Value(waitKey{}).(time.Duration); ok && w > 0 {
		limit = w
	}
	last := time.Duration(-1)
	return limit, func(w warehouse.LockWait) {
		// Say it after a second, then every 5 s.
		if last >= 0 && w.Waited-last < 5*time.Second {
			return
		}
		last = w.Waited
		fmt.Fprintf(stderr, "docket: waiting for the warehouse: held by %s, %d s (gives up after %s; --wait sets it)\n",
			w.HolderName(), int(w.Waited.Seconds()), w.Limit)
	}
}

// openWriter opens the warehouse for a writing command, saying who holds
// it while it waits.
func openWriter(ctx context.Context, p *project.Project, udfs []warehouse.UDF, threads int, stderr io.Writer) (*warehouse.DB, error) {
	limit, onWait := lockOptions(ctx, p, stderr)
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{UDFs: udfs, LockTimeout: limit, OnWait: onWait, Threads: threads,
		SpillDir: p.BuildTempDir(), SpillDirOwned: p.BuildTempDirOwned()})
	if err != nil {
		return nil, err
	}
	if _, err := limitBuildMemory(ctx, p, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// openReader opens what readers read (the published copy) for sql and
// search, printing where it reads from when that is not the published copy.
func openReader(ctx context.Context, p *project.Project, stderr io.Writer) (*warehouse.DB, int) {
	return openReaderWith(ctx, p, projectUDFs(p), stderr)
}

// openSearchReader is openReader without docket's Go UDFs: search runs
// plain SQL only (the retrieval.bm25 macro, array_cosine_distance), and
// registering the UDFs (and probing the embedding provider for them)
// would cost every query.
func openSearchReader(ctx context.Context, p *project.Project, stderr io.Writer) (*warehouse.DB, int) {
	return openReaderWith(ctx, p, nil, stderr)
}

func openReaderWith(ctx context.Context, p *project.Project, udfs []warehouse.UDF, stderr io.Writer) (*warehouse.DB, int) {
	limit, onWait := lockOptions(ctx, p, stderr)
	db, info, err := warehouse.OpenReader(ctx, p.Warehouse, warehouse.Options{UDFs: udfs, LockTimeout: limit, OnWait: onWait,
		SpillDir: p.BuildTempDir()})
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return nil, ExitUsage
	}
	for _, n := range info.Notes {
		fmt.Fprintln(stderr, "docket: note:", n)
	}
	limitBuildMemory(ctx, p, db) // best effort
	return db, ExitOK
}

// publishes reports whether a command writes the warehouse and so
// publishes a read copy when it succeeds.
func publishes(cmd string) bool {
	switch cmd {
	case "load", "land", "build", "run", "seed", "snapshot", "compact", "run-operation":
		return true
	}
	return false
}

// publishAfter publishes the read copy after a writing command that
// finished with code; it returns the command's code (or ExitFailed when
// publishing failed).
func publishAfter(ctx context.Context, cmd string, args []string, code int, stderr io.Writer) int {
	return publishFinished(ctx, args, finished{cmd: cmd, code: code}, stderr)
}

// finished is a writing command that finished: its name, its exit code
// and, when it knows, the warehouse as it closed it.
type finished struct {
	cmd    string
	code   int
	closed *closedState
}

// closedState is what a writing command knew of the warehouse file when
// it closed it: the file's state (warehouse.StateOf) right after, and
// whether it had no retrieval layer. A copy published of the file in that
// same state is of what the command saw (no other command wrote in
// between), so the search index's check need not open the copy.
type closedState struct {
	state       warehouse.FileState
	noRetrieval bool
}

// noRetrievalIn is whether the copy res published is the file as closed
// says and it had no retrieval layer.
func (c *closedState) noRetrievalIn(res *warehouse.PublishResult) bool {
	return c != nil && c.noRetrieval && c.state.Size > 0 && res.Stamp.Source == c.state
}

// publishHow is what printPublish publishes after: the command, whether
// forced, and the warehouse as the command closed it (nil: unknown).
type publishHow struct {
	cmd    string
	force  bool
	closed *closedState
}

func publishFinished(ctx context.Context, args []string, f finished, stderr io.Writer) int {
	cmd, code := f.cmd, f.code
	if !publishes(cmd) || code == ExitUsage {
		return code
	}
	dir, _, _ := splitProjectFlag(args)
	root, err := project.Find(dir)
	if err != nil {
		return code
	}
	p, err := project.Load(root)
	if err != nil {
		return code
	}
	if _, err := os.Stat(p.Warehouse); err != nil && code == ExitOK {
		return code // nothing was built (an empty project): nothing to publish
	}
	rp := filepath.Base(warehouse.ReadPath(p.Warehouse))
	if code != ExitOK {
		if st, _ := warehouse.ReadStamp(p.Warehouse); st != nil && !st.PublishedAt.IsZero() {
			fmt.Fprintf(stderr, "docket: not published: the %s had errors; readers of %s keep the state published after `docket %s` at %s (`docket publish` publishes the current state anyway)\n",
				cmd, rp, st.Command, st.PublishedAt.Local().Format("15:04:05"))
		} else {
			fmt.Fprintf(stderr, "docket: not published: the %s had errors (`docket publish` publishes the current state anyway)\n", cmd)
		}
		return code
	}
	if err := printPublish(ctx, p, publishHow{cmd: cmd, closed: f.closed}, stderr); err != nil {
		return ExitFailed
	}
	return code
}

func printPublish(ctx context.Context, p *project.Project, how publishHow, w io.Writer) error {
	cmd, force := how.cmd, how.force
	// What the command freed (a build's plans, results, caches) goes back
	// to the system before the copy and the search index's build.
	debug.FreeOSMemory()
	res, err := warehouse.Publish(ctx, p.Warehouse, cmd, force)
	if err != nil {
		fmt.Fprintln(w, "docket:", err)
		return err
	}
	for _, warn := range res.Warnings {
		fmt.Fprintln(w, "docket: warning:", warn)
	}
	if res.Skipped != "" {
		if force || cmd == "publish" {
			fmt.Fprintf(w, "docket: %s: %s\n", filepath.Base(res.Path), res.Skipped)
		}
		ensureSearchIndex(ctx, p, how.closed.noRetrievalIn(res), w)
		return nil
	}
	method := res.Stamp.Method
	if method == "patch" {
		method = fmt.Sprintf("%s of changed blocks written into the previous copy", humanBytes(res.Stamp.Written))
	}
	fmt.Fprintf(w, "docket: published %s for readers (%s, %s in %.2fs)\n", modelsRel(p.Dir, res.Path), humanBytes(res.Stamp.Bytes),
		method, time.Duration(res.Stamp.Duration).Seconds())
	ensureSearchIndex(ctx, p, how.closed.noRetrievalIn(res), w)
	return nil
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// runPublish is `docket publish`: publish the warehouse's current state for
// readers (after writing to it outside docket, or after a failed build).
func runPublish(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	force := fs.Bool("force", false, "copy even when the published copy is current")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: docket publish [--force]")
		return ExitUsage
	}
	// Open and close the warehouse first: it replays and checkpoints a WAL
	// left by a writer that stopped, and waits for a running writer.
	p, db, code := openExistingWriter(ctx, dir, "publish", 1, stderr)
	if db == nil {
		return code
	}
	if _, err := db.SQL().ExecContext(ctx, "checkpoint"); err != nil {
		db.Close()
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	db.Close()
	if err := printPublish(ctx, p, publishHow{cmd: "publish", force: *force}, stdout); err != nil {
		return ExitFailed
	}
	return ExitOK
}

// openExistingWriter loads the project and opens its warehouse for writing
// (openWriter, DuckDB threads as given), refusing with a usage error when
// no load has created the warehouse yet. cmd names the command in that
// message.
func openExistingWriter(ctx context.Context, dir, cmd string, threads int, stderr io.Writer) (*project.Project, *warehouse.DB, int) {
	p, code := loadProject(dir, stderr)
	if p == nil {
		return nil, nil, code
	}
	if _, err := os.Stat(p.Warehouse); err != nil {
		fmt.Fprintf(stderr, "docket %s: no warehouse at %s yet: run docket load first\n", cmd, p.Warehouse)
		return nil, nil, ExitUsage
	}
	db, err := openWriter(ctx, p, nil, threads, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return nil, nil, ExitUsage
	}
	return p, db, ExitOK
}
