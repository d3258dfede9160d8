package pdf

import (
	"math"
	"regexp"
	"strings"
	"unicode"

	"github.com/docket-dev/docket/loader/internal/document"
)

// The cue of a line saying a table goes on. backRe: on the page of the
// second part, above it, a line that is the cue alone ("Continued",
// "(concluded)"), a label followed by it ("Table 3 (continued)", "Table 3,
// cont'd", "ESTIMATED COSTS—Continued", "Table 3 continued") or one
// starting with it and saying from where ("Continued from page 4").
// fwdRe: on the page of the first part, below it, one saying the table
// goes on ("(Continued on next page)", "continued overleaf"). A sentence
// holding the word ("The audit concluded in May.") is neither.
var (
	cueWord = `(?:continued|cont(?:'d|’d|d|\.)|concluded|fortsetzung|suite)`
	backRe  = regexp.MustCompile(`(?i)^\W*` + cueWord + `(?:\s+(?:from|von|de)\b.*)?[\W]*$` +
		`|^(?:` + labelCue + `|.*[(\[,;:—–-])\s*` + cueWord + `[\W]*$`)
	fwdRe = regexp.MustCompile(`(?i)^\W*(?:(?:to be )?continued|continues|cont(?:'d|’d|d|\.)|fortsetzung(?: folgt)?)` +
		`(?:\s+(?:on|overleaf|auf|sur)\b.*)?[\W]*$`)
	// labelCue: a caption label without punctuation before the cue
	// ("Table 3 continued", "Tabelle 2 Fortsetzung").
	labelCue = `(?:table|tab\.|tabelle|tableau|exhibit|schedule|annex|appendix)\s*[0-9IVXivx]+[A-Za-z]?(?:[.\-–][0-9]+)*\.?\s`
)

// linkContinued marks the tables that carry on the previous one across a
// page break (document.Table.Continues). Table b continues table a when
//   - b is the first table of the page after a's and a the last of its;
//   - in reading order only page furniture (running heads, page numbers)
//     lies between them, and on b's page a short line saying "continued"
//     or a repeat of the line just above a (its caption);
//   - both have the same number of columns (≥ 2), and either the same
//     header row (a repeated header) or, when b has no header or another
//     one (the header not repeated: b's first body row may be read as
//     one), the same left and right edges; when both have a full header,
//     one of b's putting words over a's number columns and sharing no
//     word with a's is another table's (bodyLike, wordsShared).
//
// A part of a table ends its page and the next part starts the next one:
// anything else between them (a paragraph, another caption) is another
// table's context, and the two stay unlinked.
func linkContinued(res *document.Result) {
	if len(res.Tables) < 2 {
		return
	}
	at := make([]int, len(res.Tables)) // element index of each table
	for i := range at {
		at[i] = -1
	}
	for i, e := range res.Elements {
		if e.Category == document.TableCat && e.TableSeq >= 0 && e.TableSeq < len(at) {
			at[e.TableSeq] = i
		}
	}
	for s := 1; s < len(res.Tables); s++ {
		a, b := &res.Tables[s-1], &res.Tables[s]
		if b.Page != a.Page+1 || at[s-1] < 0 || at[s] <= at[s-1] {
			continue
		}
		if !onlyFurnitureBetween(res.Elements, at[s-1], at[s]) || !sameShape(a, b) {
			continue
		}
		b.Continues = true
	}
}

// onlyFurnitureBetween: the elements between indexes i and j (two table
// elements on consecutive pages) are page furniture, a line saying the
// table goes on (below the first part on its page, fwdRe; above the
// second on its page, backRe) or, on the second page, the first table's
// caption repeated.
func onlyFurnitureBetween(els []document.Element, i, j int) bool {
	caption := captionOf(els, i)
	for k := i + 1; k < j; k++ {
		e := els[k]
		if furniture(e.Category) {
			continue
		}
		if e.Category == document.TableCat {
			return false
		}
		t := norm(e.Text)
		if len([]rune(t)) > 120 {
			return false
		}
		switch e.Page {
		case els[i].Page:
			if fwdRe.MatchString(t) {
				continue
			}
		case els[j].Page:
			if backRe.MatchString(t) || (caption != "" && t == caption) {
				continue
			}
		}
		return false
	}
	return true
}

// captionOf: the text of the element just above table element i on its
// page when it may be the table's caption or a head over it: not running
// text (a sentence of six words or more, or a list item), whose repeat on
// the next page says nothing of the table.
func captionOf(els []document.Element, i int) string {
	if i == 0 || els[i-1].Page != els[i].Page {
		return ""
	}
	e := els[i-1]
	t := norm(e.Text)
	switch e.Category {
	case document.Caption, document.Title:
		return t
	case document.ListItem:
		return ""
	}
	if len(strings.Fields(t)) >= 6 && strings.ContainsAny(t[len(t)-1:], ".!?;:") {
		return ""
	}
	return t
}

func furniture(c document.Category) bool {
	return c == document.Header || c == document.Footer || c == document.PageNumber
}

// sameShape: the two parts have the same columns, by their header row or
// by their edges.
func sameShape(a, b *document.Table) bool {
	n := ncols(a)
	if n < 2 || ncols(b) != n {
		return false
	}
	if len(a.Header) > 0 && len(b.Header) == len(a.Header) {
		same := true
		for k := range a.Header {
			if norm(a.Header[k]) != norm(b.Header[k]) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	if full(a.Header) && full(b.Header) && !bodyLike(b.Header, a) && !wordsShared(a.Header, b.Header) {
		return false // two headers, b's its own: another table of the same width
	}
	wa, wb := a.BBox.X1-a.BBox.X0, b.BBox.X1-b.BBox.X0
	tol := max(6, 0.06*max(wa, wb))
	return math.Abs(a.BBox.X0-b.BBox.X0) <= tol && math.Abs(a.BBox.X1-b.BBox.X1) <= tol
}

// bodyLike: row (b's header, not a's) may be a body row of a read as a
// header: no words in a column where a's last row holds a number. Words
// over a's number columns are another table's header.
func bodyLike(row []string, a *document.Table) bool {
	if len(a.Rows) == 0 {
		return true
	}
	last := a.Rows[len(a.Rows)-1]
	for k := 0; k < len(row) && k < len(last); k++ {
		if number(last[k]) && strings.IndexFunc(row[k], unicode.IsLetter) >= 0 {
			return false
		}
	}
	return true
}

// full: a header read whole, a label over every column (a header the
// detector read in part, empty cells, says little of which table it is).
func full(h []string) bool {
	for _, c := range h {
		if strings.TrimSpace(c) == "" {
			return false
		}
	}
	return len(h) > 0
}

// wordsShared: a word of b's header is in a's (a repeated
// header the detector cut or wrapped a little differently on each page).
func wordsShared(a, b []string) bool {
	in := map[string]bool{}
	for _, c := range a {
		for _, w := range strings.Fields(strings.ToLower(c)) {
			in[w] = true
		}
	}
	n, shared := 0, 0
	for _, c := range b {
		for _, w := range strings.Fields(strings.ToLower(c)) {
			n++
			if in[w] {
				shared++
			}
		}
	}
	return shared > 0
}

// number: s holds a digit and no letter ("1,234", "(12.5)", "$ 7", "45 %").
func number(s string) bool {
	digit := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			return false
		case unicode.IsDigit(r):
			digit = true
		}
	}
	return digit
}

// ncols is a table's number of grid columns.
func ncols(t *document.Table) int {
	n := len(t.Header)
	for _, r := range t.Rows {
		n = max(n, len(r))
	}
	return n
}

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }
