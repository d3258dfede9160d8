package pdf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

var opts = document.Options{MinCharsPerPage: 16}

func extract(t *testing.T, pages []pg) *document.Result {
	t.Helper()
	res, err := Extract(t.Context(), writePDF(t, pages), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkOffsets(t, t.Name(), res)
	return res
}

func cats(res *document.Result) []string {
	var out []string
	for _, e := range res.Elements {
		out = append(out, string(e.Category))
	}
	return out
}

// countCat is how many of res's elements are of category c.
func countCat(res *document.Result, c document.Category) int {
	n := 0
	for _, e := range res.Elements {
		if e.Category == c {
			n++
		}
	}
	return n
}

func TestOneColumnElements(t *testing.T) {
	items := []txt{{X: 72, Y: 72, Size: 20, S: "Annual Safety Review"}}
	items = append(items, column(72, 110,
		"The committee met four times this year and reviewed every incident that",
		"was reported by the regional offices, with the findings summarised below.")...)
	items = append(items, txt{X: 72, Y: 150, Size: 10, Bold: true, S: "1.2 Scope"})
	items = append(items, column(72, 170,
		"This review covers all sites operated by the company during the year and",
		"the contractors that worked on them under a framework agreement.")...)
	items = append(items,
		txt{X: 90, Y: 210, Size: 10, S: "- first finding about ladders"},
		txt{X: 90, Y: 224, Size: 10, S: "- second finding about gloves"},
		txt{X: 108, Y: 238, Size: 10, S: "- nested finding about sizes"},
	)
	res := extract(t, []pg{{Items: items}})
	want := []string{"Title", "NarrativeText", "Title", "NarrativeText", "ListItem", "ListItem", "ListItem"}
	if got := cats(res); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("categories %v, want %v", got, want)
	}
	el := res.Elements
	if el[0].Level != 1 || el[2].Level != 2 {
		t.Errorf("title levels %d, %d; want 1, 2", el[0].Level, el[2].Level)
	}
	if el[3].Section != "1.2 Scope" || el[1].Section != "Annual Safety Review" {
		t.Errorf("sections %q %q", el[1].Section, el[3].Section)
	}
	if el[4].Level != 1 || el[6].Level != 2 {
		t.Errorf("list levels %d %d, want 1 2", el[4].Level, el[6].Level)
	}
	for _, e := range el {
		if e.TableSeq != -1 || e.Page != 1 || e.BBox.X1 <= e.BBox.X0 {
			t.Errorf("element %+v", e)
		}
	}
	p := res.Pages[0]
	if p.Method != document.MethodTextLayer || p.NeedsOCR || p.Width != 612 || p.Height != 792 {
		t.Errorf("page %+v", p)
	}
	if !strings.HasPrefix(p.Text, "Annual Safety Review\n\nThe committee met") {
		t.Errorf("text %q", p.Text)
	}
	m := res.Metadata
	if m.Title != "Fixture Title" || m.Author != "Docket" || m.Created != "2024-01-02T03:04:05Z" || m.PageCount != 1 {
		t.Errorf("metadata %+v", m)
	}
}

func TestTwoColumnReadingOrder(t *testing.T) {
	var items []txt
	items = append(items, txt{X: 72, Y: 60, Size: 18, S: "Two Column Paper"})
	// both columns have a paragraph gap at the same height (y≈165)
	items = append(items, column(72, 100, "left one alpha text", "left two alpha text", "left three alpha text", "left four alpha text", "left five alpha text.")...)
	items = append(items, column(320, 100, "right one beta text", "right two beta text", "right three beta text", "right four beta text", "right five beta text.")...)
	items = append(items, column(72, 190, "left six gamma text", "left seven gamma text", "left eight gamma text.")...)
	items = append(items, column(320, 190, "right six delta text", "right seven delta text", "right eight delta text.")...)
	res := extract(t, []pg{{Items: items}})
	text := res.Pages[0].Text
	order := []string{"Two Column Paper", "left one", "left five", "left six", "left eight", "right one", "right five", "right six", "right eight"}
	last := -1
	for _, w := range order {
		i := strings.Index(text, w)
		if i <= last {
			t.Fatalf("%q out of order in:\n%s", w, text)
		}
		last = i
	}
}

