package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDocChunksBatchedFullBuild: a full build of curated.doc_chunks in
// batches of one document (var chunk_batch_documents: 1, every document
// its own statement) holds exactly the rows of a build in one batch: no
// document's chunks dropped or written twice.
func TestDocChunksBatchedFullBuild(t *testing.T) {
	dir := shipped(t)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build", "-s", "+doc_chunks")
	one := filepath.Join(t.TempDir(), "one.duckdb")
	b, err := os.ReadFile(filepath.Join(dir, "warehouse.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(one, b, 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, dir, "build", "--full-refresh", "-s", "doc_chunks", "--vars", "{chunk_batch_documents: 1}")
	out := must(t, dir, "sql", "--allow-external", "attach '"+one+"' as one (read_only); select "+
		"(select count(*) from (select * from curated.doc_chunks except all select * from one.curated.doc_chunks)), "+
		"(select count(*) from (select * from one.curated.doc_chunks except all select * from curated.doc_chunks)), "+
		"(select count(distinct doc_id) from one.curated.doc_chunks)")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 3 {
		t.Fatalf("unexpected output:\n%s", out)
	}
	if f[0] != "0" || f[1] != "0" {
		t.Errorf("rows only in the batched build: %s, only in the one-batch build: %s", f[0], f[1])
	}
	if n, _ := strconv.Atoi(f[2]); n < 3 {
		t.Errorf("want several chunked documents (one batch each), got %s", f[2])
	}
	// The model's own statement writes the first batch only (the others
	// are the post-hook's inserts), so its rows_affected is below the
	// table's row count exactly when batching happened: a var the model
	// ignored would give one batch holding every row.
	first := firstBatchRows(t, dir)
	total := must(t, dir, "sql", "select count(*) from curated.doc_chunks")
	tl := strings.Fields(strings.TrimSpace(total))
	n, _ := strconv.ParseInt(tl[len(tl)-1], 10, 64)
	if first >= n {
		t.Errorf("first batch wrote %d of %d rows: want a part (batches of one document)", first, n)
	}
}

// firstBatchRows reads the rows_affected that run_results.json gives
// curated.doc_chunks (the model's own statement).
func firstBatchRows(t *testing.T, dir string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rr struct {
		Results []struct {
			UniqueID        string `json:"unique_id"`
			AdapterResponse struct {
				RowsAffected int64 `json:"rows_affected"`
			} `json:"adapter_response"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &rr); err != nil {
		t.Fatal(err)
	}
	for _, r := range rr.Results {
		if strings.HasSuffix(r.UniqueID, ".doc_chunks") {
			return r.AdapterResponse.RowsAffected
		}
	}
	t.Fatalf("no doc_chunks result in run_results.json")
	return 0
}
