package table

import (
	"reflect"
	"testing"
)

// afmWidth is the advance of s in Helvetica at size (the AFM widths of
// its letters, digits and the punctuation used here).
func afmWidth(s string, size float64) float64 {
	const lower = "556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500"
	const upper = "667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 667 778 722 667 611 722 667 944 667 667 611"
	var lw, uw [26]float64
	for i, f := range splitInts(lower) {
		lw[i] = f
	}
	for i, f := range splitInts(upper) {
		uw[i] = f
	}
	w := 0.0
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			w += lw[r-'a']
		case r >= 'A' && r <= 'Z':
			w += uw[r-'A']
		case r >= '0' && r <= '9':
			w += 556
		case r == '-' || r == '(' || r == ')':
			w += 333
		case r == '+':
			w += 584
		default: // space , . : /
			w += 278
		}
	}
	return w * size / 1000
}

func splitInts(s string) []float64 {
	var out []float64
	v := 0.0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			out = append(out, v)
			v = 0
			continue
		}
		v = 10*v + float64(s[i]-'0')
	}
	return out
}

// browserTable lays rows out as a browser lays out an unstyled HTML
// table: each column starts 3pt (2px of border spacing and 1px of
// padding each side) after the widest cell of the column before it, and
// cells are set flush left, so the widest cell of a column stands a word
// space from the next column's cells.
func browserTable(x, y, size, pitch float64, rows [][]string) []txt {
	starts, _ := browserColumns(x, size, rows)
	var out []txt
	for i, r := range rows {
		for j, c := range r {
			if c != "" {
				out = append(out, txt{X: starts[j], Y: y + float64(i)*pitch, Size: size, S: c})
			}
		}
	}
	return out
}

// browserColumns is where each column of rows starts and how wide its
// widest cell is, as a browser sets an unstyled table from x: each column
// 3pt after the widest cell of the one before.
func browserColumns(x, size float64, rows [][]string) (starts, widths []float64) {
	n := len(rows[0])
	starts, widths = make([]float64, n), make([]float64, n)
	for j := range n {
		for _, r := range rows {
			widths[j] = max(widths[j], afmWidth(r[j], size))
		}
		starts[j] = x
		if j > 0 {
			starts[j] = starts[j-1] + widths[j-1] + 3
		}
	}
	return starts, widths
}

// TestTightColumns: an unstyled web table printed (cells a word space
// apart where a column's widest cell ends) is found, its columns where
// the cells start, although "Bottom bracket drop 30 mm" and "1,180 mm
// 1,205 mm" have no gap wider than a space.
func TestTightColumns(t *testing.T) {
	rows := [][]string{
		{"Frame size", "Small", "Medium", "Large"},
		{"Top tube length", "545 mm", "565 mm", "585 mm"},
		{"Chainstay", "435 mm", "435 mm", "435 mm"},
		{"Bottom bracket drop", "30 mm", "30 mm", "30 mm"},
		{"Wheelbase", "1,180 mm", "1,205 mm", "1,231 mm"},
		{"Reach", "440 mm", "460 mm", "480 mm"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The geometry of the frame in its three sizes, as the maker gives it for",
		"the current model year; all lengths are measured centre to centre.")...)
	pg.Items = append(pg.Items, browserTable(72, 130, 10, 13.5, rows)...)
	pg.Items = append(pg.Items, prose(72, 230,
		"The longer reach of the large frame suits riders over six feet tall, the",
		"maker says, while the small frame keeps the same chainstay length.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %+v", len(ts), ts)
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, rows) {
		t.Errorf("cells:\n got %q\nwant %q", got, rows)
	}
}

