package search

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// bm25ScoresSQL is the shipped retrieval.bm25_scores macro
// (macros/retrieval.sql) as `docket build` renders it with the default
// vars; the end-to-end test (cli TestSearchIndexAnswersLikeSQL) and the
// check at every publish (CheckIndex) compare with the rendered original.
const bm25ScoresSQL = `create or replace macro retrieval.bm25_scores(query, k := 10) as table
with query_terms as (
    select distinct unnest(regexp_extract_all(lower(nfc_normalize(query)), '[\p{L}\p{N}\p{M}]+')) as term
),
corpus as (select count(*) as n_chunks, avg(doc_length) as avg_length from retrieval.search_chunks),
postings as materialized (
    select term, chunk_key, tf, doc_length from retrieval.chunk_terms
    where term in (select term from query_terms)),
stats as (
    select term, ln(1 + (corpus.n_chunks - count(*) + 0.5) / (count(*) + 0.5)) as idf
    from postings, corpus group by term, corpus.n_chunks)
select postings.chunk_key,
    sum(stats.idf * postings.tf * (1.2 + 1)
        / (postings.tf + 1.2 * (1 - 0.75 + 0.75 * postings.doc_length / corpus.avg_length))) as score
from postings join stats using (term) cross join corpus
group by postings.chunk_key
order by score desc, postings.chunk_key
limit k`

// testWarehouse writes a warehouse with the retrieval tables the index is
// built from: n chunks of text drawn from a small vocabulary (many equal
// scores), some chunks sharing a text (and so a vector), vectors of texts
// that left (a cache the SQL path skips), and chunks without a vector.
func testWarehouse(t *testing.T, n, dims int) (path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "w.duckdb")
	ctx := context.Background()
	db, err := warehouse.Open(ctx, path, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	x, err := db.SQL().BeginTx(ctx, nil) // one transaction: hundreds of inserts
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := x.Commit(); err != nil {
			t.Fatal(err)
		}
	}()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := x.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`create schema retrieval`)
	exec(`create schema embeddings`)
	exec(`create table retrieval.search_chunks (chunk_id varchar, doc_id varchar, source_name varchar, rel_path varchar,
		source_uri varchar, title varchar, page_number integer, char_offset integer, char_end integer, section_title varchar,
		text varchar, text_hash varchar, doc_length bigint, chunk_key ubigint)`)
	exec(`create table retrieval.chunk_terms (term varchar, chunk_id varchar, tf bigint, doc_length bigint, chunk_key ubigint)`)
	exec(fmt.Sprintf(`create table embeddings.chunk_vectors (text_hash varchar, model varchar, embedding FLOAT[%d], embedded_at timestamp)`, dims))
	exec(bm25ScoresSQL)
	rng := rand.New(rand.NewSource(7))
	words := strings.Fields("lease forklift march lisbon supplier audit invoice harbour depot crane safety training staff the a of and 2024 nº")
	var texts []string
	for i := range n {
		var text string
		if i%10 == 9 {
			text = texts[rng.Intn(len(texts))] // the same text as an earlier chunk
		} else {
			m := 1 + rng.Intn(12)
			ws := make([]string, m)
			for j := range ws {
				ws[j] = words[rng.Intn(len(words))]
				if rng.Intn(5) == 0 {
					ws[j] = strings.ToUpper(ws[j][:1]) + ws[j][1:]
				}
			}
			text = strings.Join(ws, " ") + "."
		}
		texts = append(texts, text)
		id := fmt.Sprintf("%x", sha256.Sum256([]byte(fmt.Sprint("chunk", i))))
		th := fmt.Sprintf("%x", sha256.Sum256([]byte(text)))
		var title any
		if i%3 == 0 {
			title = fmt.Sprintf("Doc %d", i/5)
		}
		exec(`insert into retrieval.search_chunks values (?, ?, 'inbox', ?, ?, ?, ?, ?, ?, ?, ?, ?,
			len(regexp_extract_all(lower(nfc_normalize(?)), '[\p{L}\p{N}\p{M}]+')), ('0x' || left(?, 16))::ubigint)`,
			id, fmt.Sprint("doc", i/5), fmt.Sprintf("d%d.txt", i/5), fmt.Sprintf("file:///d%d.txt", i/5), title,
			1+i%2, i*10, i*10+len(text), fmt.Sprint("§", i%4), text, th, text, id)
	}
	exec(`insert into retrieval.chunk_terms
		select term, chunk_id, count(*), doc_length, chunk_key
		from (select chunk_id, doc_length, chunk_key, unnest(regexp_extract_all(lower(nfc_normalize(text)), '[\p{L}\p{N}\p{M}]+')) as term
		      from retrieval.search_chunks)
		group by all`)
	// Vectors: every distinct text but every 7th; two texts that left.
	seen := map[string]bool{}
	for i, text := range append(texts, "a text that left", "another text that left") {
		th := fmt.Sprintf("%x", sha256.Sum256([]byte(text)))
		if seen[th] || i%7 == 3 {
			continue
		}
		seen[th] = true
		v := make([]string, dims)
		for j := range v {
			f := rng.NormFloat64()
			if rng.Intn(4) == 0 {
				f = 0
			}
			v[j] = fmt.Sprintf("%g", float32(f))
		}
		exec(fmt.Sprintf(`insert into embeddings.chunk_vectors values (?, 'm/%d', [%s]::FLOAT[%d], now())`, dims, strings.Join(v, ","), dims), th)
		exec(fmt.Sprintf(`insert into embeddings.chunk_vectors values (?, 'other', [%s]::FLOAT[%d], now())`, strings.Join(v, ","), dims), th)
	}
	return path
}

