package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestLoadPublishWithoutRetrievalOpensNoCopy: after a load into a
// warehouse without a retrieval layer, publishing does not open the new
// copy with DuckDB to find that out (the load saw it before closing the
// warehouse) and leaves no search index, as before; once the warehouse has
// the retrieval tables, the copy is opened as before.
func TestLoadPublishWithoutRetrievalOpensNoCopy(t *testing.T) {
	dir := textProject(t)
	docket := func(args ...string) {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Main(append(args, "--project", dir), &out, &errOut); code != 0 {
			t.Fatalf("docket %v: exit %d\n%s%s", args, code, out.String(), errOut.String())
		}
	}
	wh := filepath.Join(dir, "warehouse.duckdb")
	ip := searchidx.Path(warehouse.ReadPath(wh))

	var opens atomic.Int64
	open := openPublished
	openPublished = func(ctx context.Context, rp, spill string) (*warehouse.DB, error) {
		opens.Add(1)
		return open(ctx, rp, spill)
	}
	defer func() { openPublished = open }()
	docket("load", "--quiet")
	if n := opens.Load(); n != 0 {
		t.Errorf("load without a retrieval layer: the published copy was opened %d time(s) for the search index, want 0", n)
	}
	if _, err := os.Stat(warehouse.ReadPath(wh)); err != nil {
		t.Fatalf("not published: %v", err)
	}
	if _, err := os.Stat(ip); err == nil {
		t.Errorf("search index %s exists without a retrieval layer", ip)
	}

	// With the retrieval tables in the warehouse, the copy is looked at.
	ctx := context.Background()
	db, err := warehouse.Open(ctx, wh, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`create schema retrieval`,
		`create table retrieval.search_chunks (chunk_key bigint, doc_length integer)`,
		`create table retrieval.chunk_terms (chunk_key bigint, term varchar)`} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	os.WriteFile(filepath.Join(dir, "docs", "b.txt"), []byte("Another document.\n"), 0o644)
	before := opens.Load()
	docket("load", "--quiet")
	if n := opens.Load() - before; n == 0 {
		t.Errorf("load with retrieval tables: the published copy was not opened for the search index")
	}
}
