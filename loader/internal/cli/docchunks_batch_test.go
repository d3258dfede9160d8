package cli_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
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
	batchedEqualsOneBatch(t, "curated.doc_chunks", "{chunk_batch_documents: 1}", "doc_id")
}

// TestChunkSignaturesBatchedFullBuild: a full build of
// curated.chunk_signatures in batches of about two distinct texts (var
// signature_batch_texts: 2, split by the hash of text_hash) holds exactly
// the rows of a build in one batch: no text unsigned or signed twice.
func TestChunkSignaturesBatchedFullBuild(t *testing.T) {
	batchedEqualsOneBatch(t, "curated.chunk_signatures", "{signature_batch_texts: 2}", "text_hash")
}

// TestChunkVectorsBatchedFullBuild: a full build of
// embeddings.chunk_vectors in batches of about two distinct texts (var
// embedding_batch_texts: 2, split by the hash of text_hash) holds exactly
// the vectors of a build in one batch (embedded_at aside: the time of
// each build): no text left out or embedded twice.
func TestChunkVectorsBatchedFullBuild(t *testing.T) {
	batchedEqualsOneBatchIn(t, shipped(t), batchCase{"embeddings.chunk_vectors", "{embedding_batch_texts: 2}", "text_hash", "* exclude (embedded_at)"})
}

// TestChunkTermsBatchedFullBuild: a full build of retrieval.chunk_terms in
// batches of about two chunks (var terms_batch_chunks: 2, split by the
// hash of chunk_id) holds exactly the postings of a build in one batch.
func TestChunkTermsBatchedFullBuild(t *testing.T) {
	batchedEqualsOneBatch(t, "retrieval.chunk_terms", "{terms_batch_chunks: 2}", "chunk_id")
}

