package table

import (
	"strings"
	"testing"
)

// TestStatementHeadsAndGroups: a statement set at its leading (9pt on
// 13.5pt) under its title and unit line, 7pt more than its line gap
// between them and its heads ("Note 2024 2023", the note numbers' head
// standing alone), with group labels outdented from the items, two of
// them in a row ("Non-current assets" then "Intangible assets"): one
// table of the heads and every row, without the title or the unit line.
// The "Note" head line was taken for a note (a caption), so the heads
// were lost; the two group labels ended the run (two lines outside its
// columns), so the row above them was lost (a line over 50 bytes is no
// head); and heads went up through the title and the unit line (each as
// close as 1.5 sizes; a long item makes the stub column wider than the
// title). Each of the three fails the test alone (checked).
func TestStatementHeadsAndGroups(t *testing.T) {
	const size, pitch = 9.0, 13.5
	right := func(s string, x1 float64) float64 { return x1 - helvWidth(s)*0.9 }
	pg := page{Items: prose(42, 70, "The group's results for the year are set out below, with the figures of the year before.")}
	pg.Items = append(pg.Items, txt{X: 42, Y: 100, Size: size, S: "Statement of financial position"},
		txt{X: 42, Y: 100 + pitch, Size: size, S: "(in thousands of euros)"})
	y := 100 + 2*pitch + 7
	for _, h := range []struct {
		s  string
		x1 float64
	}{{"Note", 309}, {"2024", 389}, {"2023", 472}} {
		pg.Items = append(pg.Items, txt{X: right(h.s, h.x1), Y: y, Size: size, S: h.s})
	}
	rows := [][]string{
		{"Revenue from contracts with customers", "4", "1,327,340", "966,188"},
		{"Non-current assets"},
		{"Intangible assets"},
		{"Goodwill", "6", "307,692", "177,548"},
		{"Gain on disposal of subsidiaries, net of cash", "", "17,135", "21,027"},
		{"Equity"},
		{"Share capital", "", "48,722", "48,722"},
		{"Retained earnings", "7", "1,924,416", "1,217,120"},
	}
	for _, r := range rows {
		y += pitch
		x := 52.0
		if len(r) == 1 {
			x = 46
		}
		pg.Items = append(pg.Items, statementRow(r, x, y, []float64{309, 389, 472})...)
	}
	pg.Items = append(pg.Items, prose(42, y+2*pitch, "The notes on the following pages are part of these statements.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) != 1+len(rows) || len(got[0]) != 4 {
		t.Errorf("%d rows of %d, want %d of 4: %s", len(got), len(got[0]), 1+len(rows), dump(ts))
	}
	if !strings.Contains(strings.Join(got[0], "|"), "Note") || strings.Contains(dump(ts), "Statement of") || strings.Contains(dump(ts), "thousands") {
		t.Errorf("the heads (Note 2024 2023) first, no title or unit line: %s", dump(ts))
	}
}

// statementRow sets a statement's row at y in 9pt: its label at x, its
// amounts flush right at ends (an empty one left out).
func statementRow(r []string, x, y float64, ends []float64) []txt {
	items := []txt{{X: x, Y: y, Size: 9, S: r[0]}}
	for j, c := range r[1:] {
		if c != "" {
			items = append(items, txt{X: ends[j] - helvWidth(c)*0.9, Y: y, Size: 9, S: c})
		}
	}
	return items
}
