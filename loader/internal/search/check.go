package search

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"

	"github.com/docket-dev/docket/loader/internal/searchidx"
)

// CheckIndex compares the index's answers with the SQL path's on the
// warehouse conn reads (the one the index was built from), for a few probe
// queries: BM25 with words of chunks' text, vector search with two stored
// vectors as queries. Any difference is an error: the index must not be
// used.
func CheckIndex(ctx context.Context, conn *sql.Conn, idx *searchidx.Index) error {
	return CheckIndexProbes(ctx, conn, idx, 2)
}

// CheckIndexProbes is CheckIndex with vectors stored vector probes (each
// one costs the SQL path's scan of every vector; the last one is of the
// delta when the index has one).
func CheckIndexProbes(ctx context.Context, conn *sql.Conn, idx *searchidx.Index, vectors int) error {
	if err := CheckIndexBM25(ctx, conn, idx); err != nil {
		return err
	}
	if idx.Model() == "" {
		return nil
	}
	sqlS := &Searcher{conn: conn}
	idxS := &Searcher{idx: idx}
	prov := modelOnly(idx.Model())
	sqlS.provider, idxS.provider = prov, prov
	for _, v := range idx.ProbeVectors(vectors) {
		want, err := sqlS.rankVector(ctx, v, 10)
		if err != nil {
			return fmt.Errorf("search index check: vector: %w", err)
		}
		got, err := idxS.rankVector(ctx, v, 10)
		if err != nil {
			return err
		}
		if err := SameRanking(want, got, 1e-6); err != nil {
			return fmt.Errorf("search index check: vector: %w", err)
		}
	}
	return nil
}

// CheckIndexBM25 is CheckIndex for BM25 alone (cheap: it reads a few
// terms' postings where a vector probe scans every vector).
func CheckIndexBM25(ctx context.Context, conn *sql.Conn, idx *searchidx.Index) error {
	sqlS := &Searcher{conn: conn}
	idxS := &Searcher{idx: idx}
	queries := idx.ProbeQueries(3)
	for _, q := range queries {
		want, err := sqlS.bm25Ranks(ctx, q, 10)
		if err != nil {
			return fmt.Errorf("search index check: bm25 %q: %w", q, err)
		}
		got, err := idxS.bm25Ranks(ctx, q, 10)
		if err != nil {
			return err
		}
		if err := SameRanking(want, got, 1e-9); err != nil {
			return fmt.Errorf("search index check: bm25 %q: %w", q, err)
		}
	}
	return nil
}

// SameRanking reports how two rankings of the same query differ, if they
// do: the same length, and position by position scores within tol
// (relative); hits whose scores tie within tol may come in either order
// (the SQL path sums a chunk's term weights in no fixed order, so equal
// scores can differ in their last bits), so within a run of tied scores
// the same chunks must appear, except in the last run, which k may cut.
func SameRanking(want, got []Hit, tol float64) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d hits, expected %d", len(got), len(want))
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(a)) }
	for i := 0; i < len(want); {
		j := i + 1
		for j < len(want) && close(want[j].Score, want[i].Score) {
			j++
		}
		var a, b []uint64
		for t := i; t < j; t++ {
			if !close(got[t].Score, want[t].Score) {
				return fmt.Errorf("hit %d: score %v, expected %v", t+1, got[t].Score, want[t].Score)
			}
			a, b = append(a, want[t].key), append(b, got[t].key)
		}
		slices.Sort(a)
		slices.Sort(b)
		if j < len(want) && !slices.Equal(a, b) {
			return fmt.Errorf("hits %d-%d: chunks %v, expected %v", i+1, j, b, a)
		}
		i = j
	}
	return nil
}

// modelOnly stands for a provider where only the model is needed (the
// probe vectors are already embedded).
type modelOnly string

func (m modelOnly) Name() string    { return "stored" }
func (m modelOnly) ModelID() string { return string(m) }
func (m modelOnly) Dimensions() int { return 0 }
func (m modelOnly) Embed(context.Context, []string) ([][]float32, error) {
	return nil, fmt.Errorf("search: the index check embeds nothing")
}
