package table

import (
	"strings"
	"testing"
)

// TestLabelsWrappedOverTheirNumbers: rows set apart (a wider gap between
// rows than between a label's lines), labels wrapped over two capitalised
// lines with the row's numbers on the last: each label's first line goes
// with the numbers under it, not with the row above (whose label plus
// the next word would not fit the column, so the width test alone reads
// it as that label wrapping).
func TestLabelsWrappedOverTheirNumbers(t *testing.T) {
	type row struct {
		label []string
		a, b  string
	}
	rows := []row{
		{[]string{"Manufacturing industry"}, "12,410", "13,020"},
		{[]string{"Transport and storage", "Western region"}, "8,115", "8,730"},
		{[]string{"Education services"}, "5,902", "6,144"},
		{[]string{"Hotels and restaurants", "Northern coast"}, "3,377", "3,519"},
		{[]string{"Agriculture"}, "2,260", "2,198"},
		{[]string{"Mining and quarrying", "Central hills"}, "1,845", "1,902"},
	}
	pg := page{Items: prose(72, 80, "Employment by sector in the last two years, in persons employed at the end of each year.")}
	y := 130.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: true, S: "Sector"},
		txt{X: 260 - helvWidth("2021"), Y: y, Size: 10, Bold: true, S: "2021"},
		txt{X: 340 - helvWidth("2022"), Y: y, Size: 10, Bold: true, S: "2022"})
	want := [][]string{{"Sector", "2021", "2022"}}
	y += 20
	for _, r := range rows {
		for i, l := range r.label {
			pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: l})
			if i < len(r.label)-1 {
				y += 11.5 // the label's leading
			}
		}
		pg.Items = append(pg.Items, txt{X: 260 - helvWidth(r.a), Y: y, Size: 10, S: r.a},
			txt{X: 340 - helvWidth(r.b), Y: y, Size: 10, S: r.b})
		want = append(want, []string{strings.Join(r.label, " "), r.a, r.b})
		y += 18 // rows set apart
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], want)
}

// TestYearEndsAWrappedTextCell: a text cell wrapped before a year
// ("transferred in", then "2019" alone on the next line, under it, in
// the table's leading) is one cell; the year is no row of its own.
func TestYearEndsAWrappedTextCell(t *testing.T) {
	rows := [][]string{
		{"Region", "Staff", "Status"},
		{"Northern coast", "1,204", "approved"},
		{"Central valley", "860", "transferred in 2019"},
		{"Southern hills", "2,315", "pending"},
		{"Western islands", "512", "transferred in 2021"},
		{"Eastern plains", "1,077", "under review"},
	}
	pg := page{Items: prose(72, 80, "Staff and status of the regional offices at the end of the year, as reported.")}
	y := 130.0
	for i, r := range rows {
		pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: i == 0, S: r[0]},
			txt{X: 260 - helvWidth(r[1]), Y: y, Size: 10, Bold: i == 0, S: r[1]})
		status := r[2]
		if rest, ok := strings.CutPrefix(status, "transferred in "); ok {
			// wrapped in a column as wide as "transferred in"
			pg.Items = append(pg.Items, txt{X: 290, Y: y, Size: 10, S: "transferred in"}, txt{X: 290, Y: y + 11.5, Size: 10, S: rest})
			y += 11.5
		} else {
			pg.Items = append(pg.Items, txt{X: 290, Y: y, Size: 10, Bold: i == 0, S: status})
		}
		y += 16
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Offices transferred keep their staff until the end of the year.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}
