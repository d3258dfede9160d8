package table

import (
	"reflect"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// bandPage draws a two-column table with a rule over and under every
// band and down its sides and middle (the corpus's cancer booklet, p. 23
// and p. 61 of failure-after-repair.pdf), and sets each band's lines
// from its top, 11pt apart.
func bandPage(ys []float64, bands [][]txt) page {
	var pg page
	for _, y := range ys {
		pg.Draw = append(pg.Draw, hline(72, 480, y))
	}
	last := ys[len(ys)-1]
	pg.Draw = append(pg.Draw, vline(72, ys[0], last), vline(250, ys[1], last), vline(480, ys[0], last))
	for k, b := range bands {
		for _, it := range b {
			it.Y += ys[k]
			pg.Items = append(pg.Items, it)
		}
	}
	return pg
}

// A row label wrapped onto the band's next lines ("Grade 2", then
// "(intermediate", "grade)") keeps its row when the text cell beside it
// starts a new sentence there ("They are growing ..."): a label does not
// wrap into the next row's.
func TestWrappedLabelKeepsItsRow(t *testing.T) {
	bands := [][]txt{
		{{X: 76, Y: 14, Size: 10, Bold: true, S: "Grading"}},
		{
			{X: 76, Y: 14, Size: 10, Bold: true, S: "Grade 1"}, {X: 254, Y: 14, Size: 10, S: "Cells look a little different from"},
			{X: 76, Y: 25, Size: 10, Bold: true, S: "(low grade)"}, {X: 254, Y: 25, Size: 10, S: "normal cells. They grow slowly."},
		},
		{
			{X: 76, Y: 14, Size: 10, Bold: true, S: "Grade 2"}, {X: 254, Y: 14, Size: 10, S: "Cells do not look like normal cells."},
			{X: 76, Y: 25, Size: 10, Bold: true, S: "(intermediate"}, {X: 254, Y: 25, Size: 10, S: "They are growing faster than grade 1"},
			{X: 76, Y: 36, Size: 10, Bold: true, S: "grade)"}, {X: 254, Y: 36, Size: 10, S: "cancer, but not as fast as grade 3."},
		},
		{
			{X: 76, Y: 14, Size: 10, Bold: true, S: "Grade 3"}, {X: 254, Y: 14, Size: 10, S: "Cells look very different from"},
			{X: 76, Y: 25, Size: 10, Bold: true, S: "(high grade)"}, {X: 254, Y: 25, Size: 10, S: "normal cells. They grow fast."},
		},
	}
	want := [][]string{
		{"Grading", ""},
		{"Grade 1 (low grade)", "Cells look a little different from normal cells. They grow slowly."},
		{"Grade 2 (intermediate grade)", "Cells do not look like normal cells. They are growing faster than grade 1 cancer, but not as fast as grade 3."},
		{"Grade 3 (high grade)", "Cells look very different from normal cells. They grow fast."},
	}
	ts := detect(t, bandPage([]float64{100, 120, 152, 195, 227}, bands))
	if len(ts) != 1 || !reflect.DeepEqual(cellsOf(ts[0]), want) {
		t.Errorf("tables %q, want one with %q", tablesCells(ts), want)
	}
}

// A label opened by a lead-in in a larger size ("YWCA Encore:" at 10pt,
// the rest at 9.25pt) runs on lower-case under it; the cell beside it
// lists a phone number, then a web address: one row.
func TestLeadInLabelRunsOn(t *testing.T) {
	entry := func(lead, rest string, more []string, phone, web string) []txt {
		its := []txt{
			{X: 76, Y: 14, Size: 10, Bold: true, S: lead}, {X: 76 + 6.2*float64(len(lead)), Y: 14, Size: 9.25, S: rest},
			{X: 254, Y: 14, Size: 10, Bold: true, S: phone},
		}
		for i, m := range more {
			its = append(its, txt{X: 76, Y: 25 + 11*float64(i), Size: 9.25, S: m})
		}
		return append(its, txt{X: 254, Y: 25, Size: 9.25, S: web})
	}
	bands := [][]txt{
		{{X: 76, Y: 14, Size: 10, Bold: true, S: "Helpful resources"}},
		entry("Encore:", "This free eight-week", []string{"information and exercise program", "is for women after surgery."}, "1800 305 150", "encore.org.au"),
		entry("Look Good:", "This free program", []string{"teaches techniques to restore", "appearance and confidence."}, "1800 650 960", "lgfb.org.au"),
	}
	want := [][]string{
		{"Helpful resources", ""},
		{"Encore: This free eight-week information and exercise program is for women after surgery.", "1800 305 150 encore.org.au"},
		{"Look Good: This free program teaches techniques to restore appearance and confidence.", "1800 650 960 lgfb.org.au"},
	}
	ts := detect(t, bandPage([]float64{100, 120, 162, 204}, bands))
	if len(ts) != 1 || !reflect.DeepEqual(cellsOf(ts[0]), want) {
		t.Errorf("tables %q, want one with %q", tablesCells(ts), want)
	}
}

// A glossary of lower-case setting names, a row a line, in a frame ruled
// over and under its head, down its sides and middle and under the table,
// with no rules between the rows (review31's probe): every label is a row
// of its own. A label that would have fit on the line above inside its
// ruled cell ("Port", then "max_connections") does not wrap there, and a
// band of many one-line rows is no band meant as one row.
func TestLowerCaseLabelsInAFrameAreRows(t *testing.T) {
	rows := [][2]string{
		{"Port", "The TCP port the server listens on."},
		{"max_connections", "The most clients served at once."},
		{"timeout", "Seconds before an idle client is dropped."},
		{"log_directory_path", "Where the server writes its logs."},
		{"retries", "How often a failed request is sent again."},
		{"buffer_size", "Bytes read from a socket in one call."},
		{"verbose", "Whether each request is logged."},
	}
	head := []txt{{X: 76, Y: 14, Size: 10, Bold: true, S: "Setting"}, {X: 254, Y: 14, Size: 10, Bold: true, S: "Meaning"}}
	var body []txt
	want := [][]string{{"Setting", "Meaning"}}
	for i, r := range rows {
		y := 14 + 11*float64(i)
		body = append(body, txt{X: 76, Y: y, Size: 10, S: r[0]}, txt{X: 254, Y: y, Size: 10, S: r[1]})
		want = append(want, []string{r[0], r[1]})
	}
	ts := detect(t, bandPage([]float64{100, 120, 200}, [][]txt{head, body}))
	if len(ts) != 1 || !reflect.DeepEqual(cellsOf(ts[0]), want) {
		t.Errorf("tables %q, want one with %q", tablesCells(ts), want)
	}
}

func tablesCells(ts []document.Table) [][][]string {
	var out [][][]string
	for _, tb := range ts {
		out = append(out, cellsOf(tb))
	}
	return out
}
