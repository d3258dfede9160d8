package textproc

import (
	"slices"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Chunk is a piece of a text. Start and End are 0-based Unicode code point
// offsets into the original text (End exclusive) and Text is exactly the
// code points [Start, End) of it (invalid UTF-8 bytes count as one code
// point each and read back as U+FFFD, as DuckDB and []rune see them).
type Chunk struct {
	Start, End int
	Text       string
}

// MinChunkSize is the smallest size ChunkText honours: one code point can
// grow to 18 under NFKC (U+FDFA), so a smaller budget could not always be
// met. Smaller sizes are raised to it.
const MinChunkSize = 18

// Break strengths before a token, strongest first.
const (
	breakParagraph = 3 // blank line, form feed, paragraph separator
	breakSentence  = 2 // previous word ends a sentence
	breakLine      = 1 // single line break
	breakWord      = 0 // plain whitespace
	breakInside    = -1
)

// token is a word (maximal run of non-space code points) or, for a word
// longer than the size, a piece of one.
type token struct {
	start, end int // code points into the original text
	nlen       int // length of the token's normalized text (an upper bound for pieces)
	sep        int // 1 when whitespace precedes the token inside its segment, 0 otherwise
	level      int // break strength before the token
}

// ChunkText splits text into chunks of at most size characters of
// normalized text: len([]rune(NormalizeText(c.Text))) <= size and
// NormalizeText(c.Text) != "" for every chunk c.
//
// Splitting is recursive: a segment that does not fit is cut at paragraph
// breaks, parts that still do not fit at sentence ends, then at line
// breaks, then between words, and at each level neighbouring parts are
// merged back greedily while they fit. A word is never cut unless it alone
// is longer than size. When a segment needs several chunks they are built
// to size-overlap-1, and each chunk after the first is then extended back
// by about overlap characters of whole words (from a sentence start when
// one keeps at least half of that) taken from the end of the previous one.
// overlap is clamped to [0, size/2].
//
// boundaries are code point offsets that no chunk crosses (section starts,
// table edges): the text is chunked segment by segment between them.
// Whitespace-only segments yield no chunk.
func ChunkText(text string, size, overlap int, boundaries []int) []Chunk {
	if text == "" {
		return nil
	}
	size = max(size, MinChunkSize)
	overlap = min(max(overlap, 0), size/2)
	rs := []rune(text)

	cuts := []int{0}
	bs := slices.Clone(boundaries)
	slices.Sort(bs)
	for _, b := range bs {
		if b > cuts[len(cuts)-1] && b < len(rs) {
			cuts = append(cuts, b)
		}
	}
	cuts = append(cuts, len(rs))

	var out []Chunk
	c := chunker{rs: rs, size: size, overlap: overlap}
	for i := 0; i+1 < len(cuts); i++ {
		out = c.segment(cuts[i], cuts[i+1], out)
	}
	return out
}

type chunker struct {
	rs            []rune
	size, overlap int
	table         bool // ChunkTable: no sentence breaks, budget the whole size
	toks          []token
	pre           []int // pre[i] = cost of tokens [0,i) counting separators
}

// cost is the normalized length bound of tokens [i, j): the tokens'
// normalized lengths plus one space per separator between them.
func (c *chunker) cost(i, j int) int {
	if j <= i {
		return 0
	}
	return c.pre[j] - c.pre[i] - c.toks[i].sep
}

func (c *chunker) segment(lo, hi int, out []Chunk) []Chunk {
	c.tokenize(lo, hi)
	if len(c.toks) == 0 {
		return out
	}
	c.pre = c.pre[:0]
	c.pre = append(c.pre, 0)
	for _, t := range c.toks {
		c.pre = append(c.pre, c.pre[len(c.pre)-1]+t.nlen+t.sep)
	}
	n := len(c.toks)
	var ranges [][2]int
	if c.cost(0, n) <= c.size {
		ranges = append(ranges, [2]int{0, n})
	} else {
		// Leave room for the overlap that each chunk after the first gets.
		budget := max(c.size-c.overlap-1, 1)
		if c.table {
			budget = c.size
		}
		ranges = c.build(0, n, breakParagraph, budget, ranges)
	}
	for i, r := range ranges {
		cs, ce := r[0], r[1]
		if i > 0 && c.overlap > 0 {
			cs = c.overlapStart(ranges[i-1][0], cs, ce)
		}
		start, end := c.toks[cs].start, c.toks[ce-1].end
		out = append(out, Chunk{Start: start, End: end, Text: string(c.rs[start:end])})
	}
	return out
}

// build chunks tokens [i, j) into consecutive ranges that each cost at most
// budget (a single token may cost up to size): a span that does not fit is
// cut at its breaks of the given strength, parts that still do not fit are
// built recursively with weaker breaks, and neighbouring parts are merged
// back greedily while they fit.
func (c *chunker) build(i, j, level, budget int, out [][2]int) [][2]int {
	if c.cost(i, j) <= budget || j-i == 1 || level < breakInside {
		return append(out, [2]int{i, j})
	}
	first := len(out)
	var piece []bool // ChunkTable: out[first+n] is a piece of a part cut at weaker breaks
	start := i
	for k := i + 1; k <= j; k++ {
		if k < j && c.toks[k].level < level {
			continue
		}
		if start == i && k == j { // no break of this strength: try weaker ones
			return c.build(i, j, level-1, budget, out)
		}
		whole := c.cost(start, k) <= budget
		if whole {
			out = append(out, [2]int{start, k})
		} else {
			out = c.build(start, k, level-1, budget, out)
		}
		for c.table && first+len(piece) < len(out) {
			piece = append(piece, !whole)
		}
		start = k
	}
	// Greedy merge of the parts produced at this level (in a table, the
	// pieces of a line cut between words are merged with nothing more).
	merged := out[:first+1]
	lastPiece := c.table && piece[0]
	for n, r := range out[first+1:] {
		last := &merged[len(merged)-1]
		rPiece := c.table && piece[n+1]
		if !lastPiece && !rPiece && c.cost(last[0], r[1]) <= budget {
			last[1] = r[1]
		} else {
			merged = append(merged, r)
			lastPiece = rPiece
		}
	}
	return merged
}

// overlapStart moves the start cs of the chunk [cs, ce) back into the
// previous chunk, which starts at ps: by whole words, at most overlap
// characters, keeping the chunk within size, and from a sentence start when
// one keeps at least half of that.
func (c *chunker) overlapStart(ps, cs, ce int) int {
	k := cs
	for k-1 > ps && c.cost(k-1, cs) <= c.overlap && c.cost(k-1, ce) <= c.size {
		k--
	}
	for k < cs && c.toks[k].level < breakWord {
		k++
	}
	if k == cs {
		return cs
	}
	for s := k; s < cs; s++ {
		if c.toks[s].level >= breakSentence {
			if 2*c.cost(s, cs) >= c.cost(k, cs) {
				return s
			}
			break
		}
	}
	return k
}

// tokenize fills c.toks with the words of rs[lo:hi], splitting words whose
// normalized length exceeds size.
func (c *chunker) tokenize(lo, hi int) {
	c.toks = c.toks[:0]
	rs := c.rs
	gapStart := lo
	for i := lo; i < hi; {
		if unicode.IsSpace(rs[i]) {
			i++
			continue
		}
		j := i
		for j < hi && !unicode.IsSpace(rs[j]) {
			j++
		}
		n := wordNormLen(rs[i:j])
		if n == 0 { // only invisible characters: leave them in the gap
			i = j
			continue
		}
		level := gapLevel(rs[gapStart:i])
		if len(c.toks) == 0 {
			level = breakParagraph
		} else if !c.table && level < breakSentence && endsSentence(rs, c.toks[len(c.toks)-1]) && !unicode.IsLower(rs[i]) {
			level = breakSentence
		}
		sep := 1
		if len(c.toks) == 0 {
			sep = 0
		}
		if n <= c.size {
			c.toks = append(c.toks, token{start: i, end: j, nlen: n, sep: sep, level: level})
		} else {
			c.hardSplit(i, j, sep, level)
		}
		gapStart = j
		i = j
	}
}

// hardSplit cuts an over-long word into pieces as a last resort. A piece's
// length is bounded by the sum of its code points' NFKD lengths, which is
// never less than the length of its NFKC form.
//
// Pieces use that bound rather than their own normalized length because
// normalizing a piece alone can trim a leading space (NFKC turns U+00B4
// into " \u0301") that stays when the pieces are joined again.
func (c *chunker) hardSplit(i, j, sep, level int) {
	ps, bound := i, 0
	for k := i; k < j; k++ {
		w := nfkdLen(c.rs[k])
		if bound+w > c.size && k > ps {
			if c.appendPiece(ps, k, bound, sep, level) {
				sep, level = 0, breakInside
			}
			ps, bound = k, 0
		}
		bound += w
	}
	c.appendPiece(ps, j, bound, sep, level)
}

func (c *chunker) appendPiece(i, j, bound, sep, level int) bool {
	if NormalizeText(string(c.rs[i:j])) == "" {
		return false
	}
	if len(c.toks) == 0 {
		sep, level = 0, breakParagraph
	}
	c.toks = append(c.toks, token{start: i, end: j, nlen: bound, sep: sep, level: level})
	return true
}

// wordNormLen is the length of a word's normalized text.
func wordNormLen(w []rune) int {
	for _, r := range w {
		if r < 0x21 || r > 0x7e { // not printable ASCII: normalize for real
			return len([]rune(NormalizeText(string(w))))
		}
	}
	return len(w) // printable ASCII is its own normal form
}

func nfkdLen(r rune) int {
	if isDropped(r) {
		return 0
	}
	if r < 0x80 {
		return 1
	}
	var buf [4]byte
	n := 0
	for range string(norm.NFKD.Bytes(buf[:encodeRune(buf[:], r)])) {
		n++
	}
	return n
}

func encodeRune(b []byte, r rune) int {
	return copy(b, string(r))
}

// gapLevel classifies the whitespace between two words.
func gapLevel(gap []rune) int {
	lines := 0
	for i, r := range gap {
		switch r {
		case '\f', 0x2029:
			return breakParagraph
		case '\r':
			if i+1 < len(gap) && gap[i+1] == '\n' {
				continue
			}
			lines++
		case '\n', '\v', 0x85, 0x2028:
			lines++
		}
	}
	switch {
	case lines >= 2:
		return breakParagraph
	case lines == 1:
		return breakLine
	}
	return breakWord
}

// endsSentence reports whether token t ends with sentence punctuation,
// possibly followed by closing quotes or brackets.
func endsSentence(rs []rune, t token) bool {
	for k := t.end - 1; k >= t.start; k-- {
		switch rs[k] {
		case '"', '\'', ')', ']', '»', '”', '’':
			continue
		case '.', '!', '?', '…', '。', '！', '？':
			return true
		}
		return false
	}
	return false
}
