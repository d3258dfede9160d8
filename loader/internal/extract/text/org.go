package text

import (
	"errors"
	"fmt"
	"io"
	"log"
	"regexp"
	"strconv"
	"strings"

	"github.com/niklasfasching/go-org/org"

	"github.com/docket-dev/docket/loader/internal/document"
)

// emptyCell stands in an Org table's empty cell while go-org reads it: it
// splits a row with strings.FieldsFunc, which drops empty fields, so the
// cells after an empty one moved a column left.
const emptyCell = "\uE000"

var orgEmptyCellRe = regexp.MustCompile(`\|[ \t]*\|`)
var orgTableRowRe = regexp.MustCompile(`(?m)^[ \t]*\|[^-+\n].*$`)

// readOrg converts Org source with go-org (the Org reader Gitea and Hugo
// use). It reads no other file: #+INCLUDE and #+SETUPFILE are not
// followed (includes are warned by unfollowedIncludes).
func readOrg(s string) (*markupDoc, error) {
	s = orgTableRowRe.ReplaceAllStringFunc(s, func(row string) string {
		for orgEmptyCellRe.MatchString(row) {
			row = orgEmptyCellRe.ReplaceAllStringFunc(row, func(c string) string { return "| " + emptyCell + " |" })
		}
		return row
	})
	s, rawBlocks := orgRawBlocks(s)
	s, open := orgOpenBlocks(s)
	conf := org.New()
	conf.Log = log.New(io.Discard, "", 0)
	conf.ReadFile = func(name string) ([]byte, error) { return nil, errors.New("not read") }
	conf.AutoLink = true
	doc := conf.Parse(strings.NewReader(s), "")
	if doc.Error != nil {
		return nil, doc.Error
	}
	d := &markupDoc{}
	if open > 0 {
		d.warnings = append(d.warnings, fmt.Sprintf("%d #+BEGIN_ (or \\begin{}) line(s) have no end line: read as text, as Org does", open))
	}
	for _, k := range []string{"TITLE", "AUTHOR", "DATE", "LANGUAGE", "DESCRIPTION", "KEYWORDS", "SUBTITLE"} {
		if v := doc.BufferSettings[k]; v != "" {
			d.fieldMeta(k, v)
		}
	}
	w := orgWalker{d: d, rawBlocks: rawBlocks}
	w.blocks(doc.Nodes, 0)
	d.titleBlock()
	for i := range d.blocks {
		d.blocks[i].text = strings.ReplaceAll(d.blocks[i].text, emptyCell, "")
		if open > 0 {
			d.blocks[i].text = strings.ReplaceAll(d.blocks[i].text, orgOpenMark, "")
		}
		if t := d.blocks[i].table; t != nil {
			for k := range t.Header {
				t.Header[k] = strings.ReplaceAll(t.Header[k], emptyCell, "")
			}
			for _, r := range t.Rows {
				for k := range r {
					r[k] = strings.ReplaceAll(r[k], emptyCell, "")
				}
			}
		}
	}
	return d, nil
}

type orgWalker struct {
	d         *markupDoc
	rawBlocks []string
}

// rawBlock stands for a source/example/export block's (or a LaTeX
// environment's) content while go-org
// reads the document: it builds such a block's text by appending line
// after line to a string, quadratic in the block's length (a 1 MB log
// pasted in an example block copied gigabytes).
const rawBlock = "\uE001"

var (
	orgBeginRawRe = regexp.MustCompile(`(?i)^\s*#\+BEGIN_(SRC|EXAMPLE|EXPORT)\b`)
	orgEndRawRe   = regexp.MustCompile(`(?i)^\s*#\+END_(SRC|EXAMPLE|EXPORT)\b`)
	// go-org's LaTeX environment lines, read the same quadratic way
	orgBeginLatexRe = regexp.MustCompile(`(?i)^\s*\\begin{([^}]+)}\s*$`)
	orgEndLatexRe   = regexp.MustCompile(`(?i)^\s*\\end{([^}]+)}\s*$`)
	orgCommaRe      = regexp.MustCompile(`(?m)^(\s*),(\*|,\*|#\+|,#\+)`)
)