// readConn is a connection of the warehouse at path opened read-only,
// closed with the test.
func readConn(t *testing.T, path string) *sql.Conn {
	t.Helper()
	ctx := context.Background()
	db, err := warehouse.Open(ctx, path, warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func buildTestIndex(t *testing.T, conn *sql.Conn, path, model string) *searchidx.Index {
	t.Helper()
	ip := searchidx.Path(path)
	id, err := searchidx.IDOf(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := searchidx.Build(context.Background(), conn, ip, searchidx.BuildOptions{Source: id, Model: model, Content: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := searchidx.Open(ip, id); err == nil {
		t.Fatal("an index is not used before it is bound")
	}
	if err := searchidx.Bind(ip, id, "test"); err != nil {
		t.Fatal(err)
	}
	idx, err := searchidx.Open(ip, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}

// TestIndexAnswersLikeSQL: on a warehouse full of tied scores, shared
// texts, cached vectors of texts that left and chunks without vectors, the
// index returns the SQL path's hits (chunks, order, scores, citations) for
// BM25, vector and hybrid search at several k, and the index check passes.
func TestIndexAnswersLikeSQL(t *testing.T) {
	const dims = 24
	path := testWarehouse(t, 400, dims)
	ctx := context.Background()
	conn := readConn(t, path)
	model := fmt.Sprintf("m/%d", dims)
	idx := buildTestIndex(t, conn, path, model)
	if err := CheckIndex(ctx, conn, idx); err != nil {
		t.Fatal(err)
	}
	if idx.ChunksWithoutVector() == 0 || idx.Chunks() != 400 {
		t.Fatalf("the test warehouse should have chunks without vectors: %d of %d", idx.ChunksWithoutVector(), idx.Chunks())
	}
	prov := modelOnly(model)
	sqlS := &Searcher{conn: conn, provider: prov}
	idxS := &Searcher{idx: idx, provider: prov}
	rng := rand.New(rand.NewSource(3))
	queries := []string{"lease", "the", "forklift lease march", "Harbour DEPOT crane", "2024 of and", "zzz nothing", "a a a", "audit, invoice; staff!"}
	for _, k := range []int{1, 5, 10, 60, 1000} {
		for _, q := range queries {
			bm25LikeSQL(t, sqlS, idxS, q, k)
		}
		for i := range 6 {
			v := queryVector(rng, dims, i == 0)
			if i == 5 {
				v = idx.ProbeVectors(1)[0] // a stored vector: exact ties with its copies
			}
			vectorLikeSQL(t, sqlS, idxS, i, v, k)
		}
	}
	if !idxS.IndexOnly() {
		t.Fatal("the index searcher opened the warehouse")
	}
}

// sameHits is SameRanking, and for hits of the same chunk at the same
// position the same citation.
func sameHits(want, got []Hit, tol float64) error {
	if err := SameRanking(want, got, tol); err != nil {
		return err
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.key != g.key {
			continue
		}
		w.Score, g.Score = 0, 0
		w.VectorScore, g.VectorScore = 0, 0
		if w != g {
			return fmt.Errorf("hit %d: %+v, expected %+v", i+1, g, w)
		}
	}
	return nil
}

// TestIndexStaleOrDamagedIsRefused: an index opens only for the file it
// was built from (size, modification time, inode); another published copy,
// a changed file, another format or a truncated index is refused, and a
// query with non-ASCII characters is left to SQL.
func TestIndexStaleOrDamagedIsRefused(t *testing.T) {
	path := testWarehouse(t, 30, 8)
	ctx := context.Background()
	db, err := warehouse.Open(ctx, path, warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	conn, _ := db.Conn(ctx)
	idx := buildTestIndex(t, conn, path, "m/8")
	conn.Close()
	db.Close()
	if _, ok := idx.BM25("Café lease", 5); ok {
		t.Fatal("a non-ASCII query should be left to SQL")
	}
	if _, ok := idx.BM25("lease", 5); !ok {
		t.Fatal("an ASCII query should be answered")
	}
	ip := searchidx.Path(path)
	id, _ := searchidx.IDOf(path)
	for name, other := range map[string]searchidx.FileID{
		"size":  {Size: id.Size + 1, ModNano: id.ModNano, Inode: id.Inode},
		"mtime": {Size: id.Size, ModNano: id.ModNano + 1, Inode: id.Inode},
		"inode": {Size: id.Size, ModNano: id.ModNano, Inode: id.Inode + 1},
	} {
		if _, err := searchidx.Open(ip, other); !errors.Is(err, searchidx.ErrStale) {
			t.Errorf("another %s: Open = %v, want ErrStale", name, err)
		}
	}
	// The warehouse written after the index: its identity changed.
	w, err := warehouse.Open(ctx, path, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.SQL().ExecContext(ctx, `delete from retrieval.search_chunks where chunk_key % 2 = 0; checkpoint`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	now, _ := searchidx.IDOf(path)
	if _, err := searchidx.Open(ip, now); !errors.Is(err, searchidx.ErrStale) {
		t.Fatalf("after the warehouse changed, Open = %v, want ErrStale", err)
	}
	// A truncated index (a crash while copying it by hand): refused.
	b, _ := os.ReadFile(ip)
	os.WriteFile(ip, b[:len(b)/2], 0o644)
	if _, err := searchidx.Open(ip, id); err == nil {
		t.Fatal("a truncated index should not open")
	}
	os.WriteFile(ip, []byte("not an index"), 0o644)
	if _, err := searchidx.Open(ip, id); !errors.Is(err, searchidx.ErrStale) {
		t.Fatalf("a foreign file: Open = %v, want ErrStale", err)
	}
}

// bm25LikeSQL checks that the index answers a BM25 query as SQL does.
func bm25LikeSQL(t *testing.T, sqlS, idxS *Searcher, q string, k int) {
	t.Helper()
	ctx := context.Background()
	want, err := sqlS.BM25(ctx, q, k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := idxS.BM25(ctx, q, k)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameHits(want, got, 1e-9); err != nil {
		t.Errorf("bm25 %q k=%d: %v", q, k, err)
	}
}

// vectorLikeSQL checks that the index ranks and cites vector query i as
// SQL does.
func vectorLikeSQL(t *testing.T, sqlS, idxS *Searcher, i int, v []float32, k int) {
	t.Helper()
	ctx := context.Background()
	want, err := sqlS.rankVector(ctx, v, k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := idxS.rankVector(ctx, v, k)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameHits(want, got, 1e-6); err != nil {
		t.Errorf("vector %d k=%d: %v", i, k, err)
	}
	wantC, err := sqlS.cite(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	gotC, err := idxS.cite(ctx, got)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameHits(wantC, gotC, 1e-6); err != nil {
		t.Errorf("vector %d k=%d citations: %v", i, k, err)
	}
}

// queryVector is a random query of dims dimensions: every dimension set
// when dense, about a third otherwise (sparse).
func queryVector(rng *rand.Rand, dims int, dense bool) []float32 {
	v := make([]float32, dims)
	for j := range v {
		if dense || rng.Intn(3) == 0 {
			v[j] = float32(rng.NormFloat64())
		}
	}
	return v
}
