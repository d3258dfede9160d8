package table

import (
	"cmp"
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// leadingBlocksPairwise is leadingBlocks as it was before phraseKind:
// proseWords and isCaption(cellText) asked again for every pair of
// phrases a leading apart. The tests hold leadingBlocks to its answers.
func leadingBlocksPairwise(lines []*textLine, gap float64) [][][]*word {
	type seg struct {
		ws    []*word
		x, y  float64
		block int
	}
	var segs []seg
	for _, l := range lines {
		if l.ws[0].lead == 0 {
			continue
		}
		for s := range l.eachSegment(gap) {
			b := boxOf(s)
			segs = append(segs, seg{s, b.X0, b.Y0, -1})
		}
	}
	slices.SortStableFunc(segs, func(a, b seg) int { return cmp.Compare(a.y, b.y) })
	var blocks [][][]*word
	for i := range segs {
		s := &segs[i]
		for j := i - 1; j >= 0; j-- {
			p := &segs[j]
			size := p.ws[0].size
			step, want := s.y-p.y, float64(p.ws[0].lead)/100*size
			if step > want+1 {
				break
			}
			if math.Abs(p.x-s.x) > 1 || math.Abs(step-want) > min(1, 0.1*size) || math.Abs(s.ws[0].size-size) > 0.05*size ||
				!proseWords(p.ws) || isCaption(cellText(p.ws)) || isCaption(cellText(s.ws)) {
				continue
			}
			if p.block < 0 {
				p.block = len(blocks)
				blocks = append(blocks, [][]*word{p.ws})
			}
			if b := blocks[p.block]; b[len(b)-1][0] == p.ws[0] {
				s.block = p.block
				blocks[p.block] = append(b, s.ws)
			}
			break
		}
	}
	return blocks
}

// pageLines are a layout's lines as the unruled scan reads them before
// besideText (lined up, leading and column starts marked), with the
// page's phrase gap.
func pageLines(lay *pdf.Layout) ([]*textLine, float64) {
	ws := freeWords(words(lay, nil), nil)
	if len(ws) == 0 {
		return nil, 0
	}
	size := medianSize(ws)
	lines := lineUp(ws)
	markLeading(lines)
	markColumnStarts(lines, size)
	return lines, phraseGap(size)
}

// sameBlocks says where two answers of leadingBlocks differ ("" when
// they are the same blocks of the same words).
func sameBlocks(got, want [][][]*word) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d blocks, want %d", len(got), len(want))
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return fmt.Sprintf("block %d: %d phrases, want %d", i, len(got[i]), len(want[i]))
		}
		for k := range got[i] {
			if !slices.Equal(got[i][k], want[i][k]) {
				return fmt.Sprintf("block %d phrase %d: %q, want %q", i, k, cellText(got[i][k]), cellText(want[i][k]))
			}
		}
	}
	return ""
}

// proseColumns is a page of n lines of prose, 9pt at a 12pt leading, in
// one column or two (a gutter between), some lines captions or short
// lines, each word's box as chromiumLayout draws it.
func proseColumns(rng *rand.Rand, n int, two bool) []phraseAt {
	vocab := strings.Fields("the rates of service were shown in the period and the values kept by each operator for every site during two years Table Figure Source Note costs 12.5 (see) fair")
	starts := []string{"Table 3 Rates by site", "Figure 2: values", "Source: operator", "Note: see above", "table shows the rates", "* provisional"}
	var ps []phraseAt
	y := 60.0
	for i := 0; i < n; i++ {
		xs := []float64{42}
		if two {
			xs = append(xs, 315)
		}
		for _, x := range xs {
			var s string
			switch r := rng.Intn(10); {
			case r == 0:
				s = starts[rng.Intn(len(starts))]
			case r == 1:
				s = vocab[rng.Intn(len(vocab))] + "."
			default:
				k := 4 + rng.Intn(8)
				parts := make([]string, k)
				for j := range parts {
					parts[j] = vocab[rng.Intn(len(vocab))]
				}
				s = strings.Join(parts, " ")
			}
			ps = append(ps, phraseAt{x, y, s})
		}
		y += 12
		if rng.Intn(6) == 0 {
			y += 9 // a paragraph break
		}
	}
	return ps
}

