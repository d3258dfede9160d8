package main

// The browser set: table pages that neither the detector's own generator
// (package tablegen, drawn with fpdf) nor any corpus producer made, but
// HTML laid out and printed to PDF by Chromium (Skia's PDF backend:
// embedded font subsets, text in runs, borders and shading as filled
// rectangles). browserPage draws each page from a seed with a vocabulary,
// number forms and table styles of its own, written for this set without
// looking at the detector's failures; the truth cells are the generated
// HTML's, the truth boxes Chromium's own layout of the same file (a
// script records each table's box, read back with --dump-dom).
//
// It is scored whole, with no split and no per-document output: no rule
// is tuned on it (issue 11: judge a change by documents nobody looked
// at). It needs Chromium (make setup-test installs Debian's); without
// one the set is skipped and says so.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/tools/internal/browser"
)

// browserVersion names the generator: figures of other versions are not
// comparable.
const browserVersion = 1

// Page geometry: US Letter in CSS pixels (96 per inch), printed at 0.75
// points a pixel.
const (
	brPageW, brPageH = 816, 1056
	pxToPt           = 0.75
)

// brCell is one HTML cell as written: its text lines (joined by <br>),
// its spans, whether it is a head cell and right-aligned.
type brCell struct {
	lines  []string
	rs, cs int
	head   bool
	right  bool
	cls    string // CSS classes (the kinds set's; right writes "n")
}

// brTable is one generated table: its rows of cells as written (spanned
// places left out, as in HTML) and its style's CSS.
type brTable struct {
	rows  [][]brCell
	css   string
	style string
}

// truth places the cells in the grid (HTML's row and column spans) and
// returns them as truth cells, their lines joined by a space.
func (t brTable) truth() []cell {
	taken := map[[2]int]bool{}
	var out []cell
	for r, row := range t.rows {
		c := 0
		for _, bc := range row {
			for taken[[2]int{r, c}] {
				c++
			}
			for dr := 0; dr < bc.rs; dr++ {
				for dc := 0; dc < bc.cs; dc++ {
					taken[[2]int{r + dr, c + dc}] = true
				}
			}
			if txt := norm(strings.Join(bc.lines, " ")); txt != "" {
				out = append(out, cell{r, c, r + bc.rs - 1, c + bc.cs - 1, txt})
			}
			c += bc.cs
		}
	}
	return out
}

