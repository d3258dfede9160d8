// Command bench-search measures, at a synthetic 100k-chunk corpus built with
// the shipped retrieval and embedding models: the embedding throughput of
// the hash provider (the chunk_vectors build), and the median latency of
// exact top-10 vector search and of the BM25 macro.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/search"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	n := flag.Int("chunks", 100000, "synthetic chunks")
	bin := flag.String("docket", "bin/docket", "docket binary")
	flag.String("corpus", "", "ignored (synthetic data)")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-search:", err)
		os.Exit(1)
	}
	if err := run(*n, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-search:", err)
		os.Exit(1)
	}
}

var vocab = strings.Fields(`contract notice period termination supplier invoice payment warehouse robot maintenance
policy employee remote security equipment schedule inspection forklift licence safety allowance hotel travel expense
report annual revenue profit margin segment quarter growth decline customer order delivery shipment logistics audit
compliance regulation data privacy consent retention archive record signature approval manager department budget
forecast risk incident response critical routine monthly weekly daily service level agreement penalty warranty`)

func text(r *rand.Rand, words int) string {
	var b strings.Builder
	for i := 0; i < words; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocab[r.Intn(len(vocab))])
		if r.Intn(12) == 0 {
			fmt.Fprintf(&b, " %d", r.Intn(10000))
		}
	}
	return b.String()
}

func run(n int, bin string) error {
	dir, err := os.MkdirTemp("", "docket-bench-search-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, sub := range []string{"models", "macros", "seeds"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(sub)); err != nil {
			return err
		}
	}
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(`version: 1
warehouse: warehouse.duckdb
models:
  staging: {+materialized: view}
  curated: {+materialized: table}
  embeddings: {+materialized: table}
  retrieval: {+materialized: table}
embedding: {provider: hash, dimensions: 256}
`), 0o644)
	ctx := context.Background()
	p, err := project.Load(dir)
	if err != nil {
		return err
	}
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{})
	if err != nil {
		return err
	}
	if err := db.EnsureSchema(ctx); err != nil {
		return err
	}
	r := rand.New(rand.NewSource(1))
	var b strings.Builder
	b.WriteString("create or replace table bench_text as select * from (values ")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "(%d, '%s')", i, text(r, 140))
	}
	b.WriteString(") t(i, text)")
	stmts := []string{
		`insert into raw.documents (doc_id, source_name, rel_path, source_uri, source_hash, status, first_seen_at, last_seen_at, last_run_id)
			select 'doc' || i, 'bench', 'doc' || i || '.pdf', 'file:///bench/doc' || i || '.pdf', 'h' || i, 'landed', now(), now(), 'bench'
			from range(1000) t(i)`,
		b.String(),
		`create schema if not exists curated`,
		// 100k chunks: shuffled word windows of the synthetic texts, made distinct by their index.
		fmt.Sprintf(`create or replace table curated.unique_chunks as
			select sha256('c' || i) as chunk_id, 'doc' || (i %% 1000) as doc_id, 'h' || (i %% 1000) as source_hash,
				1 + (i // 1000) as page_number, 0 as char_offset, length(t) as char_end, null::varchar as section_title,
				['NarrativeText'] as element_categories, t as text, sha256(t) as text_hash, length(t) as text_length
			from (select i, (select text from bench_text where bench_text.i = (r.i * 7919) %% 1000) || ' item ' || i as t from range(%d) r(i))`, n),
	}
	for _, q := range stmts {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q[:40], err)
		}
	}
	db.Close()
	fmt.Printf("synthetic corpus: %d chunks of ~%d characters\n", n, 1000)
	for _, sel := range []string{"staging", "embeddings", "retrieval"} {
		start := time.Now()
		out, err := exec.Command(bin, "build", "-s", sel, "--project", dir).CombinedOutput()
		if err != nil {
			return fmt.Errorf("build -s %s: %v\n%s", sel, err, out)
		}
		d := time.Since(start)
		if sel == "embeddings" {
			fmt.Printf("hash embeddings: %d texts in %.1fs = %.0f texts/s (build of chunk_vectors, 256 dimensions)\n", n, d.Seconds(), float64(n)/d.Seconds())
		} else if sel == "retrieval" {
			fmt.Printf("BM25 term tables built in %.1fs\n", d.Seconds())
		}
	}
	db, err = warehouse.Open(ctx, p.Warehouse, warehouse.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	prov, _ := embed.New(p.Embedding)
	s, err := search.New(ctx, db, prov, "exact")
	if err != nil {
		return err
	}
	defer s.Close()
	for _, mode := range []string{search.ModeVector, search.ModeBM25} {
		var lat []time.Duration
		for i := 0; i < 31; i++ {
			q := text(r, 4)
			t := time.Now()
			hits, err := s.Search(ctx, q, search.Options{K: 10, Mode: mode})
			if err != nil {
				return err
			}
			if len(hits) == 0 {
				return fmt.Errorf("%s: no hits for %q", mode, q)
			}
			lat = append(lat, time.Since(t))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		fmt.Printf("%-6s top-10 over %d chunks: median %.1f ms, p90 %.1f ms (31 queries)\n", mode, n,
			float64(lat[15].Microseconds())/1000, float64(lat[27].Microseconds())/1000)
	}
	return nil
}