// orgRawBlocks takes the content of s's source, example and export blocks
// out, a rawBlock line with its index in their place.
func orgRawBlocks(s string) (string, []string) {
	lines := strings.Split(s, "\n")
	ends := orgEndLines(lines)
	var out, blocks []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		m := orgBeginRawRe.FindStringSubmatch(lines[i])
		kind := "raw "
		if m == nil {
			if m = orgBeginLatexRe.FindStringSubmatch(lines[i]); m == nil {
				continue
			}
			kind = "latex "
		}
		// the next end line of its name: an unterminated block's search
		// went to the end of the file, for each such line (quadratic)
		j := ends.next(kind+strings.ToUpper(m[1]), i)
		if j < 0 {
			continue
		}
		body := strings.Join(dedentTabs(lines[i+1:j]), "\n")
		out = append(out, rawBlock+strconv.Itoa(len(blocks)))
		blocks = append(blocks, orgCommaRe.ReplaceAllString(body, "$1$2"))
		i = j - 1
	}
	return strings.Join(out, "\n"), blocks
}

// dedentTabs dedents lines by their common leading white space.
func dedentTabs(ls []string) []string {
	common := -1
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	out := make([]string, len(ls))
	for k, l := range ls {
		if common > 0 && len(l) >= common {
			l = l[common:]
		}
		out[k] = l
	}
	return out
}

func (w *orgWalker) blocks(nodes []org.Node, depth int) {
	for _, n := range nodes {
		w.block(n, depth)
	}
}

func (w *orgWalker) block(n org.Node, depth int) {
	switch t := n.(type) {
	case org.Headline:
		title := w.inline(t.Title)
		if t.Status != "" {
			title = t.Status + " " + title
		}
		w.d.add(document.Title, title, t.Lvl)
		w.blocks(t.Children, 0)
	case org.Paragraph:
		w.d.add(document.NarrativeText, w.inline(t.Children), 0)
	case org.List:
		for _, it := range t.Items {
			w.listItem(it, depth+1)
		}
	case org.Table:
		w.table(t)
	case org.Block:
		switch strings.ToUpper(t.Name) {
		case "SRC", "EXAMPLE", "VERSE":
			w.d.add(document.NarrativeText, w.raw(t.Children), 0)
		case "EXPORT":
			if len(t.Parameters) > 0 && strings.EqualFold(t.Parameters[0], "html") {
				w.d.add(document.NarrativeText, htmlText(w.raw(t.Children)), 0)
			} else {
				w.d.add(document.NarrativeText, w.raw(t.Children), 0)
			}
		case "COMMENT":
		default: // QUOTE, CENTER, a special block: its content
			w.blocks(t.Children, depth)
		}
		if t.Result != nil {
			w.block(t.Result, depth)
		}
	case org.Result:
		w.block(t.Node, depth)
	case org.Example:
		w.d.add(document.NarrativeText, w.raw(t.Children), 0)
	case org.LatexBlock:
		w.d.add(document.NarrativeText, w.raw(t.Content), 0)
	case org.NodeWithMeta:
		w.block(t.Node, depth)
		for _, c := range t.Meta.Caption {
			w.d.add(document.Caption, w.inline(c), 0)
		}
	case org.NodeWithName:
		w.block(t.Node, depth)
	case org.Drawer:
		// a drawer (LOGBOOK, a user's) holds notes: they land; a
		// property drawer is settings, not text
		w.blocks(t.Children, depth)
	case org.FootnoteDefinition:
		var parts []string
		var rest []org.Node
		for k, c := range t.Children {
			if p, ok := c.(org.Paragraph); ok && k == 0 {
				parts = append(parts, w.inline(p.Children))
				continue
			}
			rest = append(rest, c)
		}
		w.d.add(document.NarrativeText, "["+t.Name+"] "+strings.Join(parts, " "), 0)
		w.blocks(rest, depth)
	case org.PropertyDrawer, org.Keyword, org.Include, org.Comment, org.HorizontalRule:
	default:
		// an inline node standing alone (org.Text of a lone line)
		w.d.add(document.NarrativeText, w.inline([]org.Node{n}), 0)
	}
}

// leadParagraphs is the text of the paragraphs a list item's children
// open with (its own words), and the children after them (nested lists,
// blocks).
func (w *orgWalker) leadParagraphs(children []org.Node) (parts []string, rest []org.Node) {
	for len(children) > 0 {
		p, ok := children[0].(org.Paragraph)
		if !ok {
			break
		}
		parts = append(parts, w.inline(p.Children))
		children = children[1:]
	}
	return parts, children
}

