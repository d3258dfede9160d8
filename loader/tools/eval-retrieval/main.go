// Command eval-retrieval builds the shipped models over the corpus
// warehouse that eval-load left in target/eval-corpus, generates a query
// set from its chunks and prints recall@5 and MRR@10 for bm25, vector
// (the configured provider, hash by default) and hybrid search.
//
// Queries, each with the chunks that answer it:
//   - sentence queries: a sentence of a sampled English chunk with about a
//     quarter of its words dropped and common words swapped for synonyms;
//     answered by every searchable chunk containing the original sentence;
//   - section queries: a question written from a section title; answered
//     by the chunks of that section of that document.
package main

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/search"
	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder (only checked for presence)")
	dir := flag.String("project", "target/eval-corpus", "project loaded by eval-load")
	bin := flag.String("docket", "bin/docket", "docket binary")
	n := flag.Int("n", 200, "sentence queries")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "eval-retrieval:", err)
		os.Exit(1)
	}
	if _, err := os.Stat(*corpus); err != nil {
		fmt.Println("corpus not found, skipped")
		return
	}
	if _, err := os.Stat(filepath.Join(*dir, "warehouse.duckdb")); err != nil {
		fmt.Println("no corpus warehouse in", *dir, "(run eval-load first), skipped")
		return
	}
	if err := run(*dir, *bin, *n); err != nil {
		fmt.Fprintln(os.Stderr, "eval-retrieval:", err)
		os.Exit(1)
	}
}

func run(dir, bin string, n int) error {
	for _, sub := range []string{"models", "macros", "seeds", "tests"} {
		os.RemoveAll(filepath.Join(dir, sub))
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(sub)); err != nil {
			return err
		}
	}
	start := time.Now()
	cmd := exec.Command(bin, "build", "--project", dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		fmt.Println(tail(string(out), 30))
		return fmt.Errorf("docket build failed: %w", err)
	}
	fmt.Printf("built the shipped models over the corpus in %.1fs\n", time.Since(start).Seconds())

	p, err := project.Load(dir)
	if err != nil {
		return err
	}
	prov, err := embed.New(p.Embedding)
	if err != nil {
		return err
	}
	ctx := context.Background()
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	queries, err := makeQueries(ctx, db, n)
	if err != nil {
		return err
	}
	s, err := search.New(ctx, db, prov, "exact")
	if err != nil {
		return err
	}
	defer s.Close()
	// The search index the build wrote next to the published copy: the
	// same queries through it (docket search's path).
	rp := warehouse.ReadPath(p.Warehouse)
	id, err := searchidx.IDOf(rp)
	if err != nil {
		return err
	}
	idx, err := searchidx.Open(searchidx.Path(rp), id)
	if err != nil {
		return fmt.Errorf("the build wrote no current search index: %w", err)
	}
	defer idx.Close()
	open := func(ctx context.Context) (*warehouse.DB, error) {
		return warehouse.Open(ctx, rp, warehouse.Options{ReadOnly: true})
	}
	si := search.NewIndexed(idx, open, prov)
	defer si.Close()
	kinds := map[string]int{}
	for _, q := range queries {
		kinds[q.kind]++
	}
	fmt.Printf("queries: %d (%d sentence, %d section, %d table); embedding %s\n", len(queries), kinds["sentence"], kinds["section"], kinds["table"], prov.ModelID())
	fmt.Println("split: none tuned; every query is a report query (BM25 k1 1.2 and b 0.75, fusion's k 60 and depth 50 are the published defaults, not chosen on these queries)")
	// The sentence and section queries score as before tables were
	// chunked; the table queries apart.
	var textQueries, tableQs []query
	for _, q := range queries {
		if q.kind == "table" {
			tableQs = append(tableQs, q)
		} else {
			textQueries = append(textQueries, q)
		}
	}
	for _, set := range []struct {
		name    string
		queries []query
	}{{"", textQueries}, {"table queries: ", tableQs}} {
		if err := scoreModes(ctx, s, si, set.name, set.queries); err != nil {
			return err
		}
	}
	return nil
}

