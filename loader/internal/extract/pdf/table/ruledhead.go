package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

// ruledHeadRow reads a head line over a rule and one row under it (part:
// the row and up to maxRowWraps lines its cells wrap onto) as a table of
// one row, where the head's words stand too close to split into phrases
// (a browser's th padding between short heads: "Events Income" over
// "47  £173,423"): the rule (a th's border-bottom) runs under the head
// from the two lines' left to their right and not a few sizes past them,
// the row's phrases are its columns and the head is cut at the word
// boundaries where a column starts (or the column before it ends), one
// cut per column. The cells are then read as headAndRow's
// (oneRowTable), a value in the row required: the rule under a head
// is evidence a line of words is one, as a caption is.
func ruledHeadRow(head *textLine, part []*textLine, next *textLine, size, gap float64, hs []rule) (textFound, bool) {
	if len(part) < 1 || len(part) > 1+maxRowWraps || len(head.ws) < 2 {
		return textFound{}, false
	}
	row := part[0]
	if head.ws[0].used || row.ws[0].used || lineIsCaption(head) || math.Abs(head.size-row.size) > 0.15*row.size ||
		row.bb.Y0-head.bb.Y1 > 1.8*size {
		return textFound{}, false
	}
	all := append([]*textLine{head}, part...)
	ub := boxOf(all)
	if next != nil && next.bb.Y0-ub.Y1 <= 1.8*size && next.bb.X1 <= ub.X1+gap &&
		next.bb.X0 >= ub.X0-gap && math.Abs(next.size-row.size) <= 0.1*row.size {
		return textFound{}, false // a line close under, inside the width, in the rows' size: more rows, maybe
	}
	if !headRule(hs, head, row, ub, size) {
		return textFound{}, false
	}
	pad := min(gap, gridGap(size))
	rp := row.segments(pad)
	hp := cutHead(head.ws, rp)
	if len(rp) < 2 || hp == nil {
		return textFound{}, false
	}
	return oneRowTable(all, hp, rp, pad, false)
}

// headRule: a horizontal rule between the head line and the row line,
// from the two lines' left to their right (1pt), at most three sizes
// longer than they are wide.
func headRule(hs []rule, head, row *textLine, ub document.BBox, size float64) bool {
	for _, h := range hs {
		if h.pos > head.bb.Y1-1 && h.pos < row.bb.Y0+1 && h.a <= ub.X0+1 && h.b >= ub.X1-1 && h.b-h.a <= ub.X1-ub.X0+3*size {
			return true
		}
	}
	return false
}

// cutHead cuts a head line's words ws into one phrase over each of the
// row's phrases rp, at a word gap over the gap between two columns (the
// word after it starting past the end of the column before, the word
// before it ending before the column's start): the one where a column's
// start or the end of the column before lines up with a head word (2pt),
// else the widest. Nil unless every column gets its cut.
func cutHead(ws []*word, rp [][]*word) [][]*word {
	var out [][]*word
	start := 0
	for c := 1; c < len(rp); c++ {
		prevEnd, colStart := boxOf(rp[c-1]).X1, boxOf(rp[c]).X0
		cut, aligned, widest := -1, false, 0.0
		for j := start + 1; j < len(ws); j++ {
			if ws[j].bb.X0 <= prevEnd-1 || ws[j-1].bb.X1 >= colStart+1 {
				continue
			}
			al := math.Abs(ws[j].bb.X0-colStart) <= 2 || math.Abs(ws[j-1].bb.X1-prevEnd) <= 2
			g := ws[j].bb.X0 - ws[j-1].bb.X1
			if cut < 0 || al && !aligned || al == aligned && g > widest {
				cut, aligned, widest = j, al, g
			}
		}
		if cut < 0 {
			return nil
		}
		out = append(out, ws[start:cut])
		start = cut
	}
	return append(out, ws[start:])
}
