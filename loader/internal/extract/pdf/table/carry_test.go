package table

import (
	"fmt"
	"testing"
)

// Generated pages in the style of statistical abstracts and government
// reports (layouts the EU tuning set has few of): hanging-indent stub
// labels, multi-line column headers, text tables with a wrapped
// description column, a table beside a column of prose.

// stubRow is one line of a stub-and-numbers table: a label at x and,
// unless n1 is "", two right-aligned numbers.
type stubRow struct {
	x      float64
	label  string
	n1, n2 string
}

func stubLines(y, pitch float64, rows []stubRow) []txt {
	var out []txt
	for i, r := range rows {
		yy := y + float64(i)*pitch
		out = append(out, txt{X: r.x, Y: yy, Size: 10, S: r.label})
		if r.n1 != "" {
			out = append(out, txt{X: 340 - helvWidth(r.n1), Y: yy, Size: 10, S: r.n1}, txt{X: 420 - helvWidth(r.n2), Y: yy, Size: 10, S: r.n2})
		}
	}
	return out
}

// TestWrappedLabelWiderThanColumn: a stub label wrapped with a hanging
// indent, whose first line is wider than every label that has numbers
// beside it, is one cell with the numbers of its last line (the column
// boundary goes beside the wide line, not through it).
func TestWrappedLabelWiderThanColumn(t *testing.T) {
	rows := []stubRow{
		{72, "Total, all industries", "130,345", "131,914"},
		{72, "Mining", "705", "784"},
		{72, "Manufacturing", "11,528", "11,726"},
		{82, "Durable goods", "7,064", "7,273"},
		{82, "Nondurable goods", "4,464", "4,453"},
		{72, "Professional, scientific, and technical", "", ""},
		{82, "services", "7,441", "7,666"},
	}
	want := [][]string{
		{"Industry", "2010", "2011"},
		{"Total, all industries", "130,345", "131,914"},
		{"Mining", "705", "784"},
		{"Manufacturing", "11,528", "11,726"},
		{"Durable goods", "7,064", "7,273"},
		{"Nondurable goods", "4,464", "4,453"},
		{"Professional, scientific, and technical services", "7,441", "7,666"},
	}
	for _, ruled := range []bool{false, true} {
		name := "unruled"
		pg := page{}
		if ruled {
			name = "booktabs"
			pg.Draw = []string{hline(72, 420, 128), hline(72, 420, 146), hline(72, 420, 240)}
		}
		t.Run(name, func(t *testing.T) {
			pg.Items = append(pg.Items, prose(72, 90, "Employment by industry, 2010 and 2011, in thousands of jobs.")...)
			pg.Items = append(pg.Items, tableRows(140, 13, []col{{72, false}, {340, true}, {420, true}}, [][]string{{"Industry", "2010", "2011"}}, false)...)
			pg.Items = append(pg.Items, stubLines(158, 12, rows)...)
			pg.Items = append(pg.Items, prose(72, 270, "Source: Bureau of Labor Statistics, Current Employment Statistics.")...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], want)
			if len(ts[0].Spans) > 0 {
				t.Errorf("spans %+v, want none", ts[0].Spans)
			}
		})
	}
}

