package table

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// textColsPage is a page with two small tables of text only, no rules,
// no numbers and no bold heads (their heads centred over the columns but
// the stub's), a label wrapped over two lines in the first, a line of a
// paragraph between them as close as the tables' own rows are to each
// other, paragraphs above and under; want are the two tables read.
func textColsPage() (pg page, want [][][]string) {
	heads := func(y float64, hs []string, xs, ends []float64) []txt {
		out := []txt{{X: xs[0], Y: y, Size: 9, S: hs[0]}}
		for j := 1; j < len(hs); j++ {
			w := helvWidth(hs[j]) * 0.9
			out = append(out, txt{X: (xs[j]+ends[j])/2 - w/2, Y: y, Size: 9, S: hs[j]})
		}
		return out
	}
	pg = page{Items: prose(72, 80, "The programmes of the region and where each of them stands at the end of the year.")}
	xs, ends := []float64{90, 220, 310}, []float64{190, 290, 400}
	pg.Items = append(pg.Items, heads(110, []string{"Programme", "Status", "Review"}, xs, ends)...)
	rows := [][]string{
		{"Early childhood", "approved", "funded by the region"},
		{"School meals", "pending", "quarterly"},
		{"Adult literacy and", "under review", "planned"},
		{"training", "", ""},
		{"Transport", "see note", "completed"},
	}
	y := 124.0
	for _, r := range rows {
		for j, c := range r {
			if c != "" {
				pg.Items = append(pg.Items, txt{X: xs[j], Y: y, Size: 9, S: c})
			}
		}
		y += 11
	}
	want = append(want, [][]string{{"Programme", "Status", "Review"},
		{"Early childhood", "approved", "funded by the region"},
		{"School meals", "pending", "quarterly"},
		{"Adult literacy and training", "under review", "planned"},
		{"Transport", "see note", "completed"}})
	y += 8
	pg.Items = append(pg.Items, prose(72, y, "The districts that share a programme report on it together, as listed below.")...)
	y += 22
	xs, ends = []float64{90, 160}, []float64{150, 230}
	pg.Items = append(pg.Items, heads(y, []string{"District", "Shared with"}, xs, ends)...)
	y += 14
	second := [][]string{{"District", "Shared with"}}
	for _, r := range [][]string{{"Northern", "Central"}, {"Eastern", "Southern coast"}, {"Western hills", "Northern"}, {"Lakes", "none"}} {
		pg.Items = append(pg.Items, txt{X: xs[0], Y: y, Size: 9, S: r[0]}, txt{X: xs[1], Y: y, Size: 9, S: r[1]})
		second = append(second, r)
		y += 11
	}
	want = append(want, second)
	pg.Items = append(pg.Items, prose(72, y+14, "All programmes are reviewed again in the spring, when the budget is set.")...)
	return pg, want
}

// TestTextOnlyTables: small tables of text only in left-aligned columns,
// no rules, no numbers, heads in the body's weight, are tables (the
// held-out misses' small unruled tables not found), each without the
// paragraph line between them (a run of lines went on through it, and
// the part before it kept it as its last row). Checked: fails before
// textColumns (no table: no numbers, nothing in the layout saying table).
func TestTextOnlyTables(t *testing.T) {
	pg, want := textColsPage()
	ts := detect(t, pg)
	if len(ts) != len(want) {
		t.Fatalf("want %d tables, got %d: %s", len(want), len(ts), dump(ts))
	}
	for k := range want {
		wantCells(t, ts[k], want[k])
	}
}