// TestNumberedEntriesAreNoColumns: a table of contents set in three
// columns of "page number, title" (the title 4pt after its number, less
// than a cell's padding, each column's titles at one x) is no table: a
// word a space or so after a number goes on from it (afterNumber), so the
// titles start no column of their own and the page numbers make no
// column of numbers (reliance.pdf p.3 read as a 6x4 table of its
// contents without it).
func TestNumberedEntriesAreNoColumns(t *testing.T) {
	entries := [][]string{
		{"2", "Company at a Glance", "42", "Management Discussion", "150", "Integrated Approach"},
		{"4", "Value Creation", "44", "Financial Performance", "152", "Extending Care"},
		{"6", "Key Indicators", "54", "Business Overview", "155", "Integrated Approach"},
		{"8", "Chairman's Statement", "60", "Retail", "162", "Material Issues"},
		{"14", "Inclusive Ecosystem", "72", "Digital Services", "166", "Driving Growth"},
	}
	var pg page
	pg.Items = append(pg.Items, txt{X: 72, Y: 90, Size: 14, Bold: true, S: "Table of Contents"})
	for i, e := range entries {
		y := 120 + float64(i)*15
		for c := 0; c < 3; c++ {
			x := 72 + 165*float64(c)
			pg.Items = append(pg.Items, txt{X: x, Y: y, Size: 10, Bold: true, S: e[2*c]})
			// the titles at one x, 4pt after the widest number of the column
			w := 0.0
			for _, o := range entries {
				w = max(w, afmWidth(o[2*c], 10)+0.3) // bold digits are a little wider
			}
			pg.Items = append(pg.Items, txt{X: x + w + 4, Y: y, Size: 10, S: e[2*c+1]})
		}
	}
	pg.Items = append(pg.Items, prose(72, 230,
		"The report follows the framework of the council and covers the year to",
		"the end of March, for the company and its subsidiaries.")...)
	if ts := detect(t, pg); len(ts) > 0 {
		t.Errorf("a table of contents read as %d tables: %s", len(ts), dump(ts))
	}
}

// TestTightNumberColumns: columns of figures set a word space apart in
// an unstyled web table ("3,86 4,6 4,75": a column's widest figure ends
// 3pt before the next column) are columns: a number a space after a
// number starts one, where a word after a number is its unit
// (finanztip p6 of realhtml's tune half kept its last three columns in
// one before).
func TestTightNumberColumns(t *testing.T) {
	rows := [][]string{
		{"Scheme", "2001", "2011", "2013", "2015"},
		{"Direct pension promises", "3,86", "4,6", "4,75", "4,71"},
		{"Direct insurance", "4,21", "4,77", "4,92", "5,12"},
		{"Pension funds", "1,39", "4,63", "14,79", "4,77"},
		{"Public service plans", "5,11", "15,23", "5,28", "5,37"},
		{"Total", "14,56", "19,5", "20,15", "20,4"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The promises of the five schemes at the end of each year, in billions,",
		"as the ministry counts them for its yearly report on pensions.")...)
	pg.Items = append(pg.Items, browserTable(72, 130, 10, 13.5, rows)...)
	pg.Items = append(pg.Items, prose(72, 230,
		"Direct promises grew fastest over the period, the public service plans",
		"least; the total rose by two fifths.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %+v", len(ts), ts)
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, rows) {
		t.Errorf("cells:\n got %q\nwant %q", got, rows)
	}
}

// TestRankingColumns: a ranking printed from an unstyled web table,
// no head over its points, whose points column stands a padding clear of
// the nation column in one row only ("JPN"), 3pt after the widest code ("NOR"), and in between
// after the others ("SLO", "GER"): a gap half as wide again as its line's
// word space is no word space (wideSpace), so two rows leave the column
// clear and the points are a column of their own (skispringen.com p1 of
// realhtml's tune half was not found without it).
func TestRankingColumns(t *testing.T) {
	rows := [][]string{
		{"Rank", "Name", "", ""},
		{"1", "Karl Geiger", "GER", "1189"},
		{"2", "Ryoyu Kobayashi", "JPN", "1186"},
		{"3", "Halvor Egner Granerud", "NOR", "910"},
		{"4", "Marius Lindvik", "NOR", "903"},
		{"5", "Anze Lanisek", "SLO", "656"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The overall standings after the last competition of the year, with the",
		"points each jumper has won so far this winter.")...)
	pg.Items = append(pg.Items, browserTable(72, 130, 10, 13.5, rows)...)
	pg.Items = append(pg.Items, prose(72, 230,
		"The leader keeps a small lead over the second, while the third and the",
		"fourth are a long way behind.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %+v", len(ts), ts)
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, rows) {
		t.Errorf("cells:\n got %q\nwant %q", got, rows)
	}
}

