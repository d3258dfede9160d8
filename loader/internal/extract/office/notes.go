package office

import (
	"context"
	"encoding/xml"
	"io"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// docxNoteParts are the DOCX parts whose text sits outside the body's
// flow, each after the body (and its charts), before the footers: the
// reader sees footnotes at a page's foot, endnotes at the end, comments in
// the margin. Their marks in the body carry no text, and which body
// paragraph a note belongs to is not kept. Before session 30 none of them
// was read: their text was silently missing (mammoth's footnotes,
// endnotes and comments fixtures: "A tachyon walks into a bar. Fin." lost).
var docxNoteParts = []struct{ relType, section string }{
	{"/footnotes", "footnotes"},
	{"/endnotes", "endnotes"},
	{"/comments", "comments"},
}

// emitDocxNotes adds the paragraphs (and tables) of the main part's
// footnotes, endnotes and comments parts, one element a paragraph, each
// element's Section naming its part's kind. Footnote separators hold no
// text and add nothing.
func emitDocxNotes(ctx context.Context, b *builder, ix *zipIndex, rels map[string]relation) {
	for _, kind := range docxNoteParts {
		var parts []string
		for _, r := range rels {
			if !r.External && strings.HasSuffix(r.Type, kind.relType) {
				parts = append(parts, r.Target)
			}
		}
		sort.Strings(parts)
		for _, part := range dedupe(parts) {
			rc, err := ix.open(part)
			if err != nil {
				b.warn("%s: %v", part, err)
				continue
			}
			mark := func(k int) {
				if k >= 0 {
					b.res.Elements[k].Section = kind.section
				}
			}
			w := &docxWalker{
				hidden: b.docxHidden,
				onPara: func(p *docxPara) { mark(b.add(document.NarrativeText, p.text.String(), 0)) },
				// A note's table lands as the body's (before office/6:
				// one NarrativeText of its lines, a cell's paragraphs
				// breaking its row, and no table stored).
				onTable: func(rows [][]string, spans []document.CellSpan, _ bool) { mark(b.addTableSpans(rows, spans)) },
			}
			if err := w.walk(ctx, rc, part); err != nil {
				b.warn("%s: %v", part, err)
			}
			rc.Close()
		}
	}
}

// noteItem is a paragraph of a note (text) or a table in it (rows).
type noteItem struct {
	text string
	rows [][]string
}

// odfNoteText reads the rest of a text:note or office:annotation element
// (its start just read) and returns its paragraphs' text and its tables'
// rows, in order; the note's citation (its number in the body) and an
// annotation's author and date are left out. An ODT's notes sit inline in
// the paragraph they mark: the paragraph keeps its own text, the notes go
// after the body, as a DOCX's do (docxNoteParts); before session 30 they
// were skipped. A table in a note lands as the body's do (before office/7
// each cell's paragraph was a note paragraph of its own). Copies of
// repeated rows and cells the cap left out are added to *dropped
// (odfTables.Dropped).
func odfNoteText(toks *partTokens, dropped *int) ([]noteItem, error) {
	var items []noteItem
	var cur strings.Builder
	var tables odfTables
	defer func() { *dropped += tables.Dropped }()
	depth, skip := 1, 0 // skip: depth inside a left-out child
	for depth > 0 {
		tok, err := toks.next()
		if tok == nil {
			if err == nil {
				err = xmlErr(toks.part, io.ErrUnexpectedEOF)
			}
			return items, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if skip > 0 {
				skip++
				continue
			}
			switch t.Name.Local {
			case "note-citation", "creator", "date", "date-string":
				skip = 1
			case "s", "tab", "line-break":
				cur.WriteString(odfWhitespace(t))
			case "table", "table-row", "table-cell", "covered-table-cell":
				tables.startTag(t, true)
			}
		case xml.EndElement:
			depth--
			if skip > 0 {
				skip--
				continue
			}
			switch t.Name.Local {
			case "p", "h":
				if !tables.addPara(cur.String()) {
					items = append(items, noteItem{text: cur.String()})
				}
				cur.Reset()
			case "table", "table-row", "table-cell", "covered-table-cell":
				if rows, ok := tables.endTag(t); ok {
					items = append(items, noteItem{rows: rows})
				}
			}
		case xml.CharData:
			if skip == 0 {
				cur.Write(t)
			}
		}
	}
	return items, nil
}
