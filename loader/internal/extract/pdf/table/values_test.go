package table

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// TestValueLinesUnderDescriptions: a table of record fields (line
// numbers, positions "17-22", a description) under plain heads, some
// descriptions going on with lines naming the values the field takes
// ("blank = none", "01-99: count ..."), flush with the description or
// indented: each such line is more of the description above it. They
// were read as rows of their own or as the next row's first line, two
// of them ended the table (the rows under them were lost), and without
// bold heads or a column of plain numbers no table was found. Also
// tablegen's sublines layout, tune seeds 26 (bold heads) and 46 (plain
// heads, a column of letter codes).
func TestValueLinesUnderDescriptions(t *testing.T) {
	for _, seed := range []uint64{26, 46} {
		doc, ts := detectGenerated(t, seed, "sublines")
		want := truthGrid(doc.Tables[0].Cells)
		if len(ts) != 1 {
			t.Errorf("seed %d: want 1 table, got %d: %s", seed, len(ts), dump(ts))
			continue
		}
		if got := cellsOf(ts[0]); !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: cells:\n got %q\nwant %q", seed, got, want)
		}
	}
	pg, want := fieldsPage()
	wantTable(t, pg, want)
}

// fieldsPage is a paragraph over a table of record fields whose
// descriptions go on with value lines (indented 6pt, flush, and in the
// colon form; the last row's too), and a paragraph under it.
func fieldsPage() (page, [][]string) {
	f := newFieldTable()
	f.row(200, "4", "01-03", "Movement Code")
	f.row(200, "4", "06-15", "Movement Date")
	f.row(206, "4", "21", "Reprint Marker", "blank = none", "A = altered record")
	f.row(200, "5", "02-09", "Storage Class", "C = changed since last year")
	f.row(206, "5", "12-14", "Label Count", "01-99: count of labels", "00: none attached")
	f.row(200, "6", "01-04", "Depot Region")
	f.row(206, "6", "30-41", "Arrival Date", "blank = not yet booked in by the depot", "D = dated by hand on receipt")
	return f.end("Fields not listed are blank on this display and are kept for later use.")
}

// fieldTable builds a page of a paragraph over a table of record fields
// (Line, Position, Description; plain heads, no rule) whose descriptions
// may go on with value lines, and the table's expected cells.
type fieldTable struct {
	pg   page
	want [][]string
	y    float64
}

func newFieldTable() *fieldTable {
	f := &fieldTable{pg: page{Items: prose(72, 80, "Each line of the display and the positions its fields take.")}, y: 130}
	f.pg.Items = append(f.pg.Items, txt{X: 80, Y: f.y, Size: 9, S: "Line"}, txt{X: 130, Y: f.y, Size: 9, S: "Position"},
		txt{X: 200, Y: f.y, Size: 9, S: "Description"})
	f.want = [][]string{{"Line", "Position", "Description"}}
	return f
}

// row adds a field whose value lines start at valueX, each more of its
// description; a value starting "+" is the meaning before it going on, set
// under the meaning's first word.
func (f *fieldTable) row(valueX float64, line, pos, desc string, values ...string) {
	f.y += 12
	f.pg.Items = append(f.pg.Items, txt{X: 95 - helvWidth(line)*0.9, Y: f.y, Size: 9, S: line},
		txt{X: 160 - helvWidth(pos)*0.9, Y: f.y, Size: 9, S: pos}, txt{X: 200, Y: f.y, Size: 9, S: desc})
	for _, v := range values {
		f.y += 11
		x := valueX
		if v[0] == '+' {
			v = v[1:]
			x += helvWidth("K = ") * 0.85
		}
		f.pg.Items = append(f.pg.Items, txt{X: x, Y: f.y, Size: 8.5, S: v})
		desc += " " + v
	}
	f.want = append(f.want, []string{line, pos, desc})
}

// end adds the paragraph under the table, and returns the page and the
// table's expected cells.
func (f *fieldTable) end(text string) (page, [][]string) {
	f.pg.Items = append(f.pg.Items, prose(72, f.y+30, text)...)
	return f.pg, f.want
}

// truthGrid is a generated table's truth cells as rows of texts, a
// spanning cell's text in its first row and column.
func truthGrid(cells []tablegen.Cell) [][]string {
	rows, cols := 0, 0
	for _, c := range cells {
		rows, cols = max(rows, c.R1+1), max(cols, c.C1+1)
	}
	out := make([][]string, rows)
	for i := range out {
		out[i] = make([]string, cols)
	}
	for _, c := range cells {
		out[c.R0][c.C0] = c.Text
	}
	return out
}

