package search

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestIndexLeavesOutZeroVectors: texts whose vector is all zero are left
// out of the vectors (their cosine is undefined) as if they had none,
// whichever statements of a few rows the vectors were read in: an index
// with zero vectors among the others answers vector queries like one of
// the same warehouse without those vectors' rows.
func TestIndexLeavesOutZeroVectors(t *testing.T) {
	const dims = 24
	model := fmt.Sprintf("m/%d", dims)
	ctx := context.Background()
	zeroed := testWarehouse(t, 400, dims)
	exec := func(path string, qs ...string) {
		t.Helper()
		db, err := warehouse.Open(ctx, path, warehouse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range qs {
			if _, err := db.SQL().ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	pick := fmt.Sprintf(`text_hash in (select text_hash from embeddings.chunk_vectors where model = '%s' and hash(text_hash) %% 5 = 0)`, model)
	exec(zeroed, fmt.Sprintf(`update embeddings.chunk_vectors set embedding = [%s]::FLOAT[%d] where %s`,
		strings.TrimSuffix(strings.Repeat("0,", dims), ","), dims, pick), `checkpoint`)
	b, err := os.ReadFile(zeroed)
	if err != nil {
		t.Fatal(err)
	}
	without := filepath.Join(t.TempDir(), "w.duckdb")
	if err := os.WriteFile(without, b, 0o644); err != nil {
		t.Fatal(err)
	}
	exec(without, `delete from embeddings.chunk_vectors where `+pick, `checkpoint`)
	var idx [2]*searchidx.Index
	var stats [2]searchidx.Stats
	for i, path := range []string{zeroed, without} {
		conn := readConn(t, path)
		ip := filepath.Join(t.TempDir(), "index")
		var err error
		if stats[i], err = searchidx.Build(ctx, conn, ip, searchidx.BuildOptions{Model: model, Content: "test", BatchChunks: 7}); err != nil {
			t.Fatal(err)
		}
		if idx[i], err = searchidx.OpenUnbound(ip, "test"); err != nil {
			t.Fatal(err)
		}
		defer idx[i].Close()
	}
	if stats[0].Vectors != stats[1].Vectors || stats[0].Vectors == 0 {
		t.Fatalf("%d and %d vectors of %d chunks: want as many", stats[0].Vectors, stats[1].Vectors, stats[0].Chunks)
	}
	if idx[0].ChunksWithoutVector() >= idx[1].ChunksWithoutVector() {
		t.Fatalf("%d and %d chunks without a vector: no vector was zeroed", idx[0].ChunksWithoutVector(), idx[1].ChunksWithoutVector())
	}
	rng := rand.New(rand.NewSource(5))
	for i := range 8 {
		q := queryVector(rng, dims, i%2 == 0)
		if i == 7 {
			q = idx[1].ProbeVectors(1)[0]
		}
		for _, k := range []int{3, 1000} {
			want, ok1 := idx[1].Vector(q, k)
			got, ok0 := idx[0].Vector(q, k)
			if !ok0 || !ok1 || len(want) == 0 || !reflect.DeepEqual(got, want) {
				t.Errorf("query %d k=%d: with zero vectors %v (%v), without them %v (%v)", i, k, got, ok0, want, ok1)
			}
		}
	}
}