func TestHeaderFooterPageNumber(t *testing.T) {
	var pages []pg
	for i := 1; i <= 3; i++ {
		items := []txt{{X: 72, Y: 30, Size: 9, S: "ACME Corp quarterly report"}}
		items = append(items, column(72, 120,
			"Body text of the page that goes on for a while and says things about",
			"the quarter, the sales, and the outlook for the next one.")...)
		items = append(items, txt{X: 280, Y: 770, Size: 9, S: "Page " + string(rune('0'+i)) + " of 3"})
		pages = append(pages, pg{Items: items})
	}
	res := extract(t, pages)
	byPage := map[int][]string{}
	for _, e := range res.Elements {
		byPage[e.Page] = append(byPage[e.Page], string(e.Category))
	}
	for p := 1; p <= 3; p++ {
		if got := strings.Join(byPage[p], ","); got != "Header,NarrativeText,PageNumber" {
			t.Errorf("page %d categories %s", p, got)
		}
	}
	txt := res.Pages[1].Text
	if !strings.HasPrefix(txt, "ACME Corp quarterly report\n\n") || !strings.HasSuffix(txt, "\n\nPage 2 of 3") {
		t.Errorf("page 2 text %q", txt)
	}
}

func TestRepeatedFooterText(t *testing.T) {
	var pages []pg
	for i := 0; i < 4; i++ {
		items := column(72, 200, "Some ordinary body text that is long enough to count as a page.")
		items = append(items, txt{X: 72, Y: 765, Size: 8, S: "Confidential - do not distribute"})
		pages = append(pages, pg{Items: items})
	}
	res := extract(t, pages)
	if n := countCat(res, document.Footer); n != 4 {
		t.Errorf("%d footers, want 4: %v", n, cats(res))
	}
}

func TestNeedsOCRPages(t *testing.T) {
	body := column(72, 100, "A page with a real text layer that has plenty of characters on it.")
	res := extract(t, []pg{
		{Items: body},
		{Image: true}, // scan: picture only
		{Image: true, Items: []txt{{X: 500, Y: 20, Size: 8, S: "p3"}}}, // scan with a stamp
		{}, // blank page: nothing to OCR
	})
	want := []bool{false, true, true, false}
	for i, p := range res.Pages {
		if p.NeedsOCR != want[i] {
			t.Errorf("page %d NeedsOCR=%v want %v (chars %d)", p.Number, p.NeedsOCR, want[i], p.CharCount)
		}
		if p.NeedsOCR && (p.Method != document.MethodNone || p.Text != "") {
			t.Errorf("page %d: method %q text %q", p.Number, p.Method, p.Text)
		}
	}
	for _, e := range res.Elements {
		if e.Page == 2 || e.Page == 3 {
			t.Errorf("element on an OCR page: %+v", e)
		}
	}
}

func TestNeedsOCRRule(t *testing.T) {
	cases := []struct {
		real, bad int
		cover     float64
		want      bool
	}{
		{500, 0, 0, false},
		{500, 0, 1, false},   // text over a background image
		{300, 400, 0, true},  // mostly unmapped glyphs
		{700, 300, 1, false}, // some unmapped glyphs: the text layer is still the better text
		{0, 0, 1, true},      // scan
		{0, 0, 0.1, true},    // only a picture of text
		{5, 0, 0.1, false},   // a figure with a label
		{5, 0, 0.95, true},   // scan with a stamp
		{0, 0, 0, false},     // blank page
		{10, 0, 0, false},    // chapter number alone
	}
	for _, c := range cases {
		if got := NeedsOCR(c.real, c.bad, 16, c.cover); got != c.want {
			t.Errorf("NeedsOCR(%d,%d,%.2f)=%v want %v", c.real, c.bad, c.cover, got, c.want)
		}
	}
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := makePDF([]pg{{Items: column(72, 100, "hello world, this is a test page")}})
	cases := []struct {
		name string
		data []byte
		kind string
	}{
		{"truncated.pdf", good[:60], document.KindCorrupt},
		{"garbage.pdf", []byte("this is not a pdf at all, just words"), document.KindCorrupt},
		{"nopages.pdf", makePDF(nil), document.KindEmpty},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Extract(t.Context(), p, opts)
		var de *document.Error
		if !errors.As(err, &de) || de.Kind != c.kind {
			t.Errorf("%s: got %v, want kind %s", c.name, err, c.kind)
		}
	}
	_, err := Extract(t.Context(), filepath.Join("testdata", "encrypted.pdf"), opts)
	var de *document.Error
	if !errors.As(err, &de) || de.Kind != document.KindEncrypted {
		t.Errorf("encrypted.pdf: got %v", err)
	}
	if _, err := (Extractor{}).ExtractBytes(t.Context(), good, "", document.Options{MaxPages: 0}); err != nil {
		t.Errorf("ExtractBytes: %v", err)
	}
	if _, err := (Extractor{}).ExtractBytes(t.Context(), makePDF([]pg{{}, {}, {}}), "", document.Options{MaxPages: 2}); !errors.As(err, &de) || de.Kind != document.KindTooManyPage {
		t.Errorf("MaxPages: got %v", err)
	}
}

