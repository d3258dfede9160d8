// Command bench-replicate grows a built project's retrieval layer for
// search benchmarks at sizes a load and build cannot reach in the time:
// it adds N copies of every searchable chunk to the warehouse, each with a
// new chunk_id (sha256 of the original id and the copy number) and its
// text with one extra word (" rN"), so every copy is a distinct text with
// its own BM25 postings (tokenized in SQL, as retrieval.chunk_terms does)
// and its own vector (embedded with the project's provider through the
// embed() UDF, as embeddings.chunk_vectors does). Citations point at the
// original's document. embeddings.vector_coverage is recounted, and the
// warehouse is published (which writes the search index).
//
// It writes the project's warehouse: use it on a copy.
//
//	go run ./loader/tools/bench-replicate -project /tmp/bs-search/x4/50000 -copies 3
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/udf"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

const tokenize = `regexp_extract_all(lower(nfc_normalize(text)), '[\p{L}\p{N}\p{M}]+')`

func main() {
	dir := flag.String("project", "", "a built docket project (its warehouse is changed)")
	copies := flag.Int("copies", 3, "copies of every searchable chunk to add")
	bin := flag.String("docket", "bin/docket", "docket binary, to publish afterwards")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-replicate:", err)
		os.Exit(1)
	}
	if err := run(*dir, *copies, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-replicate:", err)
		os.Exit(1)
	}
}

func run(dir string, copies int, bin string) error {
	ctx := context.Background()
	p, err := project.Load(dir)
	if err != nil {
		return err
	}
	prov, err := embed.New(p.Embedding)
	if err != nil {
		return err
	}
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{UDFs: udf.All(prov)})
	if err != nil {
		return err
	}
	defer db.Close()
	model := prov.ModelID()
	stmts := []string{`create temp table originals as select * from retrieval.search_chunks`}
	for r := 1; r <= copies; r++ {
		suffix := fmt.Sprintf(" r%d", r)
		stmts = append(stmts,
			`create or replace temp table copy as
			 select * replace (
			     sha256(chunk_id || '#`+fmt.Sprint(r)+`') as chunk_id,
			     text || '`+suffix+`' as text,
			     sha256(text || '`+suffix+`') as text_hash,
			     len(`+tokenize+`) + 1 as doc_length,
			     ('0x' || left(sha256(chunk_id || '#`+fmt.Sprint(r)+`'), 16))::ubigint as chunk_key)
			 from originals`,
			`insert into retrieval.search_chunks by name select * from copy`,
			`insert into retrieval.chunk_terms by name
			 select term, chunk_id, count(*) as tf, doc_length, chunk_key
			 from (select chunk_id, doc_length, chunk_key, unnest(`+tokenize+`) as term from copy)
			 group by term, chunk_id, doc_length, chunk_key`,
			`insert into embeddings.chunk_vectors by name
			 select text_hash, '`+model+`' as model, embed(text) as embedding, now()::timestamp as embedded_at
			 from (select text_hash, any_value(text) as text from copy group by text_hash)`,
		)
	}
	stmts = append(stmts,
		`create or replace table embeddings.vector_coverage as
		 select '`+model+`' as model,
		   (select count(*) from retrieval.search_chunks) as searchable_chunks,
		   (select coalesce(sum(doc_length), 0) from retrieval.search_chunks) as searchable_terms,
		   (select count(*) from retrieval.search_chunks where text_hash not in
		       (select text_hash from embeddings.chunk_vectors where model = '`+model+`')) as chunks_without_vector,
		   (select count(*) from embeddings.chunk_vectors where model = '`+model+`') as model_vectors`,
		`checkpoint`)
	for _, q := range stmts {
		t0 := time.Now()
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
		fmt.Printf("%6.1fs  %.60s\n", time.Since(t0).Seconds(), q)
	}
	var n int64
	db.SQL().QueryRowContext(ctx, `select count(*) from retrieval.search_chunks`).Scan(&n)
	fmt.Printf("retrieval.search_chunks: %d chunks\n", n)
	db.Close()
	cmd := exec.Command(bin, "publish", "--force", "--project", dir)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}
