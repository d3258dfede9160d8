package ocr

import (
	"strings"
	"testing"
	"unicode"
)

// dashedRule draws a horizontal dashed rule into a w-wide grey image:
// dashes of 17 pixels, 16 apart, 4 high (a scanned table's row rule at
// 300 dpi).
func dashedRule(g []byte, w, x0, x1, y int) {
	for yy := y; yy < y+4; yy++ {
		for x := x0; x < x1; x++ {
			if (x-x0)%33 < 17 {
				g[yy*w+x] = 0
			}
		}
	}
}

// A dashed rule under each line of a page (a ruled table's rows) is no
// part of the first reading: before rules were erased, Tesseract read the
// dashes as characters ("——", "~Ss«d") and the rows came back weak, to be
// read a second time.
func TestDashedRulesNotRead(t *testing.T) {
	g, w, h := renderFixture(t)
	pre := DefaultPreprocess
	pre.Reread = false // the first reading alone
	e, err := NewEngineWith([]string{"eng"}, pre)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	clean, err := e.RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int][4]float64{}
	for _, wd := range clean.Words {
		b, ok := lines[wd.Line]
		if !ok {
			b = [4]float64{wd.BBox.X0, wd.BBox.Y0, wd.BBox.X1, wd.BBox.Y1}
		}
		lines[wd.Line] = [4]float64{min(b[0], wd.BBox.X0), min(b[1], wd.BBox.Y0), max(b[2], wd.BBox.X1), max(b[3], wd.BBox.Y1)}
	}
	if len(lines) != 5 {
		t.Fatalf("clean page: %d lines, want 5: %q", len(lines), clean.Text)
	}
	ruled := append([]byte(nil), g...)
	for _, b := range lines {
		dashedRule(ruled, w, int(b[0])-40, int(b[2])+200, int(b[3])+12)
	}
	r, err := e.RecognizeGray(ruled, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	for _, wd := range r.Words {
		if !strings.ContainsFunc(wd.Text, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) {
			t.Errorf("rule read as a word %q (confidence %.0f)", wd.Text, wd.Confidence)
		}
	}
	for _, line := range strings.Split(fixtureText, "\n") {
		if !strings.Contains(r.Text, line) {
			t.Errorf("line %q not read: %q", line, r.Text)
		}
	}
}

// eraseRules paints a dashed rule white but keeps a dash a glyph's stroke
// crosses, and leaves a solid rule and text-like ink (strokes taller than
// a rule is thick) alone.
func TestEraseRules(t *testing.T) {
	const w, h = 600, 200
	g := make([]byte, w*h)
	for i := range g {
		g[i] = 255
	}
	dashedRule(g, w, 50, 562, 100) // 16 dashes
	for y := 80; y < 120; y++ {    // a stroke crossing the dash at 281..298
		for x := 288; x < 292; x++ {
			g[y*w+x] = 0
		}
	}
	for y := 20; y < 50; y++ { // a "line of bold letters": long and as high as text
		for x := 50; x < 550; x++ {
			if x%40 < 30 {
				g[y*w+x] = 0
			}
		}
	}
	for y := 150; y < 153; y++ { // a solid rule
		for x := 50; x < 550; x++ {
			g[y*w+x] = 0
		}
	}
	before := append([]byte(nil), g...)
	if n := eraseRules(&greyImage{data: g, w: w, h: h, stride: w}, 300); n == 0 {
		t.Fatal("nothing painted")
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			inRule := y >= 100 && y < 104 && x >= 50 && x < 562
			crossing := x >= 281 && x < 298 && y >= 80 && y < 120
			switch {
			case inRule && !crossing && g[i] != 255:
				t.Fatalf("rule pixel (%d,%d) left %d", x, y, g[i])
			case (!inRule || crossing) && g[i] != before[i]:
				t.Fatalf("pixel (%d,%d) off the rule changed %d -> %d", x, y, before[i], g[i])
			}
		}
	}
}

// Ink that only looks like a dashed rule row by row is left alone: a thin
// solid rule left slanted by deskew (each row sees even dashes, the rows
// next to it fill the gaps; corpus p03 after deskew) and strokes of uneven
// length and spacing that happen to line up (characters' bars).
func TestEraseRulesLeavesLookalikes(t *testing.T) {
	const w, h = 700, 120
	g := make([]byte, w*h)
	for i := range g {
		g[i] = 255
	}
	for x := 50; x < 650; x++ { // 1 px thick, stepping between two rows every 20 px
		y := 30 + (x-50)/20%2
		g[y*w+x] = 0
	}
	if n := eraseRules(&greyImage{data: g, w: w, h: h, stride: w}, 300); n != 0 {
		t.Fatalf("slanted solid rule: %d pixels painted", n)
	}
	x := 50
	for i := 0; x < 650; i++ { // uneven dashes and gaps
		l, gap := []int{12, 30, 16, 40}[i%4], []int{10, 22, 13, 24}[i%4]
		for k := x; k < min(x+l, 650); k++ {
			for y := 90; y < 93; y++ {
				g[y*w+k] = 0
			}
		}
		x += l + gap
	}
	before := append([]byte(nil), g...)
	if n := eraseRules(&greyImage{data: g, w: w, h: h, stride: w}, 300); n != 0 {
		for i := range g {
			if g[i] != before[i] {
				t.Fatalf("uneven strokes: %d pixels painted, first at (%d,%d)", n, i%w, i/w)
			}
		}
	}
}
