package table

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// leadPage is a page of prose at a 12pt leading (9pt text) with a table
// of rows under it: rows a leading apart, or, pitched, a row's padding
// further (a browser's table: rowPitch holds between them), some first
// cells wrapped onto a second line at the leading.
func leadPage(rng *rand.Rand, pitched bool) []phraseAt {
	ps := proseColumns(rng, 8+rng.Intn(8), false)
	y := ps[len(ps)-1].y + 30
	ps = append(ps, phraseAt{42, y, "Site"}, phraseAt{200, y, "2021"}, phraseAt{300, y, "2022"})
	step := 12.0
	if pitched {
		step = 16
	}
	for r := 0; r < 4+rng.Intn(6); r++ {
		y += step
		ps = append(ps, phraseAt{42, y, fmt.Sprintf("Operator %c", 'A'+r)},
			phraseAt{200, y, fmt.Sprintf("%d.%d", 10+rng.Intn(90), rng.Intn(10))},
			phraseAt{300, y, fmt.Sprintf("%d.%d", 10+rng.Intn(90), rng.Intn(10))})
		if rng.Intn(3) == 0 {
			y += 12
			ps = append(ps, phraseAt{42, y, "and its sites"})
		}
	}
	return ps
}

// gridsOfLead builds the grid of lines three ways: the lead hidden (as
// textTable reads the evidence), every word's lead 0 (as it did before
// hideLead), and the lead shown; asked is leadShown's answer.
func gridsOfLead(lines []*textLine) (hidden, zero, shown layout, asked bool) {
	var ws []*word
	for _, l := range lines {
		ws = append(ws, l.ws...)
	}
	box := boxOf(lines)
	box.X0, box.Y0, box.X1, box.Y1 = box.X0-1, box.Y0-1, box.X1+1, box.Y1+1
	build := func() layout { return trimNotes(prune(buildGrid(box, ws, nil, nil))) }
	hideLead(ws)
	hidden = build()
	asked = leadShown(ws)
	lead := ws[0].lead
	for _, w := range ws {
		w.lead = 0
	}
	zero = build()
	for _, w := range ws {
		w.lead = lead
	}
	return hidden, zero, build(), asked
}

// TestEvidenceGridBuiltOnce: the grid built with the lead hidden is the
// grid of words whose lead is 0 (the evidence's, as before), and where
// no test would have answered otherwise with the lead (leadShown false)
// it is the grid built with the lead too, so textTable does not build
// it again: on generated pages (rows a leading apart, rows pitched) and
// on runs of 3 to 12 lines of the corpus's pages (the first 40 of each
// PDF). textTable on a table whose lead changes nothing allocates about
// what one grid does (it built two).
func TestEvidenceGridBuiltOnce(t *testing.T) {
	asked, notAsked := 0, 0
	check := func(where string, lines []*textLine) {
		t.Helper()
		hidden, zero, shown, a := gridsOfLead(lines)
		if !reflect.DeepEqual(hidden, zero) {
			t.Errorf("%s: the grid with the lead hidden %q, with lead 0 %q", where, hidden.rows, zero.rows)
		}
		if a {
			asked++
			return
		}
		notAsked++
		if !reflect.DeepEqual(hidden, shown) {
			t.Errorf("%s: no test asked the lead, but the grid with it is %q, not %q", where, shown.rows, hidden.rows)
		}
	}
	rng := rand.New(rand.NewSource(43))
	for round := 0; round < 40; round++ {
		lines, _ := pageLines(chromiumLayout(leadPage(rng, round%2 == 1)))
		check(fmt.Sprintf("generated page %d", round), lines)
		for i := 0; i+4 <= len(lines); i += 3 {
			check(fmt.Sprintf("generated page %d lines %d+", round, i), lines[i:min(len(lines), i+8)])
		}
	}
	if asked == 0 || notAsked == 0 {
		t.Fatalf("generated pages: lead asked in %d grids, not in %d: want both", asked, notAsked)
	}

	// the table of a page whose rows stand a leading apart
	lines, _ := pageLines(chromiumLayout(leadPage(rand.New(rand.NewSource(5)), false)))
	var rows []*textLine
	for _, l := range lines {
		if l.ws[0].text == "Site" || len(rows) > 0 {
			rows = append(rows, l)
		}
	}
	if len(rows) < 5 || rows[0].ws[0].lead == 0 {
		t.Fatalf("generated table: %d lines, lead %d", len(rows), rows[0].ws[0].lead)
	}
	if _, _, _, a := gridsOfLead(rows); a {
		t.Fatal("generated table, rows a leading apart: the lead asked")
	}
	var ws []*word
	for _, l := range rows {
		ws = append(ws, l.ws...)
	}
	reset := func() {
		for _, w := range ws {
			w.used = false
		}
	}
	var d Detector
	if _, ok := d.textTable(rows, nil, nil, false); !ok {
		t.Fatal("generated table: no table")
	}
	box := boxOf(rows)
	one := testing.AllocsPerRun(5, func() { trimNotes(prune(buildGrid(box, ws, nil, nil))) })
	tt := testing.AllocsPerRun(5, func() { reset(); d.textTable(rows, nil, nil, false) })
	t.Logf("generated table: a grid %.0f allocations, textTable %.0f", one, tt)
	if tt >= 1.5*one {
		t.Errorf("textTable of a table whose lead changes nothing: %.0f allocations, one grid %.0f: want under 1.5 times (the grid built once)", tt, one)
	}

	files := corpusPDFs()
	if len(files) == 0 {
		t.Log("corpus not found: generated pages only")
		return
	}
	asked, notAsked = 0, 0
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
			lines, _ := pageLines(lay)
			for k := 0; k+3 <= len(lines); k += 5 {
				check(fmt.Sprintf("%s page %d lines %d+", filepath.Base(f), i, k), lines[k:min(len(lines), k+3+k%10)])
			}
		}
		doc.Close()
	}
	t.Logf("corpus runs of lines: lead asked in %d grids, not in %d", asked, notAsked)
	if notAsked < 1000 {
		t.Errorf("corpus: %d grids the lead changed nothing in, want 1,000 or more", notAsked)
	}
}
