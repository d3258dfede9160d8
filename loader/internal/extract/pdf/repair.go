package pdf

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// What MuPDF had to do to read a damaged file, read from its messages, so
// that a repaired file lands with a review reason (document.ReviewRepaired)
// saying so in plain words: MuPDF reads through most damage quietly, and
// the text it gets can miss what it left out. Only repairs count, not the
// harmless warnings MuPDF also gives (an ICC profile it ignores, a CMap
// range outside its code space, a link without a destination): those
// change nothing in the text.

// repairs is what MuPDF did to one document.
type repairs struct {
	xref     bool     // the cross-reference table was rebuilt by scanning the file
	xrefWhy  string   // MuPDF's reason for it ("cannot recognize xref format"), if it gave one
	tree     string   // MuPDF's message that the page tree did not load as written
	broken   []string // the objects MuPDF ignored as broken ("969 0 R")
	moreLost bool     // MuPDF dropped messages: there may be more
	rebuilt  int      // pages of the page tree docket rebuilt (Doc.rebuilt)
	loose    int      // of them, listed by no surviving node of the lost tree
	opening  string   // what MuPDF read past while opening the file (openingDamage)
	unread   string   // why the file could not be read again to count its pages (checkDeclared)
}

// brokenRe matches MuPDF's messages that it left an object out: after a
// repair ("ignoring broken object (969 0 R)") or when it could not load it
// at all ("cannot load object (3 0 R) into cache").
var brokenRe = regexp.MustCompile(`(?:ignoring broken object|cannot load object) \((\d+ \d+ R)\)`)

// docRepairs reads the document-wide repairs from all of MuPDF's messages.
// The reason for an xref repair is the last error MuPDF reported before
// it started repairing.
func docRepairs(ws []string) repairs {
	var r repairs
	lastErr := ""
	for _, w := range ws {
		l := strings.ToLower(w)
		switch {
		case strings.Contains(l, "trying to repair") || strings.Contains(l, "repairing pdf document"):
			if !r.xref {
				r.xref, r.xrefWhy = true, lastErr
			}
		case strings.HasPrefix(w, "error: "):
			lastErr = xrefCause(w)
		case strings.Contains(w, " more MuPDF messages dropped"):
			r.moreLost = true
		}
		if m := brokenRe.FindStringSubmatch(w); m != nil && !slices.Contains(r.broken, m[1]) {
			r.broken = append(r.broken, m[1])
		}
	}
	r.tree = pageTreeTrouble(ws)
	return r
}

// xrefCause is MuPDF's error message without its prefixes ("format
// error: ") and its ", repairing" tail.
func xrefCause(w string) string {
	w = strings.TrimPrefix(w, "error: ")
	w = strings.TrimPrefix(w, "format error: ")
	w = strings.TrimPrefix(w, "syntax error: ")
	return strings.TrimSuffix(w, ", repairing")
}

// plainCause says what MuPDF's reason for rebuilding the index means,
// for the reasons it gives most ("" for the others).
func plainCause(why string) string {
	switch {
	case strings.Contains(why, "incorrect number of xref entries"):
		return "the index does not list as many objects as the file's trailer says; "
	case strings.Contains(why, "version marker"):
		return "the file does not start with its %PDF header: other bytes come first and every position in its index is off; "
	case strings.Contains(why, "xref"), strings.Contains(why, "startxref"):
		return "the index is missing or not where the file says it is; "
	}
	return ""
}

// any reports whether MuPDF repaired anything document-wide.
func (r repairs) any() bool {
	return r.xref || r.tree != "" || len(r.broken) > 0 || r.rebuilt > 0 || r.opening != ""
}

