package loader_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/docket-dev/docket/loader/internal/loader"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// installLandHooks installs the warehouse's fault-injection hooks from
// envCommitFailAt and envStatementFailOn (test binary only).
func installLandHooks() {
	if n, _ := strconv.Atoi(os.Getenv(envCommitFailAt)); n > 0 {
		batches := 0
		warehouse.Hooks.Commit = func(batch []warehouse.Landing) error {
			if len(batch) == 0 {
				return nil
			}
			if batches++; batches == n {
				return errors.New("Out of Memory Error: failed to pin block of size 256.0 KiB (injected)")
			}
			return nil
		}
	}
	if os.Getenv(envShardCommitFail) != "" {
		// LandShard and LandDecisions commit without a batch (so does
		// MarkDeleted, which docket land does not call)
		warehouse.Hooks.Commit = func(batch []warehouse.Landing) error {
			if len(batch) == 0 {
				return errors.New("Out of Memory Error: failed to pin block of size 256.0 KiB (injected)")
			}
			return nil
		}
	}
	failOn := func(name string, typ duckdb.ErrorType, msg string) {
		warehouse.Hooks.Statement = func(batch []warehouse.Landing) error {
			for _, l := range batch {
				if l.Doc.Status == warehouse.StatusLanded && strings.Contains(l.Doc.RelPath, name) {
					return &duckdb.Error{Type: typ, Msg: strings.ReplaceAll(msg, "PATH", l.Doc.RelPath)}
				}
			}
			return nil
		}
	}
	if name := os.Getenv(envStatementFailOn); name != "" {
		// a value quoting "FATAL Error" is no fatal error
		failOn(name, duckdb.ErrorTypeConversion, "Conversion Error: a value of PATH ('FATAL Error') does not fit (injected)")
	}
	if name := os.Getenv(envFatalOn); name != "" {
		// what DuckDB 1.5 said when a checkpoint failed under a low limit
		failOn(name, duckdb.ErrorTypeFatal, "FATAL Error: Failed to create checkpoint because of error: failed to pin block of size 256.0 KiB (67.7 MiB/68.0 MiB used) (injected)")
	}
}

