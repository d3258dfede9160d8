package cli

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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

// ensureSearchIndex binds the search index to the published copy: it
// rebuilds the index unless the retrieval tables are the ones it was built
// from, and then only writes the new binding. It never fails the command:
// a problem is one warning line, and search then reads the warehouse.
// noRetrieval says the copy is known to have no retrieval layer (the
// command that wrote it saw none, see closedState): then the index is
// removed without opening the copy, as indexPublished would find.
func ensureSearchIndex(ctx context.Context, p *project.Project, noRetrieval bool, w io.Writer) {
	rp := warehouse.ReadPath(p.Warehouse)
	ip := searchidx.Path(rp)
	id, err := searchidx.IDOf(rp)
	if err != nil {
		return
	}
	if idx, err := searchidx.Open(ip, id); err == nil {
		idx.Close()
		return // bound to this copy already
	}
	if noRetrieval {
		searchidx.Remove(ip)
		return
	}
	o := searchidx.BuildOptions{Source: id, Model: searchIndexModel(p),
		K1: bm25Param(p, "bm25_k1", "1.2"), B: bm25Param(p, "bm25_b", "0.75")}
	start := time.Now()
	st, carried, err := indexPublished(ctx, rp, ip, p.BuildTempDir(), o)
	switch {
	case errors.Is(err, errNoRetrieval):
		searchidx.Remove(ip)
	case err != nil:
		searchidx.Remove(ip)
		fmt.Fprintf(w, "docket: warning: search index not built (docket search reads the warehouse instead, slower): %s\n", termSafe(firstLineOf(err.Error())))
	case carried:
		fmt.Fprintf(w, "docket: search index: retrieval tables unchanged, kept (%.2fs)\n", time.Since(start).Seconds())
	case st.Delta:
		fmt.Fprintf(w, "docket: search index: %d chunks, %d vectors, updated (%d chunks added or changed, %d retracted: %s in %.2fs)\n",
			st.Chunks, st.Vectors, st.DeltaChunks, st.Retracted, humanBytes(st.Bytes), time.Since(start).Seconds())
	default:
		fmt.Fprintf(w, "docket: search index: %d chunks, %d terms, %d vectors (%s in %.2fs)\n",
			st.Chunks, st.Terms, st.Vectors, humanBytes(st.Bytes), time.Since(start).Seconds())
	}
}

var errNoRetrieval = errors.New("no retrieval layer")

// noRetrievalLayer reports whether the open warehouse db has no retrieval
// layer, by the test indexPublished makes on the published copy; false
// when the query fails.
func noRetrievalLayer(ctx context.Context, db *warehouse.DB) bool {
	if db.Broken() != nil {
		return false
	}
	var n int
	err := db.SQL().QueryRowContext(ctx, retrievalTablesSQL).Scan(&n)
	return err == nil && n < 2
}

// retrievalTablesSQL counts the retrieval tables the search index is
// built from.
const retrievalTablesSQL = `select count(*) from information_schema.tables
		where table_schema = 'retrieval' and table_name in ('search_chunks', 'chunk_terms')`

// openPublished opens the published copy rp for indexPublished; tests
// wrap it to count the opens.
var openPublished = func(ctx context.Context, rp, spill string) (*warehouse.DB, error) {
	return warehouse.Open(ctx, rp, warehouse.Options{ReadOnly: true, LockTimeout: time.Nanosecond, SpillDir: spill})
}

