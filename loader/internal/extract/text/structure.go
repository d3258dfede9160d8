package text

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Syntax says which lightweight markup's block syntax to honour.
type Syntax int

const (
	Plain    Syntax = iota // blank-line paragraphs, bullets, conservative heading guess
	Markdown               // ATX/setext headings, fences, pipe tables
	RST                    // underlined (and overlined) section titles
	Org                    // "*" headlines, #+TITLE, #+BEGIN blocks
	Data                   // JSON and the like: paragraphs only, no headings or lists
	Lines                  // NDJSON: one element per non-blank line
)

// line is one line of the page text; start/end are byte offsets (end
// excludes the newline).
type line struct {
	start, end int
	s          string
}

// builder collects elements with code point offsets into text.
type builder struct {
	text     string
	els      []document.Element
	tables   []document.Table
	section  string
	title    string   // document title found in the markup (org #+TITLE)
	rst      []string // RST adornment styles in order of appearance = levels
	lastByte int
	lastRune int
}

// runeOff converts a byte offset to a code point offset. Calls come in
// increasing order, so counting is incremental.
func (b *builder) runeOff(byteOff int) int {
	if byteOff < b.lastByte {
		b.lastByte, b.lastRune = 0, 0
	}
	b.lastRune += utf8.RuneCountInString(b.text[b.lastByte:byteOff])
	b.lastByte = byteOff
	return b.lastRune
}

// add emits an element over text[start:end], trimmed of surrounding space.
func (b *builder) add(cat document.Category, start, end, level int) int {
	for start < end {
		r, n := utf8.DecodeRuneInString(b.text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		start += n
	}
	for end > start {
		r, n := utf8.DecodeLastRuneInString(b.text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= n
	}
	if start >= end {
		return -1
	}
	txt := b.text[start:end]
	if cat == document.Title {
		b.section = txt
	}
	e := document.Element{
		Page: 1, Seq: len(b.els), Category: cat, Text: txt,
		CharStart: b.runeOff(start), CharEnd: b.runeOff(end),
		Level: level, Section: b.section, TableSeq: -1,
	}
	b.els = append(b.els, e)
	return len(b.els) - 1
}

func splitLines(s string) []line {
	var out []line
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			if i == len(s) && start == len(s) {
				break
			}
			out = append(out, line{start, i, s[start:i]})
			start = i + 1
		}
	}
	return out
}

func blank(l line) bool { return strings.TrimSpace(l.s) == "" }

var (
	bulletRe   = regexp.MustCompile(`^(\s*)([-*+•◦▪‣●○■□➢►–])\s+\S`)
	numberedRe = regexp.MustCompile(`^(\s*)(\d{1,3}[.)]|[a-zA-Z][.)]|\(\d{1,3}\)|\([a-zA-Z]\)|[ivxIVX]{1,5}[.)])\s+\S`)
	atxRe      = regexp.MustCompile(`^ {0,3}(#{1,6})(\s+|$)`)
	setextRe   = regexp.MustCompile(`^ {0,3}(=+|-+)\s*$`)
	hrRe       = regexp.MustCompile(`^ {0,3}([-*_])(\s*([-*_]))*\s*$`)
	tableSepRe = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	orgHeadRe  = regexp.MustCompile(`^(\*+)\s+\S`)
	orgKeyRe   = regexp.MustCompile(`^\s*#\+(\w+):\s*(.*)$`)
)

// listMarker returns the indentation width and the byte length of the
// marker (including the following space) when l starts a list item. Bullet
// symbols are left out of the item's text; numbers are kept.
func listMarker(s string) (indent, skip int, ok bool) {
	if m := bulletRe.FindStringSubmatchIndex(s); m != nil {
		ws := s[m[2]:m[3]]
		j := m[5]
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		return width(ws), j, true
	}
	if m := numberedRe.FindStringSubmatchIndex(s); m != nil {
		return width(s[m[2]:m[3]]), m[3], true
	}
	return 0, 0, false
}

func width(ws string) int {
	w := 0
	for _, r := range ws {
		if r == '\t' {
			w += 4
		} else {
			w++
		}
	}
	return w
}

