package table

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// A line of two or three phrases ending a run of table lines, none of
// them lined up with the columns over it, is a note or the next title,
// not the table's last row (noteUnder). Tune page: tablegen seed 1490
// (leading), a table beside a paragraph with the note "Data for the
// latest year are estimates." under it: on main the run took the note
// in and the table was not found.
func TestNoteUnderRunIsNoRow(t *testing.T) {
	doc, err := tablegen.Generate(1490)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "gen.pdf")
	if err := os.WriteFile(name, doc.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	ts := detectFile(t, name)
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
