package search

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestIndexUpdateAnswersLikeSQLAndRebuild: after chunks are added (new
// words, texts shared with existing chunks), removed, changed (a citation,
// a chunk gaining its vector), an updated index (base + delta) answers
// exactly like the SQL path and like an index built from scratch, over two
// rounds of changes (the second delta replaces the first); a change past
// searchidx.CompactFraction asks for a full build.
func TestIndexUpdateAnswersLikeSQLAndRebuild(t *testing.T) {
	const dims = 16
	model := fmt.Sprintf("m/%d", dims)
	path := testWarehouse(t, 800, dims)
	ctx := context.Background()
	ip := searchidx.Path(path)
	withConn(t, path, func(conn *conn) {
		if _, err := searchidx.Build(ctx, conn.c, ip, searchidx.BuildOptions{Model: model, Content: "v0"}); err != nil {
			t.Fatal(err)
		}
	})
	rng := rand.New(rand.NewSource(11))
	for round, n := range []int{1, 2} {
		mutate(t, path, dims, round, rng)
		content := fmt.Sprint("v", n)
		withConn(t, path, func(conn *conn) {
			st, err := searchidx.Update(ctx, conn.c, ip, searchidx.BuildOptions{Model: model, Content: content})
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if !st.Delta || st.DeltaChunks == 0 || st.Retracted == 0 {
				t.Fatalf("round %d: %+v, expected a delta with additions and retractions", round, st)
			}
			id, _ := searchidx.IDOf(path)
			if err := searchidx.Bind(ip, id, content); err != nil {
				t.Fatal(err)
			}
			idx, err := searchidx.Open(ip, id)
			if err != nil {
				t.Fatal(err)
			}
			defer idx.Close()
			if idx.DeltaChunks() != st.DeltaChunks {
				t.Fatalf("the opened index has %d delta chunks, Update wrote %d", idx.DeltaChunks(), st.DeltaChunks)
			}
			full := filepath.Join(t.TempDir(), "full.search")
			fst, err := searchidx.Build(ctx, conn.c, full, searchidx.BuildOptions{Model: model, Content: "full"})
			if err != nil {
				t.Fatal(err)
			}
			// The update's totals are those of the live index (a term in
			// base and delta counts once).
			if st.Chunks != fst.Chunks || st.Terms != fst.Terms || st.Postings != fst.Postings {
				t.Errorf("round %d: updated %d chunks, %d terms, %d postings; a full build has %d, %d, %d", round,
					st.Chunks, st.Terms, st.Postings, fst.Chunks, fst.Terms, fst.Postings)
			}
			if err := searchidx.Bind(full, id, "full"); err != nil {
				t.Fatal(err)
			}
			fidx, err := searchidx.Open(full, id)
			if err != nil {
				t.Fatal(err)
			}
			defer fidx.Close()
			if idx.Chunks() != fidx.Chunks() || idx.ChunksWithoutVector() != fidx.ChunksWithoutVector() {
				t.Fatalf("round %d: %d chunks (%d without vector), a full build has %d (%d)", round,
					idx.Chunks(), idx.ChunksWithoutVector(), fidx.Chunks(), fidx.ChunksWithoutVector())
			}
			if err := CheckIndex(ctx, conn.c, idx); err != nil {
				t.Fatal(err)
			}
			compareIndexes(t, conn, model, dims, idx, fidx, rng)
		})
	}
	// A change past the bound: the caller is asked for a full build.
	db, err := warehouse.Open(ctx, path, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `delete from retrieval.search_chunks where chunk_key % 4 = 0; delete from retrieval.chunk_terms where chunk_key % 4 = 0`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	withConn(t, path, func(conn *conn) {
		if _, err := searchidx.Update(ctx, conn.c, ip, searchidx.BuildOptions{Model: model, Content: "v3"}); !errors.Is(err, searchidx.ErrRebuild) {
			t.Fatalf("a quarter of the chunks removed: Update = %v, want ErrRebuild", err)
		}
	})
}

type conn struct{ c *sql.Conn }

func withConn(t *testing.T, path string, f func(*conn)) {
	t.Helper()
	ctx := context.Background()
	db, err := warehouse.Open(ctx, path, warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f(&conn{c})
}

// compareIndexes: idx answers like SQL (tolerances of SameRanking) and
// exactly like fidx (same keys, scores and citations).
func compareIndexes(t *testing.T, conn *conn, model string, dims int, idx, fidx *searchidx.Index, rng *rand.Rand) {
	t.Helper()
	prov := modelOnly(model)
	sqlS := &Searcher{conn: conn.c, provider: prov}
	idxS := &Searcher{idx: idx, provider: prov}
	queries := []string{"lease", "the", "forklift lease march", "Harbour DEPOT crane", "2024 of and", "zebra", "zebra okapi lease", "okapi", "a a a", "audit, invoice; staff!"}
	for _, k := range []int{1, 5, 10, 60, 1000} {
		for _, q := range queries {
			bm25LikeSQL(t, sqlS, idxS, q, k)
			a, _ := idx.BM25(q, k)
			b, _ := fidx.BM25(q, k)
			if !sameScored(a, b) {
				t.Errorf("bm25 %q k=%d: updated index %v, full build %v", q, k, a, b)
			}
		}
		for i := range 6 {
			v := queryVector(rng, dims, i == 0)
			if i >= 4 {
				v = idx.ProbeVectors(2)[i-4] // stored vectors (one from the delta)
			}
			vectorLikeSQL(t, sqlS, idxS, i, v, k)
			a, _ := idx.Vector(v, k)
			b, _ := fidx.Vector(v, k)
			if !sameScored(a, b) {
				t.Errorf("vector %d k=%d: updated index %v, full build %v", i, k, a, b)
			}
			for _, h := range a {
				ca, _, _ := idx.Cite(h.Key)
				cb, _, _ := fidx.Cite(h.Key)
				if ca != cb {
					t.Errorf("chunk %d: updated index cites %+v, full build %+v", h.Key, ca, cb)
				}
			}
		}
	}
}

func sameScored(a, b []searchidx.Scored) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || a[i].Score != b[i].Score {
			return false
		}
	}
	return true
}

// mutate changes the test warehouse: removes chunks (with their postings),
// changes a citation, adds chunks (new words; a text shared with an
// existing chunk), and gives chunks without a vector theirs.
func mutate(t *testing.T, path string, dims, round int, rng *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	db, err := warehouse.Open(ctx, path, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.SQL().ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Removed: 10 chunks (in round 1 also chunks added in round 0).
	exec(`create or replace temp table gone as select chunk_key from retrieval.search_chunks order by hash(chunk_key, ?) limit 10`, round)
	exec(`delete from retrieval.chunk_terms where chunk_key in (select chunk_key from gone)`)
	exec(`delete from retrieval.search_chunks where chunk_key in (select chunk_key from gone)`)
	// Changed: a citation (the same chunk, another title).
	exec(`update retrieval.search_chunks set title = 'Renamed ' || ? where chunk_key in (select chunk_key from retrieval.search_chunks order by hash(chunk_key, ?, 'x') limit 4)`, round, round)
	// Added: 12 chunks, two with the text of an existing chunk.
	words := strings.Fields("zebra okapi lease the harbour audit crane nº")
	for i := range 12 {
		var text string
		if i < 2 {
			if err := db.SQL().QueryRowContext(ctx, `select text from retrieval.search_chunks order by hash(chunk_key, ?, ?) limit 1`, round, i).Scan(&text); err != nil {
				t.Fatal(err)
			}
		} else {
			ws := make([]string, 2+rng.Intn(6))
			for j := range ws {
				ws[j] = words[rng.Intn(len(words))]
			}
			text = strings.Join(ws, " ") + "."
		}
		id := fmt.Sprintf("%x", sha256.Sum256([]byte(fmt.Sprint("new", round, i))))
		th := fmt.Sprintf("%x", sha256.Sum256([]byte(text)))
		exec(`insert into retrieval.search_chunks values (?, ?, 'inbox', ?, ?, 'New', 1, 0, ?, null, ?, ?,
			len(regexp_extract_all(lower(nfc_normalize(?)), '[\p{L}\p{N}\p{M}]+')), ('0x' || left(?, 16))::ubigint)`,
			id, fmt.Sprint("new", round), fmt.Sprintf("new%d.txt", round), fmt.Sprintf("file:///new%d.txt", round), len(text), text, th, text, id)
		exec(`insert into retrieval.chunk_terms
			select term, chunk_id, count(*), doc_length, chunk_key
			from (select chunk_id, doc_length, chunk_key, unnest(regexp_extract_all(lower(nfc_normalize(text)), '[\p{L}\p{N}\p{M}]+')) as term
			      from retrieval.search_chunks where chunk_id = ?)
			group by all`, id)
	}
	// Vectors for every text without one (the new texts, and old texts
	// that had none: their chunks change without a new key).
	rows, err := db.SQL().QueryContext(ctx, `select text_hash from retrieval.search_chunks
		where text_hash not in (select text_hash from embeddings.chunk_vectors where model = ?)
		group by text_hash order by bool_or(doc_id like 'new%') desc, text_hash`, fmt.Sprintf("m/%d", dims))
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for rows.Next() {
		var th string
		rows.Scan(&th)
		missing = append(missing, th)
	}
	rows.Close()
	missing = missing[:min(len(missing), 12)] // the new texts and a few old ones
	for _, th := range missing {
		v := make([]string, dims)
		for j := range v {
			v[j] = fmt.Sprintf("%g", float32(rng.NormFloat64()))
		}
		exec(fmt.Sprintf(`insert into embeddings.chunk_vectors values (?, 'm/%d', [%s]::FLOAT[%d], now())`, dims, strings.Join(v, ","), dims), th)
	}
	exec(`checkpoint`)
}
