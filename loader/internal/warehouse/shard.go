package warehouse

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// A shard's output is what Land would write for the shard's documents,
// as Parquet files with the landed tables' columns (declared in
// landed.go): the documents batch (raw.documents' row columns and
// whether a row reuses a content landed before), the staging rows of the
// contents extracted, the events (run_id left empty: the land's run fills
// it) and the attachments a changed parent no longer has. LandShard
// merges them with the code Land uses.

// ShardFile is one Parquet file of a shard's output.
type ShardFile struct {
	Name   string `json:"name"` // documents.parquet, pages.parquet, ...
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// shardParts are a shard's files: name, the scratch table, the columns.
func shardParts() []struct {
	file, table string
	cols        []string
} {
	type part = struct {
		file, table string
		cols        []string
	}
	out := []part{{"documents.parquet", "shard_docs", append(documentsTable.rowCols(), "reused")}}
	for _, t := range contentTables {
		_, name := t.parts()
		out = append(out, part{name + ".parquet", t.qualified(), t.rowCols()})
	}
	out = append(out, part{"events.parquet", eventsTable.qualified(), eventsTable.rowCols()},
		part{"deleted.parquet", "shard_deleted", []string{"doc_id"}})
	return out
}

// Scratch is a shard's private DuckDB: Land appends there what it would
// land in the warehouse, and Export writes it as Parquet. No warehouse is
// opened on a shard machine.
type Scratch struct {
	db *DB
}

// OpenScratch creates a scratch database in dir (a new, private folder).
// memoryLimit (bytes; 0 = DuckDB's default) is its DuckDB memory_limit:
// a shard's load is a load, bounded by loader.memory_limit like `docket load`.
func OpenScratch(ctx context.Context, dir string, memoryLimit int64) (*Scratch, error) {
	db, err := Open(ctx, filepath.Join(dir, "scratch.duckdb"), Options{Threads: 1})
	if err != nil {
		return nil, err
	}
	if memoryLimit > 0 {
		if _, err := db.sql.ExecContext(ctx, fmt.Sprintf(`set memory_limit = '%dMiB'`, memoryLimit>>20)); err != nil {
			db.Close()
			return nil, fmt.Errorf("DuckDB settings (loader.memory_limit): %w", err)
		}
	}
	if err := db.EnsureSchema(ctx); err != nil {
		db.Close()
		return nil, err
	}
	c, err := db.sql.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	defer c.Close()
	if err := createDocBatch(ctx, c, "main", "shard_docs"); err != nil {
		db.Close()
		return nil, err
	}
	if _, err := c.ExecContext(ctx, `create table shard_deleted (doc_id varchar)`); err != nil {
		db.Close()
		return nil, err
	}
	return &Scratch{db: db}, nil
}

// Close closes the scratch database.
func (s *Scratch) Close() error { return s.db.Close() }

// Land stages a batch as DB.Land would land it (same rows, same code).
func (s *Scratch) Land(ctx context.Context, runID string, now time.Time, batch []Landing, deleted []string) error {
	if err := s.db.refuse(); err != nil {
		return err
	}
	c, err := s.db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return s.db.landTx(ctx, c, batch, func() error {
		contents := extractedContents(batch)
		if len(contents) > 0 {
			if err := appendContents(c, &writer{now: now}, contents); err != nil {
				return err
			}
		}
		var docs []Landing
		for _, l := range batch {
			if !l.EventOnly {
				docs = append(docs, l)
			}
		}
		if err := appendDocs(c, "main", "shard_docs", docs); err != nil {
			return err
		}
		if err := appendEvents(c, &writer{runID: runID, now: now}, batch); err != nil {
			return err
		}
		return withAppender(c, "main", "shard_deleted", func(a *duckdb.Appender) error {
			for _, id := range deleted {
				if err := a.AppendRow(id); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// Export writes the staged rows as Parquet files in dir.
func (s *Scratch) Export(ctx context.Context, dir string) ([]ShardFile, error) {
	var out []ShardFile
	for _, p := range shardParts() {
		path := filepath.Join(dir, p.file)
		q := fmt.Sprintf(`copy (select %s from %s) to %s (format parquet)`, columnList(p.cols), p.table, sqlString(path))
		if _, err := s.db.sql.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("warehouse: export %s: %w", p.file, err)
		}
		var n int64
		if err := s.db.sql.QueryRowContext(ctx, `select count(*) from `+p.table).Scan(&n); err != nil {
			return nil, err
		}
		sum, size, err := fileSHA256(path)
		if err != nil {
			return nil, err
		}
		out = append(out, ShardFile{Name: p.file, Rows: n, Bytes: size, SHA256: sum})
	}
	return out, nil
}

func fileSHA256(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// VerifyShardFiles checks that dir holds files with the sizes and
// checksums the shard's manifest lists.
func VerifyShardFiles(dir string, files []ShardFile) error {
	want := map[string]bool{}
	for _, p := range shardParts() {
		want[p.file] = true
	}
	for _, f := range files {
		delete(want, f.Name)
		sum, size, err := fileSHA256(filepath.Join(dir, f.Name))
		if err != nil {
			return err
		}
		if sum != f.SHA256 || size != f.Bytes {
			return fmt.Errorf("%s: sha256 %s (%d bytes), the manifest says %s (%d bytes)", f.Name, sum, size, f.SHA256, f.Bytes)
		}
	}
	for name := range want {
		return fmt.Errorf("%s: not in the manifest", name)
	}
	return nil
}

// extractedContents are the batch's contents a worker extracted in this
// run, once per content.
func extractedContents(batch []Landing) []Landing {
	var contents []Landing
	seen := map[string]bool{}
	for _, l := range batch {
		if l.Extracted && !l.EventOnly && l.Doc.Hash != "" && !seen[l.Doc.Hash] {
			seen[l.Doc.Hash] = true
			contents = append(contents, l)
		}
	}
	return contents
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// ShardLand identifies a shard landed (or the plan's own decisions, Shard -1).
type ShardLand struct {
	PlanID         string
	Shard          int
	ManifestSHA256 string
}

// LandedShards returns the shards of a plan already landed.
func (w *DB) LandedShards(ctx context.Context, planID string) (map[int]bool, error) {
	rows, err := w.sql.QueryContext(ctx, `select shard from ops.shard_lands where plan_id = ?`, planID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]bool{}
	for rows.Next() {
		var k int
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, rows.Err()
}

// LatestRun is the id of the warehouse's most recent load run ("" when
// none): a plan is decided against it.
func (w *DB) LatestRun(ctx context.Context) (string, error) {
	var id string
	err := w.sql.QueryRowContext(ctx, `select run_id from ops.load_runs order by started_at desc, run_id desc limit 1`).Scan(&id)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return id, err
}

// RunsSince lists the runs started after base (all runs when base is
// "") that are not lands of planID: a plan decided before them is stale.
func (w *DB) RunsSince(ctx context.Context, base, planID string) ([]string, error) {
	q := `select run_id from ops.load_runs where coalesce(json_extract_string(options, '$.plan_id'), '') <> ?`
	args := []any{planID}
	if base != "" {
		q += ` and started_at > (select started_at from ops.load_runs where run_id = ?)`
		args = append(args, base)
	}
	return queryStrings(ctx, w.sql, q+` order by started_at`, args...)
}

// LandDecisions lands a plan's own decisions in one transaction: the
// skipped entries, the stats of unchanged files read again, the
// tombstones (documents and their attachments), and the record that they
// are landed (shard -1), so a land killed halfway lands them once. It
// returns how many documents were newly tombstoned.
func (w *DB) LandDecisions(ctx context.Context, runID string, now time.Time, planID string, skips []Skip, restats []StatUpdate, deleted []string) (n int, err error) {
	if err := w.refuse(); err != nil {
		return 0, err
	}
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	err = w.landTx(ctx, c, nil, func() error {
		var done int
		if err := c.QueryRowContext(ctx, `select count(*) from ops.shard_lands where plan_id = ? and shard = -1`, planID).Scan(&done); err != nil || done > 0 {
			return err
		}
		if len(skips) > 0 {
			if err := recordSkips(c, runID, now, skips); err != nil {
				return err
			}
		}
		if err := recordStats(ctx, c, restats); err != nil {
			return err
		}
		var err error
		if n, err = markDeleted(ctx, c, runID, now, deleted); err != nil {
			return err
		}
		_, err = c.ExecContext(ctx, `insert into ops.shard_lands values (?, -1, ?, null, ?)`, planID, runID, now)
		return err
	})
	return n, err
}

// Reused counts what a shard extracted that was landed already.
type Reused struct{ Contents, Pages, OCRPages int }

// LandShard merges one shard's output (dir, its files verified) into the
// warehouse in one transaction, with Land's code: the staging rows of its
// contents replace any earlier ones, the documents batch is merged as
// Land merges it, its events get the run's id, and the record of the
// shard is written in the same transaction, so a shard lands once.
//
// redo are the contents the plan extracts again (their rows replace the
// warehouse's).
//
// It returns what the shard extracted that another shard had landed
// first (and was therefore not landed again).
func (w *DB) LandShard(ctx context.Context, runID string, now time.Time, dir string, s ShardLand, redo map[string]bool) (reused Reused, err error) {
	if err := w.refuse(); err != nil {
		return reused, err
	}
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return reused, err
	}
	defer c.Close()
	return reused, w.landTx(ctx, c, nil, func() error {
		var done int
		if err := c.QueryRowContext(ctx, `select count(*) from ops.shard_lands where plan_id = ? and shard = ?`, s.PlanID, s.Shard).Scan(&done); err != nil {
			return err
		}
		if done > 0 {
			return nil
		}
		file := func(name string) string { return "read_parquet(" + sqlString(filepath.Join(dir, name)) + ")" }
		// Contents the warehouse has and the plan does not extract again
		// were extracted by another shard of the plan too: the first
		// landed stays (as a local load extracts a content once), and
		// this shard's documents reuse it.
		if _, err := c.ExecContext(ctx, `create or replace temp table shard_dup (source_hash varchar)`); err != nil {
			return err
		}
		var hashes []string
		rows, err := c.QueryContext(ctx, `select x.source_hash, e.source_hash is not null from `+file("extractions.parquet")+` x
			left join staging.extractions e using (source_hash)`)
		if err != nil {
			return fmt.Errorf("warehouse: read shard: %w", err)
		}
		var dups []string
		for rows.Next() {
			var h string
			var landed bool
			rows.Scan(&h, &landed)
			if landed && !redo[h] {
				dups = append(dups, h)
			} else {
				hashes = append(hashes, h)
			}
		}
		rows.Close()
		for _, h := range dups {
			if _, err := c.ExecContext(ctx, `insert into shard_dup values (?)`, h); err != nil {
				return err
			}
		}
		reused.Contents = len(dups)
		if len(dups) > 0 {
			if err := c.QueryRowContext(ctx, `select count(*), count(*) filter (where method = 'ocr') from `+file("pages.parquet")+`
				where source_hash in (select source_hash from shard_dup)`).Scan(&reused.Pages, &reused.OCRPages); err != nil {
				return err
			}
		}
		if len(hashes) > 0 {
			attempts, err := clearContents(ctx, c, hashes)
			if err != nil {
				return err
			}
			for _, t := range contentTables {
				_, name := t.parts()
				cols := columnList(t.rowCols())
				sel, err := shardSelect(ctx, c, file(name+".parquet"), t.qualified(), t.rowCols())
				if err != nil {
					return err
				}
				if _, err := c.ExecContext(ctx, `insert into `+t.qualified()+` (`+cols+`) select `+sel+` from `+file(name+".parquet")+
					` where source_hash not in (select source_hash from shard_dup)`); err != nil {
					return fmt.Errorf("warehouse: land %s: %w", t.qualified(), err)
				}
			}
			if err := setAttempts(ctx, c, attempts); err != nil {
				return err
			}
		}
		if _, err := c.ExecContext(ctx, `create or replace temp table land_docs as select * from `+file("documents.parquet")); err != nil {
			return fmt.Errorf("warehouse: read shard documents: %w", err)
		}
		if _, err := c.ExecContext(ctx, `update land_docs set reused = true where status = 'landed' and source_hash in (select source_hash from shard_dup)`); err != nil {
			return err
		}
		if err := mergeDocs(ctx, c, runID, now, landFacts{reused: -1}); err != nil {
			return err
		}
		cols := eventsTable.rowCols()
		sel := make([]string, len(cols))
		for i, col := range cols {
			switch col {
			case "run_id":
				sel[i] = "$1"
			case "event_at":
				sel[i] = "$2"
			case "pages", "chars", "ocr_pages", "mean_ocr_confidence", "review_pages":
				// a content reused has no figures of its own
				sel[i] = "case when source_hash in (select source_hash from shard_dup) then null else " + col + " end"
			default:
				sel[i] = col
			}
		}
		if _, err := c.ExecContext(ctx, `insert into ops.document_events (`+columnList(cols)+`) select `+strings.Join(sel, ", ")+` from `+file("events.parquet"), runID, now); err != nil {
			return fmt.Errorf("warehouse: land events: %w", err)
		}
		var deleted []string
		rows, err = c.QueryContext(ctx, `select doc_id from `+file("deleted.parquet"))
		if err != nil {
			return err
		}
		for rows.Next() {
			var id string
			rows.Scan(&id)
			deleted = append(deleted, id)
		}
		rows.Close()
		if _, err := markDeleted(ctx, c, runID, now, deleted); err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, `drop table shard_dup`); err != nil {
			return err
		}
		_, err = c.ExecContext(ctx, `insert into ops.shard_lands values (?, ?, ?, ?, ?)`, s.PlanID, s.Shard, runID, nullStr(s.ManifestSHA256), now)
		return err
	})
}

// setAttempts records one more extraction of each content in attempts
// (the extractions it had before), in one statement: without a key
// (schema version 11) a statement per content would scan the table each.
// shardSelect is the select list that reads cols of a table from a
// shard's parquet file. A shard written before schema version 13 has no
// staging.elements.element_id (it was generated then): its ids are
// computed as migration 13 computes them, the same values. Any other
// column the file lacks is a shard of another docket: refused with a
// reason a person can act on, not DuckDB's binder error.
func shardSelect(ctx context.Context, c *sql.Conn, file, table string, cols []string) (string, error) {
	rows, err := c.QueryContext(ctx, `select column_name from (describe select * from `+file+`)`)
	if err != nil {
		return "", fmt.Errorf("warehouse: read shard: %w", err)
	}
	has := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return "", err
		}
		has[name] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	sel := make([]string, len(cols))
	for i, col := range cols {
		switch {
		case has[col]:
			sel[i] = col
		case table == elementsTable.qualified() && col == "element_id":
			sel[i] = elementIDExpr
		default:
			return "", fmt.Errorf("warehouse: the shard's %s has no column %s: it was written by another docket version; extract the shard again with this one (docket load --plan DIR --shard K)", table, col)
		}
	}
	return strings.Join(sel, ", "), nil
}

func setAttempts(ctx context.Context, c *sql.Conn, attempts map[string]int) error {
	if len(attempts) == 0 {
		return nil
	}
	vals := make([]string, 0, len(attempts))
	args := make([]any, 0, 2*len(attempts))
	for h, n := range attempts {
		vals = append(vals, "(?, ?::integer)")
		args = append(args, h, n+1)
	}
	_, err := c.ExecContext(ctx, `update staging.extractions e set attempts = v.n from (values `+strings.Join(vals, ", ")+`) v(h, n)
		where e.source_hash = v.h`, args...)
	return err
}