// Structure splits page text into typed elements following syntax. It
// returns the elements (Page 1, code point offsets into text), the tables
// found (markdown pipe tables) and a document title when the markup names
// one.
func Structure(text string, syntax Syntax) ([]document.Element, []document.Table, string) {
	b := &builder{text: text}
	lines := splitLines(text)
	for i := 0; i < len(lines); {
		l := lines[i]
		if blank(l) {
			i++
			continue
		}
		if syntax == Lines {
			b.add(document.NarrativeText, l.start, l.end, 0)
			i++
			continue
		}
		// Fenced or delimited blocks: kept whole as one NarrativeText.
		if end, ok := fence(lines, i, syntax); ok {
			if end > i+1 {
				b.add(document.NarrativeText, lines[i+1].start, lines[end-1].end, 0)
			}
			i = end + 1
			continue
		}
		if syntax == Org {
			if m := orgKeyRe.FindStringSubmatch(l.s); m != nil {
				if strings.EqualFold(m[1], "title") && strings.TrimSpace(m[2]) != "" {
					off := l.start + strings.Index(l.s, m[2])
					b.title = strings.TrimSpace(m[2])
					b.add(document.Title, off, l.end, 1)
				}
				i++
				continue
			}
			if m := orgHeadRe.FindStringSubmatch(l.s); m != nil {
				b.add(document.Title, l.start+len(m[1]), l.end, len(m[1]))
				i++
				continue
			}
		}
		if syntax == Markdown {
			if m := atxRe.FindStringSubmatchIndex(l.s); m != nil {
				level := m[3] - m[2]
				end := l.end
				body := strings.TrimRight(l.s, " \t#")
				if len(body) > m[1] {
					end = l.start + len(body)
				}
				b.add(document.Title, l.start+m[1], end, level)
				i++
				continue
			}
		}
		// A paragraph: consecutive non-blank lines, cut before lines that
		// open their own block.
		j := i + 1
		for j < len(lines) && !blank(lines[j]) && !opensBlock(lines, j, syntax) {
			j++
		}
		b.paragraph(lines[i:j], syntax, j < len(lines))
		i = j
	}
	return b.els, b.tables, b.title
}

// opensBlock says whether line j starts a block that ends the paragraph
// before it.
func opensBlock(lines []line, j int, syntax Syntax) bool {
	switch syntax {
	case Markdown:
		if atxRe.MatchString(lines[j].s) {
			return true
		}
	case Org:
		if orgHeadRe.MatchString(lines[j].s) || orgKeyRe.MatchString(lines[j].s) {
			return true
		}
	}
	_, ok := fence(lines, j, syntax)
	return ok
}

// fence recognises a fenced block opening at line i and returns the index of
// its closing line (len(lines) when unclosed).
func fence(lines []line, i int, syntax Syntax) (int, bool) {
	t := strings.TrimSpace(lines[i].s)
	var closer func(string) bool
	switch syntax {
	case Markdown:
		if !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
			return 0, false
		}
		mark := t[:3]
		closer = func(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), mark) }
	case Org:
		if !strings.HasPrefix(strings.ToUpper(t), "#+BEGIN_") {
			return 0, false
		}
		closer = func(s string) bool { return strings.HasPrefix(strings.ToUpper(strings.TrimSpace(s)), "#+END_") }
	default:
		return 0, false
	}
	for k := i + 1; k < len(lines); k++ {
		if closer(lines[k].s) {
			return k, true
		}
	}
	return len(lines), true
}

// rstAdorn recognises an RST section adornment line: three or more of
// one punctuation character.
var rstAdorn = adornMatcher{}

type adornMatcher struct{}

func (adornMatcher) MatchString(s string) bool {
	s = strings.TrimRight(s, " \t")
	if len(s) < 3 || !strings.ContainsRune("=-~^\"'`#*+:._!$%&,/;<>?@\\|", rune(s[0])) {
		return false
	}
	return strings.Count(s, s[:1]) == len(s)
}

// paragraph types one paragraph's lines.
func (b *builder) paragraph(ls []line, syntax Syntax, more bool) {
	first := ls[0]
	switch syntax {
	case Markdown:
		if len(ls) >= 2 && setextRe.MatchString(ls[len(ls)-1].s) {
			level := 1
			if strings.Contains(ls[len(ls)-1].s, "-") {
				level = 2
			}
			b.add(document.Title, first.start, ls[len(ls)-2].end, level)
			return
		}
		if len(ls) == 1 && hrRe.MatchString(first.s) {
			return
		}
		if len(ls) >= 2 && strings.Contains(first.s, "|") && tableSepRe.MatchString(ls[1].s) {
			b.table(ls)
			return
		}
	case RST:
		if t, rest, level, ok := b.rstTitle(ls); ok {
			b.add(document.Title, t.start, t.end, level)
			if len(rest) > 0 {
				b.paragraph(rest, syntax, more)
			}
			return
		}
	case Data:
		b.add(document.NarrativeText, first.start, ls[len(ls)-1].end, 0)
		return
	}
	if syntax == Plain && len(ls) == 1 && more && headingLike(first.s) {
		b.add(document.Title, first.start, first.end, 1)
		return
	}
	b.listsAndText(ls)
}

