package cli_test

import (
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/textproc"
	_ "github.com/duckdb/duckdb-go/v2"
)

// TestDocQualityMeasuresTheWholeText: curated.doc_quality measures each
// document's text, its pages joined by a blank line in page order, though
// the model reads the pages one by one (one-page documents are never
// aggregated, stop words are counted per page). Text files split into
// many pages (loader.max_page_chars: 3000), with lines and word 5-grams
// repeated across pages and one over the 200,000 characters the stop word
// count reads: every figure equals textproc.Stats of that text (the
// text_stats UDF's function) and the stop word count of its first 200,000
// characters, after the first build and after an incremental build that
// judges a changed document again.
func TestDocQualityMeasuresTheWholeText(t *testing.T) {
	dir := shipped(t)
	py := filepath.Join(dir, "project.yaml")
	b, _ := os.ReadFile(py)
	y := strings.Replace(string(b), "\nloader:\n", "\nloader:\n  max_page_chars: 3000\n", 1)
	if y == string(b) {
		t.Fatal("project.yaml has no loader section")
	}
	os.WriteFile(py, []byte(y), 0o644)
	gen := filepath.Join(dir, "examples/inbox/gen")
	os.MkdirAll(gen, 0o755)
	p := paragraphs(40)
	repeated := "The same line comes back on every page of this report.\n"
	var long, short strings.Builder
	for i := 0; long.Len() < 230_000; i++ {
		fmt.Fprintf(&long, "%s\n%s\n\n", p[i%len(p)], repeated)
	}
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&short, "%s\n\n%s\n", p[i], repeated)
	}
	os.WriteFile(filepath.Join(gen, "long.txt"), []byte(long.String()), 0o644)
	os.WriteFile(filepath.Join(gen, "short.txt"), []byte(short.String()), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	checkQualityFigures(t, dir)

	os.WriteFile(filepath.Join(gen, "short.txt"), []byte(short.String()+"\n"+p[10]+"\n"+repeated), 0o644)
	must(t, dir, "load", "--quiet")
	out := must(t, dir, "build")
	if n := rows(t, out, "curated.doc_quality"); n != 1 {
		t.Fatalf("the incremental build should judge the changed document only, judged %d", n)
	}
	checkQualityFigures(t, dir)
}

// checkQualityFigures compares doc_quality's figures of the documents
// under gen/ with the figures of their pages' text computed here.
func checkQualityFigures(t *testing.T, dir string) {
	t.Helper()
	// the pages' text, whole (docket sql shortens long values)
	db, err := sql.Open("duckdb", filepath.Join(dir, "warehouse.read.duckdb")+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Query(`select d.rel_path, p.text from raw.documents d join staging.pages p using (source_hash)
		where d.status = 'landed' and d.rel_path like 'gen/%' order by d.rel_path, p.page_number`)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string][]string{}
	for rs.Next() {
		var path, text string
		if err := rs.Scan(&path, &text); err != nil {
			t.Fatal(err)
		}
		pages[path] = append(pages[path], text)
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	rs.Close()
	stop := stopWords(t)
	split := regexp.MustCompile(`[^\p{L}\p{N}]+`)
	got := query(t, dir, `select d.rel_path, q.pages, q.chars, q.words, q.lines, q.unique_line_ratio, q.non_whitespace_ratio,
		q.mean_word_length, q.symbol_ratio, q.dup_ngram_share, q.stop_words
		from curated.doc_quality q join raw.documents d using (doc_id) where d.rel_path like 'gen/%' order by 1`)
	if len(got) != 2 {
		t.Fatalf("want the verdicts of gen/long.txt and gen/short.txt, got %q", got)
	}
	for _, line := range got {
		f := strings.Fields(line)
		text := strings.Join(pages[f[0]], "\n\n")
		if len(pages[f[0]]) < 3 {
			t.Fatalf("%s landed as %d pages; the test needs several", f[0], len(pages[f[0]]))
		}
		s := textproc.Stats(text, nil)
		head := []rune(text)
		head = head[:min(len(head), 200_000)]
		stops := 0
		for _, w := range split.Split(strings.ToLower(string(head)), -1) {
			if stop[w] {
				stops++
			}
		}
		want := []any{f[0], len(pages[f[0]]), s.Chars, s.Words, s.Lines, s.UniqueLineRatio, s.NonWhitespaceRatio,
			s.MeanWordLength, s.SymbolRatio, s.DupNgramShare, stops}
		if len(f) != len(want) {
			t.Fatalf("doc_quality row %q", line)
		}
		for i, w := range want {
			var same bool
			switch w := w.(type) {
			case float64:
				g, err := strconv.ParseFloat(f[i], 64)
				same = err == nil && g == w
			default:
				same = f[i] == fmt.Sprint(w)
			}
			if !same {
				t.Errorf("%s: doc_quality figure %d (pages chars words lines unique_line_ratio non_whitespace_ratio mean_word_length symbol_ratio dup_ngram_share stop_words) is %s, want %v",
					f[0], i, f[i], w)
			}
		}
	}
	if len([]rune(strings.Join(pages["gen/long.txt"], "\n\n"))) <= 200_000 {
		t.Fatal("gen/long.txt should be over the 200,000 characters the stop word count reads")
	}
}

// stopWords reads the shipped stop_words seed, lower-cased as the model
// reads it.
func stopWords(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join(repo, "seeds", "stop_words.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]bool{}
	for _, r := range recs[1:] {
		m[strings.ToLower(r[1])] = true
	}
	return m
}
