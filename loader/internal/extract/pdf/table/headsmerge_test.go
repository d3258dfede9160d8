package table

import (
	"path/filepath"
	"testing"
)

// A ledger's heads set over the gaps between its columns ("Vr.No" from
// just after the dates' end, "Dr.Amt" from just after the longest
// particulars) make the grid read the columns they stand over as one:
// three columns, so no table. Read alone, the body is the ledger
// (headsMerge). Laid out as corpus/pdf/issue-912.pdf p1 (pdflabels tune:
// "not found" on main, checked).
func TestHeadsOverColumnGaps(t *testing.T) {
	const size, k = 7, 0.75 // the landscape page scaled to the fixture's portrait one
	var pg page
	pg.Items = append(pg.Items, txt{X: 215 * k, Y: 56, Size: size, S: "XYZ Pvt Ltd"})
	heads := []struct {
		x float64
		s string
	}{{53, "Vr.Date"}, {101, "Vr.No"}, {140, "Vr.Type"}, {215, "Particulars"}, {470, "Dr.Amt"}, {536, "Cr.Amt"}, {605, "Balance"}}
	for _, h := range heads {
		pg.Items = append(pg.Items, txt{X: h.x * k, Y: 84, Size: size, S: h.s})
	}
	rows := [][]string{
		{"01-Apr-16", "", "", "", "Opening Balance", "", "27614207", "27614207"},
		{"13-May-16", "38", "BP", "R", "Chq. No. 085900 BILL NO.133, 132, 139, 143", "26406576", "0", "1207631 Cr."},
		{"25-Jun-16", "50", "BP", "R", "Chq. No. 086352 COMMISSION RETURNED", "132696", "0", "1074935 Cr."},
		{"19-Aug-16", "1", "BP", "R", "Chq. No. 086866 Payment against bill no.197", "1074935", "0", "0 Dr."},
	}
	xs := []float64{57, 131, 145, 187, 215, 492, 560, 620}
	for i, r := range rows {
		for j, c := range r {
			if c != "" {
				pg.Items = append(pg.Items, txt{X: xs[j] * k, Y: 98.5 + 11*float64(i), Size: size, S: c})
			}
		}
	}
	want := [][]string{
		{"01-Apr-16", "", "", "Opening Balance", "", "27614207", "27614207"},
		{"13-May-16", "38 BP", "R", "Chq. No. 085900 BILL NO.133, 132, 139, 143", "26406576", "0", "1207631 Cr."},
		{"25-Jun-16", "50 BP", "R", "Chq. No. 086352 COMMISSION RETURNED", "132696", "0", "1074935 Cr."},
		{"19-Aug-16", "1 BP", "R", "Chq. No. 086866 Payment against bill no.197", "1074935", "0", "0 Dr."},
	}
	if ts := detect(t, pg); !hasTable(ts, want) {
		t.Errorf("want the ledger's rows %q: %s", want, dump(ts))
	}
}

// Two small tables parted by a page-wide rule, the first's head "Area
// (km²)" over its numbers' column gap: the run of both tables' lines is
// no one table, nor is the body under that head (headsMerge stops at a
// rule running twice the body's width). Tune page: surround kd-5306
// (`-surround 600`), one table across both with pdf/75 (checked).
func TestHeadsMergeStopsAtPageRule(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5306.pdf"))
	for _, tb := range ts {
		if tb.BBox.Y0 < 95 && tb.BBox.Y1 > 100 {
			t.Errorf("a table across the page-wide rule at y 97: %s", dump(ts))
		}
	}
}