// rstTitle recognises "Title\n=====" and "=====\nTitle\n=====".
func (b *builder) rstTitle(ls []line) (title line, rest []line, level int, ok bool) {
	style := ""
	switch {
	case len(ls) >= 3 && rstAdorn.MatchString(ls[0].s) && rstAdorn.MatchString(ls[2].s) && !rstAdorn.MatchString(ls[1].s):
		title, rest, style = ls[1], ls[3:], "over"+ls[2].s[:1]
	case len(ls) >= 2 && rstAdorn.MatchString(ls[1].s) && !rstAdorn.MatchString(ls[0].s) &&
		len(strings.TrimRight(ls[1].s, " \t")) >= min(3, utf8.RuneCountInString(strings.TrimSpace(ls[0].s))):
		title, rest, style = ls[0], ls[2:], ls[1].s[:1]
	default:
		return line{}, nil, 0, false
	}
	for k, s := range b.rst {
		if s == style {
			return title, rest, k + 1, true
		}
	}
	b.rst = append(b.rst, style)
	return title, rest, len(b.rst), true
}

// table emits a markdown pipe table.
func (b *builder) table(ls []line) {
	cells := func(s string) []string {
		s = strings.TrimSpace(s)
		s = strings.TrimPrefix(s, "|")
		s = strings.TrimSuffix(s, "|")
		parts := strings.Split(s, "|")
		for k := range parts {
			parts[k] = strings.TrimSpace(parts[k])
		}
		return parts
	}
	t := document.Table{Page: 1, Seq: len(b.tables), Header: cells(ls[0].s)}
	for _, l := range ls[2:] {
		t.Rows = append(t.Rows, cells(l.s))
	}
	if k := b.add(document.TableCat, ls[0].start, ls[len(ls)-1].end, 0); k >= 0 {
		b.els[k].TableSeq = t.Seq
		b.tables = append(b.tables, t)
	}
}

// listsAndText splits a paragraph into ListItems (one per marker line, with
// continuation lines) and NarrativeText runs.
func (b *builder) listsAndText(ls []line) {
	var indents []int
	for _, l := range ls {
		if ind, _, ok := listMarker(l.s); ok {
			indents = append(indents, ind)
		}
	}
	if len(indents) == 0 {
		b.add(document.NarrativeText, ls[0].start, ls[len(ls)-1].end, 0)
		return
	}
	sort.Ints(indents)
	rank := map[int]int{}
	for _, ind := range indents {
		if _, ok := rank[ind]; !ok {
			rank[ind] = len(rank) + 1
		}
	}
	runStart := -1 // byte start of the open run
	runEnd := 0
	runCat := document.NarrativeText
	runLevel := 0
	flush := func() {
		if runStart >= 0 {
			b.add(runCat, runStart, runEnd, runLevel)
		}
		runStart = -1
	}
	for _, l := range ls {
		if ind, skip, ok := listMarker(l.s); ok {
			flush()
			runStart, runEnd, runCat, runLevel = l.start+skip, l.end, document.ListItem, rank[ind]
			continue
		}
		if runStart < 0 {
			runStart, runCat, runLevel = l.start, document.NarrativeText, 0
		}
		runEnd = l.end
	}
	flush()
}

// headingLike is the conservative plain-text heading test for a one-line
// paragraph followed by more text: short, no sentence punctuation at the
// end, starts with a capital or digit, mostly letters.
func headingLike(s string) bool {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n < 2 || n > 80 || len(strings.Fields(s)) > 12 {
		return false
	}
	if _, _, ok := listMarker(s); ok {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	if strings.ContainsRune(".,;:!?…)]}\"'»", last) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(first) && !unicode.IsDigit(first) && !unicode.Is(unicode.Lo, first) {
		return false
	}
	letters, digits, commas := 0, 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		case r == ',':
			commas++
		}
	}
	return letters >= 2 && digits*10 <= letters+digits && commas <= 1
}
