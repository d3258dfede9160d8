package table

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// fileTable: the PDF's first page holds one table, whose first rows are
// want (Chromium-printed fixtures in testdata, their HTML beside them).
func fileTable(t *testing.T, name string, want [][]string) document.Table {
	t.Helper()
	ts := detectFile(t, filepath.Join("testdata", name))
	if len(ts) != 1 {
		t.Fatalf("%s: want 1 table, got %d: %s", name, len(ts), dump(ts))
	}
	rows := cellsOf(ts[0])
	if len(rows) < len(want) {
		t.Fatalf("%s: rows %q", name, rows)
	}
	for i, w := range want {
		if !equalRow(rows[i], w) {
			t.Errorf("%s: row %d: got %q, want %q", name, i, rows[i], w)
		}
	}
	return ts[0]
}

// TestTouchingHeadsSplit: heads wider than the values under them, in a
// browser's default table CSS (cells 3pt apart, no farther than a word
// space): "Share of total expenditure Estimated cost of the measure"
// read as one phrase across the body's column gap, and the grid dropped
// the gap (the styles tune pages kd-7002, kd-7034). The head line's word
// boundary on the body's column edge (values set flush left start where
// the next head starts; figures set flush right end where the head
// before ends) splits it (headCells). Before, the two columns were one
// ("168.0 44.0") and the default-CSS page was no table at all (its
// columns of numbers merged into one of text).
func TestTouchingHeadsSplit(t *testing.T) {
	share := [][]string{{"Country", "Share of total expenditure", "Estimated cost of the measure"}, {"East", "168.0", "44.0"}, {"West Midlands", "−74.0", "36.2"}}
	risk := [][]string{{"Region", "Risk after mitigation", "Share of total expenditure", "Planned completion"}, {"North East", "603.9", "77.7", "2026"}, {"East Midlands", "253.3", "12.5", "2027"}}
	fileTable(t, "touchhead-default-lbs.pdf", share) // values set flush left
	fileTable(t, "touchhead-right-lbr.pdf", share)   // heads and figures set flush right
	fileTable(t, "touchhead-default-djs.pdf", risk)
	fileTable(t, "touchhead-right-djn.pdf", risk)
}

// TestHeadWiderThanItsColumnKeepsGap: a sub-head wider than the figures
// under it ("2026", centred, flush with its column's start) reaches into
// the gap before the next column (its figures set flush left 3pt after
// it, default CSS): the grid read it as a wide cell of its column with
// no column beside it in its row and dropped the gap ("398 810" one
// cell; tables43's fixtures). The next column's cells starting at one x
// say it is a column: the boundary goes beside the head.
func TestHeadWiderThanItsColumnKeepsGap(t *testing.T) {
	want := [][]string{{"Region", "Site", "Staff", "", "Total"}, {"", "", "2025", "2026", ""}, {"North", "Harbour works", "412", "398", "810"}}
	fileTable(t, "spanhead-default-lbs.pdf", want)
	fileTable(t, "spanhead-border-djn.pdf", want) // was "Harbour works 412" too
}

// TestGroupHeadAndWrappedHeadsStayWhole: what headCells must leave
// alone. A group head over two columns ("Expenditure of the group in the
// year" over "Planned" and "Actual") is one cell spanning them; heads
// wrapped in narrow columns, each line flush right over figures set
// flush right, stay whole cells.
func TestGroupHeadAndWrappedHeadsStayWhole(t *testing.T) {
	tb := fileTable(t, "grouphead-default-djs.pdf", [][]string{{"Item", "Expenditure of the group in the year", "", "Share of total expenditure"}})
	if !slices.ContainsFunc(tb.Spans, func(sp document.CellSpan) bool { return sp.Row == 0 && sp.Col == 1 && sp.Cols >= 2 }) {
		t.Errorf("the group head spans no columns: %+v", tb.Spans)
	}
	fileTable(t, "touchwrap-right-djs.pdf", [][]string{{"Country", "Share of total expenditure in the year", "Estimated cost of the measure to the region"}, {"East", "168.0", "44.0"}})
}

// TestBodyCellAcrossGapKeepsColumn: the wide-cell rule's exception for
// a head wider than its column (the next column's cells start at one x:
// keep the gap beside the head) is for a column with a head. A body cell
// wrapped wide in its column ("Schedule B Transfer or Exchange for Less
// than Fair") across the gap before marks set in the margin at one x
// ("#", four lines, no head over them; an IRM exhibit's "official use"
// marks) took it too, and the marks became a fourth column, an empty
// cell in every other row (pdf2image-memory-error-test-400p p339). Fails
// on pdf/134.
func TestBodyCellAcrossGapKeepsColumn(t *testing.T) {
	tb := fileTable(t, "marginmark-lbs.pdf", [][]string{{"LINE", "POSITION", "DESCRIPTION AND VALIDITY"}, {"19", "20-59", "Name of Second Trustee Named"}})
	for _, r := range cellsOf(tb) {
		if len(r) != 3 {
			t.Fatalf("want 3 columns, got %q", r)
		}
	}
}
