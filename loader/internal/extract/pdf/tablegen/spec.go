package tablegen

import (
	"math/rand/v2"
	"strings"
)

// Style is how a table is ruled.
type Style int

const (
	// Grid: a rule around and between every cell.
	Grid Style = iota
	// Booktabs: rules above and under the header and under the table
	// (and under each group header's columns), none between columns.
	Booktabs
	// Unruled: no rules at all, whitespace only.
	Unruled
	// Shaded: a filled box behind the header, no rules.
	Shaded
)

func (s Style) String() string {
	return [...]string{"grid", "booktabs", "unruled", "shaded"}[s]
}

type colKind int

const (
	stubCol colKind = iota
	numCol
	textCol
)

type column struct {
	kind colKind
	num  numKind
	mag  int
	cap  float64 // widest the column may be before its cells wrap
	se   bool    // a value over its margin of error in parentheses, on two lines
}

// hcell is a header cell spanning columns c0..c1 of one header row.
type hcell struct {
	c0, c1 int
	text   string
}

// spec is a table's content and looks, before it is measured.
type spec struct {
	font      string
	size      float64
	boldHead  bool
	style     Style
	gap       float64 // whitespace between columns
	lead      float64 // line pitch inside a cell
	rowGap    float64 // extra space between rows
	valignBot bool    // number cells beside a wrapped label sit on its last line
	cols      []column
	groups    []hcell    // header row 0 when not empty
	heads     []string   // the bottom header row, one per column
	body      [][]string // body rows
	indent    []bool     // the row's stub label is indented under a group label
}

// opts bounds a table's size for where it goes.
type opts struct {
	maxCols, maxRows int
	small            bool // a small table of text and numbers
	style            Style
	styled           bool  // style is set
	textOnly         bool  // no number column: a label and text columns
	longHeads        bool  // column heads of several words, wrapping over narrow columns
	wrapText         bool  // a text column of lower-case phrases that wrap, rows set without a gap
	margins          bool  // v4: number cells carry their margin of error on a second line, "12.3 (1.4)"
	like             *spec // v4: set in this table's font, size, leading, row gap, column gap and style
}

func randSpec(r *rand.Rand, o opts) *spec {
	s := &spec{
		font:     pick(r, []string{"Helvetica", "Times"}),
		size:     float64(7 + r.IntN(4)),
		boldHead: r.IntN(3) > 0,
		style:    Style(r.IntN(4)),
		gap:      float64(8 + r.IntN(22)),
	}
	if o.styled {
		s.style = o.style
	}
	s.size += float64(r.IntN(2)) * 0.5
	s.lead = s.size * (1.1 + 0.15*r.Float64())
	s.rowGap = s.size * 0.6 * r.Float64()
	if r.IntN(3) == 0 {
		s.rowGap = 0 // rows as close as a cell's lines
	}
	s.valignBot = r.IntN(2) == 0
	nc := 2 + r.IntN(o.maxCols-1)
	s.cols = append(s.cols, column{kind: stubCol, cap: float64(70 + r.IntN(90))})
	text := 0
	for len(s.cols) < nc {
		c := column{kind: numCol, num: numKind(r.IntN(5)), mag: []int{100, 1000, 100000, 10000000}[r.IntN(4)]}
		if !o.small && text == 0 && r.IntN(5) == 0 {
			c = column{kind: textCol, cap: float64(50 + r.IntN(70))}
			text++
		}
		if o.textOnly || o.wrapText && text == 0 && (len(s.cols) == nc-1 || r.IntN(2) == 0) {
			c = column{kind: textCol, cap: float64(50 + r.IntN(40))}
			text++
		}
		s.cols = append(s.cols, c)
	}
	if o.wrapText {
		s.rowGap = 0
	}
	if o.margins {
		for j := range s.cols {
			if s.cols[j].kind == numCol && s.cols[j].num != numYear {
				s.cols[j].se = true
			}
		}
	}
	if o.like != nil {
		l := o.like
		s.font, s.size, s.lead, s.rowGap, s.style, s.boldHead, s.gap = l.font, l.size, l.lead, l.rowGap, l.style, l.boldHead, l.gap
	}
	// headers
	s.heads = make([]string, nc)
	s.heads[0] = pick(r, append(groupLabels, "", "Item", "Country"))
	for j := 1; j < nc; j++ {
		switch {
		case s.cols[j].num == numYear && s.cols[j].kind == numCol:
			s.heads[j] = phrase(r, []string{"Year", "Founded", "Since"}, 1)
		case o.longHeads && r.IntN(4) > 0:
			s.heads[j] = phrase(r, headWords, 3+r.IntN(4))
		case o.longHeads:
			s.heads[j] = pick(r, headWords[:len(headWords)/2]) // a lone one-line head beside wrapped ones
		case r.IntN(3) == 0:
			s.heads[j] = pick(r, []string{"2018", "2019", "2020", "2021", "2022", "Q1", "Q2", "Q3", "Q4"})
		default:
			s.heads[j] = phrase(r, headWords, 1+r.IntN(3))
		}
	}
	if nc >= 4 && !o.small && r.IntN(3) == 0 {
		// a group header over two or three columns, maybe two groups
		for c := 1; c+1 < nc; {
			w := 2 + r.IntN(2)
			if c+w > nc {
				w = nc - c
			}
			if w >= 2 {
				s.groups = append(s.groups, hcell{c, c + w - 1, phrase(r, headWords, 1+r.IntN(2))})
			}
			c += w + r.IntN(2)
		}
	}
	// body
	nr := 3 + r.IntN(o.maxRows-2)
	grouped := !o.small && r.IntN(4) == 0
	placesStub := r.IntN(3) == 0
	label := false // the row above is a group label
	for i := 0; i < nr; i++ {
		row := make([]string, nc)
		label = grouped && !label && (i == 0 || r.IntN(5) == 0) && i < nr-1
		if label {
			row[0] = pick(r, groupLabels)
			s.body = append(s.body, row)
			s.indent = append(s.indent, false)
			continue
		}
		if placesStub {
			row[0] = pick(r, places)
		} else {
			row[0] = phrase(r, stubWords, 1+r.IntN(5))
		}
		for j := 1; j < nc; j++ {
			switch s.cols[j].kind {
			case numCol:
				row[j] = number(r, s.cols[j].num, s.cols[j].mag)
				if s.cols[j].se && !placeholder(row[j]) {
					row[j] += " (" + margin(r, row[j]) + ")"
				}
			case textCol:
				row[j] = pick(r, textWords)
				if o.wrapText && r.IntN(3) > 0 {
					row[j] = pick(r, textWords[len(textWords)-6:])
				}
			}
		}
		s.body = append(s.body, row)
		s.indent = append(s.indent, grouped)
	}
	if !o.small && r.IntN(3) == 0 {
		row := make([]string, nc)
		row[0] = "Total"
		for j := 1; j < nc; j++ {
			if s.cols[j].kind == numCol {
				row[j] = number(r, s.cols[j].num, s.cols[j].mag)
			}
		}
		s.body = append(s.body, row)
		s.indent = append(s.indent, false)
	}
	return s
}

// wrap breaks s into lines no wider than w (a word wider than w is a line
// of its own).
func wrap(width func(string) float64, s string, w float64) []string {
	if s == "" {
		return nil
	}
	var out []string
	cur := ""
	for _, word := range strings.Fields(s) {
		if cur == "" {
			cur = word
			continue
		}
		if width(cur+" "+word) <= w {
			cur += " " + word
			continue
		}
		out = append(out, cur)
		cur = word
	}
	return append(out, cur)
}
