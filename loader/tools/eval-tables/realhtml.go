package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/tools/internal/browser"
	"github.com/docket-dev/docket/loader/tools/internal/npmpkg"
)

// The realhtml set (since session 29): real web pages' data tables, each
// printed by Chromium on a page of its own with the page's own CSS and the
// text around it (realScript), the truth read from the DOM of what was
// printed (cells with their spans and text, the table's box): real layouts
// and real CSS, the held-out browser set's kind, with exact truth. The
// pages are those of the visible corpus (html-main, mixed) and of
// go-trafilatura's test-files (comparison and mock, read from the Go
// module cache, never copied; the comparison pages named by 32 hex digits,
// the article-extraction benchmark's, are held out: never opened) and of
// the npm package unfluff's fixtures (unfluffVersion) that
// hold a data table as x/net/html parses them (dataTable). Split by the
// page's name like ICDAR EU (reportSplit). Printing takes a few seconds a
// page; the printed PDF and the truth are kept under -realhtml-cache by
// the page's content and realHTMLVersion, and read back next time.
const realHTMLVersion = 3 // 2: printed in one browser over the DevTools protocol, the page as the script left it; 3: forms, calendars and icon grids are no data tables

// unfluffVersion is the npm package unfluff (Apache-2.0) whose fixtures,
// saved news and reference pages, are pages of the set (since v1's second
// landing): read where npm pack puts it (-npm-cache), never copied.
const unfluffVersion = "3.2.0"

const (
	realPageW, realPageH = 816, 1056 // US letter at 96 px an inch
	realPad              = 48
	realMaxTables        = 6   // candidate tables printed from one page
	realMinZoom          = 0.5 // a table shrunk more to fit is not scored
)

// realSource is one web page of the set: its name (split and output) and
// file.
type realSource struct{ name, path string }

// realPage is the script's record of one printed page.
type realPage struct {
	Over  bool     `json:"over"`
	Zoom  float64  `json:"zoom"`
	Table domTable `json:"table"`
}

// realOut is the script's record of one source's printed document.
type realOut struct {
	Mode  string     `json:"mode"`
	Pages []realPage `json:"pages"`
}

var heldOutHex = regexp.MustCompile(`^[0-9a-f]{32}\.html?$`)

// realSources lists the set's candidate pages: every HTML file of the
// corpus's html-main (source.html) and mixed folders, of go-trafilatura's
// test-files/comparison and mock (modDir; "" when the module is not
// there), the held-out ones left out unopened, and of the npm package
// unfluff's fixtures (unfluffDir, its unpacked folder; "" when npm could
// not fetch it), sorted by name.
func realSources(corpus, modDir, unfluffDir string) []realSource {
	var out []realSource
	add := func(prefix, root string, keep func(rel string) bool) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			if keep(rel) {
				out = append(out, realSource{name: prefix + filepath.ToSlash(rel), path: p})
			}
			return nil
		})
	}
	isHTML := func(rel string) bool {
		e := strings.ToLower(filepath.Ext(rel))
		return e == ".html" || e == ".htm"
	}
	add("html-main/", filepath.Join(corpus, "html-main"), func(rel string) bool { return filepath.Base(rel) == "source.html" })
	add("mixed/", filepath.Join(corpus, "mixed"), isHTML)
	if modDir != "" {
		for _, sub := range []string{"comparison", "mock"} {
			add("trafilatura/"+sub+"/", filepath.Join(modDir, "test-files", sub), func(rel string) bool {
				return isHTML(rel) && !heldOutHex.MatchString(filepath.Base(rel))
			})
		}
	}
	if unfluffDir != "" {
		add("unfluff/", filepath.Join(unfluffDir, "package", "fixtures"), isHTML)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// modDir is a Go module's folder in the module cache (`go mod download
// -json`, which fetches it when missing).
func modDir(path, version string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", path+"@"+version).Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		return "", errors.New(info.Error)
	}
	if err != nil {
		return "", err
	}
	return info.Dir, nil
}

