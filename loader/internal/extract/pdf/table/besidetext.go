package table

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// besideText returns a region's lines without the running text that
// stands beside a table in it (the other column of a two-column page, a
// paragraph a table floats beside): lined up across the region, a
// paragraph's line beside a table's row makes one line of several
// phrases, its lines between the rows lines of their own, and the run
// takes them all (the table merged with the text, or, its rows too few
// among the paragraph's, not found). A paragraph is told by its leading:
// its lines start on one left edge, each the page's leading (markLeading)
// under the one before, all but the last prose (proseWords). A table's
// rows stand a row's pitch apart, further than the leading (a cell's
// padding), and a wrapped cell's lines share their row's baselines with
// its neighbours (topAlignCentred has set a centred row's cells level
// with its first line). Such a block of three lines or more is taken out
// when a line beside it, a gap clear of its width, stands out of step
// with it (between two of its lines, sharing neither's baseline): text
// beside at a pitch of its own. Then a block of two lines on the same
// left edge (the column's next paragraph) goes as well when a line stands
// beside it. A row topAlignCentred read as centred on a block taken out
// (a table's row level with the middle of a two-line paragraph beside it)
// goes back where it was (moved). The lines left are lined up again;
// nothing changes when no block goes.
func besideText(lines []*textLine, gap float64, moved movedRows) []*textLine {
	blocks := leadingBlocks(lines, gap)
	if len(blocks) == 0 {
		return lines
	}
	drop := map[*word]bool{}
	var edges []float64 // left edges of the blocks taken out
	tops := lineTops(lines)
	for _, b := range blocks {
		if len(b) >= 3 && besideBlock(lines, tops, b, gap, true) {
			dropAll(drop, b)
			edges = append(edges, boxOf(b[0]).X0)
		}
	}
	if len(drop) == 0 {
		return lines
	}
	for _, b := range blocks {
		x := boxOf(b[0]).X0
		if len(b) == 2 && slices.ContainsFunc(edges, func(e float64) bool { return math.Abs(e-x) <= 1 }) && besideBlock(lines, tops, b, gap, false) {
			dropAll(drop, b)
		}
	}
	var ws []*word
	rows := map[uint16]bool{}
	for _, l := range lines {
		for _, w := range l.ws {
			if !drop[w] {
				ws = append(ws, w)
			} else if w.crow != 0 {
				rows[w.crow] = true
			}
		}
	}
	moved.restore(rows)
	return lineUp(ws)
}

func dropAll(drop map[*word]bool, b [][]*word) {
	for _, s := range b {
		for _, w := range s {
			drop[w] = true
		}
	}
}

// movedRows is the page's words and their boxes before topAlignCentred
// moved any (nil when it moved none).
type movedRows struct {
	ws   []*word
	orig []document.BBox
}

// boxesOf keeps the words' boxes as they are now.
func boxesOf(ws []*word) movedRows {
	m := movedRows{ws, make([]document.BBox, len(ws))}
	for i, w := range ws {
		m.orig[i] = w.bb
	}
	return m
}

// restore puts the words of the centred rows numbered in rows back where
// they were, in no centred row.
func (m movedRows) restore(rows map[uint16]bool) {
	if len(rows) == 0 || m.orig == nil {
		return
	}
	for i, w := range m.ws {
		if w.crow != 0 && rows[w.crow] {
			w.bb, w.crow = m.orig[i], 0
		}
	}
}

