package table

import "testing"

// TestTextTableUnderCentredHeads: a small table of text only, no rules and
// no numbers, under bold column heads centred over their columns, one
// wrapped over two lines, between paragraphs: a table (where boldHeaded
// wants one head line whose phrases start or end where the columns do).
// The same columns under big bold figures (a poster's facts, each over a
// few words) are no table.
func TestTextTableUnderCentredHeads(t *testing.T) {
	pg, want := centredHeadsPage(9)
	wantTable(t, pg, want)
	if pg, _ := centredHeadsPage(20); len(detect(t, pg)) != 0 {
		t.Errorf("big figures over text columns read as a table: %s", dump(detect(t, pg)))
	}
}

// centredHeadsPage sets TestTextTableUnderCentredHeads' table, its heads
// in headSize; want is the table read.
func centredHeadsPage(headSize float64) (pg page, want [][]string) {
	rows := [][]string{
		{"Early childhood", "approved", "funded by the region"},
		{"School meals", "pending", "quarterly"},
		{"Adult literacy", "under review", "planned"},
		{"Transport", "see note", "completed"},
	}
	xs := []float64{72, 200, 300}
	ends := []float64{150, 255, 385} // the columns' right edges, about
	centred := func(s string, j int, y float64) txt {
		w := helvWidth(s) * headSize / 10 * 1.05 // bold is a little wider
		return txt{X: (xs[j]+ends[j])/2 - w/2, Y: y, Size: headSize, Bold: true, S: s}
	}
	pg = page{Items: prose(72, 80, "The programmes of the region and where each of them stands at the end of the year.")}
	y := 130.0
	pg.Items = append(pg.Items, centred("Review", 2, y))
	y += headSize * 1.15
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: headSize, Bold: true, S: "Programme"}, centred("Status", 1, y), centred("stage", 2, y))
	want = [][]string{{"Programme", "Status", "Review stage"}}
	y += 16
	for _, r := range rows {
		for j, c := range r {
			pg.Items = append(pg.Items, txt{X: xs[j], Y: y, Size: 9, S: c})
		}
		want = append(want, r)
		y += 12
	}
	pg.Items = append(pg.Items, prose(72, y+14, "All programmes are reviewed again in the spring, when the budget is set.")...)
	return pg, want
}