func (w *orgWalker) listItem(n org.Node, level int) {
	var txt string
	var children []org.Node
	switch t := n.(type) {
	case org.ListItem:
		var parts []string
		parts, children = w.leadParagraphs(t.Children)
		txt = strings.Join(parts, "\n")
		if t.Status != "" {
			txt = "[" + strings.ToLower(strings.ReplaceAll(t.Status, " ", " ")) + "] " + txt
		}
		if b := t.Bullet; b != "" && b != "-" && b != "+" && b != "*" {
			txt = b + " " + txt // a number, as the source shows it
		}
	case org.DescriptiveListItem:
		txt = w.inline(t.Term)
		var parts []string
		parts, children = w.leadParagraphs(t.Details)
		if len(parts) > 0 {
			txt += ": " + strings.Join(parts, "\n")
		}
	default:
		w.block(n, level)
		return
	}
	w.d.add(document.ListItem, txt, level)
	for _, c := range children {
		if l, ok := c.(org.List); ok {
			for _, it := range l.Items {
				w.listItem(it, level+1)
			}
			continue
		}
		w.block(c, level)
	}
}

func (w *orgWalker) table(t org.Table) {
	var rows [][]string
	for _, r := range t.Rows {
		if r.IsSpecial || len(r.Columns) == 0 {
			continue
		}
		var cells []string
		for _, c := range r.Columns {
			cells = append(cells, strings.TrimSpace(w.inline(c.Children)))
		}
		rows = append(rows, cells)
	}
	// a rule under the first row makes it the header
	var header []string
	if len(t.SeparatorIndices) > 0 && len(rows) > 1 {
		first := 0
		for first < len(t.Rows) && len(t.Rows[first].Columns) == 0 {
			first++
		}
		for _, si := range t.SeparatorIndices {
			if si > first {
				if si == first+1 {
					header, rows = rows[0], rows[1:]
				}
				break
			}
		}
	}
	w.d.addTable(header, rows)
}

// raw is a block's text as it stands (code).
func (w *orgWalker) raw(nodes []org.Node) string {
	var sb strings.Builder
	for _, n := range nodes {
		switch t := n.(type) {
		case org.Text:
			sb.WriteString(t.Content)
		case org.LineBreak:
			sb.WriteString(strings.Repeat("\n", max(t.Count, 1)))
		default:
			sb.WriteString(w.inline([]org.Node{n}))
		}
	}
	s := sb.String()
	if strings.Contains(s, rawBlock) {
		s = rawBlockRe.ReplaceAllStringFunc(s, func(m string) string {
			if k, err := strconv.Atoi(m[len(rawBlock):]); err == nil && k < len(w.rawBlocks) {
				return w.rawBlocks[k]
			}
			return ""
		})
	}
	return strings.Trim(s, "\n")
}

var rawBlockRe = regexp.MustCompile(rawBlock + `\d+`)

func (w *orgWalker) inline(nodes []org.Node) string {
	var sb strings.Builder
	w.inlineTo(&sb, nodes)
	return strings.TrimSpace(sb.String())
}

func (w *orgWalker) inlineTo(sb *strings.Builder, nodes []org.Node) {
	for _, n := range nodes {
		switch t := n.(type) {
		case org.Text:
			sb.WriteString(t.Content)
		case org.LineBreak:
			sb.WriteString(strings.Repeat("\n", max(t.Count, 1)))
		case org.ExplicitLineBreak:
			sb.WriteByte('\n')
		case org.StatisticToken:
			sb.WriteString("[" + t.Content + "]")
		case org.Timestamp:
			if t.IsDate {
				sb.WriteString(t.Time.Format("2006-01-02"))
			} else {
				sb.WriteString(t.Time.Format("2006-01-02 15:04"))
			}
		case org.Emphasis:
			w.inlineTo(sb, t.Content)
		case org.InlineBlock:
			w.inlineTo(sb, t.Children)
		case org.LatexFragment:
			w.inlineTo(sb, t.Content)
		case org.FootnoteLink:
			sb.WriteString("[" + t.Name + "]")
		case org.RegularLink:
			kind := t.Kind()
			w.d.link(orgURL(t), kind == "image" || kind == "video")
			if len(t.Description) > 0 {
				w.inlineTo(sb, t.Description)
			} else if kind != "image" && kind != "video" {
				sb.WriteString(t.URL)
			}
		case org.Macro:
			sb.WriteString(strings.Join(t.Parameters, ", "))
		default:
			sb.WriteString(fmt.Sprint(n))
		}
	}
}

func orgURL(l org.RegularLink) string {
	if l.Protocol == "file" {
		return strings.TrimPrefix(l.URL, "file:")
	}
	if l.Protocol != "" && !strings.Contains(l.URL, ":") {
		return l.Protocol + ":" + l.URL
	}
	return l.URL
}