// leadingBlocks chains the lines' phrases (at gap) into blocks of
// running text: a phrase goes on the block of the phrase above it that
// starts at its left edge (1pt) the page's leading higher (within a tenth
// of a size, a point at most: a browser sets a line on whole pixels, a
// pixel further than the leading now and then), in its size, when that
// phrase is prose and neither is a caption; a block's phrases, top to
// bottom. Whether a phrase is prose and whether it is a caption are
// asked once a phrase (phraseKind): the caption test joins the phrase's
// text (cellText), and asked for every pair of phrases a leading apart
// it was a fifth of the table detector's instructions on the pages that
// hold no table (79k joins over the 149 bench-load PDFs' 1,048 such
// pages).
func leadingBlocks(lines []*textLine, gap float64) [][][]*word {
	type seg struct {
		ws    []*word
		x, y  float64 // left edge, top
		block int     // index in blocks, -1 none
		kind  phraseKind
	}
	var segs []seg
	for _, l := range lines {
		if l.ws[0].lead == 0 {
			continue
		}
		for s := range l.eachSegment(gap) {
			b := boxOf(s)
			segs = append(segs, seg{ws: s, x: b.X0, y: b.Y0, block: -1})
		}
	}
	// top to bottom by the phrases' own tops (a line's phrases side by
	// side may stand at tops of their own)
	slices.SortStableFunc(segs, func(a, b seg) int { return cmp.Compare(a.y, b.y) })
	var blocks [][][]*word
	for i := range segs {
		s := &segs[i]
		for j := i - 1; j >= 0; j-- {
			p := &segs[j]
			size := p.ws[0].size
			step, want := s.y-p.y, float64(p.ws[0].lead)/100*size
			if step > want+1 {
				break
			}
			if math.Abs(p.x-s.x) > 1 || math.Abs(step-want) > min(1, 0.1*size) || math.Abs(s.ws[0].size-size) > 0.05*size ||
				!p.kind.prose(p.ws) || p.kind.caption(p.ws) || s.kind.caption(s.ws) {
				continue
			}
			if p.block < 0 {
				p.block = len(blocks)
				blocks = append(blocks, [][]*word{p.ws})
			}
			if b := blocks[p.block]; b[len(b)-1][0] == p.ws[0] {
				s.block = p.block
				blocks[p.block] = append(b, s.ws)
			}
			break
		}
	}
	return blocks
}

// phraseKind holds what leadingBlocks asked of one phrase: proseWords
// and isCaption(cellText) of its words, each worked out the first time
// it is asked (the words do not change meanwhile).
type phraseKind struct {
	askedProse, isProse     bool
	askedCaption, isCaption bool
}

// prose is proseWords(ws), ws the phrase's words.
func (k *phraseKind) prose(ws []*word) bool {
	if !k.askedProse {
		k.askedProse, k.isProse = true, proseWords(ws)
	}
	return k.isProse
}

// caption is isCaption(cellText(ws)), ws the phrase's words; the text
// is joined only when one of the words could start a caption
// (mayStartCaption).
func (k *phraseKind) caption(ws []*word) bool {
	if !k.askedCaption {
		k.askedCaption, k.isCaption = true, mayStartCaption(ws) && isCaption(cellText(ws))
	}
	return k.isCaption
}

// mayStartCaption is false only when isCaption(cellText(ws)) is: no word
// of ws can begin a caption's text. cellText's text is its words' texts
// in some order, joined with or without a space, leaders taken out when
// it has four points or more (noLeaders), trimmed. A word whose first
// byte is ASCII, neither white space nor a point, begins that text
// unchanged when it comes first (a leader starts with white space or a
// point), so it cannot begin a caption when that byte, lower-cased,
// begins none (every caption start begins with one of "tfcgsnba*") or is
// a lower-case letter (isCaption wants a capital), or when its second
// byte is an ASCII letter (noLeaders leaves it too) that, lower-cased,
// is not the second letter of the caption starts its first begins
// ("The", "Total", "State": most capitals of prose). Any other word is
// asked whole (captionWord), which holds only when the text has fewer
// than four points: more, and the answer is true (the text is joined).
func mayStartCaption(ws []*word) bool {
	points := -1 // counted when a word is asked whole
	for _, w := range ws {
		if t := w.text; t != "" && t[0] < utf8.RuneSelf && !asciiSpace(t[0]) && t[0] != '.' {
			var next byte // the second letter of the caption starts t[0] begins
			switch t[0] {
			case 'T':
				next = 'a'
			case 'F':
				next = 'i'
			case 'C':
				next = 'h'
			case 'G':
				next = 'r'
			case 'S', 'N', 'B':
				next = 'o'
			case 'A':
				next = 'n'
			case '*':
			default:
				continue
			}
			if next != 0 && len(t) > 1 && asciiLetter(t[1]) && t[1]|0x20 != next {
				continue
			}
		}
		if points < 0 {
			points = 0
			for _, w := range ws {
				points += strings.Count(w.text, ".") + strings.Count(w.text, "…")
			}
		}
		if points >= 4 || captionWord(w.text) {
			return true
		}
	}
	return false
}

