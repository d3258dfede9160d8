package table

import "testing"

// TestTwoRowsBetweenGroupRules: a statement ruled under its group head,
// under its column heads and under a subtotal, its other rows in one
// band of lines under the last rule (read line by line): the two rows
// between the heads' rule and the subtotal's, a label and two amounts
// each, are two rows. With a third rule in the box the band of two was
// read as one row, as where rules run between most rows ("Cost of sales
// Gross profit", kinds tune kd-1024 p25, whose group head's rule pdf/99
// brought into the table).
func TestTwoRowsBetweenGroupRules(t *testing.T) {
	want := [][]string{
		{"", "", "Year ended 31 December", ""},
		{"", "Note", "2020", "2019"},
		{"Cost of sales", "", "1,818,987", "1,256,931"},
		{"Gross profit", "", "2,833,215", "1,992,168"},
		{"Operating expenses", "", "", ""},
		{"Right-of-use assets", "23", "2,217,924", "31,645"},
		{"Deferred tax assets", "10", "1,496,238", "367,880"},
		{"Share-based payment reserve", "6", "2,675,540", "468,958"},
		{"Proceeds from borrowings", "", "838,920", "2,601,852"},
		{"Employee benefit obligations", "11", "1,996,120", "239,808"},
		{"Provisions", "23", "3,375,528", "191,034"},
		{"Interest paid", "16", "1,881,198", "221,330"},
	}
	pg := page{Items: prose(72, 40, "The statement of profit or loss for the year, with the figures of the",
		"year before; the notes give the accounting policies and the estimates",
		"made by the directors in preparing it.")}
	right := []float64{0, 330, 450, 540} // the amounts' and notes' right edges
	y := 100.0
	for i, r := range want {
		for j, c := range r {
			if c == "" {
				continue
			}
			x := 72.0
			if j > 0 {
				x = right[j] - afmWidth(c, 10)
			}
			if i == 0 {
				x = right[3] - afmWidth(c, 10) // the group head, right-aligned over the years
			}
			pg.Items = append(pg.Items, txt{X: x, Y: y, Size: 10, S: c})
		}
		switch i {
		case 0: // under the group head (a th border under the stub head too)
			pg.Draw = append(pg.Draw, hline(70, 545, y+4))
		case 1, 3: // under the heads, under the subtotal
			pg.Draw = append(pg.Draw, hline(70, 545, y+4))
		}
		y += 15
	}
	wantTable(t, pg, want)
}