// flagRepairs records the repaired review reasons: one for the document
// when MuPDF repaired the file (declared is the page count the file
// declares, 0 when unknown, -1 when it was lost with the page tree), one for each page whose content MuPDF read
// past damage or could not load a font (damage, by page number).
func flagRepairs(res *document.Result, r repairs, damage map[int]pageHarm, declared int) {
	if r.any() {
		var did []string
		if r.xref {
			s := "rebuilt the file's index of objects (its cross-reference table) by scanning the whole file"
			if r.xrefWhy != "" {
				s += " (" + plainCause(r.xrefWhy) + "MuPDF: " + r.xrefWhy + ")"
			}
			did = append(did, s)
		}
		if r.rebuilt > 0 {
			did = append(did, fmt.Sprintf("found no page: the file's page tree (its list of pages) is lost, and docket rebuilt one from the %s found in the file, %s, and what pages took from the lost tree (page size, fonts) may be missing",
				plural(r.rebuilt, "page object"), rebuiltOrder(r.rebuilt, r.loose)))
		}
		if r.opening != "" {
			did = append(did, r.opening)
		}
		if r.tree != "" {
			did = append(did, "could not load the file's page tree as written (MuPDF: "+r.tree+")")
		}
		if n := len(r.broken); n > 0 {
			more := ""
			if r.moreLost {
				more = " at least"
			}
			did = append(did, fmt.Sprintf("left out%s %s it could not read (%s): whatever %s, text, a font or an image, is missing", more, plural(n, "damaged object"), objList(r.broken), map[bool]string{true: "it held", false: "they held"}[n == 1]))
		}
		pages := "MuPDF read " + plural(len(res.Pages), "page")
		switch {
		case r.unread != "":
			pages += fmt.Sprintf(", and docket could not read the file again to find how many pages it declares (%s), so pages may be missing", r.unread)
		case declared < 0:
			pages += ": how many the file had is not known (its page count was in the lost page tree), so pages may be missing"
		case declared == 0:
			pages += ", and how many pages the file declares could not be found in it (its page tree may sit in a compressed object stream), so pages may be missing"
		case declared > len(res.Pages):
			pages = fmt.Sprintf("only %d of the %d pages it declares could be read (see pages_missing)", len(res.Pages), declared)
		case declared == len(res.Pages):
			pages = fmt.Sprintf("MuPDF found all %d pages it declares", declared)
			if declared == 1 {
				pages = "MuPDF found the one page it declares"
			}
		}
		var lost []string
		for _, v := range res.Reviews {
			if v.Code == document.ReviewPageUnreadable && v.Page > 0 {
				lost = append(lost, strconv.Itoa(v.Page))
			}
		}
		if len(lost) > 0 {
			pages += fmt.Sprintf(", but page %s could not be read (see page_unreadable)", strings.Join(lost, ", "))
		}
		res.Flag(0, document.ReviewRepaired, "the file is damaged and MuPDF repaired it to read it: it %s; %s. Check the text against the file opened in a PDF viewer: what MuPDF could not recover is not in the warehouse",
			strings.Join(did, "; it "), pages)
	}
	for _, p := range res.Pages {
		h := damage[p.Number]
		if h.damage != "" {
			res.Flag(p.Number, document.ReviewRepaired, "page %d is damaged and MuPDF read past the damage: %s. Check the page's text against the page in a PDF viewer", p.Number, h.damage)
		}
		if h.fonts != "" {
			res.Flag(p.Number, document.ReviewFontUnreadable, "page %d: %s. Check the page's text against the page in a PDF viewer", p.Number, h.fonts)
		}
	}
}

// rebuiltOrder says in what order the rebuilt page tree lists the pages
// (see withPageTree).
func rebuiltOrder(pages, loose int) string {
	switch loose {
	case 0:
		return "in the order the surviving parts of the lost tree list them"
	case pages:
		return "in the order they appear there: the page order may differ from the original"
	}
	what := "they may be pages an edit of the file removed, or pages whose place is not known"
	if loose == 1 {
		what = "it may be a page an edit of the file removed, or one whose place is not known"
	}
	return fmt.Sprintf("in the order the surviving parts of the lost tree list them, then %s that no part lists, in the order they appear in the file: %s",
		plural(loose, "page"), what)
}

// plural is "1 page", "2 pages".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// objList names up to five objects ("969 0 R, 984 0 R"), then how many more.
func objList(objs []string) string {
	if len(objs) > 5 {
		return strings.Join(objs[:5], ", ") + fmt.Sprintf(" and %d more", len(objs)-5)
	}
	return strings.Join(objs, ", ")
}