// TestTextColumnsNotTables: lines in text columns that are no table stay
// text: a numbered list with its marks set apart, two authors' addresses
// side by side, and running text in two narrow columns.
func TestTextColumnsNotTables(t *testing.T) {
	list := page{Items: prose(72, 80, "The review found three things to change before the next round of grants.")}
	for i, s := range []string{"Shorter forms for small applicants", "One deadline for every district", "Reports once a year, not twice", "A contact person for each programme"} {
		list.Items = append(list.Items, txt{X: 80, Y: 110 + float64(i)*12, Size: 9, S: string(rune('1'+i)) + "."}, txt{X: 100, Y: 110 + float64(i)*12, Size: 9, S: s})
	}
	list.Items = append(list.Items, prose(72, 170, "Each change is described in the sections that follow this summary.")...)

	addr := page{Items: prose(72, 80, "For questions about this report, please contact the authors.")}
	for i, r := range [][2]string{{"Karl Berger", "Maria Lind"}, {"Institute of Planning", "Institute of Planning"}, {"Dept. of Regional", "Dept. of Regional"}, {"Studies", "Studies"}} {
		addr.Items = append(addr.Items, txt{X: 120, Y: 110 + float64(i)*11, Size: 9, S: r[0]}, txt{X: 300, Y: 110 + float64(i)*11, Size: 9, S: r[1]})
	}

	narrow := page{}
	left := []string{"The survey shows that", "the number of homes in", "most regions grew over", "the period while the", "share of persons living", "alone rose slightly."}
	right := []string{"These figures are based", "on the annual labour", "force survey and on the", "registers of the states", "and may be revised when", "final data are known."}
	for i := range left {
		narrow.Items = append(narrow.Items, txt{X: 72, Y: 100 + float64(i)*11, Size: 9, S: left[i]}, txt{X: 200, Y: 100 + float64(i)*11, Size: 9, S: right[i]})
	}
	for name, pg := range map[string]page{"numbered list": list, "addresses": addr, "narrow columns": narrow} {
		if ts := detect(t, pg); len(ts) != 0 {
			t.Errorf("%s read as a table: %s", name, dump(ts))
		}
	}
}

// TestTextColumnsEvenWidths: a small text-only table whose columns hold
// labels of two short words, codes or country names, each about as wide
// as the next, is a table: such a column wraps nowhere, though each next
// cell would not fit after the one above (flows) and most reach the
// column's right edge (fills). Checked: fails with the running-text test
// as flows and fills alone (0 tables; review24's case).
func TestTextColumnsEvenWidths(t *testing.T) {
	for _, codes := range [][]string{{"DEU", "FRA", "ITA", "ESP", "AUT"}, {"Germany", "France", "Italy", "Spain", "Austria"}} {
		pg := page{Items: prose(72, 80, "The offices of the network and the country each of them reports to this year.")}
		xs := []float64{90, 220, 300}
		pg.Items = append(pg.Items, txt{X: 90, Y: 110, Size: 9, S: "Office"}, txt{X: 220, Y: 110, Size: 9, S: "Country"}, txt{X: 300, Y: 110, Size: 9, S: "Contact"})
		want := [][]string{{"Office", "Country", "Contact"}}
		labels := []string{"Harbour office", "Inland depot", "Northern mill", "Canal station", "Upper quarry"}
		contacts := []string{"front desk", "the depot manager", "by letter only", "none", "site foreman"}
		y := 124.0
		for i := range labels {
			r := []string{labels[i], codes[i], contacts[i]}
			for j, c := range r {
				pg.Items = append(pg.Items, txt{X: xs[j], Y: y, Size: 9, S: c})
			}
			want = append(want, r)
			y += 11
		}
		pg.Items = append(pg.Items, prose(72, y+14, "All offices are reviewed again in the spring, when the budget is set.")...)
		wantTable(t, pg, want)
	}
}

// TestTextColumnsCentred: a small text-only table whose columns after
// the stub are set centred (symbols and units, a cell going on on a
// second centred line) or right-aligned (short codes) is a table as a
// left-aligned one is: its phrases do not start where their column does,
// their centres or right edges line up. Checked: fails with textBody's
// left-start test alone (hard and surround tune pages kd-3126, kd-5008
// were missed so; 0 tables here).
func TestTextColumnsCentred(t *testing.T) {
	centred := func(s string, mid float64) float64 { return mid - afmWidth(s, 9)/2 }
	right := func(s string, end float64) float64 { return end - afmWidth(s, 9) }
	pg := page{Items: prose(72, 80, "The quantities the instrument reports and the symbol each of them goes by.")}
	rows := [][]string{
		{"Parameter", "Symbol", "Unit", "Code"},
		{"Operating temperature", "T", "degrees", "OT-1"},
		{"Storage humidity", "H", "per cent", "SH-22"},
		{"Weight", "m", "kg", "W-3"},
		{"Supply voltage", "V", "volt", "SV-114"},
	}
	want := [][]string{rows[0], rows[1], rows[2], {"Weight", "m", "kg net", "W-3"}, rows[4]}
	y := 110.0
	for i, r := range rows {
		pg.Items = append(pg.Items,
			txt{X: 90, Y: y, Size: 9, S: r[0]},
			txt{X: centred(r[1], 230), Y: y, Size: 9, S: r[1]},
			txt{X: centred(r[2], 300), Y: y, Size: 9, S: r[2]},
			txt{X: right(r[3], 400), Y: y, Size: 9, S: r[3]})
		if i == 3 {
			y += 11
			pg.Items = append(pg.Items, txt{X: centred("net", 300), Y: y, Size: 9, S: "net"})
		}
		y += 11
	}
	pg.Items = append(pg.Items, prose(72, y+14, "Each quantity is read once a minute and kept for a year.")...)
	wantTable(t, pg, want)
}