// TestLeadingBlocksAsksOncePerPhrase: leadingBlocks, asking each
// phrase's prose and caption tests once (phraseKind), gives the blocks
// the pairwise tests gave, on generated pages of prose (one and two
// columns, captions, "table shows" inside a sentence, one-word lines)
// and on the corpus's PDFs' pages (the first 40 of each: 550 pages);
// and it joins a phrase's text at most once: on 60 lines of two-column
// prose (120 phrases) it allocates less than 0.85 of what the pairwise
// tests do (462 against 631 allocations; on efa4052's code, which asks
// pairwise, the two are the same and the test fails).
func TestLeadingBlocksAsksOncePerPhrase(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	for round := 0; round < 60; round++ {
		lines, gap := pageLines(chromiumLayout(proseColumns(rng, 10+rng.Intn(50), round%2 == 1)))
		if msg := sameBlocks(leadingBlocks(lines, gap), leadingBlocksPairwise(lines, gap)); msg != "" {
			t.Fatalf("generated page %d: %s", round, msg)
		}
	}

	lines, gap := pageLines(chromiumLayout(proseColumns(rand.New(rand.NewSource(7)), 60, true)))
	blocks := leadingBlocks(lines, gap)
	if len(blocks) < 5 {
		t.Fatalf("two-column prose: %d blocks of running text, want several", len(blocks))
	}
	pairwise := testing.AllocsPerRun(5, func() { leadingBlocksPairwise(lines, gap) })
	once := testing.AllocsPerRun(5, func() { leadingBlocks(lines, gap) })
	t.Logf("leadingBlocks of %d lines, %d blocks: %.0f allocations, pairwise tests %.0f", len(lines), len(blocks), once, pairwise)
	if once >= 0.85*pairwise {
		t.Errorf("leadingBlocks of 120 phrases: %.0f allocations, the pairwise tests %.0f: want under 0.85 of theirs (a phrase's text joined once)", once, pairwise)
	}

	files := corpusPDFs()
	if len(files) == 0 {
		t.Log("corpus not found: generated pages only")
		return
	}
	pages := 0
	for _, f := range files {
		doc, err := pdf.Open(f)
		if err != nil {
			continue
		}
		for i := 1; i <= doc.NumPages() && i <= 40; i++ {
			lay, err := doc.PageWith(i, pdf.Words, true)
			if err != nil || lay == nil {
				continue
			}
			lines, gap := pageLines(lay)
			if len(lines) == 0 {
				continue
			}
			pages++
			if msg := sameBlocks(leadingBlocks(lines, gap), leadingBlocksPairwise(lines, gap)); msg != "" {
				t.Errorf("%s page %d: %s", filepath.Base(f), i, msg)
			}
		}
		doc.Close()
	}
	t.Logf("%d corpus pages compared", pages)
	if pages < 100 {
		t.Errorf("%d corpus pages compared, want 100 or more", pages)
	}
}

