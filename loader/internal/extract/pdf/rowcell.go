package pdf

import (
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// numericCell: s, a line, holds a number as a word of its own (a row's
// cells may come as one line, "Troon 27").
func numericCell(s string) bool {
	for _, w := range strings.Fields(s) {
		if IsNumber(w) {
			return true
		}
	}
	return false
}

// cellOfRow: p, a number in a page's margin (isPageNumber), is a cell of
// a row of a table: other text stands beside it on its line, and under
// or over it, less than half its height away, a number reaching across
// its x has text beside it on its line too, across the x of one of p's
// neighbours (the table's next row, its cells in the same columns), and
// the rows go on: a row so on each side of p's line, or one more so
// against the row next to it (three rows in all), or a line across p and
// a neighbour on p's other side (a head row read as one phrase), or p's
// line has four parts or more (years over a table's columns: a running
// footer or head has three at most). A page number stands
// apart from the body: alone on its line, or beside a running head's or
// a journal's footer text with no row of cells against it, or in a
// running footer or head of two lines ("Council minutes | 1 | 12 March
// 2024" over "Draft for approval | of 3 | Not for circulation"; "Page 1"
// over "March 2024"), which a one-page document cannot tell from its
// place on other pages. A table at a page's top or bottom (a browser's
// unstyled table, its first row's "31" and "4" in the top tenth) keeps
// its numbers in their rows, in reading order, whether the table is
// found or not.
func cellOfRow(p *para, pg *pageData) bool {
	if len(p.lines) != 1 {
		return false
	}
	b := p.lines[0].BBox
	mates := besideOnLine(nil, b, p, pg)
	if len(mates) == 0 {
		return false
	}
	rows := rowsAgainst(nil, b, mates, p, pg)
	if len(rows) != 1 || len(mates) >= 3 {
		return len(rows) > 0 // four parts on a line or more: no running footer's
	}
	r := rows[0]
	if t := strings.TrimSpace(r.text); IsNumber(t) && !yearLine(t) {
		// the row against p's line holds a number alone in p's column
		// ("1,240" over "248", "4711" over "20931"): two rows of a small
		// table of figures, not a running footer's or head's second
		// line, which holds words there ("of 3", "March 2024") or a year
		return true
	}
	// a third row, on from the one against p's line (in r's paragraph too:
	// a contents page's or a table's lines may be one)
	for _, o := range rowsAgainst(nil, r.box, besideOnLine(nil, r.box, r.q, pg), nil, pg) {
		if yOverlap(o.box, b) <= 0 {
			return true
		}
	}
	return headAgainst(b, r.box, mates, p, pg)
}

// headAgainst: a line stands against b (less than half its height away)
// on the side away from row, across b's x and a mate's (a table's head
// row over its first body row, its heads 1.5pt apart read as one phrase:
// "Rank Club Points" over "1 | Harriers64").
func headAgainst(b, row document.BBox, mates []document.BBox, own *para, pg *pageData) bool {
	h := height(b)
	for _, q := range pg.paras {
		if q == own || q.image {
			continue
		}
		for _, l := range q.lines {
			d := b.Y0 - l.BBox.Y1 // l above b
			if row.Y0 < b.Y0 {
				d = l.BBox.Y0 - b.Y1 // the row above: l under b
			}
			if d < 0 || d >= 0.5*h || xOverlap(l.BBox, b) <= 0 {
				continue
			}
			for _, m := range mates {
				if xOverlap(l.BBox, m) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// rowLine is a line of paragraph q (rowsAgainst), and its text.
type rowLine struct {
	box  document.BBox
	q    *para
	text string
}

// yearLine: s is a year alone ("2024").
func yearLine(s string) bool {
	return len(s) == 4 && (strings.HasPrefix(s, "19") || strings.HasPrefix(s, "20")) && strings.Trim(s, "0123456789") == ""
}

// rowsAgainst appends to out the lines of paragraphs other than own (nil:
// any) that stand against b (less than half its height under or over it, across its
// x) as a row of the same table: text beside them on their line across
// the x of one of b's mates (the text beside b on its line), and, where
// b has one mate only, a number as a word of their own.
func rowsAgainst(out []rowLine, b document.BBox, mates []document.BBox, own *para, pg *pageData) []rowLine {
	h := height(b)
	var next []document.BBox
	for _, q := range pg.paras {
		if q == own || q.image {
			continue
		}
		for _, l := range q.lines {
			if xOverlap(l.BBox, b) <= 0 || yOverlap(l.BBox, b) > 0.5*min(h, height(l.BBox)) {
				continue // not across b's x, or on b's line
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
		cells:
			for _, m := range mates {
				for _, n := range next {
					if xOverlap(m, n) > 0 {
						out = append(out, rowLine{l.BBox, q, l.Text})
						break cells
					}
				}
			}
		}
	}
	return out
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
