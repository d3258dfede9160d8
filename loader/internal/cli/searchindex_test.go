package cli_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type jsonHit struct {
	ChunkID string  `json:"chunk_id"`
	Score   float64 `json:"score"`
	Path    string  `json:"path"`
	Shown   string  `json:"display_path"`
	Page    int     `json:"page"`
	Offset  int     `json:"char_offset"`
	End     int     `json:"char_end"`
	Text    string  `json:"text"`
}

type jsonSearch struct {
	Hits        []jsonHit `json:"hits"`
	SearchIndex bool      `json:"search_index"`
}

func searchJSON(t *testing.T, dir, mode, q string) jsonSearch {
	t.Helper()
	out := must(t, dir, "search", "--json", "--mode", mode, "-k", "6", q)
	var r jsonSearch
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &r); err != nil {
		t.Fatalf("search %s %q: %v\n%s", mode, q, err, out)
	}
	return r
}

// sameHits: the same chunks with the same citations, position by position,
// scores equal within tol (relative): BM25 sums in SQL come in no fixed
// order, and DuckDB's float32 cosine may sum in another order than the
// index (its loop is compiled with reassociation), a few units in the
// last place apart; chunks whose scores tie within tol may swap.
func sameHits(want, got []jsonHit, tol float64) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d hits, expected %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if math.Abs(w.Score-g.Score) > tol*max(1, math.Abs(w.Score)) {
			return fmt.Errorf("hit %d: score %v, expected %v", i+1, g.Score, w.Score)
		}
		if w.ChunkID != g.ChunkID {
			tied := false
			for j := range want {
				if j != i && want[j].ChunkID == g.ChunkID && math.Abs(want[j].Score-w.Score) <= tol*max(1, math.Abs(w.Score)) {
					tied = true
				}
			}
			if !tied {
				return fmt.Errorf("hit %d: %s, expected %s", i+1, g.ChunkID, w.ChunkID)
			}
			continue
		}
		if w.Score = g.Score; w != g {
			return fmt.Errorf("hit %d: %+v, expected %+v", i+1, g, w)
		}
	}
	return nil
}