// TestRowsAfterLooseLinesOnce: a table of record fields with three
// lines under a description that name no value ("WHOLE BUNDLE or",
// ...; they end the run of aligned lines) and more rows under them: the
// rows under are read once. The part under them took the rows above as
// its header, lines a table already holds, so those rows came out in two
// overlapping tables.
func TestRowsAfterLooseLinesOnce(t *testing.T) {
	pg := page{Items: prose(72, 80, "Each line of the display and the positions its fields take.")}
	y := 130.0
	pg.Items = append(pg.Items, txt{X: 80, Y: y, Size: 9, Bold: true, S: "LINE"}, txt{X: 130, Y: y, Size: 9, Bold: true, S: "POSITION"},
		txt{X: 200, Y: y, Size: 9, Bold: true, S: "DESCRIPTION"})
	row := func(line, pos, desc string) {
		y += 12
		pg.Items = append(pg.Items, txt{X: 95 - helvWidth(line)*0.9, Y: y, Size: 9, S: line},
			txt{X: 160 - helvWidth(pos)*0.9, Y: y, Size: 9, S: pos}, txt{X: 200, Y: y, Size: 9, S: desc})
	}
	row("7", "01-03", "Movement Code")
	row("7", "06-15", "Movement Date")
	row("7", "17-22", "Counting Cycle")
	row("8", "25-41", "Movement Number")
	row("8", "67-80", "Bundle Type Marker")
	for k, s := range []string{"WHOLE BUNDLE or", "SPLIT BUNDLE or", "Blanks"} {
		y += 12
		pg.Items = append(pg.Items, txt{X: []float64{206, 203, 200}[k], Y: y, Size: 9, S: s})
	}
	row("9", "13-14", "From Depot Location Code")
	row("9", "22-24", "From Depot Movement Code")
	row("9", "35-40", "From Depot Cycle Counted")
	row("10", "01-03", "Movement Code")
	row("10", "06-15", "Movement Date")
	pg.Items = append(pg.Items, prose(72, y+30, "Fields not listed are blank on this display and are kept for later use.")...)
	ts := detect(t, pg)
	seen := map[string]int{}
	for _, tb := range ts {
		for _, r := range cellsOf(tb) {
			if len(r) >= 2 && r[1] != "" {
				seen[r[0]+" "+r[1]]++
			}
		}
	}
	for _, k := range []string{"7 01-03", "8 67-80", "9 13-14", "10 06-15"} {
		if seen[k] != 1 {
			t.Errorf("row %q read %d times: %s", k, seen[k], dump(ts))
		}
	}
}

// TestValueLinesDoubleHyphen: value lines whose value and meaning stand
// either side of two hyphens ("A -- amended return", a typed dash) are
// more of the description above, as with "=" or one hyphen; they were
// rows of their own, and two of them ended the table. Also tablegen's
// sublines page of tune seed 6 (the form on a row's three value lines).
func TestValueLinesDoubleHyphen(t *testing.T) {
	pg, want := fieldsPage()
	dash := strings.NewReplacer(" = ", " -- ", ": ", " -- ")
	for i := range pg.Items {
		pg.Items[i].S = dash.Replace(pg.Items[i].S)
	}
	for _, r := range want {
		r[2] = dash.Replace(r[2])
	}
	wantTable(t, pg, want)
	doc, ts := detectGenerated(t, 6, "sublines")
	if got, want := cellsOf(ts[0]), truthGrid(doc.Tables[0].Cells); len(ts) != 1 || !reflect.DeepEqual(got, want) {
		t.Errorf("seed 6: %d tables:\n got %q\nwant %q", len(ts), got, want)
	}
}

// TestValueMeaningGoesOn: value lines under a field's description whose
// meaning goes on on the next line, set under the meaning's first word (a
// line naming no value), in the middle of the table and under its last
// row: the line is more of the description. Under the last row it ended
// the table there, the line and the value lines under it lost.
func TestValueMeaningGoesOn(t *testing.T) {
	f := newFieldTable()
	f.row(208, "3", "01-04", "Unit Number")
	f.row(208, "3", "05-12", "Entry Date")
	f.row(208, "3", "14", "Kind of Entry", "K = kept as entered,", "+unless a later entry replaces it", "V = varied")
	f.row(208, "4", "01-06", "Depot Code")
	f.row(208, "4", "09-11", "Review Flag", "0 = not reviewed", "1 = reviewed once,", "+by the unit that entered it", "2 = reviewed twice")
	pg, want := f.end("Fields not listed are kept for later use and are empty on this display.")
	wantTable(t, pg, want)
}

