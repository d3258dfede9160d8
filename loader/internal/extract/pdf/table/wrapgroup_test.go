package table

import (
	"reflect"
	"testing"
)

// TestWrappedHeadUnderGroupHead: bold column heads over an unruled table
// whose third column's text cells run close to the second's numbers (so
// the body's phrases merge the first three columns): a group head, then a
// head wrapped over two lines, each centred on the last head line's
// phrase under it. The upper lines were read as text crossing the body's
// merged first column, and the table began at the heads' last line, the
// wrapped head and the group head left out (tune gen-130 of tablegen v9,
// the same page as seed 130 of its runhead layout).
func TestWrappedHeadUnderGroupHead(t *testing.T) {
	const size = 9
	w := func(s string) float64 { return helvWidth(s) * size / 10 }
	centred := func(c, y float64, s string) txt { return txt{X: c - w(s)/2, Y: y, Size: size, Bold: true, S: s} }
	pg := page{Items: prose(72, 80, "The survey shows that the number of households in most regions grew over the period.")}
	c := 200.0 // the third column's centre
	pg.Items = append(pg.Items, centred(c, 138, "Of Amount"), centred(c, 157, "Estimate Change"), centred(c, 168, "Average"),
		txt{X: 79, Y: 168, Size: size, Bold: true, S: "Industry"}, txt{X: 125, Y: 168, Size: size, Bold: true, S: "Since"},
		txt{X: 266 - w("2022"), Y: 168, Size: size, Bold: true, S: "2022"})
	want := [][]string{{"", "Of Amount", "", ""}, {"Industry", "Since", "Estimate Change Average", "2022"}}
	rows := [][]string{{"Germany", "1993", "no", "896.0"}, {"Spain", "2017", "ongoing", "9835.8"},
		{"Portugal", "1993", "estimated from", "4830.2"}, {"Poland", "2016", "see note", "4057.5"},
		{"Sweden", "2013", "ongoing", "1283.3"}, {"Denmark", "2016", "shared with", "343.2"}}
	y := 191.0
	for _, r := range rows {
		pg.Items = append(pg.Items, txt{X: 79, Y: y, Size: size, S: r[0]}, txt{X: 145 - w(r[1]), Y: y, Size: size, S: r[1]},
			txt{X: 157, Y: y, Size: size, S: r[2]}, txt{X: 266 - w(r[3]), Y: y, Size: size, S: r[3]})
		want = append(want, r)
		y += 19
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Figures are based on the annual labour force survey and on the registers.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); len(got) != len(want) || !reflect.DeepEqual(got[2:], want[2:]) || got[1][0] != "Industry" || got[0][1]+got[0][2] != "Of Amount" {
		t.Errorf("cells:\n got %q\nwant %q", got, want)
	}
	doc, ts := detectGenerated(t, 130, "runhead")
	if len(ts) != 1 || len(cellsOf(ts[0])) != truthRows(doc.Tables[0]) {
		t.Errorf("seed 130: want 1 table of %d rows: %s", truthRows(doc.Tables[0]), dump(ts))
	}
}