// captionWord: cellText's text beginning with word text t (no leaders
// taken out) may be a caption: t, its leading white space trimmed and
// lower-cased, begins with a caption start or is the start of one ("No"
// of "note"), and its first letter is not lower case. strings.ToLower
// maps rune by rune, so the text's lower-cased start is t's; a t it
// cannot judge so (white space only, not UTF-8): true.
func captionWord(t string) bool {
	t = strings.TrimLeftFunc(t, unicode.IsSpace)
	if t == "" || !utf8.ValidString(t) {
		return true
	}
	if r, _ := utf8.DecodeRuneInString(t); unicode.IsLower(r) {
		return false
	}
	lt := strings.ToLower(t)
	for _, c := range captionStarts {
		if strings.HasPrefix(lt, c) || strings.HasPrefix(c, lt) {
			return true
		}
	}
	return false
}

// asciiLetter: b is an ASCII letter.
func asciiLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// asciiSpace: b is an ASCII byte unicode.IsSpace holds for.
func asciiSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == '\r'
}

// besideBlock: a phrase of lines stands beside block b (a gap clear of
// its width) between its first line's top and its last's (outOfStep:
// strictly between, its top more than a quarter of a size from every one
// of the block's lines'), and the phrases beside it all stand on one side
// of it: running text beside a table has the page's margin or its own
// column's text on its other side, where a cell wrapped over lines has
// its row's next cell on one side and may have another table on the
// other (a wrapped cell out of step with a table's rows beside it).
//
// tops are the lines' lineTops: a line whose words' tops all stand at
// or over the block's first top less a quarter of a size, or all at or
// under its last top plus that, has no phrase beside it (a phrase's top
// is the least of its words'): it is passed without being cut into
// phrases.
func besideBlock(lines []*textLine, tops []lineTop, b [][]*word, gap float64, outOfStep bool) bool {
	bb := boxOf(b[0])
	bTops := make([]float64, len(b))
	for k, s := range b {
		sb := boxOf(s)
		bb, bTops[k] = bb.Union(sb), sb.Y0
	}
	q := 0.25 * b[0][0].size
	lo, hi := bTops[0]+q, bTops[len(bTops)-1]-q
	if !outOfStep {
		lo, hi = bTops[0]-q, bTops[len(bTops)-1]+q
	}
	hit, left, right := false, false, false
	for i, l := range lines {
		if t := tops[i]; t.least >= bTops[len(bTops)-1]+q || t.most <= bTops[0]-q {
			continue // no phrase of the line stands beside
		}
		for s := range l.eachSegment(gap) {
			sb := boxOf(s)
			if sb.X1 > bb.X0-gap && sb.X0 < bb.X1+gap || sb.Y0 <= bTops[0]-q || sb.Y0 >= bTops[len(bTops)-1]+q {
				continue // not beside
			}
			left, right = left || sb.X1 <= bb.X0, right || sb.X0 >= bb.X1
			if sb.Y0 > lo && sb.Y0 < hi && (!outOfStep || !slices.ContainsFunc(bTops, func(t float64) bool { return math.Abs(sb.Y0-t) <= q })) {
				hit = true
			}
		}
	}
	return hit && !(left && right)
}

// lineTop is the least and the most of a line's words' tops; a line with
// a top that is not a number (NaN) gets -Inf and +Inf (never passed by).
type lineTop struct{ least, most float64 }

func lineTops(lines []*textLine) []lineTop {
	tops := make([]lineTop, len(lines))
	for i, l := range lines {
		t := lineTop{math.Inf(1), math.Inf(-1)}
		for _, w := range l.ws {
			y := w.bb.Y0
			if math.IsNaN(y) {
				t = lineTop{math.Inf(-1), math.Inf(1)}
				break
			}
			t = lineTop{min(t.least, y), max(t.most, y)}
		}
		tops[i] = t
	}
	return tops
}
