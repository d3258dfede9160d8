package cli_test

import (
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
}
