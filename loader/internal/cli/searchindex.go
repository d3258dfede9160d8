package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/search"
	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// The search index (package searchidx) is derived from the published copy
// after every publish: `docket search` memory-maps it instead of opening
// DuckDB. It is checked against the SQL path on a few probe queries before
// it is kept; a stale, missing or failed index only makes search slower.

// searchIndexModel is the model whose vectors the index holds: the one
// search embeds queries with ("" when the provider is misconfigured).
func searchIndexModel(p *project.Project) string {
	prov, err := embed.New(searchEmbedding(p.Embedding))
	if err != nil {
		return ""
	}
	return prov.ModelID()
}

// bm25Param is a BM25 var as the SQL macro has it (a decimal literal).
func bm25Param(p *project.Project, name, def string) string {
	switch v := p.Vars[name].(type) {
	case nil:
		return def
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// ensureSearchIndex builds the search index of the published copy unless
// the one there was built from it. It never fails the command: a problem
// is one warning line, and search then reads the warehouse.
func ensureSearchIndex(ctx context.Context, p *project.Project, w io.Writer) {
	rp := warehouse.ReadPath(p.Warehouse)
	ip := searchidx.Path(rp)
	id, err := searchidx.IDOf(rp)
	if err != nil {
		return
	}
	o := searchidx.BuildOptions{Source: id, Model: searchIndexModel(p),
		K1: bm25Param(p, "bm25_k1", "1.2"), B: bm25Param(p, "bm25_b", "0.75")}
	if idx, err := searchidx.Open(ip, id); err == nil {
		k1, b := idx.BM25Params()
		same := idx.Model() == o.Model && k1 == o.K1 && b == o.B
		idx.Close()
		if same {
			return
		}
	}
	start := time.Now()
	st, err := buildSearchIndex(ctx, rp, ip, o)
	if err != nil {
		os.Remove(ip)
		if !errors.Is(err, errNoRetrieval) {
			fmt.Fprintf(w, "docket: warning: search index not built (docket search reads the warehouse instead, slower): %s\n", termSafe(firstLineOf(err.Error())))
		}
		return
	}
	fmt.Fprintf(w, "docket: search index: %d chunks, %d terms, %d vectors (%s in %.2fs)\n",
		st.Chunks, st.Terms, st.Vectors, humanBytes(st.Bytes), time.Since(start).Seconds())
}

var errNoRetrieval = errors.New("no retrieval layer")

func buildSearchIndex(ctx context.Context, rp, ip string, o searchidx.BuildOptions) (searchidx.Stats, error) {
	db, err := warehouse.Open(ctx, rp, warehouse.Options{ReadOnly: true, LockTimeout: time.Nanosecond})
	if err != nil {
		return searchidx.Stats{}, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return searchidx.Stats{}, err
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRowContext(ctx, `select count(*) from information_schema.tables
		where table_schema = 'retrieval' and table_name in ('search_chunks', 'chunk_terms')`).Scan(&n); err != nil || n < 2 {
		return searchidx.Stats{}, errNoRetrieval
	}
	var hasVectors int
	conn.QueryRowContext(ctx, `select count(*) from information_schema.tables
		where table_schema = 'embeddings' and table_name = 'chunk_vectors'`).Scan(&hasVectors)
	if hasVectors == 0 {
		o.Model = ""
	}
	st, err := searchidx.Build(ctx, conn, ip, o)
	if err != nil {
		return st, err
	}
	idx, err := searchidx.Open(ip, o.Source)
	if err != nil {
		return st, err
	}
	defer idx.Close()
	if err := search.CheckIndex(ctx, conn, idx); err != nil {
		return st, err
	}
	return st, nil
}
