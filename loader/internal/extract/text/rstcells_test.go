package text

import (
	"runtime"
	"strings"
	"testing"
)

// TestRSTLongCellsLinearCost (review45's LOW on text/13): a cell of many
// lines (a simple table's row continued line after line, a list-table or
// grid cell) is joined once; each line was appended to the cell so far
// (1 MB: 12 s and 11 GB allocated). The cells land as before: their lines
// joined by spaces.
func TestRSTLongCellsLinearCost(t *testing.T) {
	const n = 6000
	var simple, list, grid strings.Builder
	simple.WriteString("=====  ==========================\nKey    Notes\n=====  ==========================\nA1     first line\n")
	list.WriteString(".. list-table:: Parts\n   :header-rows: 1\n\n   * - Key\n     - Notes\n   * - A1\n     - first line\n")
	grid.WriteString("+-----+----------------------------+\n| Key | Notes                      |\n+=====+============================+\n| A1  | first line                 |\n")
	for i := 0; i < n; i++ {
		simple.WriteString("       more words of the note\n")
		list.WriteString("       more words of the note\n")
		grid.WriteString("|     | more words of the note     |\n")
	}
	simple.WriteString("=====  ==========================\n")
	grid.WriteString("+-----+----------------------------+\n")
	want := "first line" + strings.Repeat(" more words of the note", n)
	for name, doc := range map[string]string{"simple": simple.String(), "list-table": list.String(), "grid": grid.String()} {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		res := run(t, "t.rst", []byte("Parts\n=====\n\n"+doc))
		runtime.ReadMemStats(&m1)
		if len(res.Tables) != 1 || len(res.Tables[0].Rows) != 1 || res.Tables[0].Rows[0][1] != want {
			var got any = res.Tables
			if len(res.Tables) == 1 && len(res.Tables[0].Rows) > 0 {
				got = len(res.Tables[0].Rows[0][1])
			}
			t.Errorf("%s: table %v", name, got)
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 40<<20 {
			t.Errorf("%s: allocated %d MB for one cell of %d lines", name, a>>20, n+1)
		}
	}
}
