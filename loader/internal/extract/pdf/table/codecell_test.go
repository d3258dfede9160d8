package table

import "testing"

// A small table of names and rooms (surround tune kd-5194, kd-5070: no
// number, one code to a row in its second column) has the evidence of a
// column of figures: codes line up in a column only in tables. It had
// none, and the table was not found. A reference list's keys ("[VL15]")
// and words with a digit ("Room 4") are no codes.
func TestCodeColumnIsEvidence(t *testing.T) {
	rows := [][]string{
		{"Name", "Room"},
		{"J. García", "A-355"},
		{"S. Tanaka", "E-205"},
		{"R. Okafor per unit", "D-418"},
		{"K. Mensah", "F-344"},
	}
	if !textEvidence(rows, nil, false) {
		t.Error("a column of room codes is no evidence")
	}
	for _, c := range []string{"A-355", "DB-1890", "G-014", "12/B", "ISO9001"} {
		if !codeCell(c) {
			t.Errorf("%q: no code", c)
		}
	}
	for _, c := range []string{"[VL15]", "Room 4", "4711", "Ab-12", "E-", "A-355,"} {
		if codeCell(c) {
			t.Errorf("%q: a code", c)
		}
	}
	refs := [][]string{
		{"[Gad06]", "A. Gadsby, Ed., Dictionary", "[VL15]"},
		{"[GEB15]", "L. A. Gatys, A. S. Ecker", "[VN15]"},
		{"[goo15]", "Inceptionism: Going deeper", "[Wei76]"},
		{"[HS97]", "S. Hochreiter and J. Schmidhuber", "[ZF14]"},
	}
	if textEvidence(refs, nil, false) {
		t.Error("a reference list's keys are evidence")
	}
}
