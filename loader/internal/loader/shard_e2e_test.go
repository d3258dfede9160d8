package loader_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/loader"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// volatile are the columns that differ between two loads of the same
// files by nature: run ids, times, durations, and mtime (each test
// project is a fresh copy of the files).
var volatile = map[string]bool{"first_seen_at": true, "last_seen_at": true, "last_run_id": true, "first_run_id": true,
	"extracted_at": true, "duration_ms": true, "run_id": true, "event_at": true, "recorded_at": true, "mtime": true,
	"stat_mtime_ns": true, "stat_inode": true, "stat_ctime_ns": true, "stat_taken_ns": true}

// landedState renders every landed table, all columns but the volatile
// ones, row for row (the project folder shown as $DIR), and the load
// runs' counts.
func landedState(t *testing.T, dir string) map[string]string {
	t.Helper()
	ctx := context.Background()
	db, err := warehouse.Open(ctx, filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]string{}
	render := func(name, q string) {
		rows, err := db.SQL().QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		var b strings.Builder
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		abs, _ := filepath.Abs(dir)
		// A worker's error names the temporary copy it read.
		out[name] = tempCopy.ReplaceAllString(strings.ReplaceAll(b.String(), abs, "$DIR"), "$$TMP")
	}
	for _, tbl := range []string{"raw.documents", "raw.document_versions", "staging.pages", "staging.elements", "staging.tables",
		"staging.ocr_words", "staging.extractions", "staging.reviews", "staging.attachments", "ops.document_events", "ops.load_skips"} {
		schema, name, _ := strings.Cut(tbl, ".")
		rows, err := db.SQL().QueryContext(ctx, `select column_name from duckdb_columns() where schema_name = ? and table_name = ? order by column_index`, schema, name)
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for rows.Next() {
			var c string
			rows.Scan(&c)
			if !volatile[c] && !(tbl == "ops.document_events" && eventFigures[c]) {
				cols = append(cols, c)
			}
		}
		rows.Close()
		render(tbl, "select "+strings.Join(cols, ", ")+" from "+tbl+" order by all")
	}
	// Of documents with the same bytes, the one whose worker started
	// first carries the content's figures, and which one that is a local
	// load leaves to chance: the figures are compared per content.
	render("event figures", `select source_hash, pages, chars, ocr_pages, mean_ocr_confidence, review_pages from ops.document_events
		where pages is not null order by all`)
	render("ops.load_runs", `select status, seen, new, changed, unchanged, deleted, quarantined, landed, pages, ocr_pages from ops.load_runs order by all`)
	return out
}

var eventFigures = map[string]bool{"pages": true, "chars": true, "ocr_pages": true, "mean_ocr_confidence": true, "review_pages": true}

var tempCopy = regexp.MustCompile(`/tmp/docket-[a-z]+-\d+/[^ :]+`)

