package table

import "testing"

// TestEqualFiguresPartUnderHeads: two columns of figures set flush right
// in a browser's default CSS stand 3pt apart, a word space; figures of one
// width ("788" over "701", "193", "512") are not ragged, and "788 471"
// reads like a number's digit groups, so markFigureEnds found no column
// and the two were one cell ("Harbour works 788 471", styles tune
// kd-7002). The head line parts where the figures end ("2025" ends there,
// "Q2" a phrase gap after it ends where "471" ends): the columns are two
// (headsPart). Fails on pdf/134 ("Team 2025 Q2" one head, "Harbour works
// 788 471" one cell).
func TestEqualFiguresPartUnderHeads(t *testing.T) {
	want := [][]string{{"Team", "2025", "Q2", "Total"}, {"Harbour works", "788", "471", "846"}, {"North plant", "701", "772", "988"}}
	fileTable(t, "figpair-default-lbs.pdf", want)
	fileTable(t, "figpair-default-djs.pdf", want)
}

// TestDigitGroupsStayWhole: a column of numbers whose digit groups stand
// a space apart ("1 788 471") under one head ("Staff" ends where the
// whole numbers end) stays one column of whole numbers: no head ends on
// a group's space. Passes before and after.
func TestDigitGroupsStayWhole(t *testing.T) {
	fileTable(t, "figgroup-default-lbs.pdf", [][]string{{"Team", "Staff", "Budget"}, {"Harbour works", "1 788 471", "846"}, {"North plant", "2 701 772", "988"}})
}
