package table

import "testing"

// TestSideBySideLevelOtherShapes: two tables side by side with their rows
// level and of other shapes and column kinds (a grade and a share beside
// a name, a role and a room; a session and its time beside a value and a
// unit, the right one a row longer), column gaps of 12pt and a gutter of 48pt
// (between the words 20pt and 56pt) and
// empty in every line, the heads included: two tables each, not one of
// five columns. sideBySide takes only halves of the same kinds,
// offsetSides rows that do not line up, shortSide a text column right of
// the gutter.
func TestSideBySideLevelOtherShapes(t *testing.T) {
	for _, c := range []struct{ left, right [][]string }{
		{
			[][]string{{"Grade", "Share"}, {"B", "6.7%"}, {"D", "17.4%"}, {"Merit", "14.0%"}, {"Merit", "22.3%"}},
			[][]string{{"Name", "Role", "Room"}, {"K. Mensah", "Chair", "E-303"}, {"A. Lindqvist", "Data officer", "C-144"},
				{"S. Tanaka", "Treasurer", "D-179"}, {"K. Mensah", "Project lead", "C-162"}},
		},
		{
			[][]string{{"Session", "Speaker", "Time"}, {"Workshop A", "Ms Haddad", "08:00"}, {"Closing", "Mr Boateng", "12:15"},
				{"Closing", "Prof. Ito", "11:00"}, {"Opening remarks", "Mr Boateng", "11:30"}},
			[][]string{{"Value", "Unit"}, {"480.6", "kg"}, {"234.7", "kg"}, {"177.0", "kg"}, {"283.6", "mm"}, {"187.1", "%"}},
		},
	} {
		besideTables(t, c.left, c.right, 12, 12, 48)
	}
}