// TestHeaderWithUnits: column headers wrapped over two or three lines,
// the last one a unit in parentheses ("($1,000)"), are one header row;
// the unit is no number of its own.
func TestHeaderWithUnits(t *testing.T) {
	hdr := func(cx, y float64, s string) txt { return txt{X: cx - helvWidth(s)/2, Y: y, Size: 10, S: s} }
	body := [][]string{
		{"Alabama", "99,212", "1,612,512", "63,512,883"},
		{"Alaska", "20,612", "261,221", "13,611,212"},
		{"Arizona", "137,212", "2,212,612", "99,212,612"},
		{"Arkansas", "65,314", "961,212", "35,212,612"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "The number of establishments and their employees grew in every state of the region.")...)
	pg.Items = append(pg.Items, txt{X: 72, Y: 146, Size: 10, S: "State"},
		hdr(250, 120, "Number of"), hdr(250, 133, "business"), hdr(250, 146, "units"),
		hdr(340, 133, "Number of"), hdr(340, 146, "employees"),
		hdr(430, 120, "Annual"), hdr(430, 133, "payroll"), hdr(430, 146, "($1,000)"))
	pg.Items = append(pg.Items, tableRows(165, 13, []col{{72, false}, {270, true}, {360, true}, {455, true}}, body, false)...)
	pg.Items = append(pg.Items, prose(72, 240, "Payroll is in thousands of dollars and includes all forms of compensation paid.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	want := append([][]string{{"State", "Number of business units", "Number of employees", "Annual payroll ($1,000)"}}, body...)
	wantCells(t, ts[0], want)
	if len(ts[0].Header) == 0 {
		t.Errorf("no header row")
	}
}

// TestWrappedTextColumn: a text table (no numbers) whose last column
// wraps, under a header row, is found with each description whole, the
// last row's wrapped line included: set with rules above and below the
// header and under the table, or unruled under a bold header.
func TestWrappedTextColumn(t *testing.T) {
	cols := []col{{72, false}, {180, false}, {300, false}}
	body := [][]string{
		{"USDA", "School Lunch", "Provides cash subsidies and donated"},
		{"", "", "commodities to schools for meals"},
		{"HHS", "Head Start", "Promotes school readiness of children"},
		{"", "", "from low-income families"},
		{"ED", "Title I", "Financial assistance to local agencies"},
		{"", "", "for children from low-income families"},
	}
	want := [][]string{
		{"Agency", "Program", "Description"},
		{"USDA", "School Lunch", "Provides cash subsidies and donated commodities to schools for meals"},
		{"HHS", "Head Start", "Promotes school readiness of children from low-income families"},
		{"ED", "Title I", "Financial assistance to local agencies for children from low-income families"},
	}
	for _, ruled := range []bool{true, false} {
		name := "bold header"
		pg := page{}
		if ruled {
			name = "booktabs"
			pg.Draw = []string{hline(72, 540, 128), hline(72, 540, 146), hline(72, 540, 230)}
		}
		t.Run(name, func(t *testing.T) {
			pg.Items = append(pg.Items, prose(72, 100, "The programs listed below received funding in the last fiscal year.")...)
			pg.Items = append(pg.Items, tableRows(140, 13, cols, [][]string{{"Agency", "Program", "Description"}}, !ruled)...)
			pg.Items = append(pg.Items, tableRows(160, 12, cols, body, false)...)
			pg.Items = append(pg.Items, prose(72, 250, "Each agency reports its obligations to the Office of Management and Budget.")...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], want)
		})
	}
}

// TestProseColumnBesideTable: a ragged column of running text left of a
// table, at the same heights and going on below it, stays out of the
// table, also when one of its lines starts with the word "table" (a
// sentence, not a caption: captions start capitalised).
func TestProseColumnBesideTable(t *testing.T) {
	rows := [][]string{
		{"Town", "1990", "2010"},
		{"Ashford", "12,410", "18,220"},
		{"Brookville", "9,870", "15,115"},
		{"Carson", "7,215", "9,980"},
		{"Dayton", "5,100", "8,450"},
		{"Elmira", "4,020", "6,310"},
	}
	for name, para := range map[string][]string{
		"ragged": {
			"The county grew faster than the",
			"state in every decade since 1970,",
			"and most of the growth was in the",
			"towns along the interstate. Most",
			"people moved from the cities to",
			"the five largest towns, census.",
			"Growth slowed after 2000 as the",
			"housing market cooled.",
		},
		"a line starting with table": {
			"The county grew faster than the",
			"state in every decade since 1970,",
			"and most of the growth was in the",
			"towns along the interstate. The",
			"table shows the population of",
			"the five largest towns at each",
			"census. Growth slowed after 2000",
			"as the housing market cooled.",
		},
	} {
		t.Run(name, func(t *testing.T) {
			pg := page{}
			pg.Items = append(pg.Items, prose(72, 100, para...)...)
			pg.Items = append(pg.Items, tableRows(100, 13, []col{{320, false}, {440, true}, {520, true}}, rows, true)...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], rows)
			if ts[0].BBox.X0 < 300 {
				t.Errorf("table box %+v reaches into the paragraph", ts[0].BBox)
			}
		})
	}
}