func TestLayoutChars(t *testing.T) {
	d, err := Open(writePDF(t, []pg{{Items: []txt{{X: 100, Y: 200, Size: 12, Bold: true, S: "Hi there"}}}}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	lay, err := d.Page(1, Chars)
	if err != nil {
		t.Fatal(err)
	}
	if len(lay.Blocks) != 1 || len(lay.Blocks[0].Lines) != 1 {
		t.Fatalf("blocks %+v", lay.Blocks)
	}
	ln := lay.Blocks[0].Lines[0]
	if ln.Text != "Hi there" || !ln.Bold || ln.FontSize != 12 || len(ln.Chars) != 8 || lay.RealChars != 7 {
		t.Fatalf("line %+v", ln)
	}
	c := ln.Chars[0]
	if c.Rune != 'H' || c.OriginX < 99.5 || c.OriginX > 100.5 || c.OriginY < 199.5 || c.OriginY > 200.5 || c.BBox.Y0 >= 200 {
		t.Errorf("char %+v", c)
	}
	if !strings.Contains(lay.Fonts[c.Font].Name, "Helvetica-Bold") && !strings.Contains(lay.Fonts[c.Font].Name, "Bold") {
		t.Errorf("font %+v", lay.Fonts[c.Font])
	}
}

func TestPDFDate(t *testing.T) {
	cases := map[string]string{
		"D:20230405123000+02'00'": "2023-04-05T12:30:00+02:00",
		"D:20230405":              "2023-04-05T00:00:00Z",
		"D:2023":                  "2023-01-01T00:00:00Z",
		"yesterday":               "yesterday",
	}
	for in, want := range cases {
		if got := pdfDate(in); got != want {
			t.Errorf("pdfDate(%q)=%q want %q", in, got, want)
		}
	}
}

// TestPageVectors: PageWith collects stroked rules, thin and large filled
// boxes and curved paths in top-left coordinates; white paint and plain
// Page calls collect nothing.
func TestPageVectors(t *testing.T) {
	path := writePDF(t, []pg{{
		Items: column(72, 60, "Some text so the page is not empty."),
		Draw: []string{
			"1 w 72 692 m 300 692 l S",                      // horizontal rule at y=100
			"0.5 w 100 600 m 100 500 l S",                   // vertical rule x=100, y 192..292
			"72 400 200 0.6 re f",                           // thin filled rule
			"72 300 100 50 re f",                            // filled box
			"1 1 1 rg 300 300 100 50 re f 0 0 0 rg",         // white box: ignored
			"1 w 300 200 m 350 250 l 400 210 l 450 260 l S", // a plot line
		},
	}})
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	plain, err := d.Page(1, Lines)
	if err != nil || len(plain.Vectors) != 0 {
		t.Fatalf("Page without vectors: %v, %d vectors", err, len(plain.Vectors))
	}
	lay, err := d.PageWith(1, Chars, true)
	if err != nil {
		t.Fatal(err)
	}
	var hRule, vRule, thin, box, curve bool
	for _, v := range lay.Vectors {
		b := v.BBox
		switch {
		case v.Curve:
			curve = curve || (b.X0 < 301 && b.X1 > 449 && b.Y0 > 530 && b.Y1 < 594)
		case !v.Fill && b.Y1-b.Y0 < 2 && b.X0 < 73 && b.X1 > 299 && b.Y0 > 98 && b.Y1 < 102:
			hRule = true
		case !v.Fill && b.X1-b.X0 < 2 && b.Y0 > 190 && b.Y1 < 294 && b.Y1-b.Y0 > 98:
			vRule = true
		case v.Fill && b.Y1-b.Y0 < 1 && b.X1-b.X0 > 199:
			thin = true
		case v.Fill && b.X1-b.X0 > 99 && b.Y1-b.Y0 > 49:
			if b.X0 > 290 {
				t.Errorf("white box collected: %+v", b)
			}
			box = true
		}
	}
	if !hRule || !vRule || !thin || !box || !curve {
		t.Errorf("vectors: h %v v %v thin %v box %v curve %v in %+v", hRule, vRule, thin, box, curve, lay.Vectors)
	}
}
