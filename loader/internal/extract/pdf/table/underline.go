package table

import (
	"cmp"
	"math"
	"slices"

	"github.com/docket-dev/docket/loader/internal/document"
)

// withoutUnderlines is textTable's layout l of a table it has found,
// cut into rows again without the rules that underline its text (links
// in a printed web page) when there are any and the rows stay plausible;
// which lines make a table stays the rules' say (l as it is otherwise).
func withoutUnderlines(l layout, box document.BBox, ws []*word, hs, vs []rule) layout {
	if kept := dropUnderlines(hs, ws); len(kept) < len(hs) {
		if lu := trimNotes(prune(buildGrid(box, ws, kept, vs))); plausible(lu.rows, 3) {
			return lu
		}
	}
	return l
}

// dropUnderlines leaves out the horizontal rules that underline text (a
// link in a printed web page, an underlined word): a rule running through
// the lower half of the words above it, inside their boxes, that sticks
// out of them by no more than a point and a half on either side, under
// one phrase (its words a space apart). A table's rule runs between
// lines, past the cell's text into its padding; read as one, an underline
// cuts a row in two or makes the rows above it one band ("Directed by",
// "Written by", "Music by" in a Wikipedia infobox with linked names).
func dropUnderlines(hs []rule, ws []*word) []rule {
	if len(hs) == 0 || len(ws) == 0 {
		return hs
	}
	byTop := slices.Clone(ws)
	slices.SortFunc(byTop, func(a, b *word) int { return cmp.Compare(a.bb.Y0, b.bb.Y0) })
	tallest := 0.0
	for _, w := range ws {
		tallest = max(tallest, w.bb.Y1-w.bb.Y0)
	}
	const tol = 1.5
	out := hs[:0:0]
	var under []*word
	for _, h := range hs {
		// the words whose box h runs through, in its lower half
		under = under[:0]
		hi, _ := slices.BinarySearchFunc(byTop, h.pos, func(w *word, y float64) int {
			if w.bb.Y0 < y {
				return -1
			}
			return 1
		})
		for k := hi - 1; k >= 0 && byTop[k].bb.Y0 > h.pos-tallest; k-- {
			w := byTop[k]
			if w.cy() < h.pos && h.pos < w.bb.Y1+0.5 && w.bb.X1 > h.a && w.bb.X0 < h.b {
				under = append(under, w)
			}
		}
		if !underlines(h, under, tol) {
			out = append(out, h)
		}
	}
	return out
}

// underlines: rule h runs under the words under (unsorted) and no
// farther than tol past them, the words one phrase.
func underlines(h rule, under []*word, tol float64) bool {
	if len(under) == 0 {
		return false
	}
	slices.SortFunc(under, func(a, b *word) int { return cmp.Compare(a.bb.X0, b.bb.X0) })
	if h.a < under[0].bb.X0-tol || h.b > under[len(under)-1].bb.X1+tol {
		return false
	}
	for i := 1; i < len(under); i++ {
		a, b := under[i-1], under[i]
		if b.bb.X0-a.bb.X1 > 0.6*max(a.size, b.size) || math.Abs(a.cy()-b.cy()) > 0.3*max(a.size, b.size) {
			return false
		}
	}
	return true
}
