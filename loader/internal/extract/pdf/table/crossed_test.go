package table

import "testing"

// A back page's two columns of prose over a decoration: a bar 6pt wide
// drawn down to the page's foot behind the left column's lines, a rule
// across the page above them and links underlined across the bar. The
// bar's two edges and the rules meet as a grid, but the text runs across
// both edges: no vertical rule parts two columns, so it is no ruled
// table (a GAO report's back page read as a table of cut sentences).
func TestRulesBehindTextAreNoGrid(t *testing.T) {
	var pg page
	pg.Draw = append(pg.Draw,
		"0.2 0.3 0.6 rg 95 0 6.4 152 re f 0 g",
		hline(25, 591, 649), hline(60, 160, 685.5), hline(60, 200, 709.5))
	left := []string{
		"The Government Accountability Office,",
		"the audit and investigative arm of",
		"Congress, supports the Congress in",
		"meeting its responsibilities. See",
		"www.gao.gov/about/contact-us today.",
	}
	right := []string{
		"We conducted our work from May 2023",
		"to June 2023 in accordance with all",
		"sections of the Quality Assurance",
		"Framework that are relevant to our",
		"objectives, as the framework requires.",
	}
	for i := range left {
		y := 660 + float64(i)*12
		pg.Items = append(pg.Items, txt{X: 25, Y: y, Size: 8, S: left[i]}, txt{X: 320, Y: y, Size: 8, S: right[i]})
	}
	if tabs := detect(t, pg); len(tabs) != 0 {
		t.Errorf("two columns of prose over a bar read as %d table(s): %q", len(tabs), cellsOf(tabs[0]))
	}
}
