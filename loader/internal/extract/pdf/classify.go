package pdf

import (
	"cmp"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

var (
	captionRe    = regexp.MustCompile(`(?i)^\s*(?:figure|fig\.?|table|tab\.|chart|exhibit|image|photo|plate|graph|diagram|map|illustration)\s*[0-9IVXivx]+[A-Za-z]?(?:[.\-–][0-9]+)*\s*(?:[:.\-–—|)]|$)`)
	captionAnyRe = regexp.MustCompile(`(?i)^\s*(?:figure|fig\.?|table|chart|exhibit|image|photo|plate|graph|diagram|map)\s*[0-9IVXivx]+`)
	pageNumRe    = regexp.MustCompile(`(?i)^\s*[-–—(\[]?\s*(?:page|p\.|pg\.?|seite|página|pagina)?\s*(?:\d{1,4}|[ivxlc]{1,7})\s*(?:(?:of|/|von|de|sur)\s*\d{1,4})?\s*[-–—)\]]?\s*$`)
	pageNumAltRe = regexp.MustCompile(`(?i)^\s*\d{1,4}\s*\|\s*(?:page|p\.)\s*$`)
)

func isPageNumber(s string) bool {
	return pageNumRe.MatchString(s) || pageNumAltRe.MatchString(s)
}

// furnitureKey normalizes a margin line so "Page 3 of 10" and "Page 4 of
// 10" compare equal: lower case, each run of ASCII digits one '#', each
// run of white space (the regexp package's \s: ASCII, \v aside) one
// space. One pass over the bytes: it was two regexp replacements
// (`\d+` -> "#", then `\s+` -> " "), 0.4 % of the instructions of
// extracting the 149 corpus PDFs (callgrind). Both classes are ASCII
// and the bytes of a multi-byte or invalid sequence are all >= 0x80, so
// bytes give what the regexps give; TestFurnitureKeyIsTheRegexps
// compares both.
func furnitureKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			for i < len(s) && '0' <= s[i] && s[i] <= '9' {
				i++
			}
			b.WriteByte('#')
		case RegexpSpace(c):
			for i < len(s) && RegexpSpace(s[i]) {
				i++
			}
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// RegexpSpace is the regexp package's \s: ASCII white space but \v (the
// hand-written scanners here and in the table detector that stand for
// regexps use it).
func RegexpSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

type pageData struct {
	num           int
	width, height float64
	needsOCR      bool
	unreadable    string // why MuPDF could not read the page ("" when it could)
	scanDPI       int    // Layout.ScanDPI
	real, bad     int
	clipHidden    int // Layout.ClipHidden
	paras         []*para
	tables        []document.Table
}

// docStats are per-document typography facts.
type docStats struct {
	body      float64 // dominant body font size
	boldBody  bool    // the body font itself is bold: boldness says nothing
	titleSize []float64
}

func computeStats(pages []*pageData) docStats {
	sizes := map[float64]int{}
	total, bold := 0, 0
	for _, pg := range pages {
		for _, p := range pg.paras {
			if p.image {
				continue
			}
			sizes[p.size] += p.nchars
			total += p.nchars
			if p.bold {
				bold += p.nchars
			}
		}
	}
	st := docStats{body: 10}
	best := -1
	for s, n := range sizes {
		if n > best || (n == best && s < st.body) {
			st.body, best = s, n
		}
	}
	st.boldBody = total > 0 && bold*2 > total
	return st
}

// markFurniture finds lines repeated at the same place in the top or
// bottom margin on at least half of the text pages (Header, Footer), and
// page numbers in the margins.
func markFurniture(pages []*pageData) {
	type occ struct {
		page int
		cy   float64
		p    *para
	}
	groups := map[string][]occ{}
	textPages := 0
	for _, pg := range pages {
		if pg.needsOCR {
			continue
		}
		textPages++
		for _, p := range pg.paras {
			if p.image || len(p.lines) > 2 || pg.height <= 0 {
				continue
			}
			cy := (p.bbox.Y0 + p.bbox.Y1) / 2 / pg.height
			var zone string
			switch {
			case p.bbox.Y1 <= 0.1*pg.height || (cy < 0.1 && p.bbox.Y1 <= 0.13*pg.height):
				zone = "t"
			case p.bbox.Y0 >= 0.9*pg.height || (cy > 0.9 && p.bbox.Y0 >= 0.87*pg.height):
				zone = "b"
			default:
				continue
			}
			if isPageNumber(p.text) && !cellOfRow(p, pg) {
				p.cat = document.PageNumber
				p.furnTop, p.furnBot = zone == "t", zone == "b"
				continue
			}
			k := zone + furnitureKey(p.text)
			groups[k] = append(groups[k], occ{pg.num, cy, p})
		}
	}
	if textPages < 2 {
		if len(pages) == 1 {
			singlePageFurniture(pages[0])
		}
		return
	}
	need := max(2, (textPages+1)/2)
	for k, os := range groups {
		if len(os) < need {
			continue
		}
		// An occurrence is furniture when the same text sits within 0.02
		// of the page height of it on at least need pages: a window slides
		// over the occurrences sorted by position, counting the distinct
		// pages in it (a long report repeats its header on every page, so
		// comparing every pair was quadratic).
		slices.SortStableFunc(os, func(a, b occ) int { return cmp.Compare(a.cy, b.cy) })
		perPage := map[int]int{}
		lo, hi := 0, 0 // window os[lo:hi]
		for _, o := range os {
			for hi < len(os) && os[hi].cy-o.cy <= 0.02 {
				perPage[os[hi].page]++
				hi++
			}
			for o.cy-os[lo].cy > 0.02 {
				if perPage[os[lo].page]--; perPage[os[lo].page] == 0 {
					delete(perPage, os[lo].page)
				}
				lo++
			}
			if len(perPage) < need {
				continue
			}
			if k[0] == 't' {
				o.p.cat, o.p.furnTop = document.Header, true
			} else {
				o.p.cat, o.p.furnBot = document.Footer, true
			}
			if isPageNumber(o.p.text) {
				// a number cellOfRow took for a row's cell that sits
				// where a number sits on most pages is the running
				// head's or footer's page number after all (a footer
				// of three parts, or one whose next line holds a
				// number: "March 2024")
				o.p.cat = document.PageNumber
			}
		}
	}
}

func letters(s string) (n, upper int) {
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return
}

// classify sets the category of a body paragraph (furniture is already
// marked) from its text, typography and neighbours.
func classify(p *para, pg *pageData, st *docStats) {
	if p.image || p.cat != "" {
		return
	}
	text := strings.TrimSpace(p.text)
	nl := len(p.lines)
	last := text[len(text)-1]
	big := p.size >= st.body*1.18 && p.size-st.body >= 1.5
	boldHead := p.bold && !st.boldBody && p.size >= st.body*0.95
	if nl <= 4 && captionStart(text) {
		switch {
		case captionRe.MatchString(text):
			p.cat = document.Caption
			return
		case captionAnyRe.MatchString(text) && nearImage(p, pg):
			p.cat = document.Caption
			return
		}
	}
	list := isListStart(text)
	if !horizontal(&p.lines[0]) {
		p.cat = document.NarrativeText // rotated margin text ("arXiv:…", stamps)
		return
	}
	if nl <= 3 && last != ',' && utf8.RuneCountInString(text) <= 200 {
		nLetters, nUpper := letters(text)
		words := countFields(text)
		if nLetters >= 2 {
			switch {
			case big:
				p.cat = document.Title
				return
			case boldHead && nl <= 2 && words <= 15 && last != '.' && !list:
				p.cat = document.Title
				return
			case numHeadRe.MatchString(text) && words <= 12 && nl <= 2 && last != '.' && (p.bold || p.size > st.body*1.05):
				p.cat = document.Title
				return
			case nl == 1 && !list && nLetters >= 4 && nUpper == nLetters && words <= 10 && last != '.':
				p.cat = document.Title
				return
			}
		}
	}
	if list {
		p.cat = document.ListItem
		return
	}
	p.cat = document.NarrativeText
}

// captionStart: text can match captionRe or captionAnyRe (a cheap test
// that spares most paragraphs the regexps): it starts with the first
// letter of one of their words.
func captionStart(s string) bool {
	switch s[0] | 0x20 {
	case 'f', 't', 'c', 'e', 'i', 'p', 'g', 'd', 'm':
		return true
	}
	return false
}

// countFields is len(strings.Fields(s)) without building the fields.
func countFields(s string) int {
	n, in := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

func nearImage(p *para, pg *pageData) bool {
	for _, q := range pg.paras {
		if !q.image || xOverlap(p.bbox, q.bbox) <= 0 {
			continue
		}
		d := max(q.bbox.Y0-p.bbox.Y1, p.bbox.Y0-q.bbox.Y1)
		if d < 40 {
			return true
		}
	}
	return false
}

// listLevels sets ListItem levels by indentation within the item's column.
func listLevels(pg *pageData) {
	for _, p := range pg.paras {
		if p.cat != document.ListItem {
			continue
		}
		left := p.bbox.X0
		for _, q := range pg.paras {
			if q.cat == document.ListItem && xOverlap(p.bbox, q.bbox) > 0 {
				left = min(left, q.bbox.X0)
			}
		}
		p.level = 1 + min(3, int((p.bbox.X0-left+4)/18))
	}
}

// titleLevels ranks title font sizes across the document: the largest is
// level 1; numbering depth ("1.2 Scope") pushes a heading down.
func titleLevels(pages []*pageData) {
	set := map[float64]bool{}
	for _, pg := range pages {
		for _, p := range pg.paras {
			if p.cat == document.Title {
				set[p.size] = true
			}
		}
	}
	sizes := make([]float64, 0, len(set))
	for s := range set {
		sizes = append(sizes, s)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(sizes)))
	rank := map[float64]int{}
	for i, s := range sizes {
		rank[s] = i + 1
	}
	for _, pg := range pages {
		for _, p := range pg.paras {
			if p.cat != document.Title {
				continue
			}
			lv := rank[p.size]
			if m := numDepthRe.FindStringSubmatch(p.text); m != nil {
				lv = max(lv, strings.Count(m[1], ".")+1)
			}
			p.level = min(lv, 6)
		}
	}
}

// singlePageFurniture: with one page nothing repeats; a lone short line
// hugging the top or bottom edge, well apart from the body, is taken as
// header or footer.
func singlePageFurniture(pg *pageData) {
	for _, p := range pg.paras {
		if p.image || p.cat != "" || len(p.lines) != 1 || len(p.text) > 80 {
			continue
		}
		top := p.bbox.Y1 <= 0.07*pg.height
		bot := p.bbox.Y0 >= 0.93*pg.height
		if !top && !bot {
			continue
		}
		h := height(p.bbox)
		apart := true
		for _, q := range pg.paras {
			if q == p {
				continue
			}
			if d := max(q.bbox.Y0-p.bbox.Y1, p.bbox.Y0-q.bbox.Y1); d < 1.5*h {
				if xOverlap(p.bbox, q.bbox) > -0.5*pg.width {
					apart = false
					break
				}
			}
		}
		if !apart {
			continue
		}
		if top {
			p.cat, p.furnTop = document.Header, true
		} else {
			p.cat, p.furnBot = document.Footer, true
		}
	}
}
