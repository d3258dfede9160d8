package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/search"
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
	if len(query) == 0 {
		fmt.Fprintln(stderr, `usage: docket search "QUERY" [-k 10] [--mode hybrid|vector|bm25] [--json]`)
		return ExitUsage
	}
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	prov, err := embed.New(p.Embedding)
	if err != nil {
		fmt.Fprintln(stderr, "docket search:", err)
		return ExitUsage
	}
	db, code := openReader(ctx, p, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	s, err := search.New(ctx, db, prov, p.Retrieval.VectorIndex)
	if err != nil {
		fmt.Fprintln(stderr, "docket search:", err)
		return ExitFailed
	}
	defer s.Close()
	hits, err := s.Search(ctx, strings.Join(query, " "), search.Options{K: *k, Mode: *mode})
	if p.Retrieval.VectorIndex == "hnsw" || *mode != search.ModeBM25 {
		for _, n := range s.Notices() {
			fmt.Fprintln(stderr, "docket:", n)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "docket search:", err)
		return ExitFailed
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(map[string]any{"query": strings.Join(query, " "), "mode": *mode, "hits": hits})
		return ExitOK
	}
	if len(hits) == 0 {
		fmt.Fprintln(stdout, "no results")
		return ExitOK
	}
	for _, h := range hits {
		fmt.Fprintf(stdout, "%2d. %.4f  %s  page %d  chars %d-%d", h.Rank, h.Score, h.Path, h.Page, h.CharOffset, h.CharEnd)
		if h.Section != "" {
			fmt.Fprintf(stdout, "  § %s", h.Section)
		}
		fmt.Fprintf(stdout, "\n    %s\n", snippet(h.Text, 220))
	}
	return ExitOK
}

func snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