// TestCurrencySignsApart: dollar signs set apart at the left of number
// columns (on the first and the total row, as statements of accounts
// are set) go with the numbers' cells, not into columns of their own.
func TestCurrencySignsApart(t *testing.T) {
	rows := [][]string{
		{"", "2011", "2010"},
		{"Cash and cash equivalents", "1,234", "1,101"},
		{"Investments", "12,512", "11,908"},
		{"Receivables, net", "812", "799"},
		{"Capital assets, net", "45,210", "44,003"},
		{"Total assets", "59,768", "57,811"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Statement of net position, in thousands of dollars, as of June 30.")...)
	pg.Items = append(pg.Items, tableRows(120, 13, []col{{72, false}, {330, true}, {430, true}}, rows, false)...)
	for _, y := range []float64{133, 185} {
		pg.Items = append(pg.Items, txt{X: 280, Y: y, Size: 10, S: "$"}, txt{X: 380, Y: y, Size: 10, S: "$"})
	}
	pg.Items = append(pg.Items, prose(72, 220, "The notes to the financial statements are an integral part of this statement.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	want := [][]string{
		{"", "2011", "2010"},
		{"Cash and cash equivalents", "$ 1,234", "$ 1,101"},
		{"Investments", "12,512", "11,908"},
		{"Receivables, net", "812", "799"},
		{"Capital assets, net", "45,210", "44,003"},
		{"Total assets", "$ 59,768", "$ 57,811"},
	}
	wantCells(t, ts[0], want)
	if !numeric("$ 1,234") {
		t.Errorf(`numeric("$ 1,234") = false`)
	}
}

// TestGroupLabelUnderHeader: a capitalised group label right under the
// header row, alone in the stub column ("Sex", then "Male", "Female"),
// is a row of its own, not the second line of the stub head.
func TestGroupLabelUnderHeader(t *testing.T) {
	rows := [][]string{
		{"Characteristic", "Number", "Percent"},
		{"Sex", "", ""},
		{"Male", "1,210", "48.2"},
		{"Female", "1,300", "51.8"},
		{"Age", "", ""},
		{"Under 18 years", "610", "24.3"},
		{"18 to 64 years", "1,500", "59.8"},
		{"65 years and over", "400", "15.9"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Respondents by sex and age group, weighted to the county population.")...)
	pg.Items = append(pg.Items, tableRows(120, 13, []col{{72, false}, {300, true}, {380, true}}, rows, false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// TestBarChartNoTable: a stacked bar chart drawn with filled boxes, data
// labels in the bars, category labels beside them and an axis under
// them is no table (the ends of its bars sit at an x of their own in
// each band), neither from its boxes nor from its labels' alignment; a
// table whose header cells have backgrounds of their own still is one.
func TestBarChartNoTable(t *testing.T) {
	t.Run("stacked bars", func(t *testing.T) {
		pg := page{}
		pg.Items = append(pg.Items, prose(72, 90, "Figure 2: Population by age group, share of the total.")...)
		data := [][]float64{{30.5, 49.0, 20.5}, {29.7, 48.6, 21.7}, {28.7, 46.3, 25.0}, {27.2, 45.0, 27.8}, {26.6, 41.2, 32.2}}
		years := []string{"2001", "2005", "2010", "2015", "2030"}
		x0, w := 110.0, 400.0
		for i, d := range data {
			y := 120 + float64(i)*24
			pg.Items = append(pg.Items, txt{X: 72, Y: y + 12, Size: 9, S: years[i]})
			x := x0
			for k, v := range d {
				bw := w * v / 100
				pg.Draw = append(pg.Draw, fmt.Sprintf("%g g %g %g %g 16 re f 0 g", 0.3+0.2*float64(k), x, 792-y-16, bw))
				pg.Items = append(pg.Items, txt{X: x + bw/2 - 8, Y: y + 12, Size: 9, S: fmt.Sprintf("%.1f", v)})
				x += bw
			}
		}
		for k := 0; k <= 10; k++ {
			pg.Items = append(pg.Items, txt{X: x0 + float64(k)*40 - 8, Y: 250, Size: 9, S: fmt.Sprintf("%d%%", k*10)})
		}
		pg.Draw = append(pg.Draw, hline(x0, x0+w, 240))
		pg.Items = append(pg.Items, txt{X: 150, Y: 270, Size: 9, S: "0 to 24 years"}, txt{X: 260, Y: 270, Size: 9, S: "25 to 59 years"}, txt{X: 380, Y: 270, Size: 9, S: "60 years and over"})
		if ts := detect(t, pg); len(ts) != 0 {
			t.Fatalf("want no table, got %d: %s", len(ts), dump(ts))
		}
	})
	t.Run("header cell backgrounds", func(t *testing.T) {
		rows := [][]string{
			{"Region", "2019", "2020", "2021"},
			{"North", "10.5", "11.0", "11.2"},
			{"South", "7.25", "7.5", "7.9"},
			{"East", "3.1", "3.3", "3.6"},
			{"West", "4.4", "4.1", "4.0"},
		}
		xs := []float64{72, 200, 280, 360, 440}
		pg := page{}
		for j := 0; j+1 < len(xs); j++ {
			pg.Draw = append(pg.Draw, fmt.Sprintf("0.8 g %g %g %g 18 re f 0 g", xs[j]+1, 792-146.0, xs[j+1]-xs[j]-2))
		}
		for _, y := range []float64{128, 146, 164, 182, 200, 218} {
			pg.Draw = append(pg.Draw, hline(72, 440, y))
		}
		pg.Items = append(pg.Items, tableRows(141, 18, []col{{76, false}, {276, true}, {356, true}, {436, true}}, rows, true)...)
		ts := detect(t, pg)
		if len(ts) != 1 {
			t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
		}
		wantCells(t, ts[0], rows)
	})
}

// TestLineShadingInCell: a shaded header cell whose text lines are also
// shaded one by one (a word processor's paragraph shading: a box per
// line, inset in the cell's background box) keeps its two lines in one
// cell; the boxes' shared edge is no rule.
func TestLineShadingInCell(t *testing.T) {
	xs := []float64{72, 200, 300}
	ys := []float64{120, 146, 160, 174, 188}
	pg := page{}
	fill := func(x0, y0, x1, y1 float64) string {
		return fmt.Sprintf("0.85 g %g %g %g %g re f 0 g", x0, 792-y1, x1-x0, y1-y0)
	}
	// cell backgrounds of the header row, and a box per header text line
	pg.Draw = append(pg.Draw, fill(72.5, 120.5, 199.5, 145.5), fill(200.5, 120.5, 299.5, 145.5),
		fill(77, 120.5, 195, 133), fill(205, 120.5, 295, 133), fill(205, 133, 295, 145.5))
	for _, y := range ys {
		pg.Draw = append(pg.Draw, hline(72, 300, y))
	}
	for _, x := range xs {
		pg.Draw = append(pg.Draw, vline(x, 120, 188))
	}
	pg.Items = append(pg.Items,
		txt{X: 77, Y: 130, Size: 10, Bold: true, S: "Country"},
		txt{X: 205, Y: 130, Size: 10, Bold: true, S: "Signed aid"},
		txt{X: 205, Y: 142, Size: 10, Bold: true, S: "(EURm)"})
	for i, r := range [][]string{{"Algeria", "6.19"}, {"Egypt", "6.60"}, {"Jordan", "4.20"}} {
		pg.Items = append(pg.Items, txt{X: 77, Y: ys[i+1] + 10, Size: 10, S: r[0]}, txt{X: 295 - helvWidth(r[1]), Y: ys[i+1] + 10, Size: 10, S: r[1]})
	}
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Country", "Signed aid (EURm)"},
		{"Algeria", "6.19"},
		{"Egypt", "6.60"},
		{"Jordan", "4.20"},
	})
}

// TestScheduleOfDates: a small unruled table of text whose first column
// holds dates or times (a schedule) is found: dates are column values as
// numbers are.
func TestScheduleOfDates(t *testing.T) {
	for _, dates := range [][]string{
		{"12/01/2020", "01/15/2021", "03/02/2021", "05/20/2021"},
		{"Jan. 12, 2020", "Feb. 3, 2020", "Mar. 15, 2020", "Apr. 2, 2020"},
		{"9:00 a.m.", "10:30 a.m.", "1:00 p.m.", "3:15 p.m."},
	} {
		t.Run(dates[0], func(t *testing.T) {
			rows := [][]string{{"Date", "Meeting", "Location"}}
			for k, d := range dates {
				rows = append(rows, []string{d, []string{"Kickoff", "Review", "Hearing", "Final vote"}[k], []string{"Room 101", "City Hall", "Library", "Room 204"}[k]})
			}
			pg := page{}
			pg.Items = append(pg.Items, prose(72, 90, "The committee will meet on the following dates to review the applications received.")...)
			pg.Items = append(pg.Items, tableRows(120, 13, []col{{72, false}, {200, false}, {320, false}}, rows, false)...)
			pg.Items = append(pg.Items, prose(72, 200, "All meetings are open to the public and minutes are posted within a week.")...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], rows)
			if len(ts[0].Header) == 0 {
				t.Errorf("no header row")
			}
		})
	}
}

// TestGroupLabelsOverIndentedRows: group labels, each alone on its line
// over rows indented under it (with a blank line between the groups), are
// rows of their own: an indented, capitalised line with numbers is an
// item of the group, not the label's wrapped last line; the table stays
// one.
func TestGroupLabelsOverIndentedRows(t *testing.T) {
	groups := []struct {
		label string
		rows  [][]string
	}{
		{"Elementary", [][]string{{"Kindergarten", "3,210", "412"}, {"Grades 1 to 4", "12,050", "1,310"}, {"Grades 5 to 8", "11,900", "1,190"}}},
		{"Secondary", [][]string{{"Grades 9 to 10", "7,410", "610"}, {"Grades 11 to 12", "6,980", "590"}}},
		{"Postsecondary", [][]string{{"Two-year", "7,200", "310"}, {"Four-year", "8,050", "4,900"}}},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Table 4. Enrollment by level and control of institution, fall 2010.")...)
	want := [][]string{{"Level", "Public", "Private"}}
	pg.Items = append(pg.Items, tableRows(120, 13, []col{{72, false}, {330, true}, {430, true}}, want, false)...)
	y := 146.0
	for _, g := range groups {
		pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: g.label})
		want = append(want, []string{g.label, "", ""})
		y += 13
		pg.Items = append(pg.Items, tableRows(y, 13, []col{{82, false}, {330, true}, {430, true}}, g.rows, false)...)
		want = append(want, g.rows...)
		y += 13*float64(len(g.rows)) + 13
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Enrollment counts students in school on October 1 of each year.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], want)
}

// TestStatisticalSymbols: "(NA)", "(X)", "(D)" and "(Z)" stand for
// missing numbers as "-" and "n/a" do, so a column of them and a few
// numbers is a column of numbers (a small unruled table is found).
func TestStatisticalSymbols(t *testing.T) {
	rows := [][]string{
		{"County", "Rate"},
		{"Adams", "12.5"},
		{"Brown", "(NA)"},
		{"Clark", "(X)"},
		{"Dodge", "(D)"},
		{"Essex", "(Z)"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Poverty rate by county where the survey could report one.")...)
	pg.Items = append(pg.Items, tableRows(120, 13, []col{{72, false}, {260, true}}, rows, false)...)
	pg.Items = append(pg.Items, prose(72, 220, "Counties with too few respondents are not shown separately.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
	for _, s := range []string{"(NA)", "(X)", "(D)", "(S)", "(Z)"} {
		if !placeholder(s) {
			t.Errorf("placeholder(%q) = false", s)
		}
	}
}

// TestGroupLabelBackAtTheStubEdge: rows at one pitch, no blank line
// between the groups; a group label back at the stub's left edge right
// under an indented item (the widest label of the column, so the label's
// first word would not fit after it) is a row of its own, not the item's
// label wrapping: a wrapped label goes on under its own start.
func TestGroupLabelBackAtTheStubEdge(t *testing.T) {
	groups := []struct {
		label string
		rows  [][]string
	}{
		{"Household size", [][]string{{"One person", "4,120", "3,980"}, {"Aged region central mining", "2,310", "2,405"}}},
		{"Type of area", [][]string{{"Urban", "6,770", "6,912"}, {"Fishing and rural villages", "1,215", "1,190"}}},
		{"Tenure", [][]string{{"Owners", "5,400", "5,515"}, {"Tenants", "3,010", "2,987"}}},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Households by size, area and tenure at the end of the last two years of the survey.")...)
	want := [][]string{{"Group", "2022", "2023"}}
	pg.Items = append(pg.Items, tableRows(120, 13, []col{{72, false}, {330, true}, {410, true}}, want, true)...)
	y := 140.0
	for _, g := range groups {
		pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: g.label})
		want = append(want, []string{g.label, "", ""})
		y += 13
		pg.Items = append(pg.Items, tableRows(y, 13, []col{{82, false}, {330, true}, {410, true}}, g.rows, false)...)
		want = append(want, g.rows...)
		y += 13 * float64(len(g.rows))
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Households are counted where they live on the first day of the year.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], want)
}