// contentFingerprint identifies what an index of the warehouse conn reads
// is built from: the data versions the runner recorded for the retrieval
// tables (a version changes whenever a build changes the table's rows),
// their row counts and key sums, the model and the BM25 parameters. ""
// when a data version is unknown (a table no build recorded): the index is
// then rebuilt at every publish.
func contentFingerprint(ctx context.Context, conn *sql.Conn, o searchidx.BuildOptions) string {
	var versions, stats string
	err := conn.QueryRowContext(ctx, `select count(*), coalesce(string_agg(relation || '=' || data_version, ';' order by relation), '')
		from ops.build_state
		where relation in ('retrieval.search_chunks', 'retrieval.chunk_terms', 'embeddings.chunk_vectors')`).Scan(new(int), &versions)
	if err != nil || strings.Count(versions, "=") < 2 || (o.Model != "" && strings.Count(versions, "=") < 3) {
		return ""
	}
	q := `select concat_ws(';', (select count(*) from retrieval.search_chunks),
			(select coalesce(sum(chunk_key), 0) from retrieval.search_chunks),
			(select coalesce(sum(doc_length), 0) from retrieval.search_chunks),
			(select count(*) from retrieval.chunk_terms)`
	args := []any{}
	if o.Model != "" {
		q += `, (select count(*) from embeddings.chunk_vectors where model = ?)`
		args = append(args, o.Model)
	}
	if err := conn.QueryRowContext(ctx, q+`)`, args...).Scan(&stats); err != nil {
		return ""
	}
	h := sha256.Sum256([]byte(fmt.Sprintf("%d|%s|%s|%s|%s|%s", searchidx.Format, versions, stats, o.Model, o.K1, o.B)))
	return hex.EncodeToString(h[:])
}

// indexPublished binds the index at ip to the published copy rp: by a new
// binding when its data was built from the same tables (carried), else by
// updating it (a delta beside the base, searchidx.Update) or, when that
// cannot be done, building it. Either way it is checked against SQL first.
func indexPublished(ctx context.Context, rp, ip, spill string, o searchidx.BuildOptions) (st searchidx.Stats, carried bool, err error) {
	db, err := openPublished(ctx, rp, spill)
	if err != nil {
		return st, false, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return st, false, err
	}
	defer conn.Close()
	// Reading, not caching: the index's build streams every table once.
	if err := searchidx.LimitMemory(ctx, conn, searchidx.MemoryLimit); err != nil {
		return st, false, err
	}
	var n int
	if err := conn.QueryRowContext(ctx, retrievalTablesSQL).Scan(&n); err != nil || n < 2 {
		return st, false, errNoRetrieval
	}
	var hasVectors int
	conn.QueryRowContext(ctx, `select count(*) from information_schema.tables
		where table_schema = 'embeddings' and table_name = 'chunk_vectors'`).Scan(&hasVectors)
	if hasVectors == 0 {
		o.Model = ""
	}
	o.Content = contentFingerprint(ctx, conn, o)
	if o.Content != "" && searchidx.Content(ip) == o.Content {
		idx, err := searchidx.OpenUnbound(ip, o.Content)
		if err == nil {
			err = search.CheckIndexBM25(ctx, conn, idx)
			idx.Close()
		}
		if err == nil {
			if err = searchidx.Bind(ip, o.Source, o.Content); err == nil {
				return st, true, nil
			}
		}
		searchidx.Remove(ip)
	}
	if o.Content == "" {
		o.Content = fmt.Sprintf("unversioned-%d", time.Now().UnixNano())
	}
	if st, err = searchidx.Update(ctx, conn, ip, o); err == nil {
		// One vector probe (the delta's): the SQL side of each scans
		// every vector, which would cost more than the update.
		if err = checkIndexData(ctx, conn, ip, o.Content, 1); err == nil {
			return st, false, searchidx.Bind(ip, o.Source, o.Content)
		}
	}
	// No base to update, a delta past its bound, or an update that failed
	// its check: a new base.
	if st, err = searchidx.Build(ctx, conn, ip, o); err != nil {
		return st, false, err
	}
	if err := checkIndexData(ctx, conn, ip, o.Content, 2); err != nil {
		return st, false, err
	}
	return st, false, searchidx.Bind(ip, o.Source, o.Content)
}

// checkIndexData compares the unbound index data at ip with the SQL path
// (search.CheckIndexProbes).
func checkIndexData(ctx context.Context, conn *sql.Conn, ip, content string, vectorProbes int) error {
	idx, err := searchidx.OpenUnbound(ip, content)
	if err != nil {
		return err
	}
	defer idx.Close()
	return search.CheckIndexProbes(ctx, conn, idx, vectorProbes)
}