func readPlan(t *testing.T, dir string) *loader.PlanManifest {
	t.Helper()
	m, err := loader.ReadPlan(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustDocket(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	out, err := docket(t, dir, env, args...)
	if err != nil {
		t.Fatalf("docket %v: %v\n%s", args, err, out)
	}
	return out
}

// Plan with 4 shards, run them as separate docket processes (one killed
// by SIGKILL after writing its Parquet files, before its manifest, and
// run again), land: the warehouse equals a single-machine load of the
// same files row for row, and landing again changes nothing.
func TestShardedLoadEqualsLocalLoad(t *testing.T) {
	local := project(t)
	mustLoad(t, local)
	want := landedState(t, local)

	dir := project(t)
	plan := filepath.Join(dir, "plan")
	mustDocket(t, dir, nil, "plan", "--shards", "4", "--out", plan)
	m := readPlan(t, plan)
	if len(m.Shards) != 4 {
		t.Fatalf("%d shards", len(m.Shards))
	}
	if n := count(t, dir, `select count(*) from raw.documents`); n != 0 {
		t.Fatalf("plan landed %d documents", n)
	}
	// The biggest shard (by files) is killed once.
	victim := 0
	for _, s := range m.Shards {
		if s.Files > m.Shards[victim].Files {
			victim = s.Shard
		}
	}
	for k := range m.Shards {
		args := []string{"load", "--plan", plan}
		env := []string{"JOB_COMPLETION_INDEX=" + fmt.Sprint(k)} // K from the engine's variable
		if k == victim {
			out, err := docket(t, dir, append(env, envKillAt+"=shard-before-manifest"), args...)
			if err == nil {
				t.Fatalf("shard %d was not killed:\n%s", k, out)
			}
			if _, err := os.Stat(filepath.Join(loader.ShardDir(plan, k), "pages.parquet")); err != nil {
				t.Fatalf("killed shard left no Parquet files (the kill came too early to test anything): %v", err)
			}
			if _, err := os.Stat(filepath.Join(loader.ShardDir(plan, k), "manifest.json")); err == nil {
				t.Fatal("killed shard wrote its manifest")
			}
		}
		mustDocket(t, dir, env, args...)
	}
	// A finished shard run again does nothing.
	if out := mustDocket(t, dir, nil, "load", "--plan", plan, "--shard", "0"); !strings.Contains(out, "already finished") {
		t.Fatalf("shard 0 run again:\n%s", out)
	}
	out := mustDocket(t, dir, nil, "land", plan)
	if !strings.Contains(out, "shards [0 1 2 3] landed") {
		t.Fatalf("land:\n%s", out)
	}
	got := landedState(t, dir)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s differs from a local load:\nlocal:\n%s\nsharded:\n%s", name, w, got[name])
		}
	}
	if t.Failed() {
		return
	}
	// Landing again changes nothing (no run either).
	out = mustDocket(t, dir, nil, "land", plan)
	if !strings.Contains(out, "nothing to land") {
		t.Fatalf("land again:\n%s", out)
	}
	again := landedState(t, dir)
	for name, w := range got {
		if again[name] != w {
			t.Errorf("%s changed by landing again:\nbefore:\n%s\nafter:\n%s", name, w, again[name])
		}
	}
	// A second round on both: a file deleted, one changed, one added.
	// The sharded side lands the tombstone, the new version and the new
	// document as the local load does.
	for _, d := range []string{local, dir} {
		if err := os.Remove(filepath.Join(d, "inbox", "safety-faq.html")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "inbox", "meeting-notes.txt"), []byte("Meeting notes, second version.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "inbox", "added.md"), []byte("# Added\n\nA document added later.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustLoad(t, local)
	plan2 := filepath.Join(dir, "plan2")
	mustDocket(t, dir, nil, "plan", "--shards", "2", "--out", plan2)
	for k := 0; k < 2; k++ {
		mustDocket(t, dir, nil, "load", "--plan", plan2, "--shard", fmt.Sprint(k))
	}
	mustDocket(t, dir, nil, "land", plan2)
	want, got = landedState(t, local), landedState(t, dir)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("second round: %s differs from a local load:\nlocal:\n%s\nsharded:\n%s", name, w, got[name])
		}
	}
	if n := count(t, dir, `select count(*) from raw.documents where status = 'deleted' and rel_path = 'safety-faq.html'`); n != 1 {
		t.Fatal("the deleted file has no tombstone")
	}
	if t.Failed() {
		return
	}
	// The next local load finds every file unchanged.
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from ops.document_events e join ops.load_runs r using (run_id)
		where r.started_at = (select max(started_at) from ops.load_runs) and e.event <> 'unchanged'`); n != 0 {
		t.Fatalf("a load after the land found %d documents to work on", n)
	}
	oneRowPerKey(t, dir)
	oneRowPerKey(t, local)
}

// A file changed after planning is reported by its shard and by land,
// and not landed (the next load takes it); a land lists the shards not
// finished yet and lands them when they are.
func TestShardChangedFileAndMissingShards(t *testing.T) {
	dir := project(t)
	plan := filepath.Join(dir, "plan")
	mustDocket(t, dir, nil, "plan", "--shards", "2", "--out", plan)
	m := readPlan(t, plan)
	if err := os.WriteFile(filepath.Join(dir, "inbox", "meeting-notes.txt"), []byte("Rewritten after the plan.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustDocket(t, dir, nil, "load", "--plan", plan, "--shard", "0")
	out, err := docket(t, dir, nil, "land", plan)
	if err == nil || !strings.Contains(out, "missing shards (no output yet): [1]") {
		t.Fatalf("land with shard 1 missing: %v\n%s", err, out)
	}
	mustDocket(t, dir, nil, "load", "--plan", plan, "--shard", "1")
	out = mustDocket(t, dir, nil, "land", plan)
	if !strings.Contains(out, "shards [1] landed") {
		t.Fatalf("second land:\n%s", out)
	}
	all := ""
	for k := range m.Shards {
		b, err := os.ReadFile(filepath.Join(loader.ShardDir(plan, k), "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var sm loader.ShardManifest
		if err := json.Unmarshal(b, &sm); err != nil {
			t.Fatal(err)
		}
		for _, c := range sm.ChangedSincePlan {
			all += c.RelPath + " "
		}
	}
	if all != "meeting-notes.txt " {
		t.Fatalf("changed since plan: %q", all)
	}
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'meeting-notes.txt'`); n != 0 {
		t.Fatal("a file changed since the plan was landed")
	}
	if n := count(t, dir, `select count(*) from ops.document_events where event = 'changed_since_plan' and doc_id in
		(select doc_id from ops.document_events where event = 'changed_since_plan')`); n != 1 {
		t.Fatalf("%d changed_since_plan events", n)
	}
	if n := count(t, dir, `select count(*) from raw.documents where status <> 'deleted'`); n < 10 {
		t.Fatalf("only %d documents landed", n)
	}
	// The next local load takes it with its new bytes.
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents d join staging.pages p using (source_hash)
		where d.rel_path = 'meeting-notes.txt' and p.text like '%Rewritten after the plan%'`); n != 1 {
		t.Fatal("the next load did not land the changed file")
	}
	// A plan made before that load is stale now.
	if out, err := docket(t, dir, nil, "land", plan); err != nil || !strings.Contains(out, "nothing to land") {
		t.Fatalf("landing a landed plan after another load: %v\n%s", err, out)
	}
}
