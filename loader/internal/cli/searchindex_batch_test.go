package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestSearchIndexBatchesEqualOneShot: an index built a few chunks a
// statement (citations, vectors) or a few postings a statement (a range
// of terms; 1: a term each) is the same file as one built in one
// statement each.
func TestSearchIndexBatchesEqualOneShot(t *testing.T) {
	dir, inbox := healthProject(t)
	for name, text := range map[string]string{
		"lease.txt":  "The forklift lease renews every March with the Lisbon supplier.\n\nThe lease covers two forklifts and one pallet truck.\n",
		"safety.txt": "Safety training for warehouse staff happens twice a year.\n\nForklift drivers renew their licence every March.\n",
		"audit.txt":  "The insurance audit found three missing invoices from the harbour depot.\n",
		"audit2.txt": "The fire inspection of the north depot passed with two remarks about exits.\n",
		"audit3.txt": "Quarterly stock count: pallets, shrink wrap and spare forklift batteries.\n",
		"notes.md":   "# Supplier notes\n\nThe Lisbon supplier ships pallets on Tuesdays. Invoices are due in thirty days.\n",
		"cafe.txt":   "Café au lait et crème brûlée: the Zürich office orders coffee for the harbour team.\n",
	} {
		os.WriteFile(filepath.Join(inbox, name), []byte(text), 0o644)
	}
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	ctx := context.Background()
	db, err := warehouse.Open(ctx, filepath.Join(dir, "warehouse.read.duckdb"), warehouse.Options{ReadOnly: true, LockTimeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var chunks int
	if err := conn.QueryRowContext(ctx, `select count(*) from retrieval.search_chunks`).Scan(&chunks); err != nil {
		t.Fatal(err)
	}
	if chunks < 6 {
		t.Fatalf("%d chunks: too few to split", chunks)
	}
	var model string
	if err := conn.QueryRowContext(ctx, `select any_value(model) from embeddings.chunk_vectors`).Scan(&model); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var files [][]byte
	batches := []struct{ chunks, postings int }{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1}, {0, 2}, {0, 7}, {2, 5}}
	for _, batch := range batches {
		ip := filepath.Join(out, "index")
		st, err := searchidx.Build(ctx, conn, ip, searchidx.BuildOptions{Model: model, Content: "same", BatchChunks: batch.chunks, BatchPostings: batch.postings})
		if err != nil {
			t.Fatalf("batch %v: %v", batch, err)
		}
		if st.Chunks != chunks || st.Vectors == 0 || st.Postings == 0 {
			t.Fatalf("batch %v: %d chunks, %d vectors, %d postings; want %d chunks, vectors and postings", batch, st.Chunks, st.Vectors, st.Postings, chunks)
		}
		b, err := os.ReadFile(ip)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	for i, b := range files[1:] {
		if !bytes.Equal(b, files[0]) {
			t.Errorf("built %d chunks and %d postings a statement, the index differs from one statement's", batches[i+1].chunks, batches[i+1].postings)
		}
	}
}
