package table

import (
	"fmt"
	"strings"
	"testing"
)

// A line of two or three phrases ending a run of table lines, none of
// them lined up with the columns over it, is a note or the next title,
// not the table's last row (noteUnder). Tune page: tablegen seed 1490
// (leading), a table beside a paragraph with the note "Data for the
// latest year are estimates." under it: on main the run took the note
// in and the table was not found.
func TestNoteUnderRunIsNoRow(t *testing.T) {
	ts := generatedTables(t, 1490)
	want := [][]string{
		{"Industry", "Unemployed"},
		{"Hungary", "shared with neighbouring districts"},
		{"Hungary", "not applicable"},
		{"Poland", "yes"},
		{"Italy", "estimated from survey data"},
		{"Germany", "low"},
		{"Belgium*", "pending"},
		{"France", "annual"},
	}
	if !hasTable(ts, want) {
		t.Errorf("want a table %q: %s", want, dump(ts))
	}
	for _, tb := range ts {
		for _, r := range cellsOf(tb) {
			if strings.Contains(strings.Join(r, " "), "estimates.") {
				t.Errorf("the note under the table is a row of it: %s", dump(ts))
			}
		}
	}
}

// A line of two phrases over a run of table lines of seven columns, none
// of its phrases lined up with the columns under it, is the table's
// title, not its header row (titleOver): a heat's title and date over its
// zebra-striped result list, as a sports club's page prints them
// (realhtml tune leichtathletik-ostalbkreis p1 and p3 took the title and
// the heat's name in as a first row on main).
func TestTitleOverRunIsNoHead(t *testing.T) {
	pg, rows := heatPage()
	ts := detect(t, pg)
	if !hasTable(ts, rows) {
		t.Errorf("want a table %q: %s", rows, dump(ts))
	}
}

// heatPage: a heat's title and date, the heat's name under them, and its
// result list in zebra stripes; and the list's rows.
func heatPage() (page, [][]string) {
	rows := [][]string{
		{"1.", "Effert, Sarah-Lea", "1993", "WU", "LG Staufen", "13,04", "sec."},
		{"2.", "Pitan, Ramona", "1993", "WU", "DJK Ellwangen-SG Virngrund", "13,24", "sec."},
		{"3.", "Fronmueller, Sina", "1993", "WU", "Turnverein Holzheim 1885", "13,96", "sec."},
		{"4.", "Reisacher, Sophie", "1993", "WU", "TSF Gschwend", "15,12", "sec."},
		{"5.", "Bischofberger, Myriam", "1993", "WU", "SSV Ulm 1846", "16,30", "sec."},
	}
	xs := []float64{37, 62, 228, 261, 285, 455, 509}
	edges := []float64{36, 59, 225, 258, 282, 452, 506, 576}
	pg := page{}
	pg.Items = append(pg.Items, txt{X: 45, Y: 56, Size: 9.5, Bold: true, S: "100 m Schi A W14"})
	pg.Items = append(pg.Items, txt{X: 340, Y: 56, Size: 9.5, S: "19.05.2007"})
	pg.Items = append(pg.Items, txt{X: 57, Y: 69, Size: 9.5, S: "1. Vorlauf"})
	for r, row := range rows {
		if r%2 == 0 { // zebra stripes, a browser's fill a cell, the rows between unshaded
			y := 82 + 12.75*float64(r) - 9.5
			for c, x := range edges[:len(edges)-1] {
				pg.Draw = append(pg.Draw, fmt.Sprintf("0.87 g %g %g %g 12.75 re f 0 g", x, 792-y-12.75, edges[c+1]-x))
			}
		}
		for c, s := range row {
			pg.Items = append(pg.Items, txt{X: xs[c], Y: 82 + 12.75*float64(r), Size: 9.5, S: s})
		}
	}
	return pg, rows
}
