package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// runCompact is `docket compact`: rewrite the warehouse into a fresh file
// (DuckDB keeps a file at its high-water mark; see warehouse.Compact).
// publishAfter then publishes the compacted file.
func runCompact(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("compact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: docket compact")
		return ExitUsage
	}
	p, db, code := openExistingWriter(ctx, dir, "compact", 0, stderr)
	if db == nil {
		return code
	}
	res, err := warehouse.Compact(ctx, db)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	fmt.Fprintf(stdout, "compacted %s: %s -> %s (%d tables and views copied; %d of %d blocks were free)\n",
		filepath.Base(p.Warehouse), humanBytes(res.Before), humanBytes(res.After), res.Relations, res.Blocks.Free, res.Blocks.Total)
	return ExitOK
}
