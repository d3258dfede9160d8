package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// warnExtraction prints the warnings for settings the extraction cannot
// apply as written, on every path that extracts (`docket load` and
// `docket load --plan DIR --shard K`): today ocr.languages with no model
// installed (missingOCRLanguages). The model folders are looked at only
// when OCR may run.
func warnExtraction(p *project.Project, stderr io.Writer) {
	if !p.OCREnabled() {
		return
	}
	_, found := tessLanguages()
	if w := missingOCRLanguages(p, found); w != "" {
		fmt.Fprintln(stderr, "docket: warning:", w)
	}
}

// closingCheckpoint is warehouse.DB.CheckpointLean; tests make it fail.
var closingCheckpoint = (*warehouse.DB).CheckpointLean

// checkpointLoad is the closing checkpoint of every command that lands
// documents (`docket load`, `docket land`): DuckDB writes the WAL into
// the file under a lower memory_limit than the load's (see
// warehouse.CheckpointLean), so that Close has nothing to write. A
// checkpoint that fails loses nothing (what the load wrote is in the
// WAL, which the next open replays: DuckDB 1.5 may invalidate the open
// database after a failed checkpoint, see warehouse.CheckpointLean), but
// it is said, not swallowed.
//
// After a failed commit (warehouse.CommitError) there is no checkpoint:
// the next open writes the committed batches from the WAL into the file.
// When DuckDB ran out of memory it says which setting to raise.
func checkpointLoad(ctx context.Context, db *warehouse.DB, limit project.Size, stderr io.Writer) {
	if ce := db.Broken(); ce != nil {
		if advice := ce.MemoryAdvice(int64(limit)); advice != "" {
			fmt.Fprintf(stderr, "docket: %s, then run the command again (what was landed is kept)\n", advice)
		}
		return
	}
	if err := closingCheckpoint(db, ctx, int64(limit)); err != nil {
		fmt.Fprintf(stderr, "docket: warning: the closing checkpoint failed (%v); nothing is lost: what the load wrote stays in the write-ahead log %s.wal, which the warehouse's next open writes into the file (DuckDB may refuse the open database for the rest of this command; publishing waits until then)\n", err, db.Path)
	}
}