// realPrepare reads a page as the browser would (its charset), keeps it
// when it holds a data table, and returns it as UTF-8 HTML without its
// scripts, frames, base and charset declarations or remote references
// (the machine has no network; an image keeps its size attributes),
// realScript added at the end of its body.
func realPrepare(raw []byte) (string, bool) {
	r, err := charset.NewReader(bytes.NewReader(raw), "text/html")
	if err != nil {
		return "", false
	}
	doc, err := xhtml.Parse(r)
	if err != nil {
		return "", false
	}
	any := false
	for _, t := range parsedTables(doc) {
		if ok, _ := dataTable(t); ok {
			any = true
			break
		}
	}
	if !any {
		return "", false
	}
	var head, body *xhtml.Node
	var drop []*xhtml.Node
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			switch n.DataAtom {
			case atom.Head:
				head = n
			case atom.Body:
				body = n
			case atom.Script, atom.Iframe, atom.Frame, atom.Base, atom.Object, atom.Embed:
				drop = append(drop, n)
			case atom.Meta:
				for _, a := range n.Attr {
					if a.Key == "charset" || (a.Key == "http-equiv" && !strings.EqualFold(a.Val, "x-ua-compatible")) {
						drop = append(drop, n)
						break
					}
				}
			}
			if n.DataAtom != atom.A && n.DataAtom != atom.Area {
				n.Attr = localAttrs(n.Attr)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, n := range drop {
		n.Parent.RemoveChild(n)
	}
	if head == nil || body == nil {
		return "", false
	}
	head.InsertBefore(&xhtml.Node{Type: xhtml.ElementNode, Data: "meta", DataAtom: atom.Meta,
		Attr: []xhtml.Attribute{{Key: "charset", Val: "utf-8"}}}, head.FirstChild)
	var b bytes.Buffer
	if err := xhtml.Render(&b, doc); err != nil {
		return "", false
	}
	s := b.String()
	js := fmt.Sprintf(realScript, realPageW, realPageH, realPad, realMaxTables)
	i := strings.LastIndex(s, "</body>")
	if i < 0 {
		return "", false
	}
	return s[:i] + js + s[i:], true
}

// localAttrs drops the attributes that would reach the network (src,
// srcset, href, poster, data; not a link's or an area's, which loads
// nothing) when they name a remote address.
func localAttrs(as []xhtml.Attribute) []xhtml.Attribute {
	out := as[:0]
	for _, a := range as {
		v := strings.ToLower(strings.TrimSpace(a.Val))
		remote := strings.HasPrefix(v, "http:") || strings.HasPrefix(v, "https:") || strings.HasPrefix(v, "//") ||
			(a.Key == "srcset" && strings.Contains(v, "//"))
		switch a.Key {
		case "src", "srcset", "poster", "data", "href":
			if remote {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// realKey names a prepared page's cache files: its content's hash.
func realKey(doc string) string {
	h := sha256.Sum256([]byte(doc))
	return hex.EncodeToString(h[:8])
}

// realRender lays the prepared page out and prints what realScript made
// of it (realPrinter; started on the first page not in the cache); with
// cache set, the PDF and the record are kept there by the page's content
// and read back next time.
func realRender(pr *lazyPrinter, doc string, cache string) ([]byte, realOut, error) {
	var out realOut
	base := filepath.Join(cache, fmt.Sprintf("v%d-%s", realHTMLVersion, realKey(doc)))
	if cache != "" {
		if b, err := os.ReadFile(base + ".pdf"); err == nil {
			if j, err := os.ReadFile(base + ".json"); err == nil && json.Unmarshal(j, &out) == nil {
				return b, out, nil
			}
		}
	}
	p, err := pr.get()
	if err != nil {
		return nil, out, err
	}
	var jerr error
	_, b, err := p.render(doc, func(record string) bool {
		jerr = json.Unmarshal([]byte(record), &out)
		return jerr == nil && len(out.Pages) > 0
	})
	if err != nil {
		return nil, out, err
	}
	if jerr != nil {
		return nil, out, fmt.Errorf("the page's record: %w", jerr)
	}
	if cache != "" {
		j, _ := json.Marshal(out)
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, out, err
		}
		if err := os.WriteFile(base+".pdf", b, 0o644); err != nil {
			return nil, out, err
		}
		if err := os.WriteFile(base+".json", j, 0o644); err != nil {
			return nil, out, err
		}
	}
	return b, out, nil
}

// lazyPrinter starts the realPrinter when a page first needs printing,
// so that a run whose pages are all cached starts no browser.
type lazyPrinter struct {
	dir string
	p   *realPrinter
	err error
}

func (l *lazyPrinter) get() (*realPrinter, error) {
	if l.p == nil && l.err == nil {
		l.p, l.err = newRealPrinter(l.dir)
	}
	return l.p, l.err
}

func (l *lazyPrinter) close() {
	if l.p != nil {
		l.p.close()
	}
}

// realCounts are the set's page counts for its figure lines.
type realCounts struct {
	sources, withData, printed, notData, over int
	why                                       map[string]int
}

// printRealHTML scores the set's two splits, or prints a skip line.
func printRealHTML(ex *pdf.Extractor, corpus, cache, npmCache string, o opts) error {
	mod, err := modDir("github.com/markusmobius/go-trafilatura", "v1.12.2")
	if err != nil {
		fmt.Printf("realhtml: go-trafilatura's test files not found (%v): left out\n", err)
		mod = ""
	}
	unfluff, err := npmpkg.Dir(npmCache, "unfluff", unfluffVersion)
	if err != nil {
		fmt.Printf("realhtml: unfluff %s's fixtures not found and not fetched (%v): left out\n", unfluffVersion, err)
		unfluff = ""
	}
	srcs := realSources(corpus, mod, unfluff)
	if len(srcs) == 0 {
		fmt.Println("realhtml: no pages found, skipped")
		return nil
	}
	dir, done, err := scratch("", "eval-tables-realhtml-")
	if err != nil {
		return err
	}
	defer done()
	if _, err := browser.Find(); err != nil {
		fmt.Printf("realhtml: skipped: %v\n", err)
		return nil
	}
	pr := &lazyPrinter{dir: dir}
	defer pr.close()
	var tune, report tally
	n := realCounts{sources: len(srcs), why: map[string]int{}}
	for _, s := range srcs {
		raw, err := os.ReadFile(s.path)
		if err != nil {
			return err
		}
		doc, ok := realPrepare(raw)
		if !ok {
			continue
		}
		n.withData++
		t, q := &tune, o
		if reportSplit(s.name) {
			t, q = &report, o.forSplit(true, s.name)
		}
		if err := realScore(ex, pr, s.name, doc, cache, t, q, &n); err != nil {
			fmt.Fprintf(os.Stderr, "realhtml %s: %v\n", s.name, err)
		}
	}
	about := fmt.Sprintf("real web pages' data tables printed by Chromium, one a page with the page's CSS and text around; %d pages read, %d with a data table, %d tables printed, %d not data tables once laid out, %d overflowing or shrunk below half; generator v%d",
		n.sources, n.withData, n.printed, n.notData, n.over, realHTMLVersion)
	tune.print(fmt.Sprintf("realhtml/tune: %d pages (%s)", tune.docs, about), "TUNED ON since session 29", true)
	report.print(fmt.Sprintf("realhtml/report: %d pages", report.docs), "report split: not looked at when changing rules", true)
	if o.verbose {
		for _, k := range sortedKeys(n.why) {
			fmt.Printf("  not scored, %s: %d tables\n", k, n.why[k])
		}
	}
	return nil
}

// realScore prints one web page's tables and scores the printed pages
// whose table is a data table into t.
func realScore(ex *pdf.Extractor, pr *lazyPrinter, name, doc, cache string, t *tally, o opts, n *realCounts) error {
	b, out, err := realRender(pr, doc, cache)
	if err != nil || len(out.Pages) == 0 {
		return err
	}
	n.printed += len(out.Pages)
	res, err := ex.ExtractBytes(context.Background(), b, "realhtml.pdf", document.Options{})
	if err != nil {
		return err
	}
	var gts []gtTable
	scored := map[int]bool{}
	for i, p := range out.Pages {
		ok, why := dataTable(p.Table)
		switch {
		case !ok:
			n.notData++
			n.why[why]++
			continue
		case p.Over:
			n.over++
			n.why["overflows its page"]++
			continue
		case p.Zoom < realMinZoom:
			n.over++
			n.why["shrunk below half its size to fit the page"]++
			continue
		}
		scored[i+1] = true
		bx := p.Table.Box
		gts = append(gts, gtTable{page: i + 1, cells: domGrid(p.Table),
			bb: document.BBox{X0: bx[0] * pxToPt, Y0: bx[1] * pxToPt, X1: bx[2] * pxToPt, Y1: bx[3] * pxToPt}})
	}
	var dets []document.Table
	for _, d := range res.Tables {
		if scored[d.Page] {
			dets = append(dets, d)
		}
	}
	t.docs += len(scored)
	scoreTables(gts, dets, t, o, name)
	var sub document.Result
	for _, el := range res.Elements {
		if scored[el.Page] {
			sub.Elements = append(sub.Elements, el)
		}
	}
	leaks(&sub, dets, t, o)
	if o.show == name {
		fmt.Printf("%s: %d pages printed (kept in %s as v%d-%s.pdf when cached)\n", name, len(out.Pages), cache, realHTMLVersion, realKey(doc))
		for _, g := range gts {
			fmt.Printf("== truth p%d %s\n", g.page, fmtBox(g.bb))
			for _, r := range cellGrid(g.cells) {
				fmt.Printf("   %q\n", r)
			}
		}
		showDets(dets)
	}
	return nil
}
