package table

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestSpanningBodyLabels: a body row with two cells spanning it and the
// next (rowspan=2: a label and a status, "Central ... closed" beside
// "Laboratory" over "Call centre"), centred on both rows as a browser
// sets them, is read with both in the first row they span and spans
// recorded; collapsed borders in DejaVu Sans 9pt, separate borders with
// padded cells in Liberation Serif 11pt, a paragraph over and under each
// table (the .html beside each .pdf, printed with chromium --headless
// --no-pdf-header-footer --print-to-pdf). On pdf/128 the line of the two
// labels was a row of its own between the two rows (spanLabels moved one
// label alone, or heads beside group heads), no span recorded.
func TestSpanningBodyLabels(t *testing.T) {
	for _, tc := range []struct {
		file string
		want [][]string // the header row first
	}{
		{"spanlabel-body-djn.pdf", [][]string{
			{"Division", "Unit", "Result", "Share"},
			{"North", "Call centre", "412", "18.2"},
			{"Central", "Laboratory", "closed", "19.6"},
			{"", "Call centre", "", "7.5"},
			{"South", "Archive", "96", "4.1"},
			{"West", "Field office", "233", "10.3"},
		}},
		{"spanlabel-body-lbr.pdf", [][]string{
			{"Team", "Site", "Status", "Staff"},
			{"Harbour", "North pier", "open", "14"},
			{"Depot", "East yard", "closed", "9"},
			{"", "West yard", "", "11"},
			{"Survey", "Field office", "open", "6"},
			{"Stores", "Main store", "open", "4"},
		}},
	} {
		ts := detectFile(t, filepath.Join("testdata", tc.file))
		if len(ts) != 1 {
			t.Errorf("%s: %d tables, want 1", tc.file, len(ts))
			continue
		}
		if got := cellsOf(ts[0]); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.file, got, tc.want)
		}
		spans := []document.CellSpan{{Row: 2, Col: 0, Rows: 2, Cols: 1}, {Row: 2, Col: 2, Rows: 2, Cols: 1}}
		if !reflect.DeepEqual(ts[0].Spans, spans) {
			t.Errorf("%s: spans %+v, want %+v", tc.file, ts[0].Spans, spans)
		}
	}
}

// TestWrappedHeadsStayOneRowDefault: a head row whose cells wrap onto a
// second line ("Treatment" over "(n = 254)"), the one-line heads beside
// them centred on both lines ("Characteristic", "p"), stays one row where
// the two lines make two phrases each (no group head over sub-heads):
// its lines stand at the text's leading, closer than the second line
// stands to the body's first row (rowsApart); DejaVu Sans, collapsed
// borders and Chromium's default, line heights 1.3 and 1.4. Without
// rowsApart the heads beside were moved up and the wrapped lines made a
// row of their own.
func TestWrappedHeadsStayOneRowDefault(t *testing.T) {
	want := [][]string{
		{"Characteristic", "Treatment (n = 254)", "Control (n = 169)", "p"},
		{"Response time, ms", "101.4 ± 46.2", "326.9 ± 106.9", "0.04"},
		{"Body mass index", "24.2 ± 3.6", "25.1 ± 4.0", "0.21"},
		{"Dose, mg", "26.3", "24.8 ± 2.9", "0.57"},
		{"Age, years", "46.9 ± 9.1", "48.4 ± 8.7", "0.33"},
	}
	for _, f := range []string{"wrappedhead-collapse-djn.pdf", "wrappedhead-default-djn.pdf"} {
		ts := detectFile(t, filepath.Join("testdata", f))
		if len(ts) != 1 {
			t.Errorf("%s: %d tables, want 1", f, len(ts))
			continue
		}
		if got := cellsOf(ts[0]); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", f, got, want)
		}
	}
}