// textProject is a project of n small text files, f0000.txt ...
func textProject(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("Note %d\n\nThe shipment %d arrived on dock %d.\n", i, i*7, i%13)
		if err := os.WriteFile(filepath.Join(inbox, fmt.Sprintf("f%04d.txt", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	yaml := "version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n"
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// onceEach fails unless every document of dir's warehouse has one row
// (per key, whether or not the schema declares the key).
func onceEach(t *testing.T, dir string, want int) {
	t.Helper()
	if docs, ids := count(t, dir, `select count(*) from raw.documents`), count(t, dir, `select count(distinct doc_id) from raw.documents`); docs != want || ids != want {
		t.Fatalf("%d document rows, %d doc_ids; want %d of each", docs, ids, want)
	}
	if n := count(t, dir, `select count(*) from (select source_hash, page_number from staging.pages group by all having count(*) > 1)`); n != 0 {
		t.Fatalf("%d pages landed more than once", n)
	}
}

// TestFailedCommitStopsTheLoad: a batch whose commit fails (injected;
// warehouse.TestFailedCommitWritesNothingMore has DuckDB's own), or that
// fails fatally (DuckDB invalidates the open database), leaves none of
// its rows and ends the load saying to run it again: DuckDB's
// state after a failed commit is not to be trusted, so the batch is not
// retried document by document (each retry failed with "Duplicate key
// ... violates primary key constraint" on mem20's 200k load) and nothing
// is quarantined. The batches landed before it are kept, and the next
// load ends equal to one clean load, each document once. So does a load
// killed between two commits.
func TestFailedCommitStopsTheLoad(t *testing.T) {
	const files = 600 // three batches of 256 at most
	ref := textProject(t, files)
	mustLoad(t, ref)
	want := snapshot(t, ref)
	for _, env := range []string{envCommitFailAt + "=2", envFatalOn + "=f0450.txt", envKillAt + "=land:1"} {
		dir := textProject(t, files)
		out, err := docket(t, dir, []string{env}, "load", "--quiet")
		if err == nil {
			t.Fatalf("%s: the load should have failed:\n%s", env, out)
		}
		// The first batch is kept whole (256 documents, or fewer when
		// BatchEvery passed first on a slow machine), the rest not landed.
		n := count(t, dir, `select count(*) from raw.documents`)
		if n == 0 || n > loader.NewWriter(nil, "", nil).Limits.Docs {
			t.Errorf("%s: %d documents after the first batch, want that batch's", env, n)
		}
		if whole := count(t, dir, `select count(*) from raw.documents d join staging.pages p using (source_hash)`); whole != n {
			t.Errorf("%s: %d of %d documents with their page", env, whole, n)
		}
		if n := count(t, dir, `select count(*) from raw.documents where status <> 'landed'`); n != 0 {
			t.Errorf("%s: %d documents quarantined", env, n)
		}
		if !strings.HasPrefix(env, envKillAt) && (!strings.Contains(out, "could not commit a batch of ") || !strings.Contains(out, "run `docket load` again") ||
			!memoryAdvice.MatchString(out)) {
			t.Errorf("%s: the load's error should say the commit failed, to raise loader.memory_limit and to load again:\n%s", env, out)
		}
		mustLoad(t, dir)
		onceEach(t, dir, files)
		if got := snapshot(t, dir); !equal(want, got) {
			t.Fatalf("%s, then a load: warehouse differs from one clean load:\n%s", env, diff(want, got))
		}
	}
}

// TestFailedStatementQuarantinesOneDocument: a batch that fails before
// its commit (one document's rows are refused, injected) is landed
// document by document: every other document once, the refused one
// quarantined with a reason a person reads, counted once in the summary
// (it was counted as landed too); the run goes on, and the next load
// lands it.
func TestFailedStatementQuarantinesOneDocument(t *testing.T) {
	const files = 20
	ref := textProject(t, files)
	mustLoad(t, ref)
	want := snapshot(t, ref)
	dir := textProject(t, files)
	out, err := docket(t, dir, []string{envStatementFailOn + "=f0007.txt"}, "load", "--quiet", "--json")
	if err != nil {
		t.Fatalf("the load should go on past one refused document: %v\n%s", err, out)
	}
	var sum loader.Summary
	if err := json.NewDecoder(strings.NewReader(out[strings.Index(out, "{"):])).Decode(&sum); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if sum.Landed != files-1 || sum.Quarantined != 1 || sum.ByKind["internal"] != 1 {
		t.Errorf("summary: landed %d, quarantined %d %v; want %d, 1 internal", sum.Landed, sum.Quarantined, sum.ByKind, files-1)
	}
	onceEach(t, dir, files)
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'f0007.txt' and status = 'quarantined' and error_kind = 'internal'
		and error_message like 'its extraction could not be written to the warehouse (the next load tries again): %does not fit%'`); n != 1 {
		t.Errorf("f0007.txt should be quarantined saying why")
	}
	if n := count(t, dir, `select count(*) from raw.documents d join staging.pages p using (source_hash) where d.status = 'landed'`); n != files-1 {
		t.Errorf("%d landed documents with their page, want %d", n, files-1)
	}
	mustLoad(t, dir)
	onceEach(t, dir, files)
	if got := snapshot(t, dir); !equal(want, got) {
		t.Fatalf("the next load should land the quarantined document:\n%s", diff(want, got))
	}
}

// TestFailedShardCommitStopsTheLand: in docket land, a shard whose
// commit fails (injected) ends the land as a failed batch ends a load:
// nothing more is written, the error says to raise loader.memory_limit
// and to run docket land again; landing again then equals a local load.
// On the old code the failure was a plain error with no advice.
func TestFailedShardCommitStopsTheLand(t *testing.T) {
	const files = 12
	local := textProject(t, files)
	mustLoad(t, local)
	want := snapshot(t, local)
	dir := textProject(t, files)
	plan := filepath.Join(dir, "plan")
	mustDocket(t, dir, nil, "plan", "--shards", "2", "--out", plan)
	for k := 0; k < 2; k++ {
		mustDocket(t, dir, nil, "load", "--plan", plan, "--shard", fmt.Sprint(k))
	}
	out, err := docket(t, dir, []string{envShardCommitFail + "=1"}, "land", plan)
	if err == nil {
		t.Fatalf("the land should have failed:\n%s", out)
	}
	if !strings.Contains(out, "could not commit it, and this land writes nothing more") || !strings.Contains(out, "run `docket land` again") ||
		!memoryAdvice.MatchString(out) {
		t.Errorf("the land's error should say the commit failed, to raise loader.memory_limit and to land again:\n%s", out)
	}
	if n := count(t, dir, `select count(*) from raw.documents`); n != 0 {
		t.Errorf("%d documents landed by the failed land", n)
	}
	mustDocket(t, dir, nil, "land", plan)
	onceEach(t, dir, files)
	if got := snapshot(t, dir); !equal(want, got) {
		t.Fatalf("landed again: warehouse differs from a local load:\n%s", diff(want, got))
	}
}

// memoryAdvice is what a load, a land and a shard's load say when DuckDB
// ran out of memory (warehouse.CommitError.MemoryAdvice), then what to
// run again.
var memoryAdvice = regexp.MustCompile(`DuckDB ran out of memory under loader\.memory_limit \(\d+MiB\): raise loader\.memory_limit in project\.yaml(,| before)`)

// TestFailedShardLoadCommit: a shard's load (docket load --plan --shard)
// whose scratch commit fails (injected) says to run that shard again,
// not `docket load` (a local load) with its batches kept: the shard's
// scratch database is removed, so nothing of it is kept. It says to
// raise loader.memory_limit when DuckDB ran out of memory (a shard has
// no closing checkpoint to say it). The shard run again finishes.
func TestFailedShardLoadCommit(t *testing.T) {
	dir := textProject(t, 8)
	plan := filepath.Join(dir, "plan")
	mustDocket(t, dir, nil, "plan", "--shards", "1", "--out", plan)
	out, err := docket(t, dir, []string{envCommitFailAt + "=1"}, "load", "--plan", plan, "--shard", "0")
	if err == nil {
		t.Fatalf("the shard's load should have failed:\n%s", out)
	}
	if !strings.Contains(out, "nothing of this shard is kept") || !strings.Contains(out, "--shard 0`") ||
		strings.Contains(out, "batches landed before it are kept") || !memoryAdvice.MatchString(out) || !strings.Contains(out, "project.yaml before running the shard again") {
		t.Errorf("the shard's error should say to raise loader.memory_limit and run the shard again:\n%s", out)
	}
	mustDocket(t, dir, nil, "load", "--plan", plan, "--shard", "0")
	mustDocket(t, dir, nil, "land", plan)
	onceEach(t, dir, 8)
}