// TestChunkDupIndexBatchedFullBuild: a full build of
// curated.chunk_dup_index in batches of about two chunks (var
// dup_index_batch_chunks: 2, split by the hash of text_hash) holds exactly
// the rows of a build in one statement: every chunk once, the same
// representatives, and the same LSH windows and near hops although each
// batch keeps only its own texts' windows (a bucket's members fall in
// several batches). The inbox holds near duplicates (one paragraph with
// two words changed at different places) and exact copies, and
// lsh_max_bucket_compare 1 makes each window depend on the bucket's order.
func TestChunkDupIndexBatchedFullBuild(t *testing.T) {
	dir, inbox := narrowWindowProject(t)
	p := paragraphs(6)
	docs := map[string]string{"u1.txt": p[1], "u2.txt": p[2], "u3.txt": p[3], "c1.txt": p[4], "c2.txt": p[4]}
	for k := 1; k <= 6; k++ {
		docs[fmt.Sprintf("a%d.txt", k)] = nearVariant(p[0], k)
	}
	docs["x2.txt"] = docs["a2.txt"]
	for name, text := range docs {
		if err := os.WriteFile(filepath.Join(inbox, name), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	batchedEqualsOneBatchIn(t, dir, batchCase{"curated.chunk_dup_index", "{dup_index_batch_chunks: 2}", "chunk_id", "*"})
	got := strings.Fields(query(t, dir, "select count(*) filter (where near_of is not null), "+
		"count(*) filter (where len(window_keys) > 0), count(*) filter (where not is_rep) from curated.chunk_dup_index")[0])
	if len(got) != 3 || got[0] == "0" || got[1] == "0" || got[2] == "0" {
		t.Errorf("want near hops, windows and copies in the batched build, got %v", got)
	}
	// Both builds above read the buckets from temp.chunk_dup_index_shared:
	// a wrong shared table would be wrong in both alike. The reference
	// that does not read it is an incremental build of the emptied table
	// (every text touched: its buckets probed from every band key).
	batched := filepath.Join(t.TempDir(), "batched.duckdb")
	copyFile(t, filepath.Join(dir, "warehouse.duckdb"), batched)
	emptyModel(t, filepath.Join(dir, "warehouse.duckdb"), "curated.chunk_dup_index")
	must(t, dir, "build", "-s", "chunk_dup_index")
	if n := query(t, dir, "select count(*) from curated.chunk_dup_index")[0]; n == "0" {
		t.Fatalf("the incremental build of the emptied table wrote nothing")
	}
	out := must(t, dir, "sql", "--allow-external", "attach '"+batched+"' as batched (read_only); select "+
		"(select count(*) from (select * from curated.chunk_dup_index except all select * from batched.curated.chunk_dup_index)), "+
		"(select count(*) from (select * from batched.curated.chunk_dup_index except all select * from curated.chunk_dup_index))")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if f := strings.Fields(lines[len(lines)-1]); len(f) != 2 || f[0] != "0" || f[1] != "0" {
		t.Errorf("the batched full build differs from the build without the shared table (rows only in the latter, only in the batched): %v", f)
	}
}

// emptyModel deletes the rows of a model's table (rel) and its build
// state, in the warehouse file at path (no docket process has it open),
// so that the next build of the model is incremental over every row.
func emptyModel(t *testing.T, path, rel string) {
	t.Helper()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"delete from " + rel,
		"delete from ops.build_state where unique_id like '%." + rel[strings.LastIndex(rel, ".")+1:] + "'"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// batchedEqualsOneBatch builds +model (rel is its relation,
// schema.model) of the shipped project (one batch
// at the defaults), then the model alone with --full-refresh and the
// batching vars, and checks that both hold the same rows (EXCEPT ALL both
// ways), that several distinct keys were written, and that the model's
// own statement wrote only a part of them (the first batch).
func batchedEqualsOneBatch(t *testing.T, rel, vars, key string) {
	t.Helper()
	batchedEqualsOneBatchIn(t, shipped(t), batchCase{rel, vars, key, "*"})
}

// batchCase is a batched model's check: its relation (schema.model),
// the --vars that make its batches small, the key whose values are split
// into batches, and the columns compared (a select list: "*" or
// "* exclude (...)").
type batchCase struct{ rel, vars, key, cols string }

// batchedEqualsOneBatchIn is batchedEqualsOneBatch in the project at dir.
func batchedEqualsOneBatchIn(t *testing.T, dir string, c batchCase) {
	t.Helper()
	rel, vars, key, cols := c.rel, c.vars, c.key, c.cols
	tbl, model := rel, rel[strings.LastIndex(rel, ".")+1:]
	must(t, dir, "load", "--quiet")
	must(t, dir, "build", "-s", "+"+model)
	one := filepath.Join(t.TempDir(), "one.duckdb")
	b, err := os.ReadFile(filepath.Join(dir, "warehouse.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(one, b, 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, dir, "build", "--full-refresh", "-s", model, "--vars", vars)
	out := must(t, dir, "sql", "--allow-external", "attach '"+one+"' as one (read_only); select "+
		"(select count(*) from (select "+cols+" from "+tbl+" except all select "+cols+" from one."+tbl+")), "+
		"(select count(*) from (select "+cols+" from one."+tbl+" except all select "+cols+" from "+tbl+")), "+
		"(select count(distinct "+key+") from one."+tbl+")")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 3 {
		t.Fatalf("unexpected output:\n%s", out)
	}
	if f[0] != "0" || f[1] != "0" {
		t.Errorf("rows only in the batched build: %s, only in the one-batch build: %s", f[0], f[1])
	}
	if n, _ := strconv.Atoi(f[2]); n < 3 {
		t.Errorf("want several distinct %s (one batch each), got %s", key, f[2])
	}
	// The model's own statement writes the first batch only (the others
	// are the post-hook's inserts), so its rows (statement_rows) are below
	// the table's row count exactly when batching happened: a var the
	// model ignored would give one batch holding every row.
	first := firstBatchRows(t, dir, model)
	total := must(t, dir, "sql", "select count(*) from "+tbl)
	tl := strings.Fields(strings.TrimSpace(total))
	n, _ := strconv.ParseInt(tl[len(tl)-1], 10, 64)
	if first >= n {
		t.Errorf("first batch wrote %d of %d rows: want a part (small batches)", first, n)
	}
}

// firstBatchRows reads the rows the model's own statement wrote from
// run_results.json: statement_rows when its post-hooks wrote more (then
// rows_affected is the table's rows), else rows_affected.
func firstBatchRows(t *testing.T, dir, model string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rr struct {
		Results []struct {
			UniqueID        string `json:"unique_id"`
			AdapterResponse struct {
				RowsAffected  int64  `json:"rows_affected"`
				StatementRows *int64 `json:"statement_rows"`
			} `json:"adapter_response"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &rr); err != nil {
		t.Fatal(err)
	}
	for _, r := range rr.Results {
		if strings.HasSuffix(r.UniqueID, "."+model) {
			if a := r.AdapterResponse; a.StatementRows != nil {
				return *a.StatementRows
			}
			return r.AdapterResponse.RowsAffected
		}
	}
	t.Fatalf("no %s result in run_results.json", model)
	return 0
}

// TestShippedBatchVarsAreRead: the shipped project with every batching
// var set in project.yaml compiles without a warning about them (they are
// read through batch_count(relation, var_name), which hands its
// parameter on to var()), and a misspelt one is warned at its line.
func TestShippedBatchVarsAreRead(t *testing.T) {
	dir := shipped(t)
	y := filepath.Join(dir, "project.yaml")
	b, err := os.ReadFile(y)
	if err != nil {
		t.Fatal(err)
	}
	vars := []string{"chunk_batch_documents", "signature_batch_texts", "dup_index_batch_chunks", "embedding_batch_texts", "terms_batch_chunks"}
	s := string(b)
	add := ""
	for _, v := range vars {
		add += "\n  " + v + ": 50000"
	}
	add += "\n  signature_batch_text: 50000" // misspelt
	s = strings.Replace(s, "\nvars:", "\nvars:"+add, 1)
	if err := os.WriteFile(y, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "  signature_batch_text:") {
			line = i + 1
		}
	}
	out := must(t, dir, "compile")
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "is set but no model") {
			got = append(got, l)
		}
	}
	want := fmt.Sprintf(`project.yaml:%d:3: var "signature_batch_text" is set`, line)
	if len(got) != 1 || !strings.Contains(got[0], want) {
		t.Errorf("unread var warnings %q, want one with %q", got, want)
	}
}
