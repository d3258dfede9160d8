package text

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/docket-dev/docket/loader/internal/document"
)

// mdParser reads CommonMark with GitHub's tables, strikethrough, task
// lists and autolinks, footnotes and definition lists (PHP Markdown
// Extra, pandoc).
var mdParser = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.DefinitionList)).Parser()

// readMarkdown converts Markdown source to blocks and metadata.
func readMarkdown(s string) *markupDoc {
	d := &markupDoc{}
	s = d.frontMatter(s)
	s = d.pandocTitle(s)
	src := []byte(s)
	root := mdParser.Parse(text.NewReader(src))
	w := mdWalker{d: d, src: src}
	w.blocks(root, 0)
	d.titleBlock()
	return d
}

// pandocTitle reads pandoc's title block ("% Title", "% Author", "% Date"
// lines first in the file).
func (d *markupDoc) pandocTitle(s string) string {
	if !strings.HasPrefix(s, "% ") {
		return s
	}
	var fields []string
	for len(fields) < 3 && strings.HasPrefix(s, "%") {
		line, rest, _ := strings.Cut(s, "\n")
		fields = append(fields, strings.TrimSpace(strings.TrimPrefix(line, "%")))
		s = rest
	}
	for k, f := range fields {
		d.fieldMeta([]string{"title", "author", "date"}[k], strings.ReplaceAll(f, ";", ","))
	}
	return s
}

type mdWalker struct {
	d   *markupDoc
	src []byte
}

// blocks converts the block node n and what it holds; depth is the list
// nesting depth (ListItem levels).
func (w *mdWalker) blocks(n ast.Node, depth int) {
	switch t := n.(type) {
	case *ast.Heading:
		w.d.add(document.Title, w.inline(t), t.Level)
		return
	case *ast.Paragraph, *ast.TextBlock:
		w.d.add(document.NarrativeText, w.inline(t), 0)
		return
	case *ast.List:
		w.list(t, depth+1)
		return
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		w.d.add(document.NarrativeText, w.lines(t), 0)
		return
	case *ast.HTMLBlock:
		var sb strings.Builder
		sb.WriteString(w.lines(t))
		if t.HasClosure() {
			sb.Write(t.ClosureLine.Value(w.src))
		}
		w.d.add(document.NarrativeText, htmlText(sb.String()), 0)
		return
	case *ast.ThematicBreak:
		return
	case *east.Table:
		w.table(t)
		return
	case *east.DefinitionTerm:
		w.d.add(document.NarrativeText, w.inline(t), 0)
		return
	case *east.Footnote:
		w.footnote(t)
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.blocks(c, depth)
	}
}

// list emits a list's items at level: an item's leading paragraphs are
// its text (a numbered item keeps its number, as the source shows it), a
// nested list's items follow one level deeper.
func (w *mdWalker) list(l *ast.List, level int) {
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		var parts []string
		c := item.FirstChild()
		for ; c != nil; c = c.NextSibling() {
			if _, ok := c.(*ast.Paragraph); !ok {
				if _, ok := c.(*ast.TextBlock); !ok {
					break
				}
			}
			parts = append(parts, w.inline(c))
		}
		txt := strings.TrimSpace(strings.Join(parts, "\n"))
		if l.IsOrdered() {
			txt = strings.TrimSpace(strconv.Itoa(num) + string(l.Marker) + " " + txt)
			num++
		}
		w.d.add(document.ListItem, txt, level)
		for ; c != nil; c = c.NextSibling() {
			if sub, ok := c.(*ast.List); ok {
				w.list(sub, level+1)
				continue
			}
			w.blocks(c, level)
		}
	}
}

func (w *mdWalker) table(t *east.Table) {
	var header []string
	var rows [][]string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.TrimSpace(w.inline(c)))
		}
		if _, ok := r.(*east.TableHeader); ok {
			header = cells
			continue
		}
		rows = append(rows, cells)
	}
	w.d.addTable(header, rows)
}

// footnote lands a note as "[N] its text" where the notes are (the end).
func (w *mdWalker) footnote(f *east.Footnote) {
	first := true
	for c := f.FirstChild(); c != nil; c = c.NextSibling() {
		if first {
			if _, ok := c.(*ast.Paragraph); ok {
				w.d.add(document.NarrativeText, "["+strconv.Itoa(f.Index)+"] "+w.inline(c), 0)
				first = false
				continue
			}
		}
		w.blocks(c, 0)
	}
}

// lines is a leaf block's lines as they are (code).
func (w *mdWalker) lines(n ast.Node) string {
	var sb strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		sb.Write(seg.Value(w.src))
	}
	return strings.TrimRight(sb.String(), "\n ")
}

// inline is the text of n's inline content as read.
func (w *mdWalker) inline(n ast.Node) string {
	var sb strings.Builder
	w.inlineTo(&sb, n)
	return sb.String()
}

func (w *mdWalker) inlineTo(sb *strings.Builder, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			v := t.Segment.Value(w.src)
			if !t.IsRaw() {
				v = util.UnescapePunctuations(util.ResolveEntityNames(util.ResolveNumericReferences(v)))
			}
			sb.Write(v)
			if t.SoftLineBreak() || t.HardLineBreak() {
				sb.WriteByte('\n')
			}
		case *ast.String:
			sb.Write(t.Value)
		case *ast.CodeSpan:
			for k := t.FirstChild(); k != nil; k = k.NextSibling() {
				if tx, ok := k.(*ast.Text); ok {
					sb.Write(tx.Segment.Value(w.src))
				} else if st, ok := k.(*ast.String); ok {
					sb.Write(st.Value)
				}
			}
		case *ast.Link:
			w.d.link(string(t.Destination), false)
			w.inlineTo(sb, t)
		case *ast.Image:
			w.d.link(string(t.Destination), true)
			w.inlineTo(sb, t)
		case *ast.AutoLink:
			if t.AutoLinkType == ast.AutoLinkURL {
				w.d.link(string(t.URL(w.src)), false)
			}
			sb.Write(t.Label(w.src))
		case *ast.RawHTML:
			var raw strings.Builder
			for i := 0; i < t.Segments.Len(); i++ {
				s := t.Segments.At(i)
				raw.Write(s.Value(w.src))
			}
			if r := strings.ToLower(raw.String()); strings.HasPrefix(r, "<br") {
				sb.WriteByte('\n')
			}
		case *east.FootnoteLink:
			sb.WriteString("[" + strconv.Itoa(t.Index) + "]")
		case *east.FootnoteBacklink:
		case *east.TaskCheckBox:
			if t.IsChecked {
				sb.WriteString("[x] ")
			} else {
				sb.WriteString("[ ] ")
			}
		default:
			w.inlineTo(sb, c)
		}
	}
}
