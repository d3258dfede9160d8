package table

import (
	"path/filepath"
	"testing"
)

// TestNarrowFontColumns: a small table set in a condensed font (Liberation
// Sans Narrow, word space 2.3pt at 10pt) whose text columns are set flush
// right a padding apart: "Closing" ends 4.5pt before "Ms Kowalska", under
// the grid's gap (5.5pt), and each row read as one or two phrases, so the
// table was not found (surround tune kd-5082, kd-5098: columns merged).
// The stretch free over every line, 1.8 word spaces wide or more, is a column
// gap (narrowGaps). Fails on pdf/135: no table found.
func TestNarrowFontColumns(t *testing.T) {
	fileTable(t, "narrowcols-lsn.pdf", [][]string{{"Date", "Session", "Speaker", "Time"}, {"14 March", "Workshop A", "Dr Weber", "12:30"}, {"19 November", "Closing", "Ms Kowalska", "09:15"}, {"2 May", "Panel on water", "Mr Okafor", "16:45"}})
}

// TestNarrowFontRunningTextNoTable: justified running text in the same
// condensed font (word spaces 2.3-4.4pt from line to line) is no table:
// no stretch is free over its lines. Passes before and after.
func TestNarrowFontRunningTextNoTable(t *testing.T) {
	if ts := detectFile(t, filepath.Join("testdata", "narrowtext-lsn.pdf")); len(ts) != 0 {
		t.Errorf("running text read as %d tables: %s", len(ts), dump(ts))
	}
}