// TestLastRowLongValueList: the last row's description goes on with six
// value lines, indented under it, over a paragraph: all six are the
// description's. Three were (the rest ended the table).
func TestLastRowLongValueList(t *testing.T) {
	f := newFieldTable()
	f.row(210, "2", "01-04", "Unit Number")
	f.row(210, "2", "05-12", "Entry Date")
	f.row(210, "2", "14-15", "Origin Code", "A = by post", "B = by hand")
	f.row(210, "3", "01-06", "Depot Code")
	f.row(210, "3", "09-10", "Bin State", "00 = open", "01 = closed", "02 = merged", "03 = moved", "04 = split", "05 = held")
	pg, want := f.end("Fields not listed are kept for later use and are empty on this display.")
	wantTable(t, pg, want)
}

// TestSharedLineNumbers: a two-column table of record fields (a line
// number the rows share in runs, a description) under plain heads, no
// rule, no bold, over and under paragraphs: a table. Its only numbers are
// in its first column, read as a numbered list's, so none was found (tune
// gen-114, 198). The same lines numbered 1 to 6 without a head, a list,
// stay no table.
func TestSharedLineNumbers(t *testing.T) {
	build := func(nums []string, head bool) (page, [][]string) {
		pg := page{Items: prose(72, 80, "Each line of the display and the fields it shows, in the order of the screen.")}
		y := 130.0
		var want [][]string
		if head {
			pg.Items = append(pg.Items, txt{X: 80, Y: y, Size: 9, S: "Line"}, txt{X: 140, Y: y, Size: 9, S: "Meaning"})
			want = append(want, []string{"Line", "Meaning"})
		}
		descs := []string{"Unit Number", "Entry Date and Time", "Depot Code", "Review Flag", "Amount Claimed", "Kind of Entry"}
		for i, n := range nums {
			y += 12
			pg.Items = append(pg.Items, txt{X: 95 - helvWidth(n)*0.9, Y: y, Size: 9, S: n}, txt{X: 140, Y: y, Size: 9, S: descs[i]})
			want = append(want, []string{n, descs[i]})
		}
		pg.Items = append(pg.Items, prose(72, y+30, "Fields not listed are kept for later use and are empty on this display.")...)
		return pg, want
	}
	pg, want := build([]string{"4", "4", "4", "5", "6", "6"}, true)
	wantTable(t, pg, want)
	pg, _ = build([]string{"1", "2", "3", "4", "5", "6"}, false)
	if ts := detect(t, pg); len(ts) != 0 {
		t.Errorf("a numbered list read as a table: %s", dump(ts))
	}
	for _, seed := range []uint64{114, 198} {
		doc, ts := detectGenerated(t, seed, "sublines")
		if len(ts) != 1 {
			t.Errorf("seed %d: want 1 table, got %d: %s", seed, len(ts), dump(ts))
		} else if got, want := cellsOf(ts[0]), truthGrid(doc.Tables[0].Cells); !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: cells:\n got %q\nwant %q", seed, got, want)
		}
	}
}

// TestStarredValueLines: a field's value list naming "*" ("* = amended
// return", "*: none attached") under a description: the lines are more
// of the description, as any value line. A line starting with "*" reads
// as a note under a table, and ended the table there: the rows under it
// came out as a second table without the heads. A note starting with "*"
// at the table's left edge under its last row still stays out. Also
// tablegen v10's sublines layout, tune seed 12 ("*:").
func TestStarredValueLines(t *testing.T) {
	pg, want := fieldsPage()
	star := strings.NewReplacer("A = altered record", "* = altered record", "00: none attached", "*: none attached")
	var last float64
	for i := range pg.Items {
		pg.Items[i].S = star.Replace(pg.Items[i].S)
		if pg.Items[i].X == 200 || pg.Items[i].X == 206 {
			last = max(last, pg.Items[i].Y)
		}
	}
	for _, r := range want {
		r[2] = star.Replace(r[2])
	}
	pg.Items = append(pg.Items, txt{X: 80, Y: last + 13, Size: 8, S: "* Counts are provisional until the office closes the year."})
	wantTable(t, pg, want)
	doc, ts := detectGenerated(t, 12, "sublines")
	if got, want := cellsOf(ts[0]), truthGrid(doc.Tables[0].Cells); len(ts) != 1 || !reflect.DeepEqual(got, want) {
		t.Errorf("seed 12: %d tables:\n got %q\nwant %q", len(ts), got, want)
	}
}