// scoreModes prints recall@5 and MRR@10 of each mode over queries, by the
// SQL path (s) and the search index (si).
func scoreModes(ctx context.Context, s, si *search.Searcher, name string, queries []query) error {
	if len(queries) == 0 {
		return nil
	}
	for _, mode := range []string{search.ModeBM25, search.ModeVector, search.ModeHybrid} {
		var hit5, rr, ihit5, irr float64
		var lat, ilat time.Duration
		same := 0
		for _, q := range queries {
			t := time.Now()
			hits, err := s.Search(ctx, q.text, search.Options{K: 10, Mode: mode})
			lat += time.Since(t)
			if err != nil {
				return err
			}
			t = time.Now()
			ihits, err := si.Search(ctx, q.text, search.Options{K: 10, Mode: mode})
			ilat += time.Since(t)
			if err != nil {
				return err
			}
			a, b := score(hits, q.answers)
			hit5, rr = hit5+a, rr+b
			a, b = score(ihits, q.answers)
			ihit5, irr = ihit5+a, irr+b
			if sameChunks(hits, ihits) {
				same++
			}
		}
		n := float64(len(queries))
		fmt.Printf("%s%-7s recall@5 %.3f  MRR@10 %.3f  mean latency %.1f ms (SQL)\n", name, mode, hit5/n, rr/n, float64(lat.Microseconds())/1000/n)
		fmt.Printf("%s%-7s recall@5 %.3f  MRR@10 %.3f  mean latency %.1f ms (search index; the same hits in the same order for %d of %d queries)\n",
			name, mode, ihit5/n, irr/n, float64(ilat.Microseconds())/1000/n, same, len(queries))
	}
	return nil
}

// score is a query's recall@5 (0 or 1) and reciprocal rank.
func score(hits []search.Hit, answers map[string]bool) (float64, float64) {
	for i, h := range hits {
		if answers[h.ChunkID] {
			r5 := 0.0
			if i < 5 {
				r5 = 1
			}
			return r5, 1 / float64(i+1)
		}
	}
	return 0, 0
}

func sameChunks(a, b []search.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ChunkID != b[i].ChunkID {
			return false
		}
	}
	return true
}

type query struct {
	kind, text string
	answers    map[string]bool
}

var sentenceRe = regexp.MustCompile(`[^.!?]+[.!?]`)

// synonyms replace common words, so queries are not verbatim copies.
var synonyms = map[string]string{
	"big": "large", "large": "big", "small": "little", "buy": "purchase", "use": "utilize", "used": "utilized",
	"begin": "start", "start": "begin", "end": "finish", "show": "display", "shows": "displays", "help": "assist",
	"make": "create", "made": "created", "get": "obtain", "need": "require", "needs": "requires", "rule": "regulation",
	"rules": "regulations", "car": "automobile", "quick": "fast", "fast": "quick", "important": "significant",
	"increase": "rise", "decrease": "decline", "total": "overall", "report": "document", "company": "firm",
	"information": "data", "data": "information", "said": "stated", "about": "regarding", "also": "additionally",
	"many": "numerous", "often": "frequently", "before": "prior to", "after": "following", "because": "since",
	"shall": "must", "must": "shall", "may": "might", "number": "count", "year": "annual period", "people": "persons",
}

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

