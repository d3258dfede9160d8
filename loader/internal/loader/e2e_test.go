package loader_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/cli"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/loader"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/worker"
	"github.com/docket-dev/docket/loader/internal/workercmd"
)

// The test binary doubles as the docket binary (loader and workers) when
// DOCKET_TEST_AS_DOCKET=1, so these tests run the real process model.
// The fault-injection hooks are installed here, from test-only variables:
// envKillAt kills the loader at a named point (see loader.Hooks), and a
// worker dies (envCrashOn) or hangs (envHangOn) on a document whose path
// contains the value.
func TestMain(m *testing.M) {
	if os.Getenv("DOCKET_TEST_AS_DOCKET") == "1" {
		installHooks()
		cli.InProcessWorker = workercmd.Main
		if v := os.Getenv(envWorkerVersion); v != "" {
			cli.InProcessWorker = otherBuildWorker(v)
		}
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const (
	envKillAt  = "DOCKET_TEST_LOADER_KILL_AT"
	envCrashOn = "DOCKET_TEST_WORKER_CRASH_ON"
	envHangOn  = "DOCKET_TEST_WORKER_HANG_ON"
	// envWorkerVersion makes the worker stamp its results with this
	// extractor version, as a docket-worker of another build would.
	envWorkerVersion = "DOCKET_TEST_WORKER_VERSION"
	// envCleanAt removes the temporary folders of loads (as a tmp cleaner
	// would) at the named points, comma-separated.
	envCleanAt = "DOCKET_TEST_CLEAN_TMP_AT"
	// envWorkerPaths names a file each worker request's document name and
	// path are appended to; envRewrite ("NAME=SRC=FILE") makes the worker
	// given document NAME first copy SRC over FILE (once).
	envWorkerPaths = "DOCKET_TEST_WORKER_PATHS"
	envRewrite     = "DOCKET_TEST_WORKER_REWRITE"
	// envCommitFailAt fails the N-th batch's commit (warehouse.Hooks.Commit);
	// envStatementFailOn fails, before its commit, every landing of a batch
	// holding a landed document whose path contains the value
	// (warehouse.Hooks.Statement).
	envCommitFailAt    = "DOCKET_TEST_COMMIT_FAIL_AT"
	envStatementFailOn = "DOCKET_TEST_STATEMENT_FAIL_ON"
	// envFatalOn is envStatementFailOn with a fatal error of DuckDB's.
	envFatalOn = "DOCKET_TEST_FATAL_ON"
	// envShardCommitFail fails every commit without a batch (LandShard's,
	// LandDecisions').
	envShardCommitFail = "DOCKET_TEST_SHARD_COMMIT_FAIL"
)

func installHooks() {
	installLandHooks()
	killAt, cleanAt := os.Getenv(envKillAt), os.Getenv(envCleanAt)
	if killAt != "" || cleanAt != "" {
		loader.Hooks.At = func(point string) {
			if point == killAt {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				time.Sleep(time.Hour)
			}
			if cleanAt != "" && strings.Contains(","+cleanAt+",", ","+point+",") {
				m, _ := filepath.Glob(filepath.Join(os.TempDir(), "docket-attach-*"))
				for _, d := range m {
					os.RemoveAll(d)
				}
			}
		}
	}
	if spec := os.Getenv(envWaitFor); spec != "" {
		worker.Hooks.BeforeExtract = waitFor(spec)
		return
	}
	crashOn, hangOn := os.Getenv(envCrashOn), os.Getenv(envHangOn)
	if os.Getenv(envWorkerPaths) != "" || os.Getenv(envRewrite) != "" {
		worker.Hooks.BeforeExtract = recordAndRewrite
		return
	}
	if crashOn != "" || hangOn != "" {
		worker.Hooks.BeforeExtract = func(r worker.Request) {
			if crashOn != "" && strings.Contains(r.Name, crashOn) {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
			if hangOn != "" && strings.Contains(r.Name, hangOn) {
				time.Sleep(24 * time.Hour)
			}
		}
	}
}

// otherBuildWorker is the real worker, its results stamped with version v.
func otherBuildWorker(v string) func(io.Writer) int {
	return func(stderr io.Writer) int {
		in, out, err := worker.ProtocolStdio()
		if err != nil {
			return 1
		}
		err = worker.Serve(context.Background(), in, out, version.All(), func(ctx context.Context, r worker.Request) (*document.Result, error) {
			res, err := extract.Route(ctx, r)
			if res != nil {
				res.ExtractorVersion = v
			}
			return res, err
		})
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
}

// TestWorkerOfAnotherBuildStopsTheLoad: a docket-worker whose extractor
// versions this docket does not call current (left over from another
// build) stops the load with the reason, instead of landing output every
// later load would redo.
func TestWorkerOfAnotherBuildStopsTheLoad(t *testing.T) {
	dir := project(t)
	out, err := docket(t, dir, []string{envWorkerVersion + "=html/0"}, "load", "--quiet")
	if err == nil || !strings.Contains(out, "docket and docket-worker are from different builds") || !strings.Contains(out, "html/0") {
		t.Fatalf("load with a worker of another build: err %v\n%s", err, out)
	}
	if n := count(t, dir, `select count(*) from staging.extractions where extractor_version like '%html/0%'`); n != 0 {
		t.Errorf("%d extractions of the other build's worker landed", n)
	}
	mustLoad(t, dir) // the right worker: the load goes through
	if n := count(t, dir, `select count(*) from raw.documents where status = 'landed'`); n == 0 {
		t.Error("nothing landed after the load with the right worker")
	}
}

// project copies examples/inbox into a fresh project folder.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	if err := os.CopyFS(inbox, os.DirFS("../../../examples/inbox")); err != nil {
		t.Fatal(err)
	}
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n  timeout: 60s\n"
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func docket(t *testing.T, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, append(args, "--project", dir)...)
	cmd.Env = append(append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1"), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustLoad(t *testing.T, dir string, env ...string) string {
	t.Helper()
	out, err := docket(t, dir, env, "load", "--quiet")
	if err != nil {
		t.Fatalf("docket load: %v\n%s", err, out)
	}
	return out
}

// snapshot renders the landed state, without timestamps and run ids, so
// two warehouses can be compared row for row.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	ctx := context.Background()
	db, err := warehouse.Open(ctx, filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	queries := map[string]string{
		"documents": `select doc_id, rel_path, source_hash, status, error_kind, detected_type, page_count, title, parent_doc_id from raw.documents`,
		"versions":  `select doc_id, source_hash from raw.document_versions`,
		"pages":     `select source_hash, page_number, method, needs_ocr, md5(text) from staging.pages`,
		"elements":  `select element_id, category, page_number, char_start, char_end, md5(text) from staging.elements`,
		"tables":    `select table_id, n_rows, n_cols from staging.tables`,
		"words":     `select source_hash, page_number, count(*) from staging.ocr_words group by all`,
		"extract":   `select source_hash, status, error_kind from staging.extractions`,
	}
	out := map[string]string{}
	for name, q := range queries {
		rows, err := db.SQL().QueryContext(ctx, q+" order by all")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cols, _ := rows.Columns()
		var b strings.Builder
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			rows.Scan(ptrs...)
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
		out[name] = b.String()
	}
	return out
}

// oneRowPerKey fails the test when a table that grows with the corpus
// has more than one row for its key (no PRIMARY KEY refuses it since
// schema version 11: the loader's landing, fresh batches and shard lands
// included, must keep them unique).
func oneRowPerKey(t *testing.T, dir string) {
	t.Helper()
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dups, err := db.DuplicateKeys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(dups) > 0 {
		t.Fatalf("rows beyond one per key: %v", dups)
	}
}

func count(t *testing.T, dir, q string) int {
	t.Helper()
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.SQL().QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func TestLoadIdempotentChangeDelete(t *testing.T) {
	dir := project(t)
	mustLoad(t, dir)
	first := snapshot(t, dir)
	if !strings.Contains(first["pages"], "ocr") || !strings.Contains(first["pages"], "text_layer") {
		t.Fatalf("expected text-layer and OCR pages:\n%s", first["pages"])
	}
	// Identical bytes under two names: two documents, one extraction.
	if n := count(t, dir, `select count(*) from raw.documents where rel_path like '%remote-work-policy%.pdf'`); n != 2 {
		t.Fatalf("want 2 policy documents, got %d", n)
	}
	if n := count(t, dir, `select count(distinct source_hash) from raw.documents where rel_path like '%remote-work-policy%.pdf'`); n != 1 {
		t.Fatalf("identical files should share one content, got %d", n)
	}
	if n := count(t, dir, `select count(*) from staging.extractions e join raw.documents d using (source_hash) where d.rel_path = 'remote-work-policy.pdf'`); n != 1 {
		t.Fatalf("the shared content should be extracted once, got %d extraction rows", n)
	}
	// Every file is accounted for with a status; quarantined ones say why.
	if n := count(t, dir, `select count(*) from raw.documents where status = 'quarantined' and (error_kind is null or error_message is null)`); n != 0 {
		t.Fatalf("%d quarantined documents without a reason", n)
	}
	for _, q := range []string{
		`select count(*) from raw.documents where rel_path = 'archive/empty-notes.txt' and error_kind = 'empty'`,
		`select count(*) from raw.documents where rel_path = 'archive/truncated-report.pdf' and error_kind = 'corrupt'`,
	} {
		if count(t, dir, q) != 1 {
			t.Errorf("expected quarantine: %s", q)
		}
	}

	// A second load over unchanged files changes nothing.
	out := mustLoad(t, dir)
	if !strings.Contains(out, "new 0, changed 0") {
		t.Errorf("second load should find nothing new: %s", out)
	}
	if second := snapshot(t, dir); !equal(first, second) {
		t.Fatalf("second load changed the warehouse:\n%s", diff(first, second))
	}

	// A changed file adds a version; a removed file becomes a tombstone.
	notes := filepath.Join(dir, "inbox", "meeting-notes.txt")
	if err := os.WriteFile(notes, []byte("Meeting notes\n\nThe grippers were replaced.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "inbox", "invoice-2026-03.csv")); err != nil {
		t.Fatal(err)
	}
	out = mustLoad(t, dir)
	if !strings.Contains(out, "changed 1") || !strings.Contains(out, "deleted 1") {
		t.Fatalf("want 1 changed and 1 deleted: %s", out)
	}
	if n := count(t, dir, `select count(*) from raw.document_versions v join raw.documents d using (doc_id) where d.rel_path = 'meeting-notes.txt'`); n != 2 {
		t.Errorf("changed file should have 2 versions, got %d", n)
	}
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'invoice-2026-03.csv' and status = 'deleted'`); n != 1 {
		t.Errorf("removed file should be a tombstone")
	}
	// Putting it back lands it again.
	os.WriteFile(filepath.Join(dir, "inbox", "invoice-2026-03.csv"), []byte("item,total\nx,1\n"), 0o644)
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'invoice-2026-03.csv' and status = 'landed'`); n != 1 {
		t.Errorf("restored file should be landed again")
	}
	oneRowPerKey(t, dir)
}

func TestKilledWorkerQuarantinesOneDocument(t *testing.T) {
	// An HTML extraction and an OCR extraction (image) each die mid-document.
	for i, victim := range []string{"safety-faq.html", "agreement-page.png"} {
		// (the subtest name must not contain the victim: it is in the temp path)
		t.Run(fmt.Sprint("victim", i), func(t *testing.T) {
			dir := project(t)
			out := mustLoad(t, dir, envCrashOn+"="+victim)
			if !strings.Contains(out, "crash=1") {
				t.Fatalf("want one crash in the summary: %s", out)
			}
			q := fmt.Sprintf(`select count(*) from raw.documents where rel_path = '%s' and status = 'quarantined' and error_kind = 'crash' and error_message like '%%signal killed%%'`, victim)
			if n := count(t, dir, q); n != 1 {
				t.Fatal("the crashed document should be quarantined as crash with the signal named")
			}
			if n := count(t, dir, `select count(*) from raw.documents where status = 'landed'`); n < 8 {
				t.Fatalf("the rest of the run should land, got %d landed", n)
			}
			// The next load retries it (crashes may not recur) without being asked.
			out = mustLoad(t, dir)
			if n := count(t, dir, fmt.Sprintf(`select count(*) from raw.documents where rel_path = '%s' and status = 'landed'`, victim)); n != 1 {
				t.Fatalf("the next load should retry and land the crashed document: %s", out)
			}
		})
	}
}

func TestTimeoutQuarantines(t *testing.T) {
	dir := project(t)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n  timeout: 2s\n"), 0o644)
	mustLoad(t, dir, envHangOn+"=meeting-notes")
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'meeting-notes.txt' and error_kind = 'timeout'`); n != 1 {
		t.Fatal("the hung document should be quarantined as timeout")
	}
}

// TestSIGKILLedLoaderConverges kills the loader at several moments and
// checks that a final load ends row for row equal to an uninterrupted one.
func TestSIGKILLedLoaderConverges(t *testing.T) {
	ref := project(t)
	mustLoad(t, ref)
	want := snapshot(t, ref)
	exe, _ := os.Executable()
	for _, after := range []time.Duration{150 * time.Millisecond, 600 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second} {
		dir := project(t)
		cmd := exec.Command(exe, "load", "--quiet", "--project", dir)
		cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		mustLoad(t, dir)
		if got := snapshot(t, dir); !equal(want, got) {
			t.Fatalf("killed after %s, then re-run: warehouse differs:\n%s", after, diff(want, got))
		}
	}
}

func equal(a, b map[string]string) bool {
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return len(a) == len(b)
}

func diff(a, b map[string]string) string {
	var s strings.Builder
	for k := range a {
		if a[k] != b[k] {
			fmt.Fprintf(&s, "== %s\n-- want\n%s-- got\n%s", k, a[k], b[k])
		}
	}
	return s.String()
}

// TestSharedContentEdgeCases: contents shared by several documents, and
// versions that come back, keep their pages, metadata and attachments.
func TestSharedContentEdgeCases(t *testing.T) {
	dir := project(t)
	inbox := filepath.Join(dir, "inbox")
	mustLoad(t, dir)

	// A copy of the e-mail gets its own attachment child, without re-extraction.
	b, _ := os.ReadFile(filepath.Join(inbox, "agreement-mail.eml"))
	os.WriteFile(filepath.Join(inbox, "agreement-mail-copy.eml"), b, 0o644)
	mustLoad(t, dir)
	// A file-level quarantine of one copy (over the size limit now) must
	// not wipe the content the other copies share.
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n  max_file_size: 600\n"), 0o644)
	html, _ := os.ReadFile(filepath.Join(inbox, "safety-faq.html"))
	os.WriteFile(filepath.Join(inbox, "safety-faq-copy.html"), html, 0o644)
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'safety-faq-copy.html' and error_kind = 'too_large'`); n != 1 {
		t.Fatal("the copy over the size limit should be quarantined as too_large")
	}
	if n := count(t, dir, `select count(*) from staging.pages p join raw.documents d using (source_hash) where d.rel_path = 'safety-faq.html'`); n != 1 {
		t.Fatalf("the original lost its pages to a copy's quarantine (%d pages)", n)
	}
	if n := count(t, dir, `select count(*) from raw.documents c join raw.documents p on c.parent_doc_id = p.doc_id
		where p.rel_path = 'agreement-mail-copy.eml' and c.status = 'landed' and c.page_count = 2`); n != 1 {
		t.Fatalf("the copied e-mail should have its landed 2-page attachment, got %d", n)
	}

	// A file changed and then changed back keeps its metadata.
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n"), 0o644)
	os.WriteFile(filepath.Join(inbox, "safety-faq.html"), []byte("<html><head><title>Draft</title></head><body><p>draft text only</p></body></html>"), 0o644)
	mustLoad(t, dir)
	os.WriteFile(filepath.Join(inbox, "safety-faq.html"), html, 0o644)
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'safety-faq.html' and title = 'Warehouse Safety FAQ' and page_count = 1`); n != 1 {
		t.Fatal("a file changed back to an earlier version should get that version's metadata back")
	}
	// An unchanged document and its attachments keep the run that landed
	// them together (a load writes no unchanged row; see stg_documents).
	if n := count(t, dir, `select count(*) from raw.documents c join raw.documents p on c.parent_doc_id = p.doc_id
		where p.rel_path = 'agreement-mail.eml' and c.last_run_id <> p.last_run_id`); n != 0 {
		t.Fatal("an unchanged document's attachments should keep their parent's run")
	}
	oneRowPerKey(t, dir)
}

// TestLoaderKilledAtEachStepConverges kills the loader at named points
// (after the first landed batch, before tombstoning deleted files, before
// closing the run) during a load that adds, changes and deletes files; a
// plain re-run must end row for row equal to an uninterrupted history.
func TestLoaderKilledAtEachStepConverges(t *testing.T) {
	history := func(dir string, env ...string) {
		mustLoad(t, dir)
		inbox := filepath.Join(dir, "inbox")
		os.Remove(filepath.Join(inbox, "invoice-2026-03.csv"))
		os.WriteFile(filepath.Join(inbox, "meeting-notes.txt"), []byte("Notes\n\nThe robots were serviced.\n"), 0o644)
		b, _ := os.ReadFile(filepath.Join(inbox, "safety-faq.html"))
		os.WriteFile(filepath.Join(inbox, "safety-faq-2.html"), append(b, []byte("<p>Revised.</p>")...), 0o644)
		if len(env) > 0 {
			_, err := docket(t, dir, env, "load", "--quiet")
			if err == nil {
				t.Fatalf("the load with %v should have been killed", env)
			}
			if n := count(t, dir, `select count(*) from ops.load_runs where status = 'running'`); n != 1 {
				t.Fatalf("the killed run should be left running, got %d", n)
			}
		}
		mustLoad(t, dir)
	}
	ref := project(t)
	history(ref)
	want := snapshot(t, ref)
	for _, at := range []string{"planned", "land:1", "before-delete", "before-finish"} {
		dir := project(t)
		history(dir, envKillAt+"="+at)
		if got := snapshot(t, dir); !equal(want, got) {
			t.Fatalf("killed at %s, then re-run: warehouse differs:\n%s", at, diff(want, got))
		}
		if n := count(t, dir, `select count(*) from ops.load_runs where status = 'aborted'`); n != 1 {
			t.Errorf("killed at %s: the killed run should be marked aborted by the next load, got %d", at, n)
		}
	}
}
