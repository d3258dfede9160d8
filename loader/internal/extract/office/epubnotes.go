package office

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// An EPUB's footnotes land as a Markdown file's do (text/13): a
// reference as "[1]" after its word, a note as "[1] its text", its link
// back to the reference left out. Before office/34 a reference's number
// was glued to its word ("tonnes1", which a search for "tonnes" missed)
// and every note ended in its back-link's arrow ("↩︎"). Notes are told
// by their markup: EPUB 3's epub:type (noteref, footnote, endnote,
// backlink), ARIA's role (doc-noteref, doc-backlink, doc-endnotes...),
// pandoc's classes (footnote-ref, footnote-back, footnotes).

// epubTypes says whether n's epub:type, role or class holds one of words.
func epubTypes(n *html.Node, words ...string) bool {
	for _, a := range n.Attr {
		if a.Key != "type" && a.Key != "epub:type" && a.Key != "role" && a.Key != "class" {
			continue
		}
		for _, v := range strings.Fields(a.Val) {
			for _, w := range words {
				if v == w {
					return true
				}
			}
		}
	}
	return false
}

// isNoteRef says whether n is a link to a note: its label (its text, a
// number or a short mark) is what it shows.
func isNoteRef(n *html.Node) (label string, ok bool) {
	if !epubTypes(n, "noteref", "doc-noteref", "footnote-ref") {
		return "", false
	}
	label = strings.Join(strings.Fields(nodeText(n)), "")
	label = strings.TrimSuffix(strings.TrimPrefix(label, "["), "]")
	if label == "" || len([]rune(label)) > 6 {
		return "", false
	}
	return label, true
}

// isBackLink says whether n is a note's link back to its reference.
func isBackLink(n *html.Node) bool {
	return epubTypes(n, "backlink", "doc-backlink", "footnote-back")
}

// noteNumber is a note's number when li is one of a notes list's items
// (the li says it is a footnote or an endnote, or its list stands in a
// footnotes or endnotes section): its place in the list, from the
// list's start.
func noteNumber(li *html.Node) (int, bool) {
	ol := li.Parent
	if ol == nil || ol.DataAtom != atom.Ol {
		return 0, false
	}
	note := epubTypes(li, "footnote", "endnote", "rearnote", "doc-footnote", "doc-endnote")
	for p := ol; !note && p != nil && p.Type == html.ElementNode; p = p.Parent {
		note = epubTypes(p, "footnotes", "endnotes", "rearnotes", "doc-endnotes", "doc-footnotes")
	}
	if !note {
		return 0, false
	}
	k := 1
	if v, err := strconv.Atoi(getAttr(ol, "start")); err == nil {
		k = v
	}
	for c := ol.FirstChild; c != nil && c != li; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Li {
			k++
		}
	}
	return k, true
}

// An EPUB 3 note may also be an <aside epub:type="footnote" id="fn1">
// (Sigil, Calibre, InDesign write them; reading systems show them as
// pop-ups) that the reference links to: before office/35 its text landed
// as a paragraph with no number ("Before the storm." after the chapter),
// or with the number it writes itself as a link back ("1 Before the
// storm."). It now lands "[1] Before the storm.", numbered by the label of
// the reference pointing at it; its link back, a link from the note to a
// reference's id, is left out, and a number it writes at its start is
// not written twice.

// noteRefs maps the ids a document's note references point at to their
// labels, and gathers the references' own ids.
func noteRefs(doc *html.Node) (notes map[string]string, refIDs map[string]bool) {
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			if label, ok := isNoteRef(n); ok {
				if notes == nil {
					notes, refIDs = map[string]string{}, map[string]bool{}
				}
				if f := hrefFragment(getAttr(n, "href")); f != "" {
					notes[f] = label
				}
				if id := getAttr(n, "id"); id != "" {
					refIDs[id] = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	return notes, refIDs
}

// hrefFragment is the part of a link after its "#" ("" when none).
func hrefFragment(href string) string {
	if i := strings.IndexByte(href, '#'); i >= 0 {
		return href[i+1:]
	}
	return ""
}

// asideNote is the label of a note that is no list item (an aside, a
// div or paragraph marked footnote or endnote) a reference of the
// document points at.
func (w *htmlWalker) asideNote(n *html.Node) (string, bool) {
	if w.notes == nil || n.DataAtom == atom.Li || !epubTypes(n, "footnote", "endnote", "rearnote", "doc-footnote", "doc-endnote") {
		return "", false
	}
	label, ok := w.notes[getAttr(n, "id")]
	return label, ok
}

// noteNumbered says whether word, a note's first, is its label ("2",
// "2.", "[2]", "2)").
func noteNumbered(word, label string) bool {
	return strings.TrimRight(strings.TrimPrefix(word, "["), ".):]") == label
}
