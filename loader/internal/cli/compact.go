package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
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
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	if _, err := os.Stat(p.Warehouse); err != nil {
		fmt.Fprintf(stderr, "docket compact: no warehouse at %s yet: run docket load first\n", p.Warehouse)
		return ExitUsage
	}
	db, err := openWriter(ctx, p, nil, 0, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitUsage
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