// TestCentredRowsOverTightColumns: a web table's head rows set centred
// in their cells (th) over body cells set flush left, a column's widest
// cell 3pt before the next column: the last column's values start at one
// x clear of the cells before them, but the head row's cells stand a
// word space or so apart across that x ("Vasconcelos  Gasol", closer
// than a cell's padding), which read as one phrase closed the column's
// gutter (motorsport-magazin p2 and p4 of realhtml's tune half: two
// columns read as one). A word after a gap that a column's x runs
// through starts a phrase (gapOver).
func TestCentredRowsOverTightColumns(t *testing.T) {
	const size, pitch = 12, 16.5
	rows := [][]string{
		{"Season", "2020 (F2)", "2021"},
		{"vs. team-mate", "Vasconcelos", "Gasol"},
		{"Share of team points", "74%", "23%"},
		{"Rank (points)", "3 (200)", "14 (32)"},
		{"Team-mate", "12 (72)", "9 (110)"},
		{"Points per race", "8,3", "1,5"},
		{"Best result", "1 (3x)", "4 (1x)"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(36, 280,
		"How the driver fared against his team-mates in the two seasons before",
		"his move, in points and results.")...)
	// the columns as a browser sets them (browserColumns), head rows'
	// cells too
	starts, widths := browserColumns(38, size, rows)
	for i, r := range rows {
		for j, c := range r {
			x := starts[j]
			if i < 2 {
				x += (widths[j] - afmWidth(c, size)) / 2 // centred
			}
			pg.Items = append(pg.Items, txt{X: x, Y: 324 + float64(i)*pitch, Size: size, S: c})
		}
	}
	ts := detect(t, pg)
	if !hasTable(ts, rows) {
		t.Errorf("want the table %q: %s", rows, dump(ts))
	}
}

// TestSignedNumberColumns: differences set with a space after their sign
// ("- 0,405  - 0,463") in an unstyled web table, a column's widest cell
// 3pt before the next: a sign a space after a number starts the next
// column's cell, it is no unit of the number before it (afterNumber), so
// the column of differences starts at one x in every row
// (motorsport-magazin p1 of realhtml's tune half: two columns read as one).
func TestSignedNumberColumns(t *testing.T) {
	rows := [][]string{
		{"Season", "2018", "2019", "2020", "2021"},
		{"Duels won", "15:6", "7:14", "13:4", "21:1"},
		{"Average gap", "- 0,176", "+ 0,115", "- 0,405", "- 0,463"},
		{"Average place", "12,9", "9,3", "10,12", "6,82"},
		{"Best place", "6", "4", "4", "4"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"How the driver fared against his team-mates in qualifying, season by",
		"season, the gap in seconds a lap.")...)
	pg.Items = append(pg.Items, browserTable(72, 130, 12, 16.5, rows)...)
	pg.Items = append(pg.Items, prose(72, 230,
		"He beat his team-mate in three of the four seasons.")...)
	ts := detect(t, pg)
	if !hasTable(ts, rows) {
		t.Errorf("want the table %q: %s", rows, dump(ts))
	}
}

// TestFigureColumnsUnderCloseHeads: an unstyled web table, its heads
// centred and a little wider than the figures under them ("2011  2013",
// a space or so apart, the head line's every small gap as wide), laid out
// as finanztip p6 of realhtml's tune half (its words' starts; Helvetica
// at 10.5pt is as wide as the page's font at 12): a year a space or so
// after a year starts the next column's head, so the heads do not close
// the gutter between two columns of figures (they were read as one:
// "4,6 4,75").
func TestFigureColumnsUnderCloseHeads(t *testing.T) {
	const size, pitch = 10.5, 16.5
	rows := [][]string{
		{"Jahr", "2001", "2011", "2013", "2015"},
		{"Direktzusagen", "3,86", "4,6", "4,75", "4,71"},
		{"Direktversicherungen", "4,21", "4,77", "4,92", "5,12"},
		{"Pensionskassen", "1,39", "4,63", "4,79", "4,77"},
		{"Pensionsfonds", "--", "0,38", "0,4", "0,44"},
		{"Zusatzversorgung", "5,11", "5,23", "5,28", "5,37"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(36, 280,
		"Deckungsmittel der betrieblichen Altersversorgung nach Durchführungswegen,",
		"in Milliarden Euro, für die Jahre 2001 bis 2015.")...)
	head := []float64{38.2, 226.0, 254.5, 282.4, 310.9}
	body := []float64{38.2, 224.5, 254.5, 280.9, 310.9}
	for i, r := range rows {
		xs := body
		if i == 0 {
			xs = head
		}
		for j, c := range r {
			pg.Items = append(pg.Items, txt{X: xs[j], Y: 324 + float64(i)*pitch, Size: size, Bold: i == 0, S: c})
		}
	}
	ts := detect(t, pg)
	if !hasTable(ts, rows) {
		t.Errorf("want the table %q: %s", rows, dump(ts))
	}
}

// TestSameWidthFigureColumns: an unstyled web table whose columns hold
// figures of one width with their unit ("29.9 bn", "17.6 bn": as many
// digits are as wide, flush left, right or centred alike), its year
// heads centred (th) over them, each column 3pt after the widest cell of
// the one before: a column's figures start at one x clear of the cells
// before in some rows, a word space after the unit before in the others,
// and they are different figures, so they start a column though all its
// words are as wide (ragged alone read no column: finanztip p1 of
// realhtml's tune half was not found, "28 Mio. 29,9 Mio. 32,6 Mio." one
// cell).
func TestSameWidthFigureColumns(t *testing.T) {
	const size, pitch = 12, 16.5
	rows := [][]string{
		{"", "2001", "2013", "2017"},
		{"Employees paying social insurance", "28 bn", "29.9 bn", "32.6 bn"},
		{"Employees with a pension", "13.6 bn", "17.6 bn", "18.1 bn"},
		{"Share", "48.7 %", "58.9 %", "55.6 %"},
		{"Entitlements in all", "14.6 bn", "20.2 bn", "20.8 bn"},
		{"Entitlements per employee", "1.07", "1.15", "1.16"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(36, 80,
		"The spread of company pensions over the years, as the ministry counts",
		"them for its yearly report; employees and entitlements in billions.")...)
	// the columns as a browser sets them (browserColumns), the bold
	// heads centred in theirs, the body's cells flush left
	pg.Items = append(pg.Items, browserTable(38, 130+pitch, size, pitch, rows[1:])...)
	starts, widths := browserColumns(38, size, rows)
	for j, c := range rows[0] {
		pg.Items = append(pg.Items, txt{X: starts[j] + (widths[j]-afmWidth(c, size))/2, Y: 130, Size: size, Bold: true, S: c})
	}
	pg.Items = append(pg.Items, prose(36, 250,
		"Some employees hold more than one entitlement, so the figures per",
		"employee stand above one.")...)
	ts := detect(t, pg)
	if !hasTable(ts, rows) {
		t.Errorf("want the table %q: %s", rows, dump(ts))
	}
}

// TestSameFigureIsNoColumn: one figure repeated at one x on three lines,
// a word space after the words before it in one and clear of them in
// two, starts no column: the same text set flush right or centred starts
// at one x whatever the column's alignment (ragged and otherFigures both
// say no); nor do different figures of one width with a line between
// them that has none at their x (a column set flush right, its other
// figures narrower or wider).
func TestSameFigureIsNoColumn(t *testing.T) {
	at := []member{
		{&word{text: "2020", bb: bbox(100, 0, 120, 10)}, true, false, 0},
		{&word{text: "2020", bb: bbox(100, 14, 120, 24)}, false, true, 1},
		{&word{text: "2020", bb: bbox(100, 28, 120, 38)}, false, true, 2},
	}
	changed := false
	if markColumn(at, nil, &changed) {
		t.Errorf("one figure repeated read as a column")
	}
	at[2].w.text = "2021"
	if !markColumn(at, nil, &changed) {
		t.Errorf("different figures of one width, lines in a row, read as no column")
	}
	at[2].line = 3
	if markColumn(at, nil, &changed) {
		t.Errorf("different figures of one width, a line between, read as a column")
	}
}

// TestNationsCupColumns: a ranking printed from an unstyled web table,
// each cell one word, its points all of four digits (one width) 3pt
// after the widest nation code ("NOR"): the points start a column though
// its words are all as wide, and the rows where they stand 0.45 of a size
// or more after the code (no word space, though less than a padding:
// "AUT  3577", "GER  3912"), in lines with no word space of their own,
// leave it clear (skispringen.com p2 of realhtml's tune half: "GER 3912"
// read as one cell).
func TestNationsCupColumns(t *testing.T) {
	rows := [][]string{
		{"1", "Germany", "GER", "3912"},
		{"2", "Austria", "AUT", "3577"},
		{"3", "Norway", "NOR", "3457"},
		{"4", "Slovenia", "SLO", "3259"},
		{"5", "Japan", "JPN", "2973"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The nations cup after the last competition of the year, with the points",
		"each nation's jumpers have won so far this winter.")...)
	// rank, nation and code in cells of fixed widths (the page's CSS), the
	// points 3pt after the widest code, as the browser sets them
	const size, pitch = 10, 14
	codeW := 0.0
	for _, r := range rows {
		codeW = max(codeW, afmWidth(r[2], size))
	}
	for i, r := range rows {
		for j, x := range []float64{72, 110, 250, 250 + codeW + 3} {
			pg.Items = append(pg.Items, txt{X: x, Y: 130 + float64(i)*pitch, Size: size, S: r[j]})
		}
	}
	pg.Items = append(pg.Items, prose(72, 230,
		"Germany leads by more than three hundred points.")...)
	ts := detect(t, pg)
	if !hasTable(ts, rows) {
		t.Errorf("want the table %q: %s", rows, dump(ts))
	}
}