// TestMayStartCaption: mayStartCaption says false only of phrases whose
// joined text isCaption rejects: phrases made to be close calls (a
// caption start split over words, in another order, behind white space,
// behind four points, in capitals of other scripts, not UTF-8), and
// every phrase of the corpus's pages (the first 40 of each PDF); and it
// says false of most of the corpus's phrases (the saving), whose caption
// test then allocates nothing.
func TestMayStartCaption(t *testing.T) {
	// phrase lays its words out left to right on one line, 9pt
	phrase := func(texts ...string) []*word {
		var ws []*word
		x := 40.0
		for _, s := range texts {
			wd := 4.6 * float64(max(1, len([]rune(s))))
			ws = append(ws, &word{bb: document.BBox{X0: x, Y0: 100, X1: x + wd, Y1: 110.47}, text: s, size: 9})
			x += wd + 2.5
		}
		return ws
	}
	check := func(t *testing.T, where string, ws []*word) bool {
		t.Helper()
		may, is := mayStartCaption(ws), isCaption(cellText(ws))
		if is && !may {
			var texts []string
			for _, w := range ws {
				texts = append(texts, fmt.Sprintf("%q", w.text))
			}
			t.Errorf("%s: words %s joined %q are a caption, mayStartCaption says no", where, strings.Join(texts, " "), cellText(ws))
		}
		return may
	}
	cases := [][]string{
		{"Table", "3"}, {"table", "shows"}, {"The", "table"}, {"T", "able"}, {"Ta", "ble", "2"}, {"Fig.", "2"}, {"FIGURE", "1"},
		{"Box", "3"}, {"Boxes", "of"}, {"No", "te"}, {"Note:", "see"}, {"No.", "5"}, {"A", "new", "rate"}, {"An", "nex", "B"}, {"Annex", "2"}, {"Chart:", "x"}, {"Graphs"}, {"Box", "1"},
		{"*", "provisional"}, {"*provisional"}, {" Table", "1"}, {"\u00a0Source:", "x"}, {"İ", "Table"}, {"\xffTable"},
		{"a.", "b.", "c.", "Table"}, {"....", "Table"}, {"…", "…", "…", "…", "Chart"}, {"Graph", "of"}, {"Σ", "Table"},
		{"rates", "of", "service"}, {"....Table"}, {". . . .Note", "1"}, {"Ｔable"}, {"Kelvin", "\u212a"}, {"Ch", "art", "3"}, {"S", "ource"},
		{"TAble", "1"}, {"FIG.", "2"}, {"The", "Table"}, {"Box....3"}, {"Note....1"}, {"Tab....3"}, {"B", "ox", "1"}, {"A-1"}, {"*)"}, {"Tä"}, {"T.", "able"},
	}
	for _, c := range cases {
		check(t, fmt.Sprint(c), phrase(c...))
	}
	// a caption start in another reading order: the words' boxes put
	// "Table" first whatever the slice's order
	ws := phrase("Table", "4")
	ws[0], ws[1] = ws[1], ws[0]
	check(t, "reordered", ws)

	// a phrase no word of which can start a caption is answered without
	// joining its text (cellText lines it up and copies it: allocations)
	prose := phrase("rates", "of", "service", "were", "raised")
	if allocs := testing.AllocsPerRun(20, func() {
		var k phraseKind
		if k.caption(prose) {
			t.Fatal("a caption")
		}
	}); allocs != 0 {
		t.Errorf("caption of a five-word phrase of prose: %.0f allocations, want 0 (the text not joined)", allocs)
	}

	files := corpusPDFs()
	if len(files) == 0 {
		t.Skip("corpus not found")
	}
	phrases, joined := 0, 0
	for _, f := range files {
		doc, err := pdf.Open(f)
		if err != nil {
			continue
		}
		for i := 1; i <= doc.NumPages() && i <= 40; i++ {
			lay, err := doc.PageWith(i, pdf.Words, true)
			if err != nil || lay == nil {
				continue
			}
			lines, gap := pageLines(lay)
			for _, l := range lines {
				for s := range l.eachSegment(gap) {
					phrases++
					if check(t, fmt.Sprintf("%s page %d", filepath.Base(f), i), s) {
						joined++
					}
				}
			}
		}
		doc.Close()
	}
	t.Logf("%d corpus phrases, %d joined", phrases, joined)
	if phrases < 5000 || 2*joined > phrases {
		t.Errorf("%d corpus phrases, %d joined: want 5,000 phrases or more, at most half of them joined", phrases, joined)
	}
}