// TestSearchIndexAnswersLikeSQL: after a build, docket search answers from
// the search index written next to the published copy (without opening
// the warehouse) with the same hits, scores and citations as the SQL path
// (the index removed) for every mode; a query the index cannot tokenize
// exactly (non-ASCII) is answered by SQL; an index of an older published
// copy is not used, and the next publish replaces it.
func TestSearchIndexAnswersLikeSQL(t *testing.T) {
	dir, inbox := healthProject(t)
	docs := map[string]string{
		"lease.txt":    "The forklift lease renews every March with the Lisbon supplier.\n\nThe lease covers two forklifts and one pallet truck.\n",
		"safety.txt":   "Safety training for warehouse staff happens twice a year.\n\nForklift drivers renew their licence every March.\n",
		"audit.txt":    "The insurance audit found three missing invoices from the harbour depot.\n",
		"audit2.txt":   "The insurance audit found three missing invoices from the harbour depot.\n",
		"notes.md":     "# Supplier notes\n\nThe Lisbon supplier ships pallets on Tuesdays. Invoices are due in thirty days.\n",
		"cafe.txt":     "Café au lait et crème brûlée: the Zürich office orders coffee for the harbour team.\n",
		"training.txt": "Training, training and more training: the warehouse staff training plan for March.\n",
	}
	for name, text := range docs {
		os.WriteFile(filepath.Join(inbox, name), []byte(text), 0o644)
	}
	must(t, dir, "load", "--quiet")
	out := must(t, dir, "build")
	if !strings.Contains(out, "docket: search index: ") {
		t.Fatalf("the build should write the search index after publishing:\n%s", out)
	}
	ip := filepath.Join(dir, "warehouse.read.duckdb.search")
	queries := []string{"forklift lease March", "insurance audit invoices", "training", "Lisbon supplier pallets",
		"harbour", "nothing matches xyzzy", "the"}
	modes := []string{"bm25", "vector", "hybrid"}
	indexed := map[string]jsonSearch{}
	for _, mode := range modes {
		for _, q := range queries {
			r := searchJSON(t, dir, mode, q)
			if !r.SearchIndex {
				t.Fatalf("search %s %q should answer from the index alone", mode, q)
			}
			indexed[mode+"|"+q] = r
		}
	}
	if len(indexed["bm25|forklift lease March"].Hits) < 2 || len(indexed["vector|harbour"].Hits) < 2 {
		t.Fatalf("too few hits to compare: %+v", indexed)
	}
	moveIndex(t, ip, ip+".aside")
	for _, mode := range modes {
		for _, q := range queries {
			r := searchJSON(t, dir, mode, q)
			if r.SearchIndex {
				t.Fatalf("without an index, search %s %q cannot have used one", mode, q)
			}
			tol := 1e-9
			if mode == "vector" {
				tol = 1e-6
			}
			if err := sameHits(r.Hits, indexed[mode+"|"+q].Hits, tol); err != nil {
				t.Errorf("search %s %q: index and SQL differ: %v\nSQL:   %+v\nindex: %+v", mode, q, err, r.Hits, indexed[mode+"|"+q].Hits)
			}
		}
	}
	moveIndex(t, ip+".aside", ip)

	// A new published copy of the same retrieval tables (publish --force
	// copies again: another inode): the index is kept, bound to the copy.
	out = must(t, dir, "publish", "--force")
	if !strings.Contains(out, "search index: retrieval tables unchanged, kept") {
		t.Fatalf("a publish that changed no retrieval table should keep the index:\n%s", out)
	}
	if r := searchJSON(t, dir, "hybrid", "forklift lease"); !r.SearchIndex || len(r.Hits) == 0 {
		t.Fatalf("after the publish the kept index should answer: %+v", r)
	}
	must(t, dir, "load", "--quiet") // nothing changed
	if r := searchJSON(t, dir, "hybrid", "forklift lease"); !r.SearchIndex || len(r.Hits) == 0 {
		t.Fatalf("after a load that changed nothing the index should answer: %+v", r)
	}

	// Non-ASCII: SQL tokenizes (DuckDB's lower-casing), same hits as without the index.
	r := searchJSON(t, dir, "bm25", "Café Zürich")
	if r.SearchIndex || len(r.Hits) == 0 || !strings.Contains(r.Hits[0].Path, "cafe.txt") {
		t.Fatalf("a non-ASCII query should be answered by SQL and find cafe.txt: %+v", r)
	}

	// A new document: the build publishes a new copy and a new index. The
	// old index put back is of another published copy: not used.
	moveIndex(t, ip, ip+".old")
	os.WriteFile(filepath.Join(inbox, "crane.txt"), []byte("The harbour crane inspection is overdue since March.\n"), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	if _, err := os.Stat(ip); err != nil {
		t.Fatalf("the build should have written a new index: %v", err)
	}
	moveIndex(t, ip+".old", ip)
	for _, mode := range modes {
		r := searchJSON(t, dir, mode, "crane inspection overdue")
		if r.SearchIndex || len(r.Hits) == 0 || !strings.Contains(r.Hits[0].Path, "crane.txt") {
			t.Fatalf("search %s with a stale index should answer by SQL and find the new document: %+v", mode, r)
		}
	}
	// docket publish replaces the stale index.
	out = must(t, dir, "publish")
	if !strings.Contains(out, "docket: search index: ") {
		t.Fatalf("docket publish should rebuild a stale index:\n%s", out)
	}
	r = searchJSON(t, dir, "hybrid", "crane inspection overdue")
	if !r.SearchIndex || len(r.Hits) == 0 || !strings.Contains(r.Hits[0].Path, "crane.txt") {
		t.Fatalf("after docket publish the index should answer: %+v", r)
	}
}

// moveIndex renames the search index, its binding and its delta.
func moveIndex(t *testing.T, from, to string) {
	t.Helper()
	for _, suffix := range []string{"", ".json", ".delta"} {
		if err := os.Rename(from+suffix, to+suffix); err != nil && (suffix != ".delta" || !os.IsNotExist(err)) {
			t.Fatal(err)
		}
	}
}

// TestSearchIndexUpdatedLikeSQLAndRebuild: on a project of 120 documents,
// a build after a document is added, one changed and one deleted updates
// the search index (a delta beside the base) instead of rebuilding it, and
// every mode answers from it with the hits of the SQL path and of an index
// built from scratch; a second round of changes updates it again.
func TestSearchIndexUpdatedLikeSQLAndRebuild(t *testing.T) {
	dir, inbox := healthProject(t)
	topics := strings.Fields("forklift lease harbour crane audit invoice pallet supplier training safety licence depot")
	doc := func(i, v int) string {
		a, b, c := topics[i%len(topics)], topics[(i*5+1)%len(topics)], topics[(i*7+v+2)%len(topics)]
		return fmt.Sprintf("Note %d on the %s and the %s.\n\nThe %s report of week %d lists the %s checks, version %d.\n", i, a, b, c, i%13, a, v)
	}
	for i := range 120 {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("n%02d.txt", i)), []byte(doc(i, 0)), 0o644)
	}
	must(t, dir, "load", "--quiet")
	if out := must(t, dir, "build"); !strings.Contains(out, "docket: search index: ") {
		t.Fatalf("the build should write the search index:\n%s", out)
	}
	ip := filepath.Join(dir, "warehouse.read.duckdb.search")
	queries := []string{"forklift lease", "harbour crane audit", "version 1", "note 61 pallet", "week 3 safety licence", "zeppelin"}
	modes := []string{"bm25", "vector", "hybrid"}
	for round := 1; round <= 2; round++ {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("new%d.txt", round)), []byte(doc(120+round, round)+"A zeppelin over the depot.\n"), 0o644)
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("n%02d.txt", round)), []byte(doc(round, round)), 0o644)
		os.Remove(filepath.Join(inbox, fmt.Sprintf("n%02d.txt", 10+round)))
		must(t, dir, "load", "--quiet")
		out := must(t, dir, "build")
		if !strings.Contains(out, "updated (") {
			t.Fatalf("round %d: the build should update the index, not rebuild it:\n%s", round, out)
		}
		if _, err := os.Stat(ip + ".delta"); err != nil {
			t.Fatalf("round %d: no delta beside the index: %v", round, err)
		}
		updated := map[string]jsonSearch{}
		for _, mode := range modes {
			for _, q := range queries {
				r := searchJSON(t, dir, mode, q)
				if !r.SearchIndex {
					t.Fatalf("round %d: search %s %q should answer from the updated index", round, mode, q)
				}
				updated[mode+"|"+q] = r
			}
		}
		found := false
		for _, h := range updated["bm25|zeppelin"].Hits {
			found = found || h.Path == fmt.Sprintf("new%d.txt", round)
		}
		if !found {
			t.Fatalf("round %d: the new document should be found: %+v", round, updated["bm25|zeppelin"].Hits)
		}
		if round == 1 {
			// A publish of the same tables keeps base and delta (a new binding).
			if out := must(t, dir, "publish", "--force"); !strings.Contains(out, "retrieval tables unchanged, kept") {
				t.Fatalf("a publish that changed no retrieval table should keep the updated index:\n%s", out)
			}
			if r := searchJSON(t, dir, "hybrid", "zeppelin"); !r.SearchIndex || len(r.Hits) == 0 {
				t.Fatalf("the kept updated index should answer: %+v", r)
			}
		}
		// The SQL path (index aside), then an index built from scratch.
		moveIndex(t, ip, ip+".aside")
		compare := func(what string, wantIndex bool) {
			for _, mode := range modes {
				for _, q := range queries {
					r := searchJSON(t, dir, mode, q)
					if r.SearchIndex != wantIndex {
						t.Fatalf("round %d %s: search %s %q: search_index %v", round, what, mode, q, r.SearchIndex)
					}
					tol := 1e-9
					if mode == "vector" && !wantIndex {
						tol = 1e-6
					}
					if err := sameHits(r.Hits, updated[mode+"|"+q].Hits, tol); err != nil {
						t.Errorf("round %d: search %s %q: updated index and %s differ: %v", round, mode, q, what, err)
					}
				}
			}
		}
		compare("SQL", false)
		if out := must(t, dir, "publish", "--force"); !strings.Contains(out, "vectors (") {
			t.Fatalf("with no index, publish should build one from scratch:\n%s", out)
		}
		compare("a full build", true)
		searchidxRemove(ip)
		moveIndex(t, ip+".aside", ip)
	}
}

func searchidxRemove(ip string) {
	for _, suffix := range []string{"", ".json", ".delta"} {
		os.Remove(ip + suffix)
	}
}
