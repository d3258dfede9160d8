package cli_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner"
)

// TestIncrementalEqualsFullRefresh: after each load of a sequence with
// additions, changes and deletions (a duplicate group's representative
// deleted, a near duplicate's text changed so its link disappears, a
// too-repetitive document rewritten, a table edited, documents extracted
// again with --retry-quarantined and --reocr), an incremental
// `docket build` leaves every curated, retrieval and embeddings relation
// equal to a `--full-refresh` build of a copy of the same warehouse.
func TestIncrementalEqualsFullRefresh(t *testing.T) {
	dir := shipped(t)
	inbox := filepath.Join(dir, "examples/inbox")
	gen := filepath.Join(inbox, "gen")
	os.MkdirAll(gen, 0o755)
	p := paragraphs(14)
	write := func(name string, paras ...string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(gen, name), []byte(strings.Join(paras, "\n\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repetitive := strings.Repeat("Press the green button to continue the inspection cycle now.\n", 30)

	// Load 1: the examples, a paragraph shared by two documents, a near
	// duplicate, a too-repetitive document.
	write("a.txt", p[0], p[1], p[2])
	write("b.txt", p[3], p[0], p[4])
	write("c.txt", p[5], nearCopy(p[1]))
	write("r.txt", repetitive)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	if got := query(t, dir, "select count(*) filter (where kind = 'exact') > 0 and count(*) filter (where kind = 'near') > 0 from curated.chunk_duplicates"); got[0] != "true" {
		t.Fatalf("the planted corpus should have exact and near duplicates: %v", got)
	}
	if got := query(t, dir, "select verdict from curated.doc_quality join raw.documents using (doc_id) where rel_path = 'gen/r.txt'"); got[0] != "too_repetitive" {
		t.Fatalf("r.txt verdict %v, want too_repetitive", got)
	}

	// Load 2: more copies of the shared paragraph and new near duplicates;
	// quarantined documents are extracted again (new extraction times).
	write("d.txt", p[0], nearCopy(p[2]), p[6])
	write("e.txt", p[7], nearCopy(p[5]), p[3])
	must(t, dir, "load", "--quiet", "--retry-quarantined")
	must(t, dir, "build")
	assertMatchesFullRefresh(t, dir)

	// Load 3: delete the document holding the shared paragraph's
	// representative (its group moves to the next earliest chunk), change
	// c.txt so its near duplicate link disappears, rewrite r.txt, edit the
	// invoice table, change the meeting notes, delete the travel guideline.
	rep := query(t, dir, `select d.rel_path from curated.chunk_duplicates x
		join curated.doc_chunks c on c.chunk_id = x.duplicate_of join raw.documents d on d.doc_id = c.doc_id
		where x.kind = 'exact' and d.rel_path like 'gen/%' group by d.rel_path order by count(*) desc, d.rel_path limit 1`)
	if len(rep) != 1 {
		t.Fatalf("no representative of an exact duplicate group among the generated documents")
	}
	nearOfC := `select count(*) from curated.chunk_duplicates x join curated.doc_chunks c on c.chunk_id in (x.chunk_id, x.duplicate_of)
		join raw.documents d using (doc_id) where x.kind = 'near' and d.rel_path = 'gen/c.txt'`
	nearBefore := query(t, dir, nearOfC)[0]
	if nearBefore == "0" {
		t.Fatalf("c.txt should hold a near duplicate before it changes")
	}
	os.Remove(filepath.Join(inbox, rep[0]))
	write("c.txt", p[8])
	write("r.txt", p[9], p[10])
	b, _ := os.ReadFile(filepath.Join(inbox, "invoice-2026-03.csv"))
	os.WriteFile(filepath.Join(inbox, "invoice-2026-03.csv"), []byte(strings.Replace(string(b), "Gripper replacement,1", "Gripper replacement,4", 1)), 0o644)
	notes := filepath.Join(inbox, "meeting-notes.txt")
	b, _ = os.ReadFile(notes)
	os.WriteFile(notes, append(b, []byte("\nAction item: order two spare gripper sets before June.\n")...), 0o644)
	os.Remove(filepath.Join(inbox, "travel-guideline.docx"))
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	if got := query(t, dir, nearOfC); got[0] != "0" {
		t.Fatalf("c.txt changed, its near duplicate link should be gone: %v", got)
	}
	assertMatchesFullRefresh(t, dir)

	// Load 4: the deleted representative comes back (now the latest), one
	// more document, OCR'd pages are OCR'd again (same content, new
	// extraction), and a build with nothing new.
	scanJudged := "select extracted_at from curated.doc_quality join raw.documents using (doc_id) where rel_path = 'service-agreement-scan.pdf'"
	before := query(t, dir, scanJudged)
	write(filepath.Base(rep[0]), p[0], p[11])
	write("f.txt", p[12], p[3], nearCopy(p[13]))
	must(t, dir, "load", "--quiet", "--reocr")
	must(t, dir, "build")
	if after := query(t, dir, scanJudged); len(after) != 1 || fmt.Sprint(after) == fmt.Sprint(before) {
		t.Fatalf("the OCR'd scan should be judged again after --reocr: %v, then %v", before, after)
	}
	must(t, dir, "build")
	assertMatchesFullRefresh(t, dir)

	// A load that finds nothing new: only the sightings (last_seen_at) and
	// curated.documents change; stg_documents and every incremental model
	// stay up to date.
	// The first load reads again the files written less than 2 s before
	// the last one listed them (racily clean) and records their stats,
	// which is a change of raw.documents; the second finds nothing.
	// The read copy is not copied again for a load that found nothing.
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	seen := query(t, dir, "select max(last_seen_at)::varchar from curated.documents")
	readCopy := filepath.Join(dir, "warehouse.read.duckdb")
	published, err := os.Stat(readCopy)
	if err != nil {
		t.Fatal(err)
	}
	must(t, dir, "load", "--quiet")
	if after, err := os.Stat(readCopy); err != nil || !os.SameFile(published, after) {
		t.Errorf("a load that found nothing new published the read copy again")
	}
	stamp, _ := os.ReadFile(readCopy + ".json")
	if !strings.Contains(string(stamp), `"unpublished_loads"`) {
		t.Errorf("the read copy's stamp does not list the load it skipped: %s", stamp)
	}
	must(t, dir, "build")
	if after, err := os.Stat(readCopy); err != nil || os.SameFile(published, after) {
		t.Errorf("the build after it (curated.documents changed) did not publish")
	}
	rr, err := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Results []struct {
			UniqueID string `json:"unique_id"`
			Message  string `json:"message"`
		} `json:"results"`
	}
	if err := json.Unmarshal(rr, &doc); err != nil {
		t.Fatal(err)
	}
	ran := map[string]bool{}
	for _, r := range doc.Results {
		ran[r.UniqueID[strings.LastIndex(r.UniqueID, ".")+1:]] = r.Message != runner.UpToDateMessage
	}
	for name, want := range map[string]bool{"stg_document_sightings": true, "documents": true, "stg_documents": false,
		"doc_chunks": false, "doc_quality": false, "search_chunks": false, "chunk_duplicates": false, "chunk_terms": false} {
		if ran[name] != want {
			t.Errorf("build after a load that found nothing new: %s ran = %v, want %v", name, ran[name], want)
		}
	}
	if after := query(t, dir, "select max(last_seen_at)::varchar from curated.documents"); fmt.Sprint(after) <= fmt.Sprint(seen) {
		t.Errorf("curated.documents last_seen_at did not move with the load: %v, then %v", seen, after)
	}
}

// assertMatchesFullRefresh copies the project with its warehouse, builds
// the copy with --full-refresh and compares every relation of the
// curated, retrieval and embeddings schemas with EXCEPT ALL both ways
// (chunk_vectors: the vectors of current texts, without embedded_at, as
// vectors of texts that left stay cached; vector_coverage without its count
// of the model's vectors, for the same reason), and the BM25 ranking of a
// query.
func assertMatchesFullRefresh(t *testing.T, dir string) {
	t.Helper()
	full := t.TempDir()
	for _, name := range []string{"project.yaml", "models", "macros", "seeds", "tests", "snapshots", "examples", "warehouse.duckdb", "warehouse.duckdb.wal"} {
		src := filepath.Join(dir, name)
		st, err := os.Stat(src)
		if err != nil {
			continue
		}
		if st.IsDir() {
			err = os.CopyFS(filepath.Join(full, name), os.DirFS(src))
		} else {
			var b []byte
			if b, err = os.ReadFile(src); err == nil {
				err = os.WriteFile(filepath.Join(full, name), b, 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	must(t, full, "build", "--full-refresh")
	rels := query(t, dir, "select table_schema || '.' || table_name from information_schema.tables where table_catalog = current_database() and table_schema in ('curated', 'retrieval', 'embeddings') order by 1")
	if len(rels) < 10 {
		t.Fatalf("expected the curated, retrieval and embeddings relations, got %v", rels)
	}
	db := query(t, dir, "select current_database()")[0]
	var parts []string
	for _, rel := range rels {
		sel := func(catalog string) string {
			if rel == "embeddings.chunk_vectors" {
				return fmt.Sprintf("select * exclude (embedded_at) from %s.%s where text_hash in (select text_hash from %s.curated.unique_chunks)", catalog, rel, catalog)
			}
			if rel == "embeddings.vector_coverage" { // model_vectors counts the cached vectors too
				return fmt.Sprintf("select * exclude (model_vectors) from %s.%s", catalog, rel)
			}
			return fmt.Sprintf("select * from %s.%s", catalog, rel)
		}
		parts = append(parts, fmt.Sprintf("select '%s' || ' ' || (select count(*) from (%s except all %s)) || ' ' || (select count(*) from (%s except all %s)) || ' ' || (select count(*) from %s.%s)",
			rel, sel(db), sel("full_build"), sel("full_build"), sel(db), db, rel))
	}
	attach := "attach '" + filepath.Join(full, "warehouse.duckdb") + "' as full_build (read_only); "
	out := must(t, dir, "sql", "--allow-external", attach+strings.Join(parts, " union all ")+" order by 1")
	lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(lines) != len(rels) {
		t.Fatalf("comparison printed %d lines for %d relations:\n%s", len(lines), len(rels), out)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 4 || f[1] != "0" || f[2] != "0" {
			t.Errorf("%s: rows only in the incremental build, rows only in the full refresh, rows: %v", f[0], f[1:])
		}
		if f[3] == "0" && f[0] != "curated.table_rows" {
			t.Errorf("%s is empty: nothing compared", f[0])
		}
	}
	for _, q := range []string{"gripper replacement invoice", "termination notice period", strings.Join(strings.Fields(paragraphs(1)[0])[:4], " ")} {
		a := must(t, dir, "search", q, "--mode", "bm25", "-k", "10", "--json")
		b := must(t, full, "search", q, "--mode", "bm25", "-k", "10", "--json")
		if a != b {
			t.Errorf("bm25 %q differs from a full refresh:\n%.1500s\n---\n%.1500s", q, a, b)
		}
	}
}

// paragraphs returns n distinct paragraphs of about 800 characters (one
// chunk each) of seeded made-up words.
func paragraphs(n int) []string {
	r := rand.New(rand.NewPCG(7, 11))
	syl := []string{"ka", "to", "ri", "men", "sal", "dor", "vi", "ne", "qua", "lo", "ter", "pan", "gri", "mo", "sun", "bel"}
	word := func() string {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		return b.String()
	}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for b.Len() < 800 {
			if b.Len() > 0 {
				b.WriteString(" ")
			}
			for j := range 12 {
				if j > 0 {
					b.WriteString(" ")
				}
				b.WriteString(word())
			}
			b.WriteString(".")
		}
		out[i] = b.String()
	}
	return out
}

// nearCopy changes two words near the end of a paragraph: a near
// duplicate (estimated Jaccard well over 0.8), not an exact one.
func nearCopy(p string) string {
	w := strings.Fields(p)
	w[len(w)-3] = "zorblat"
	w[len(w)-7] = "quenmir"
	return strings.Join(w, " ")
}
