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
	wantTable(t, pg, want)
}

// TestYearEndsAWrappedTextCell: a text cell wrapped before a year
// ("transferred in", then "2019" alone on the next line, under it, in
// the table's leading) is one cell; the year is no row of its own, also
// when the row's number sits on that last line beside it ("860 2019")
// or the row's label wraps onto it too ("valley 2019").
func TestYearEndsAWrappedTextCell(t *testing.T) {
	rows := [][]string{
		{"Region", "Staff", "Status"},
		{"Northern coast", "1,204", "approved"},
		{"Central valley", "860", "transferred in 2019"},
		{"Southern hills", "2,315", "pending"},
		{"Western islands", "512", "transferred in 2021"},
		{"Eastern plains", "1,077", "under review"},
	}
	for _, c := range []struct {
		name                    string
		numbersLast, labelWraps bool
	}{{"numbers on the first line", false, false}, {"numbers on the last line", true, false}, {"label wrapped too", false, true}} {
		t.Run(c.name, func(t *testing.T) {
			pg := page{Items: prose(72, 80, "Staff and status of the regional offices at the end of the year, as reported.")}
			y := 130.0
			for i, r := range rows {
				ny := y
				status := r[2]
				if rest, ok := strings.CutPrefix(status, "transferred in "); ok {
					// wrapped in a column as wide as "transferred in"
					pg.Items = append(pg.Items, txt{X: 290, Y: y, Size: 10, S: "transferred in"}, txt{X: 290, Y: y + 11.5, Size: 10, S: rest})
					if first, second, ok := strings.Cut(r[0], " "); ok && c.labelWraps {
						pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: first}, txt{X: 72, Y: y + 11.5, Size: 10, S: second})
					} else {
						pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: r[0]})
					}
					y += 11.5
					if c.numbersLast {
						ny = y
					}
				} else {
					pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: i == 0, S: r[0]},
						txt{X: 290, Y: y, Size: 10, Bold: i == 0, S: status})
				}
				pg.Items = append(pg.Items, txt{X: 260 - helvWidth(r[1]), Y: ny, Size: 10, Bold: i == 0, S: r[1]})
				y += 16
			}
			pg.Items = append(pg.Items, prose(72, y+20, "Offices transferred keep their staff until the end of the year.")...)
			wantTable(t, pg, rows)
		})
	}
}

// TestNumbersUnderAWrappedTextCell: rows whose text cell wraps over two
// lines set top-aligned, the row's numbers bottom-aligned on the last
// line: the label and the text cell's first line start a row of their
// own under a row that has its numbers ("Ireland | estimated from", then
// "52,145 -927 survey data"), not more of that row's label and text; also
// when the text cell wraps over three lines.
func TestNumbersUnderAWrappedTextCell(t *testing.T) {
	type row struct {
		label, a, b string
		text        []string
	}
	rows := []row{
		{"Italy", "15,275", "612", []string{"medium"}},
		{"Norway", "-14,867", "-876", []string{"completed"}},
		{"Ireland", "52,145", "-927", []string{"estimated from", "survey data"}},
		{"Spain", "8,302", "140", []string{"reported late"}},
		{"Luxembourg", "920", "77", []string{"shared with", "neighbouring", "districts"}},
		{"France", "31,004", "-218", []string{"annual"}},
	}
	pg := page{Items: prose(72, 80, "Change in employment by country and how each figure was obtained.")}
	y := 130.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: true, S: "Country"},
		txt{X: 230 - helvWidth("Annual"), Y: y, Size: 10, Bold: true, S: "Annual"},
		txt{X: 290 - helvWidth("Margin"), Y: y, Size: 10, Bold: true, S: "Margin"},
		txt{X: 310, Y: y, Size: 10, Bold: true, S: "Source"})
	want := [][]string{{"Country", "Annual", "Margin", "Source"}}
	y += 18
	for _, r := range rows {
		pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: r.label})
		for i, l := range r.text {
			pg.Items = append(pg.Items, txt{X: 310, Y: y, Size: 10, S: l})
			if i < len(r.text)-1 {
				y += 11.5 // the text cell's leading
			}
		}
		pg.Items = append(pg.Items, txt{X: 230 - helvWidth(r.a), Y: y, Size: 10, S: r.a},
			txt{X: 290 - helvWidth(r.b), Y: y, Size: 10, S: r.b})
		want = append(want, []string{r.label, r.a, r.b, strings.Join(r.text, " ")})
		y += 15
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Figures for the latest year are provisional and may be revised.")...)
	wantTable(t, pg, want)
}

