package main

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// boxClass tells the box errors apart: a detected table holding a truth
// table and text above it, or another truth table; two detected tables
// inside one truth table; none.
func TestBoxClass(t *testing.T) {
	bb := func(x0, y0, x1, y1 float64) document.BBox { return document.BBox{X0: x0, Y0: y0, X1: x1, Y1: y1} }
	det := func(b document.BBox) document.Table { return document.Table{Page: 1, BBox: b} }
	g := gtTable{page: 1, bb: bb(40, 100, 240, 200)}
	other := gtTable{page: 1, bb: bb(40, 400, 200, 460)}
	for _, c := range []struct {
		dets []document.Table
		want string
	}{
		{nil, "missed: not found"},
		{[]document.Table{det(bb(40, 20, 400, 200))}, "missed: merged with text above"},
		{[]document.Table{det(bb(40, 100, 240, 330))}, "missed: merged with text below"},
		{[]document.Table{det(bb(40, 100, 560, 200))}, "missed: merged with text beside"},
		{[]document.Table{det(bb(40, 100, 240, 470))}, "missed: merged with another table"},
		{[]document.Table{det(bb(40, 100, 240, 140)), det(bb(40, 150, 240, 200))}, "missed: split"},
		{[]document.Table{det(bb(40, 100, 100, 140))}, "missed: found in part"},
		{[]document.Table{det(bb(40, 200, 240, 200+20))}, "missed: not found"},
	} {
		if got := boxClass(g, []gtTable{g, other}, c.dets); got != c.want {
			t.Errorf("dets %v: %q, want %q", c.dets, got, c.want)
		}
	}
}
