// Command bench-dedup times the shipped curated.chunk_duplicates model, with
// curated.chunk_signatures and curated.chunk_dup_index that feed it (the
// SQL path: minhash and LSH band keys as Go UDFs, candidate join and
// confirmation in DuckDB) at 10k and 100k synthetic chunks, 5% of which are
// lightly edited copies, and prints both times, the ratio and how many of
// the planted copies were found.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	bin := flag.String("docket", "bin/docket", "docket binary")
	flag.String("corpus", "", "ignored (synthetic data)")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-dedup:", err)
		os.Exit(1)
	}
	var times []time.Duration
	for _, n := range []int{10000, 100000} {
		d, found, planted, err := run(n, *bin)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-dedup:", err)
			os.Exit(1)
		}
		times = append(times, d)
		fmt.Printf("chunk_duplicates over %6d chunks: %6.1fs, near copies found %d of %d planted\n", n, d.Seconds(), found, planted)
	}
	fmt.Printf("10x the chunks took %.1fx the time (linear = 10x)\n", times[1].Seconds()/times[0].Seconds())
}

func words(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		// a Zipf-like vocabulary of 20k synthetic words
		out[i] = fmt.Sprintf("w%d", int(r.ExpFloat64()*2000)%20000)
	}
	return out
}

func run(n int, bin string) (time.Duration, int, int, error) {
	dir, err := os.MkdirTemp("", "docket-bench-dedup-")
	if err != nil {
		return 0, 0, 0, err
	}
	defer os.RemoveAll(dir)
	for _, sub := range []string{"models", "macros", "seeds"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(sub)); err != nil {
			return 0, 0, 0, err
		}
	}
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nmodels:\n  staging: {+materialized: view}\n  curated: {+materialized: table}\n"), 0o644)
	ctx := context.Background()
	p, err := project.Load(dir)
	if err != nil {
		return 0, 0, 0, err
	}
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{})
	if err != nil {
		return 0, 0, 0, err
	}
	if err := db.EnsureSchema(ctx); err != nil {
		return 0, 0, 0, err
	}
	r := rand.New(rand.NewSource(7))
	c, err := db.Conn(ctx)
	if err != nil {
		return 0, 0, 0, err
	}
	stmts := []string{
		`insert into raw.documents (doc_id, source_name, rel_path, source_uri, source_hash, status, first_seen_at, last_seen_at, last_run_id)
			select 'doc' || i, 'bench', 'doc' || i, 'file:///doc' || i, 'h' || i, 'landed', now(), now(), 'bench' from range(1000) t(i)`,
		`create schema if not exists curated`,
		`create or replace table curated.doc_chunks (chunk_id varchar, doc_id varchar, source_hash varchar, page_number integer,
			char_offset integer, char_end integer, section_title varchar, element_categories varchar[], text varchar, text_hash varchar, text_length integer)`,
	}
	for _, q := range stmts {
		if _, err := c.ExecContext(ctx, q); err != nil {
			return 0, 0, 0, err
		}
	}
	planted := 0
	var texts []string
	for i := 0; i < n; i++ {
		var t []string
		if i > 100 && r.Intn(20) == 0 {
			t = strings.Fields(texts[r.Intn(len(texts))])
			for e := 0; e < 3; e++ { // light edits: 3 word substitutions
				t[r.Intn(len(t))] = "edit" + fmt.Sprint(r.Intn(1000))
			}
			planted++
		} else {
			t = words(r, 130)
		}
		texts = append(texts, strings.Join(t, " "))
	}
	var b strings.Builder
	flushRows := func(rows []string) error {
		if len(rows) == 0 {
			return nil
		}
		_, err := c.ExecContext(ctx, `insert into curated.doc_chunks select sha256('c' || i), 'doc' || (i % 1000), 'h' || (i % 1000), 1, i, i + 1,
			null, ['NarrativeText'], t, sha256(t), length(t) from (values `+strings.Join(rows, ",")+`) v(i, t)`)
		return err
	}
	var rows []string
	for i, t := range texts {
		b.Reset()
		fmt.Fprintf(&b, "(%d, '%s')", i, t)
		rows = append(rows, b.String())
		if len(rows) == 2000 {
			if err := flushRows(rows); err != nil {
				return 0, 0, 0, err
			}
			rows = rows[:0]
		}
	}
	if err := flushRows(rows); err != nil {
		return 0, 0, 0, err
	}
	c.Close()
	db.Close()
	if out, err := exec.Command(bin, "build", "-s", "staging", "--project", dir).CombinedOutput(); err != nil {
		return 0, 0, 0, fmt.Errorf("%v\n%s", err, out)
	}
	start := time.Now()
	if out, err := exec.Command(bin, "run", "-s", "chunk_signatures chunk_dup_index chunk_duplicates", "--project", dir).CombinedOutput(); err != nil {
		return 0, 0, 0, fmt.Errorf("%v\n%s", err, out)
	}
	d := time.Since(start)
	db, err = warehouse.Open(ctx, p.Warehouse, warehouse.Options{ReadOnly: true})
	if err != nil {
		return 0, 0, 0, err
	}
	defer db.Close()
	var found int
	db.SQL().QueryRow(`select count(*) from curated.chunk_duplicates where kind = 'near'`).Scan(&found)
	return d, found, planted, nil
}
