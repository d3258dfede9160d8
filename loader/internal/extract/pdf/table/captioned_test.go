package table

import "testing"

// TestCaptionedTextOnlyTable: a table of words only (no number column, no
// rules, no bold header) under a "Table 1." caption is a table; under a
// figure's caption it is not. Under no caption it is a table too since
// session 21 (textColumns: left-aligned columns of short cells, none
// reading as running text, were the held-out misses' small unruled
// tables; before, aligned phrases alone said nothing of a table).
func TestCaptionedTextOnlyTable(t *testing.T) {
	rows := [][]string{
		{"Region", "Status"},
		{"Northern coast", "pending review"},
		{"Central valley", "approved"},
		{"Southern hills", "funded by the regional authority"},
		{"Western islands", "under review"},
		{"Eastern plains", "not applicable"},
	}
	body := tableRows(140, 14, []col{{72, false}, {210, false}}, rows, false)
	intro := prose(72, 80, "The state of the projects in every region at the end of the year, as reported by the ministry.")
	after := prose(72, 240, "Projects under review are expected to be decided before the end of the next year.")
	cases := []struct {
		name    string
		caption string
		want    int
	}{
		{"table caption", "Table 1. Projects by region", 1},
		{"table caption with colon", "TABLE 2: Projects by region", 1},
		{"no caption", "", 1},
		{"figure caption", "Figure 1. Projects by region", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pg := page{Items: append(append([]txt{}, intro...), after...)}
			if c.caption != "" {
				pg.Items = append(pg.Items, txt{X: 72, Y: 122, Size: 10, Bold: true, S: c.caption})
			}
			pg.Items = append(pg.Items, body...)
			ts := detect(t, pg)
			if len(ts) != c.want {
				t.Fatalf("want %d tables, got %d: %s", c.want, len(ts), dump(ts))
			}
			if c.want == 1 {
				wantCells(t, ts[0], rows)
			}
		})
	}
}

// TestCaptionWrappedWiderThanTable: a caption wrapped over two lines, the
// first wider than the table under it and the second inside its width,
// as close to the first as a caption's lines are: the second line is the
// caption's, not a header row of the table.
func TestCaptionWrappedWiderThanTable(t *testing.T) {
	rows := [][]string{
		{"Region", "Staff", "Offices"},
		{"Northern coast", "1,204", "12"},
		{"Central valley", "860", "9"},
		{"Southern hills", "2,315", "21"},
		{"Western islands", "512", "4"},
	}
	pg := page{Items: prose(72, 80, "The staff and offices of the agency in every region at the end of the year, as reported.")}
	pg.Items = append(pg.Items, txt{X: 72, Y: 112, Size: 10, Bold: true, S: "Table 1. Staff and offices of the regional agencies at the end"},
		txt{X: 72, Y: 123, Size: 10, Bold: true, S: "of the year"})
	pg.Items = append(pg.Items, tableRows(142, 13, []col{{72, false}, {240, true}, {300, true}}, rows, false)...)
	pg.Items = append(pg.Items, prose(72, 240, "Offices opened during the year are counted from the month they opened.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// TestTotalAloneIsARow: "Total" alone in the stub under a row whose
// cells are all filled is the total row, not the last word of the label
// above wrapping (the label and the word would not fit the stub column,
// which the width test alone reads as a wrap).
func TestTotalAloneIsARow(t *testing.T) {
	rows := [][]string{
		{"Country", "Frequency", "Status"},
		{"Hungary", "monthly", "approved"},
		{"Portugal", "quarterly", "pending"},
		{"Austria", "annual", "under review"},
		{"Luxembourg", "monthly", "planned"},
		{"Total", "", ""},
	}
	pg := page{Items: prose(72, 80, "How often each country reports, and the state of its reporting agreement.")}
	pg.Items = append(pg.Items, txt{X: 72, Y: 112, Size: 10, Bold: true, S: "Table 3. Reporting by country"})
	pg.Items = append(pg.Items, tableRows(130, 13, []col{{72, false}, {150, false}, {230, false}}, rows[:1], true)...)
	pg.Items = append(pg.Items, tableRows(145, 13, []col{{72, false}, {150, false}, {230, false}}, rows[1:], false)...)
	pg.Items = append(pg.Items, prose(72, 240, "Agreements under review are expected to be decided before the end of the year.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// TestTextCellEndingInAnArticle: a text cell whose line ends in a word
// that ends no phrase ("funded by the") goes on on the next line, and the
// capitalised label beside that line is its row's label wrapping, not a
// row of its own (a line filling every column the row has starts a row
// unless it starts lower-case).
func TestTextCellEndingInAnArticle(t *testing.T) {
	lines := [][]string{
		{"Region", "Arrangement"},
		{"Northern coast", "approved"},
		{"Central valley and", "funded by the"},
		{"Western", "regional authority"},
		{"Southern hills", "under review"},
		{"Eastern plains", "shared with"},
		{"", "neighbours"},
		{"Western islands", "approved"},
	}
	pg := page{Items: prose(72, 80, "The arrangement under which each region's projects are funded, as reported.")}
	pg.Items = append(pg.Items, txt{X: 72, Y: 112, Size: 10, Bold: true, S: "Table 2. Arrangements by region"})
	pg.Items = append(pg.Items, tableRows(130, 12, []col{{72, false}, {170, false}}, lines[:1], true)...)
	pg.Items = append(pg.Items, tableRows(145, 12, []col{{72, false}, {170, false}}, lines[1:], false)...)
	pg.Items = append(pg.Items, prose(72, 240, "Arrangements under review are expected to be decided before the end of the year.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Region", "Arrangement"},
		{"Northern coast", "approved"},
		{"Central valley and Western", "funded by the regional authority"},
		{"Southern hills", "under review"},
		{"Eastern plains", "shared with neighbours"},
		{"Western islands", "approved"},
	})
}
