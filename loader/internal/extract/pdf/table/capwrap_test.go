package table

import (
	"strings"
	"testing"
)

// TestCapitalisedWrapKeepsItsRow: rows ruled apart, a resource's text
// wrapped beside its phone number and web address (failure-after-repair
// p.61): a wrapped line starting with a capital ("Network Australia's",
// a name) whose first word would not have fit on the line above, beside
// the web address wrapped under the phone number, is more of the row,
// as a lower-case wrap is.
func TestCapitalisedWrapKeepsItsRow(t *testing.T) {
	rows := [][2][]string{
		{{"Look Good Feel Better: This free", "program teaches techniques to help", "restore appearance and confidence."}, {"1800 650 960", "lgfb.org.au"}},
		{{"Journey Kit: from Breast Cancer", "Network Australia's My Journey Kit", "contains information and resources."}, {"1800 500 258", "bcna.org.au"}},
		{{"Cancer Council Helpline: talk to a", "nurse about your diagnosis and the", "treatment you are having."}, {"13 11 20", "cancer.org.au"}},
	}
	pg := page{Items: prose(72, 80, "The services below offer information and support to women after breast cancer surgery.")}
	y := 130.0
	pg.Draw = append(pg.Draw, hline(66, 420, y-12))
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: true, S: "Helpful resources"})
	y += 8
	pg.Draw = append(pg.Draw, hline(66, 420, y))
	want := [][]string{{"Helpful resources", ""}}
	for _, r := range rows {
		y += 14
		for i, l := range r[0] {
			pg.Items = append(pg.Items, txt{X: 72, Y: y + 13*float64(i), Size: 10, S: l})
		}
		for i, l := range r[1] {
			pg.Items = append(pg.Items, txt{X: 290, Y: y + 13*float64(i), Size: 10, S: l})
		}
		want = append(want, []string{strings.Join(r[0], " "), strings.Join(r[1], " ")})
		y += 13*float64(len(r[0])-1) + 8
		pg.Draw = append(pg.Draw, hline(66, 420, y))
	}
	// the box's sides (a shaded box with a frame in the original)
	pg.Draw = append(pg.Draw, vline(66, 118, y), vline(420, 118, y))
	pg.Items = append(pg.Items, prose(72, y+30, "Call the helpline for more on any of these services and for others near you.")...)
	wantTable(t, pg, want)
}