// TestNumbersLastBesideTopText: labels wrapped over two or three lines
// with the row's numbers on the label's last line and a text cell set on
// its first (top-aligned), rows at the same leading as a label's lines:
// a label's first line beside a text cell (no number) under a row that
// has its numbers starts a row of its own ("Other administration | no"
// under "Interest Northern 297,671 under review 2003"), where it was read
// as more of the row above.
func TestNumbersLastBesideTopText(t *testing.T) {
	type row struct {
		label     []string
		num, text string
		year      string
	}
	rows := []row{
		{[]string{"Widowed"}, "939,004", "provisional figure", "2020"},
		{[]string{"Forestry quarrying", "fishing account"}, "253,581", "pending", "2017"},
		{[]string{"Exports social", "income"}, "938,727", "ongoing", "2007"},
		{[]string{"Health"}, "678,087", "low", "2009"},
		{[]string{"Interest Northern"}, "297,671", "under review", "2003"},
		{[]string{"Other administration", "restaurants trade", "Manufacturing"}, "161,236", "no", "1990"},
		{[]string{"Net income"}, "162,375", "approved", "2006"},
	}
	pg := page{Items: prose(72, 80, "Activity of the registered businesses by the year they were founded, in thousands.")}
	y := 130.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: true, S: "Activity"},
		txt{X: 250 - helvWidth("Value"), Y: y, Size: 10, Bold: true, S: "Value"},
		txt{X: 270, Y: y, Size: 10, Bold: true, S: "Status"},
		txt{X: 440 - helvWidth("Founded"), Y: y, Size: 10, Bold: true, S: "Founded"})
	want := [][]string{{"Activity", "Value", "Status", "Founded"}}
	y += 16
	for _, r := range rows {
		pg.Items = append(pg.Items, txt{X: 270, Y: y, Size: 10, S: r.text})
		for i, l := range r.label {
			pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: l})
			if i < len(r.label)-1 {
				y += 12 // the label's leading, the rows' too
			}
		}
		pg.Items = append(pg.Items, txt{X: 250 - helvWidth(r.num), Y: y, Size: 10, S: r.num},
			txt{X: 440 - helvWidth(r.year), Y: y, Size: 10, S: r.year})
		want = append(want, []string{strings.Join(r.label, " "), r.num, r.text, r.year})
		y += 12
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Figures for the latest year are provisional and may be revised.")...)
	wantTable(t, pg, want)
}

// TestLabelWrappedOverThreeLines: in a table whose wrapped labels carry
// their numbers on their last line, set at one leading throughout (a
// label's lines as far apart as the rows), a label wrapped over three
// capitalised lines is one cell with the numbers under it; its first
// line was read as a row of its own ("Grants social", then "Imports
// areas Employees (47)"). A group label at the stub's left edge over the
// indented items stays a row of its own.
func TestLabelWrappedOverThreeLines(t *testing.T) {
	type row struct {
		label []string
		a, b  string
	}
	rows := []row{
		{[]string{"Services aged", "work population"}, "87", "$895"},
		{[]string{"Gas Public"}, "(31)", "$426"},
		{[]string{"Forestry water", "goods"}, "32", "$892"},
		{[]string{"Grants social", "Imports areas", "Employees"}, "(47)", "$502"},
		{[]string{"Hotels Health", "Imports income"}, "73", "$150"},
		{[]string{"Payments"}, "(51)", "$788"},
		{[]string{"Costs Divorced", "areas Revenue"}, "16", "$538"},
	}
	pg := page{Items: prose(72, 80, "Household size and spending of the regions in the last year, persons employed and actual spending.")}
	y := 130.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: true, S: "Household size"},
		txt{X: 260 - helvWidth("Employed"), Y: y, Size: 10, Bold: true, S: "Employed"},
		txt{X: 330 - helvWidth("Actual"), Y: y, Size: 10, Bold: true, S: "Actual"})
	want := [][]string{{"Household size", "Employed", "Actual"}, {"Region", "", ""}}
	y += 16
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: "Region"})
	y += 12
	for _, r := range rows {
		for i, l := range r.label {
			pg.Items = append(pg.Items, txt{X: 82, Y: y, Size: 10, S: l})
			if i < len(r.label)-1 {
				y += 12 // the label's leading, the rows' too
			}
		}
		pg.Items = append(pg.Items, txt{X: 260 - helvWidth(r.a), Y: y, Size: 10, S: r.a},
			txt{X: 330 - helvWidth(r.b), Y: y, Size: 10, S: r.b})
		want = append(want, []string{strings.Join(r.label, " "), r.a, r.b})
		y += 12
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Data for the latest year are estimates and may be revised.")...)
	wantTable(t, pg, want)
}
