// Command eval-html measures HTML main-content extraction on corpus/html-main
// (web pages with the main content a reader view keeps in expected.html).
// For each page it compares the bag of words of the text a candidate keeps
// with the bag of words of expected.html: precision, recall and F1 per page,
// averaged over pages. Candidates side by side:
//
//   - readability: go-readability alone (its rendered text);
//   - trafilatura: go-trafilatura alone (its content text, with fallback);
//   - docket: docket's HTML extractor (the page text it lands):
//     readability's main content walked by docket's own walker, less the
//     long blocks go-trafilatura left out (extract/html/agree.go), whose
//     settings were chosen on the tune split (session 6, as the line-level
//     "agreement" candidate): on this corpus, readability's own test suite,
//     it can at best tie readability, so they are there for held-out pages,
//     where trafilatura alone beats readability.
//
// The pages are split in two halves by a hash of the folder name: "tune"
// (the only half looked at while changing the extractor) and "report". Both
// are printed, each labelled. -pages prints each page's figures.
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
	"unicode"

	readability "codeberg.org/readeck/go-readability/v2"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	dhtml "github.com/docket-dev/docket/loader/internal/extract/html"
)

type score struct{ p, r, f float64 }

type candidate struct {
	name string
	run  func(data []byte) string
}

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "shared corpus folder")
	pages := flag.Bool("pages", false, "print each page's figures")
	only := flag.String("split", "", "only this split (tune or report)")
	flag.Parse()
	dir := filepath.Join(*corpus, "html-main")
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-html:", err)
		os.Exit(1)
	}
	cands := []candidate{
		{"readability", runReadability},
		{"trafilatura", runTrafilatura},
		{"docket", runDocket},
	}
	sums := map[string]map[string]score{"tune": {}, "report": {}}
	counts := map[string]int{}
	whole := map[string]int{}
	checked := map[string]map[string]int{"tune": {}, "report": {}}
	spent := map[string]time.Duration{}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, name := range names {
		src, err1 := os.ReadFile(filepath.Join(dir, name, "source.html"))
		exp, err2 := os.ReadFile(filepath.Join(dir, name, "expected.html"))
		if err1 != nil || err2 != nil {
			continue
		}
		split := Split(name)
		if *only != "" && split != *only {
			continue
		}
		want := words(htmlText(exp))
		counts[split]++
		line := fmt.Sprintf("%-6s %-40s", split, name)
		for _, c := range cands {
			start := time.Now()
			got := c.run(src)
			spent[c.name] += time.Since(start)
			s := compare(words(got), want)
			t := sums[split][c.name]
			sums[split][c.name] = score{t.p + s.p, t.r + s.r, t.f + s.f}
			line += fmt.Sprintf("  %s P%.2f R%.2f F%.2f", c.name[:4], s.p, s.r, s.f)
		}
		// The per-page record docket lands (staging.extractions.metadata).
		scope, by := "?", ""
		if lastDocket != nil {
			scope, by = lastDocket.Metadata.Extra["content_scope"], lastDocket.Metadata.Extra["content_by"]
		}
		if scope != "main_content" {
			whole[split]++
		} else {
			checked[split][by]++
		}
		line += "  (docket: " + strings.TrimSpace(scope+" "+by) + ")"
		if *pages {
			fmt.Println(line)
		}
	}
	fmt.Println("HTML main content: word-bag precision / recall / F1 against expected.html, mean over pages")
	fmt.Println("split \"tune\" was used to choose docket's settings (which library, agreement thresholds); \"report\" was not looked at while tuning")
	for _, split := range []string{"tune", "report"} {
		n := counts[split]
		if n == 0 {
			continue
		}
		fmt.Printf("%-6s (%d pages; docket kept the whole page on %d, main content checked by trafilatura on %d, readability's alone on %d)\n",
			split, n, whole[split], checked[split]["readability+trafilatura"], checked[split]["readability"])
		for _, c := range cands {
			s := sums[split][c.name]
			fmt.Printf("  %-12s P %.3f  R %.3f  F1 %.3f\n", c.name, s.p/float64(n), s.r/float64(n), s.f/float64(n))
		}
	}
	total := counts["tune"] + counts["report"]
	if total > 0 {
		fmt.Print("time per page (both splits):")
		for _, c := range cands {
			fmt.Printf("  %s %.1f ms", c.name, float64(spent[c.name].Microseconds())/1000/float64(total))
		}
		fmt.Println()
	}
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

func runTrafilatura(data []byte) string {
	res, err := trafilatura.Extract(strings.NewReader(string(data)), trafilatura.Options{EnableFallback: true, ExcludeComments: true})
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

func words(s string) map[string]int {
	bag := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		bag[w]++
	}
	return bag
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