// html writes the table with id.
func (t brTable) html(id string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<style>%s</style>\n<table id=%q class=%q>", strings.ReplaceAll(t.css, "#T", "#"+id), id, t.style)
	for _, row := range t.rows {
		b.WriteString("<tr>")
		for _, c := range row {
			tag := "td"
			if c.head {
				tag = "th"
			}
			b.WriteString("<" + tag)
			if c.rs > 1 {
				fmt.Fprintf(&b, " rowspan=%d", c.rs)
			}
			if c.cs > 1 {
				fmt.Fprintf(&b, " colspan=%d", c.cs)
			}
			if c.right {
				b.WriteString(` class="n"`)
			} else if c.cls != "" {
				fmt.Fprintf(&b, " class=%q", c.cls)
			}
			b.WriteString(">")
			for i, l := range c.lines {
				if i > 0 {
					b.WriteString("<br>")
				}
				b.WriteString(html.EscapeString(l))
			}
			b.WriteString("</" + tag + ">")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	return b.String()
}

// brWords is the set's own vocabulary.
var brWords = strings.Fields(`harbour ledger orchard quarry meadow lantern cobalt granite willow beacon
	canal furnace tannery bakery depot signal timber copper vessel mill pasture ferry market bridge
	station kiln warehouse spindle loom reservoir garrison chapel tollhouse boatyard foundry brewery
	northern upper lower eastern western central coastal inland rural urban annual quarterly monthly
	net gross adjusted estimated revised provisional total average median share rate index volume
	intake output capacity demand supply transfer balance reserve surplus deficit yield freight
	passengers tonnage acreage households licences permits inspections repairs claims grants loans`)

var brFamilies = []string{`"DejaVu Sans", sans-serif`, `"DejaVu Serif", serif`, `"Liberation Sans", sans-serif`,
	`"Liberation Serif", serif`, `"DejaVu Sans Condensed", "DejaVu Sans", sans-serif`, `"Liberation Sans Narrow", sans-serif`}

var brMonths = strings.Fields("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec")

// brGen draws one page's parts from its own random source.
type brGen struct{ r *rand.Rand }

func (g brGen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g brGen) phrase(lo, hi int) string {
	n := lo + g.r.IntN(hi-lo+1)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.pick(brWords)
	}
	return strings.Join(ws, " ")
}

func (g brGen) title(lo, hi int) string {
	s := g.phrase(lo, hi)
	return strings.ToUpper(s[:1]) + s[1:]
}

func (g brGen) paragraph() string {
	var b strings.Builder
	for i, n := 0, 2+g.r.IntN(4); i < n; i++ {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(g.title(6, 16) + ".")
	}
	return b.String()
}

// thousands writes n with commas every three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// value draws one cell of a column of kind k.
func (g brGen) value(k int) string {
	switch k {
	case 0: // count
		return thousands(g.r.IntN(250000))
	case 1: // decimal
		return fmt.Sprintf("%.*f", 1+g.r.IntN(2), g.r.Float64()*900)
	case 2: // percent
		return fmt.Sprintf("%.1f%%", g.r.Float64()*100)
	case 3: // money, negatives in parentheses
		v := thousands(g.r.IntN(90000)) + fmt.Sprintf(".%02d", g.r.IntN(100))
		if g.r.IntN(5) == 0 {
			return "(" + v + ")"
		}
		return "$" + v
	case 4: // date
		return fmt.Sprintf("%d %s %d", 1+g.r.IntN(28), g.pick(brMonths), 1990+g.r.IntN(35))
	case 5: // code
		return fmt.Sprintf("%c%c-%03d", 'A'+rune(g.r.IntN(26)), 'A'+rune(g.r.IntN(26)), g.r.IntN(1000))
	case 6: // short text
		return g.phrase(1, 2)
	default: // long text (wraps in a narrow column)
		return g.title(4, 12)
	}
}

// table draws one table of up to maxCols columns.
func (g brGen) table(maxCols int) brTable {
	nc := 2 + g.r.IntN(maxCols-1)
	kinds := make([]int, nc)
	kinds[0] = 6
	long := -1
	for i := 1; i < nc; i++ {
		kinds[i] = g.r.IntN(7)
		if long < 0 && g.r.IntN(6) == 0 {
			kinds[i], long = 7, i
		}
	}
	var t brTable
	// head: one row, or a group head over 2-3 columns with the others
	// spanning both head rows
	heads := make([]brCell, nc)
	for i := range heads {
		heads[i] = brCell{lines: []string{g.title(1, 3)}, rs: 1, cs: 1, head: true}
		if g.r.IntN(5) == 0 {
			heads[i].lines = []string{g.title(1, 2), g.phrase(1, 2)}
		}
	}
	if nc >= 4 && g.r.IntN(3) == 0 {
		span := 2 + g.r.IntN(2)
		at := 1 + g.r.IntN(nc-span)
		var top []brCell
		for i := 0; i < nc; i++ {
			switch {
			case i == at:
				top = append(top, brCell{lines: []string{g.title(1, 3)}, rs: 1, cs: span, head: true})
			case i > at && i < at+span:
			default:
				h := heads[i]
				h.rs = 2
				top = append(top, h)
			}
		}
		t.rows = append(t.rows, top, heads[at:at+span])
	} else {
		t.rows = append(t.rows, heads)
	}
	nb := 2 + g.r.IntN(11)
	if long >= 0 || nc > 5 {
		nb = 2 + g.r.IntN(7)
	}
	group := g.r.IntN(5) == 0 // the first column's labels span rows
	for r := 0; r < nb; r++ {
		var row []brCell
		for i, k := range kinds {
			if i == 0 && group {
				if r%3 != 0 {
					continue
				}
				row = append(row, brCell{lines: []string{g.title(1, 2)}, rs: min(3, nb-r), cs: 1})
				continue
			}
			c := brCell{lines: []string{g.value(k)}, rs: 1, cs: 1, right: k <= 3}
			if i == 0 {
				c.lines[0] = g.title(1, 3)
			}
			if k <= 3 && g.r.IntN(15) == 0 {
				c.lines[0] = "" // empty cell
			}
			row = append(row, c)
		}
		t.rows = append(t.rows, row)
	}
	t.style, t.css = g.style(long)
	return t
}

// style draws the table's look: rules, padding, type.
func (g brGen) style(long int) (string, string) {
	styles := []string{"grid", "booktabs", "plain", "zebra", "box", "shadedhead"}
	s := g.pick(styles)
	font := g.pick(brFamilies)
	size := 9 + g.r.IntN(5)
	pv, ph := 1+g.r.IntN(6), 3+g.r.IntN(10)
	css := fmt.Sprintf("#T{border-collapse:collapse;font-family:%s;font-size:%dpx;margin:%dpx 0}"+
		"#T td,#T th{padding:%dpx %dpx;vertical-align:top;text-align:left}#T .n{text-align:right}#T th{font-weight:%s}",
		font, size, 6+g.r.IntN(18), pv, ph, g.pick([]string{"bold", "normal", "600"}))
	switch s {
	case "grid":
		css += fmt.Sprintf("#T td,#T th{border:%dpx solid #%s}", 1+g.r.IntN(2), g.pick([]string{"000", "555", "999"}))
	case "booktabs":
		css += "#T{border-top:2px solid #000;border-bottom:2px solid #000}#T tr:first-child th{border-bottom:1px solid #000}"
	case "zebra":
		css += fmt.Sprintf("#T tr:nth-child(even) td{background:#%s}", g.pick([]string{"eee", "e4ecf4", "f2f2e6"}))
	case "box":
		css += "#T{border:1px solid #000}"
	case "shadedhead":
		css += fmt.Sprintf("#T th{background:#%s}", g.pick([]string{"ddd", "c8d8e8", "333;color:#fff"}))
	}
	if long >= 0 {
		css += fmt.Sprintf("#T td:nth-child(%d){width:%dpx}", long+1, 110+g.r.IntN(120))
	}
	return s, css
}

// brPage is one generated page: its HTML body and its tables in order.
type brPage struct {
	body   string
	tables []brTable
}

// browserPage draws page seed.
func browserPage(seed uint64) brPage {
	g := brGen{rand.New(rand.NewPCG(seed, 0x6272777372))}
	var p brPage
	var b strings.Builder
	para := func() { fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(g.paragraph())) }
	add := func(maxCols int) string {
		t := g.table(maxCols)
		p.tables = append(p.tables, t)
		return t.html(fmt.Sprintf("s%dt%d", seed, len(p.tables)))
	}
	for i := g.r.IntN(3); i > 0; i-- {
		para()
	}
	if g.r.IntN(2) == 0 {
		fmt.Fprintf(&b, "<p><b>Table %d.</b> %s</p>\n", 1+g.r.IntN(20), html.EscapeString(g.title(3, 8)))
	}
	switch g.r.IntN(8) {
	case 0: // two tables side by side
		fmt.Fprintf(&b, `<div style="display:flex;gap:%dpx;align-items:flex-start">`, 24+g.r.IntN(32))
		b.WriteString("<div>" + add(3) + "</div><div>" + add(3) + "</div></div>\n")
	case 1, 2: // two tables one above the other
		b.WriteString(add(5))
		if g.r.IntN(2) == 0 {
			para()
		}
		b.WriteString(add(5))
	default:
		b.WriteString(add(7))
	}
	if g.r.IntN(2) == 0 {
		para()
	}
	p.body = b.String()
	return p
}