// TestCentredFiguresNoTable: three centred blocks side by side, a large
// figure over its unit and two lines of small words (an infographic's
// calendar leaves, as failure-after-repair.pdf p64 has them; placed as
// there), are no table though their columns are centred: the lines are
// not in one size. Checked: a 3-column table without oneSize.
func TestCentredFiguresNoTable(t *testing.T) {
	at := func(s string, mid, y, size float64) txt {
		return txt{X: mid - afmWidth(s, size)/2, Y: y, Size: size, S: s}
	}
	pg := page{Items: []txt{at("Usual timing for follow-up appointments", 216, 118, 12)}}
	mids := []float64{135, 231, 327}
	for _, l := range []struct {
		y, size float64
		s       []string
	}{
		{164, 20, []string{"3-6", "6-12", "1"}},
		{175, 8, []string{"months", "months", "yearly"}},
		{201, 8.5, []string{"for 1-2 years", "for 3-5 years", "more than 5 years"}},
		{213, 8.5, []string{"after treatment", "after treatment", "after treatment"}},
	} {
		for k, s := range l.s {
			pg.Items = append(pg.Items, at(s, mids[k], l.y, l.size))
		}
	}
	pg.Items = append(pg.Items, prose(85, 250, "For most people, early breast cancer will not come back after treatment.")...)
	if ts := detect(t, pg); len(ts) != 0 {
		t.Errorf("centred figures over small words read as a table: %s", dump(ts))
	}
}

// TestTextColumnsAPaddingApart: a small text-only table whose columns
// stand a cell's padding apart (6pt at 9pt text: more than gridGap,
// less than the phrase gap) is found as one whose columns stand
// further apart is: its lines are one phrase each at the phrase gap, two
// at the padding (hard tune kd-3156, kd-3174's first table and surround
// kd-5196 were missed so). Checked: fails with scanPart asking
// textColumns at the phrase gap alone (0 tables).
func TestTextColumnsAPaddingApart(t *testing.T) {
	rows := [][]string{
		{"Country", "Capital"},
		{"Canada", "Ottawa"},
		{"Norway", "Oslo"},
		{"Greece", "Athens"},
		{"France", "Paris"},
	}
	w := 0.0
	for _, r := range rows {
		w = max(w, afmWidth(r[0], 9))
	}
	pg := page{Items: prose(72, 80, "The offices of the network and the capital city each of them reports to this year.")}
	y := 110.0
	for _, r := range rows {
		pg.Items = append(pg.Items, txt{X: 90, Y: y, Size: 9, S: r[0]}, txt{X: 90 + w + 6, Y: y, Size: 9, S: r[1]})
		y += 11
	}
	pg.Items = append(pg.Items, prose(72, y+14, "All offices are reviewed again in the spring, when the budget is set.")...)
	wantTable(t, pg, rows)
}

// TestFixedPitch: words whose every character is as wide as the others
// (a code listing in a fixed-pitch font the font's flag does not name)
// are fixed-pitch; country names in a proportional font are not.
func TestFixedPitch(t *testing.T) {
	line := func(adv func(string) float64, ws ...string) *textLine {
		l := &textLine{size: 9}
		x := 72.0
		for _, s := range ws {
			w := &word{text: s, size: 9, bb: document.BBox{X0: x, Y0: 100, X1: x + adv(s), Y1: 109}}
			l.ws = append(l.ws, w)
			x = w.bb.X1 + 5.4
		}
		return l
	}
	mono := func(s string) float64 { return 5.4 * float64(len(s)) }
	prop := func(s string) float64 { return afmWidth(s, 9) }
	code := []*textLine{line(mono, "#include", "<linux/io.h>"), line(mono, "#include", "<linux/errno.h>")}
	names := []*textLine{line(prop, "Canada", "Ottawa"), line(prop, "Norway", "Oslo"), line(prop, "Greece", "Athens")}
	if !fixedPitch(code) {
		t.Error("code lines of even advances: not fixed-pitch")
	}
	if fixedPitch(names) {
		t.Error("country names in Helvetica: fixed-pitch")
	}
}
