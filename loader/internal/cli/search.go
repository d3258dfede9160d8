package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/search"
	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

func runSearch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	k := fs.Int("k", 10, "results")
	mode := fs.String("mode", "hybrid", "hybrid | vector | bm25")
	asJSON := fs.Bool("json", false, "JSON output")
	// Allow the query before or after the flags.
	var query []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return ExitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		query = append(query, fs.Arg(0))
		args = fs.Args()[1:]
	}
	q := strings.TrimSpace(strings.Join(query, " "))
	switch {
	case q == "":
		fmt.Fprintln(stderr, `docket search: the query is empty`)
		fmt.Fprintln(stderr, `usage: docket search "QUERY" [-k 10] [--mode hybrid|vector|bm25] [--json]`)
		return ExitUsage
	case *k < 1:
		fmt.Fprintf(stderr, "docket search: -k must be at least 1 (got %d)\n", *k)
		return ExitUsage
	case *mode != search.ModeHybrid && *mode != search.ModeVector && *mode != search.ModeBM25:
		fmt.Fprintf(stderr, "docket search: --mode must be hybrid, vector or bm25 (got %q)\n", *mode)
		return ExitUsage
	}
	// One query, then the process ends: a garbage collection of the few
	// MB a search allocates (its read buffers) would cost more CPU than it
	// frees. The limit still collects should a search (the SQL path) grow.
	// Restored on return (tests call this in their own process).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(searchMemoryLimit))
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	prov, err := embed.New(searchEmbedding(p.Embedding))
	if err != nil {
		if *mode == search.ModeVector {
			fmt.Fprintln(stderr, "docket search:", err)
			return ExitUsage
		}
		// Hybrid answers from BM25 and says why.
		fmt.Fprintln(stderr, "docket: answering from BM25 only:", termSafe(firstLineOf(err.Error())))
		*mode, prov = search.ModeBM25, nil
	}
	s, code := openSearcher(ctx, p, prov, stderr)
	if s == nil {
		return code
	}
	defer s.Close()
	hits, err := s.Search(ctx, q, search.Options{K: *k, Mode: *mode})
	if p.Retrieval.VectorIndex == "hnsw" || *mode != search.ModeBM25 {
		for _, n := range s.Notices() {
			fmt.Fprintln(stderr, "docket:", termSafe(n))
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "docket search:", termSafeLines(err.Error()))
		return ExitFailed
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := map[string]any{"query": q, "mode": *mode, "hits": hits}
		if s.FellBack {
			out["answered_by"] = search.ModeBM25
		}
		if s.Missing > 0 {
			out["chunks_without_vectors"] = s.Missing
		}
		if s.IndexOnly() {
			out["search_index"] = true // answered from the index alone
		}
		enc.Encode(out)
		return ExitOK
	}
	if len(hits) == 0 {
		fmt.Fprintln(stdout, "no results")
		return ExitOK
	}
	for _, h := range hits {
		fmt.Fprintf(stdout, "%2d. %.4f  %s  page %d  chars %d-%d", h.Rank, h.Score, termSafe(h.DisplayPath), h.Page, h.CharOffset, h.CharEnd)
		if h.Table {
			fmt.Fprint(stdout, "  table")
		}
		if h.Section != "" {
			fmt.Fprintf(stdout, "  § %s", termSafe(snippet(h.Section, 120)))
		}
		fmt.Fprintf(stdout, "\n    %s\n", termSafe(snippet(h.Text, 220)))
	}
	return ExitOK
}

// searchMemoryLimit is the Go heap at which `docket search` collects.
const searchMemoryLimit = 256 << 20

// searchTimeout bounds the query's embedding request: a person is waiting,
// and BM25 can answer alone.
const searchTimeout = 10 * time.Second

// searchEmbedding is the project's provider settings for one query: one
// attempt, at most searchTimeout.
func searchEmbedding(c embed.Config) embed.Config {
	c = c.WithDefaults()
	c.MaxRetries = -1
	c.Timeout = min(c.Timeout, searchTimeout)
	return c
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// openSearcher answers from the published copy's search index when it is
// current (without opening DuckDB unless the index cannot answer), else
// from the published copy itself.
func openSearcher(ctx context.Context, p *project.Project, prov embed.Provider, stderr io.Writer) (*search.Searcher, int) {
	if p.Retrieval.VectorIndex != "hnsw" {
		if stamp, err := warehouse.ReadStamp(p.Warehouse); err == nil && stamp != nil {
			rp := warehouse.ReadPath(p.Warehouse)
			if id, err := searchidx.IDOf(rp); err == nil {
				if idx, err := searchidx.Open(searchidx.Path(rp), id); err == nil {
					if n := warehouse.StaleNote(p.Warehouse, stamp); n != "" {
						fmt.Fprintln(stderr, "docket: note:", n)
					}
					open := func(ctx context.Context) (*warehouse.DB, error) {
						db, _ := openSearchReader(ctx, p, io.Discard) // its notes were said above
						if db == nil {
							return nil, fmt.Errorf("cannot open the warehouse")
						}
						return db, nil
					}
					return search.NewIndexed(idx, open, prov), ExitOK
				}
			}
		}
	}
	db, code := openSearchReader(ctx, p, stderr)
	if db == nil {
		return nil, code
	}
	s, err := search.New(ctx, db, prov, p.Retrieval.VectorIndex)
	if err != nil {
		db.Close()
		fmt.Fprintln(stderr, "docket search:", err)
		return nil, ExitFailed
	}
	s.OwnDB(db)
	return s, ExitOK
}