// brScript records each page's table boxes (CSS pixels from the page's
// top left) in a hidden element, and whether the page overflowed.
const brScript = `<script>
const out=[];document.querySelectorAll('.page').forEach((pg,i)=>{const pr=pg.getBoundingClientRect();
const boxes=[];pg.querySelectorAll('table').forEach(t=>{const r=t.getBoundingClientRect();boxes.push([r.left-pr.left,r.top-pr.top,r.right-pr.left,r.bottom-pr.top])});
out.push({boxes:boxes,over:pg.scrollHeight>pg.clientHeight||pg.scrollWidth>pg.clientWidth})});
const pre=document.createElement('pre');pre.id='truth';pre.style.display='none';pre.textContent=JSON.stringify(out);document.body.appendChild(pre);
</script>`

// browserHTML is the document of pages seeds 1..n, each on a printed page.
func browserHTML(pages []brPage) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html><head><meta charset="utf-8"><style>
@page{size:%dpx %dpx;margin:0}html,body{margin:0;padding:0}
.page{width:%dpx;height:%dpx;overflow:hidden;box-sizing:border-box;padding:64px 56px;break-after:page;font-family:"DejaVu Serif",serif;font-size:12px;line-height:1.35}
</style></head><body>
`, brPageW, brPageH, brPageW, brPageH)
	for _, p := range pages {
		b.WriteString(`<div class="page">` + p.body + "</div>\n")
	}
	b.WriteString(brScript + "</body></html>\n")
	return b.String()
}

// brLayout is the script's record of one page.
type brLayout struct {
	Boxes [][4]float64 `json:"boxes"`
	Over  bool         `json:"over"`
}

var truthRe = regexp.MustCompile(`(?s)<pre id="truth"[^>]*>(.*?)</pre>`)

// renderBrowser prints the pages to PDF with Chromium and reads back the
// layout of the same file; dir is a scratch folder.
func renderBrowser(pages []brPage, dir string) ([]byte, []brLayout, error) {
	pr, err := browser.New(dir)
	if err != nil {
		return nil, nil, err
	}
	doc := browserHTML(pages)
	b, err := pr.PDF("tables", doc)
	if err != nil {
		return nil, nil, err
	}
	dom, err := pr.DOM("tables", doc, brPageW, brPageH)
	if err != nil {
		return nil, nil, err
	}
	m := truthRe.FindSubmatch(dom)
	if m == nil {
		return nil, nil, errors.New("chromium's DOM has no table boxes (the layout script did not run)")
	}
	var lay []brLayout
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &lay); err != nil {
		return nil, nil, fmt.Errorf("table boxes: %w", err)
	}
	if len(lay) != len(pages) {
		return nil, nil, fmt.Errorf("chromium laid out %d pages, want %d", len(lay), len(pages))
	}
	return b, lay, nil
}

// browserTruth is the truth tables of the pages that did not overflow,
// and which pages those are (1-based).
func browserTruth(pages []brPage, lay []brLayout) ([]gtTable, map[int]bool) {
	var gts []gtTable
	scored := map[int]bool{}
	for i, p := range pages {
		if lay[i].Over || len(lay[i].Boxes) != len(p.tables) {
			continue
		}
		scored[i+1] = true
		for j, t := range p.tables {
			bx := lay[i].Boxes[j]
			gts = append(gts, gtTable{page: i + 1, cells: t.truth(),
				bb: document.BBox{X0: bx[0] * pxToPt, Y0: bx[1] * pxToPt, X1: bx[2] * pxToPt, Y1: bx[3] * pxToPt}})
		}
	}
	return gts, scored
}

// scratch is out (made if missing) or, when out is empty, a temporary
// folder that done removes.
func scratch(out, prefix string) (dir string, done func(), err error) {
	if out == "" {
		d, err := os.MkdirTemp("", prefix)
		if err != nil {
			return "", nil, err
		}
		return d, func() { os.RemoveAll(d) }, nil
	}
	return out, func() {}, os.MkdirAll(out, 0o755)
}

// printBrowser scores n browser pages (seeds 1..n); out, when set, keeps
// the HTML and PDF there.
func printBrowser(ex *pdf.Extractor, n int, out string) error {
	if n <= 0 {
		return nil
	}
	dir, done, err := scratch(out, "eval-tables-browser-")
	if err != nil {
		return err
	}
	defer done()
	pages := make([]brPage, n)
	for i := range pages {
		pages[i] = browserPage(uint64(i + 1))
	}
	b, lay, err := renderBrowser(pages, dir)
	if errors.Is(err, browser.ErrNoChromium) {
		fmt.Printf("browser: skipped: %v\n", err)
		return nil
	} else if err != nil {
		return fmt.Errorf("browser set: %w", err)
	}
	res, err := ex.ExtractBytes(context.Background(), b, "browser.pdf", document.Options{})
	if err != nil {
		return fmt.Errorf("browser.pdf: %w", err)
	}
	gts, scored := browserTruth(pages, lay)
	var dets []document.Table
	for _, d := range res.Tables {
		if scored[d.Page] {
			dets = append(dets, d)
		}
	}
	var t tally
	t.docs = len(scored)
	scoreTables(gts, dets, &t, opts{}, "browser")
	leaks(res, dets, &t, opts{})
	t.print(fmt.Sprintf("browser: %d pages (Chromium-printed HTML tables, generator v%d, seeds 1..%d; %d overflowed their page and are not scored)",
		t.docs, browserVersion, n, n-t.docs), "HELD OUT: never tuned on, no per-document output", true)
	return nil
}
