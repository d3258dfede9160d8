package tablegen

import (
	"fmt"
	"math/rand/v2"
)

// Page furniture (v8, session 23): the words of the running heads, the
// exhibit lines under them and the page footers that v5 and v7 draw, in
// forms of this package's own, several per class, one drawn at random per
// page. v5-v7 had followed one visible document's wording ("Cat. No.
// ...", "Exhibit ... (Cont. ...)"); nothing here is taken from a corpus
// document.

// Mark is a line of page furniture the page shows (a running head's or a
// footer's part, an exhibit line): not any table's. Base is its baseline
// (points, top-left origin).
type Mark struct {
	Text string
	Base float64
}

// mark writes s at (x, base) and records it as furniture.
func (p *page) mark(x, base float64, s string) {
	p.f.Text(x, base, s)
	p.marks = append(p.marks, Mark{Text: s, Base: base})
}

var months = []string{"Jan", "Feb", "March", "April", "May", "June", "July", "Aug", "Sept", "Oct", "Nov", "Dec"}

var romans = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"}

// pageNumber is a page's number in one of a few forms ("17", "- 17 -",
// "p. 17", "Page 17 of 40", "[17]", "Sheet 17").
func pageNumber(r *rand.Rand) string {
	n := 2 + r.IntN(300)
	switch r.IntN(6) {
	case 0:
		return fmt.Sprint(n)
	case 1:
		return fmt.Sprintf("- %d -", n)
	case 2:
		return fmt.Sprintf("p. %d", n)
	case 3:
		return fmt.Sprintf("Page %d of %d", n, n+1+r.IntN(200))
	case 4:
		return fmt.Sprintf("[%d]", n)
	}
	return fmt.Sprintf("Sheet %d", n)
}

// sectionHead is the part of a running head naming where the page is
// ("Chapter 4. Public grants", "Part III - Net income", "Rural areas,
// 2019 edition", "Section C: Loans").
func sectionHead(r *rand.Rand) string {
	t := phrase(r, stubWords, 2+r.IntN(3))
	switch r.IntN(5) {
	case 0:
		return fmt.Sprintf("Chapter %d. %s", 1+r.IntN(15), t)
	case 1:
		return fmt.Sprintf("Part %s - %s", pick(r, romans), t)
	case 2:
		return fmt.Sprintf("%s, %d edition", t, 2005+r.IntN(20))
	case 3:
		return fmt.Sprintf("Section %c: %s", 'A'+rune(r.IntN(8)), t)
	}
	return fmt.Sprintf("%s / %s", t, pick(r, groupLabels))
}

// exhibitLine names the table under a running head and where it stands
// in a series ("Schedule D, continued", "Listing 3.2, part 2 of 4").
func exhibitLine(r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return fmt.Sprintf("Schedule %c, continued", 'A'+rune(r.IntN(12)))
	case 1:
		return fmt.Sprintf("Appendix %d: %s (revised %s %d)", 1+r.IntN(9), phrase(r, stubWords, 2), pick(r, months), 2005+r.IntN(20))
	case 2:
		k := 2 + r.IntN(4)
		return fmt.Sprintf("Listing %d.%d, part %d of %d", 1+r.IntN(12), 1+r.IntN(30), 1+r.IntN(k), k)
	case 3:
		return fmt.Sprintf("Statement %d, sheet %d (%d %s %d)", 1+r.IntN(40), 2+r.IntN(6), 1+r.IntN(28), pick(r, months), 2005+r.IntN(20))
	}
	return fmt.Sprintf("Annex %s, cont'd", pick(r, romans))
}

// footerLeft is a footer's outer part: a page number or a section's.
func footerLeft(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("Section %d.%d.%d", 1+r.IntN(9), 1+r.IntN(9), 1+r.IntN(60))
	case 1:
		return fmt.Sprintf("Annex %d.%d", 1+r.IntN(9), 1+r.IntN(30))
	}
	return pageNumber(r)
}

// footerRef is a footer's reference to the publication ("Form QT-412
// (rev. May 2019)", "Ref. 0412/19", "Printed 3 June 2021"), now and then
// going on for a line or two with a word on the page's marks.
func footerRef(r *rand.Rand) []string {
	var ref string
	switch r.IntN(5) {
	case 0:
		ref = fmt.Sprintf("Form %c%c-%d (rev. %s %d)", 'A'+rune(r.IntN(26)), 'A'+rune(r.IntN(26)), 100+r.IntN(900), pick(r, months), 2005+r.IntN(20))
	case 1:
		ref = fmt.Sprintf("Ref. %04d/%02d", r.IntN(10000), r.IntN(100))
	case 2:
		ref = fmt.Sprintf("Printed %d %s %d", 1+r.IntN(28), pick(r, months), 2005+r.IntN(20))
	case 3:
		ref = fmt.Sprintf("Order code %d-%c%c", 1000+r.IntN(9000), 'A'+rune(r.IntN(26)), 'A'+rune(r.IntN(26)))
	default:
		ref = fmt.Sprintf("Edition %d, %s %d", 1+r.IntN(12), pick(r, months), 2005+r.IntN(20))
	}
	out := []string{ref}
	if r.IntN(2) == 0 {
		more := pick(r, [][]string{
			{"Shaded items are", "filled in by the office"},
			{"Keep this sheet", "with your records"},
			{"Entries in italics", "are provisional"},
			{"Lines marked * may", "be left out by small units"},
		})
		out = append(out, more[:1+r.IntN(2)]...)
	}
	return out
}
