package pdf

import (
	"regexp"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// numberRe is a table cell's number: digits with grouping or a decimal
// point, a sign, a currency sign, a percent or brackets.
var numberRe = regexp.MustCompile(`^[-+–(]?[$€£¥]?\d[\d.,]*%?\)?$`)

// numericCell: s, a line, holds a number as a word of its own (a row's
// cells may come as one line, "Troon 27").
func numericCell(s string) bool {
	for _, w := range strings.Fields(s) {
		if numberRe.MatchString(w) {
			return true
		}
	}
	return false
}

// cellOfRow: p, a number in a page's margin (isPageNumber), is a cell of
// a row of a table: other text stands beside it on its line, and under
// or over it, less than half its height away, a number reaching across
// its x has text beside it on its line too, across the x of one of p's
// neighbours (the table's next row, its cells in the same columns). A
// page number stands apart from the body: alone on its line, or beside
// a running head's or a journal's footer text with no row of cells
// against it. A table at a page's top or bottom (a browser's unstyled
// table, its first row's "31" and "4" in the top tenth) keeps its
// numbers in their rows, in reading order, whether the table is found
// or not.
func cellOfRow(p *para, pg *pageData) bool {
	if len(p.lines) != 1 {
		return false
	}
	b := p.lines[0].BBox
	mates := besideOnLine(nil, b, p, pg)
	if len(mates) == 0 {
		return false
	}
	h := height(b)
	var next []document.BBox
	for _, q := range pg.paras {
		if q == p || q.image {
			continue
		}
		for _, l := range q.lines {
			if xOverlap(l.BBox, b) <= 0 || yOverlap(l.BBox, b) > 0.5*min(h, height(l.BBox)) {
				continue // not across p's x, or on p's line
			}
			if d := max(l.BBox.Y0-b.Y1, b.Y0-l.BBox.Y1); d >= 0.5*h {
				continue
			}
			if len(mates) < 2 && !numericCell(l.Text) {
				// a row of two parts is a cell's only where the rows go
				// on with numbers ("31" over "Troon 27"): under a
				// two-part running footer's "Page 1" or "3" stands text
				// ("www.example.org"), and its number stays a PageNumber
				// (review41's MEDIUM on pdf/116); a row of three parts
				// or more ("2001 2002 ... 2007" over a head row) is one
				continue
			}
			next = besideOnLine(next[:0], l.BBox, q, pg)
			for _, m := range mates {
				for _, n := range next {
					if xOverlap(m, n) > 0 {
						return true
					}
				}
			}
		}
	}
	return false
}

// besideOnLine appends to out the lines of paragraphs other than own on
// the same line as b (overlapping half the lower one's height) that
// stand beside b, clear of it.
func besideOnLine(out []document.BBox, b document.BBox, own *para, pg *pageData) []document.BBox {
	for _, q := range pg.paras {
		if q == own || q.image {
			continue
		}
		for _, l := range q.lines {
			if xOverlap(l.BBox, b) < 0 && yOverlap(l.BBox, b) >= 0.5*min(height(b), height(l.BBox)) {
				out = append(out, l.BBox)
			}
		}
	}
	return out
}
