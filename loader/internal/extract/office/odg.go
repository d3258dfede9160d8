package office

import (
	"context"
	"encoding/xml"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// An OpenDocument drawing (LibreOffice Draw's .odg) is a package like an
// ODP: office:drawing holds draw:page elements, each a list of shapes
// (frames with text boxes, custom shapes, rectangles, groups, connectors)
// in the order they were drawn (their z-order), each placed by svg:x and
// svg:y (or a draw:transform's translate when it is rotated). A standalone
// chart (.odc) is an office:chart package: the content of an ODT's
// embedded chart object, its own content.xml. Before office/15 neither had
// a mimetype docket knew, so both landed as zip archives, their XML members
// as child documents.

// ExtractODG reads an OpenDocument drawing: a page per draw:page, its
// shapes' text in reading order (shapes top to bottom, those side by side
// left to right: see odgOrder), a chart in a frame as a Caption and its
// table where the frame stands.
func ExtractODG(ctx context.Context, p string, opts document.Options) (*document.Result, error) {
	return extractODF(ctx, p, odfDrawing, opts)
}

// ExtractODC reads a standalone OpenDocument chart: a Caption "Chart:
// title" (the subtitle on its next line) and the table of its data, as an
// embedded chart of an ODT lands (office/13).
func ExtractODC(ctx context.Context, p string, opts document.Options) (*document.Result, error) {
	return extractODF(ctx, p, odfChartDoc, opts)
}

var (
	odfDrawing  = odfKind{typ: "odg", name: "ODG", mime: "application/vnd.oasis.opendocument.graphics", drawing: true}
	odfChartDoc = odfKind{typ: "odc", name: "ODC", mime: "application/vnd.oasis.opendocument.chart", chart: true}
)

// readODC adds the package's chart (content.xml is the chart's own part).
// A content with no chart:chart is corrupt; a chart with no data table
// is a warning (its caption alone lands).
func readODC(ctx context.Context, ix *zipIndex, b *builder) error {
	ch, ok, err := readODFChart(ctx, ix, "content.xml")
	if err != nil {
		if ce := ctxErr(ctx); ce != nil {
			return ce
		}
		return document.Errorf(document.KindCorrupt, "cannot read the chart: %v", err)
	}
	if !ok {
		return document.Errorf(document.KindCorrupt, "the OpenDocument chart's content.xml holds no chart:chart")
	}
	b.add(document.Caption, ch.caption(), 0)
	repeatCut(b, "the chart", ch.dropped)
	if len(trimTable(ch.rows)) == 0 {
		b.warn("the chart has no data table: only its title is read")
		return nil
	}
	b.addTableRows(ch.rows)
	return nil
}

// odgMasters are the master pages content.xml's draw:pages name
// (draw:master-page-name), for odfRegions: a master no page uses is not
// read. {"*": true} when no page names one.
func odgMasters(ctx context.Context, ix *zipIndex) map[string]bool {
	used := map[string]bool{}
	if rc, err := ix.open("content.xml"); err == nil {
		toks := partTokens{ctx: ctx, d: newDecoder(rc), part: "content.xml"}
		for {
			tok, _ := toks.next()
			if tok == nil {
				break
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "page" {
				if name, ok := attr(se, "master-page-name"); ok {
					used[name] = true
				}
			}
		}
		rc.Close()
	}
	if len(used) == 0 {
		used["*"] = true
	}
	return used
}

// odfShape is the outermost shape of a draw:page the walk is in: its
// element's local name and how many of that name are open (a group in a
// group), its place on the page and its number on the page.
type odfShape struct {
	name  string
	open  int
	pos   odfPos
	count int // shapes started on the page so far; the open one's number
}

// odfPos is a shape's top left corner and height in centimetres; ok is
// false when the shape gave none (a group: its first member's is taken).
type odfPos struct {
	x, y, h float64
	ok      bool
}

// track follows the shapes of a draw:page: t starts an element (start) or
// ends one, in a page's body.
func (s *odfShape) track(t xml.Name, se *xml.StartElement) {
	if !strings.Contains(t.Space, ":drawing:") || t.Local == "page" {
		return
	}
	if se == nil {
		if t.Local == s.name {
			if s.open--; s.open == 0 {
				s.name = ""
			}
		}
		return
	}
	switch {
	case s.name == "":
		s.name, s.open, s.pos = t.Local, 1, shapePos(*se)
		s.count++
	case t.Local == s.name:
		s.open++
		fallthrough
	default:
		if !s.pos.ok {
			s.pos = shapePos(*se)
		}
	}
}

var translateRe = regexp.MustCompile(`translate\s*\(\s*([^\s,)]+)[\s,]+([^\s,)]+)\s*\)`)

// shapePos reads a shape element's place: svg:x/svg:y, a line's
// svg:x1/svg:y1, or a rotated shape's draw:transform translate.
func shapePos(se xml.StartElement) odfPos {
	get := func(name string) (float64, bool) {
		v, ok := attr(se, name)
		if !ok {
			return 0, false
		}
		return odfLength(v)
	}
	var p odfPos
	var okx, oky bool
	if p.x, okx = get("x"); !okx {
		p.x, okx = get("x1")
	}
	if p.y, oky = get("y"); !oky {
		p.y, oky = get("y1")
	}
	if !okx || !oky {
		if tr, ok := attr(se, "transform"); ok {
			if m := translateRe.FindStringSubmatch(tr); m != nil {
				p.x, okx = odfLength(m[1])
				p.y, oky = odfLength(m[2])
			}
		}
	}
	p.h, _ = get("height")
	p.ok = okx && oky
	return p
}

// odfLength reads an ODF length ("2.5cm", "10mm", "1in", "72pt", "6pc",
// "96px") in centimetres.
func odfLength(v string) (float64, bool) {
	v = strings.TrimSpace(v)
	units := []struct {
		suffix string
		cm     float64
	}{{"cm", 1}, {"mm", 0.1}, {"in", 2.54}, {"pt", 2.54 / 72}, {"pc", 2.54 / 6}, {"px", 2.54 / 96}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			return f * u.cm, err == nil
		}
	}
	return 0, false
}

// odgItem is one thing a drawing's page shows (a paragraph, a table, an
// embedded object), held until the page ends so that its shapes land in
// reading order.
type odgItem struct {
	shape int
	pos   odfPos
	emit  func()
}

// odgPage holds a page's items.
type odgPage struct {
	w     *odfWalker
	items []odgItem
}

// newODGPage makes w's paragraphs, tables and objects wait for their
// page's end (flush), then land in reading order.
func newODGPage(w *odfWalker, objs *odfObjects) *odgPage {
	g := &odgPage{w: w}
	onPara, onTable, onPage := w.onPara, w.onTable, w.onPage
	w.onPara = func(p *odfPara) { g.hold(func() { onPara(p) }) }
	w.onTable = func(rows [][]string) { g.hold(func() { onTable(rows) }) }
	w.onObject = func(href string) {
		g.hold(func() {
			objs.add(href)
			objs.flush()
		})
	}
	w.onPage = func() {
		g.flush()
		onPage()
	}
	return g
}

func (g *odgPage) hold(emit func()) {
	g.items = append(g.items, odgItem{shape: g.w.shape.count, pos: g.w.shape.pos, emit: emit})
}

// flush lands the page's items in reading order.
func (g *odgPage) flush() {
	for _, it := range odgOrder(g.items) {
		it.emit()
	}
	g.items = g.items[:0]
	g.w.shape = odfShape{}
}

// odgOrder puts a page's items in reading order: shapes top to bottom,
// shapes side by side (their heights overlapping by half the shorter one,
// or their tops within 0.5 cm where a height is unknown) left to right;
// a shape's own paragraphs keep their order, and an item placed nowhere
// stays after the item before it. Shapes are drawn in z-order, which is
// the order they were added, not the order they are read in.
func odgOrder(items []odgItem) []odgItem {
	out := append([]odgItem(nil), items...)
	for i := range out {
		if !out[i].pos.ok && i > 0 {
			out[i].pos, out[i].shape = out[i-1].pos, out[i-1].shape
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].pos.y < out[b].pos.y })
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && (out[j].shape == out[i].shape || sameLine(out[i].pos, out[j].pos)) {
			j++
		}
		band := out[i:j]
		sort.SliceStable(band, func(a, b int) bool { return band[a].pos.x < band[b].pos.x })
		i = j
	}
	return out
}

// sameLine says whether b (no higher than a) stands beside a.
func sameLine(a, b odfPos) bool {
	if a.h <= 0 || b.h <= 0 {
		return b.y-a.y < 0.5
	}
	overlap := min(a.y+a.h, b.y+b.h) - b.y
	return overlap >= min(a.h, b.h)/2
}