func perturb(sentence string) string {
	words := strings.Fields(sentence)
	var out []string
	for i, w := range words {
		h := hash(w + fmt.Sprint(i))
		if h%4 == 0 && len(words) > 6 { // drop about a quarter
			continue
		}
		lw := strings.ToLower(strings.Trim(w, ".,;:!?\"'()"))
		if s, ok := synonyms[lw]; ok && h%3 != 0 {
			w = s
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

func makeQueries(ctx context.Context, db *warehouse.DB, n int) ([]query, error) {
	q := db.SQL()
	// Sentences come from chunks of running text (a table's rows are no
	// sentences; table queries below ask for them), so that the sentence
	// queries are the same before and after tables were chunked.
	var hasTable int
	if err := q.QueryRowContext(ctx, `select count(*) from duckdb_columns()
		where schema_name = 'retrieval' and table_name = 'search_chunks' and column_name = 'is_table'`).Scan(&hasTable); err != nil {
		return nil, err
	}
	notTable := ""
	if hasTable > 0 {
		notTable = "and not sc.is_table"
	}
	rows, err := q.QueryContext(ctx, `select sc.chunk_id, sc.text from retrieval.search_chunks sc
		join curated.doc_quality dq using (doc_id)
		where dq.language = 'eng' and length(sc.text) >= 300 `+notTable+`
		order by hash(sc.chunk_id) limit ?`, n)
	if err != nil {
		return nil, err
	}
	type pick struct{ id, sentence string }
	var picks []pick
	for rows.Next() {
		var id, text string
		rows.Scan(&id, &text)
		best := ""
		for _, s := range sentenceRe.FindAllString(text, -1) {
			s = strings.TrimSpace(s)
			w := len(strings.Fields(s))
			if w >= 8 && w <= 40 && len(s) > len(best) {
				best = s
			}
		}
		if best != "" {
			picks = append(picks, pick{id, best})
		}
	}
	rows.Close()
	var out []query
	for _, pk := range picks {
		ans := map[string]bool{pk.id: true}
		if err := addAnswers(ctx, db, ans, `select chunk_id from retrieval.search_chunks where contains(text, ?)`, pk.sentence); err != nil {
			return nil, err
		}
		out = append(out, query{kind: "sentence", text: perturb(pk.sentence), answers: ans})
	}
	// Section questions: titles of 3+ words that head one section in one document.
	// Titles are chosen over chunks of running text too (a sheet's name
	// heads a table only); a table's chunks in the section also answer.
	rows, err = q.QueryContext(ctx, `with titled as (
			select sc.doc_id, sc.section_title, sc.chunk_id from retrieval.search_chunks sc
			join curated.doc_quality dq using (doc_id)
			where dq.language = 'eng' and sc.section_title is not null
			  and len(string_split(trim(sc.section_title), ' ')) between 3 and 12),
		prose as (select sc.doc_id, sc.section_title from retrieval.search_chunks sc where true `+notTable+`),
		single as (select section_title from titled semi join prose using (doc_id, section_title)
			group by all having count(distinct doc_id) = 1)
		select titled.doc_id, titled.section_title, list(titled.chunk_id) from titled
		join single on single.section_title = titled.section_title
		semi join prose on prose.doc_id = titled.doc_id and prose.section_title = titled.section_title
		group by titled.doc_id, titled.section_title
		order by hash(titled.section_title) limit ?`, n/4)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var doc, title string
		var ids []any
		if err := rows.Scan(&doc, &title, &ids); err != nil {
			return nil, err
		}
		ans := map[string]bool{}
		for _, id := range ids {
			ans[fmt.Sprint(id)] = true
		}
		out = append(out, query{kind: "section", text: "what does it say about " + strings.ToLower(strings.Trim(title, " .:")) + "?", answers: ans})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tq, err := tableQueries(ctx, db, n/4)
	return append(out, tq...), err
}

// tableQueries are up to n rows of curated.table_rows (English documents,
// 2+ cells, a cell of 6+ characters) asked as their cells' words: each is
// answered by the chunks of its document and page holding its longest
// cell. Before tables were chunked none held one (unless the text around
// the table repeats the cell).
func tableQueries(ctx context.Context, db *warehouse.DB, n int) ([]query, error) {
	q := db.SQL()
	rows, err := q.QueryContext(ctx, `with cells as (
			select tr.row_id, tr.doc_id, tr.page_number, list(trim(regexp_replace(v, '\\s+', ' ', 'g')) order by k) filter (where trim(coalesce(v, '')) <> '') as cells
			from curated.table_rows tr
			join curated.doc_quality dq using (doc_id),
			unnest(json_keys(tr.row_json)) as t(k),
			lateral (select tr.row_json ->> k as v)
			where dq.language = 'eng'
			group by all)
		select row_id, doc_id, page_number, cells,
			list_sort(cells, 'desc')[1] as longest
		from cells
		where len(cells) >= 2 and list_max(list_transform(cells, c -> length(c))) >= 6
		order by hash(row_id) limit ?`, n)
	if err != nil {
		return nil, err
	}
	type pick struct {
		doc, text, cell string
		page            int
	}
	var picks []pick
	for rows.Next() {
		var id, doc, longest string
		var page int
		var cells []any
		if err := rows.Scan(&id, &doc, &page, &cells, &longest); err != nil {
			rows.Close()
			return nil, err
		}
		var words []string
		long := ""
		for _, c := range cells {
			s := fmt.Sprint(c)
			words = append(words, s)
			if len(s) > len(long) {
				long = s
			}
		}
		picks = append(picks, pick{doc, strings.Join(words, " "), long, page})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []query
	for _, pk := range picks {
		ans := map[string]bool{}
		if err := addAnswers(ctx, db, ans, `select chunk_id from retrieval.search_chunks where doc_id = ? and page_number = ? and contains(text, ?)`, pk.doc, pk.page, pk.cell); err != nil {
			return nil, err
		}
		out = append(out, query{kind: "table", text: pk.text, answers: ans})
	}
	return out, nil
}

// addAnswers adds the chunk ids the query returns to ans.
func addAnswers(ctx context.Context, db *warehouse.DB, ans map[string]bool, query string, args ...any) error {
	r, err := db.SQL().QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer r.Close()
	for r.Next() {
		var id string
		if err := r.Scan(&id); err != nil {
			return err
		}
		ans[id] = true
	}
	return r.Err()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
