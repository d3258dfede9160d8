package text

import (
	"encoding/csv"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// reStructuredText is read by a small reader of its common constructs:
// section titles, paragraphs, bullet/enumerated/definition/field lists,
// literal blocks ("::"), line blocks, grid and simple tables, footnotes,
// comments, link targets and the directives documents use most (code,
// image, figure, admonitions, csv-table, list-table, raw). No Go library
// of reStructuredText is kept up (the ones found are abandoned partial
// ports), and docutils is Python. An unknown directive lands its content.

type rstReader struct {
	d        *markupDoc
	styles   []string          // section adornment styles in order of appearance = levels
	subs     map[string]string // |name| -> replacement text
	autoRef  int               // auto-numbered footnote references seen
	autoDef  int               // auto-numbered footnote definitions seen
	anyBlock bool              // a block other than the document title was read
}

var (
	rstDirectiveRe = regexp.MustCompile(`^\.\.\s+([\w:.+-]+)::\s*(.*)$`)
	rstSubstDefRe  = regexp.MustCompile(`^\.\.\s+\|([^|]+)\|\s+([\w:.+-]+)::\s*(.*)$`)
	rstTargetRe    = regexp.MustCompile(`^\.\.\s+_([^:]*|` + "`[^`]*`" + `):\s*(.*)$`)
	rstFootnoteRe  = regexp.MustCompile(`^\.\.\s+\[([^\]]+)\]\s*(.*)$`)
	rstAnonRe      = regexp.MustCompile(`^__\s+(\S+)\s*$`)
	rstBulletRe    = regexp.MustCompile(`^([-*+•‣⁃])(\s+)\S`)
	rstEnumRe      = regexp.MustCompile(`^(\(?(?:\d+|#|[a-zA-Z]|[ivxlcdmIVXLCDM]+)[.)])(\s+)\S`)
	rstFieldRe     = regexp.MustCompile(`^:([^:\s][^:]*):(?:\s+(.*))?$`)
	rstOptionRe    = regexp.MustCompile(`^:([\w-]+):\s*(.*)$`)
	rstGridRe      = regexp.MustCompile(`^\+([-=]+\+)+\s*$`)
	rstSimpleRe    = regexp.MustCompile(`^=+( +=+)+\s*$`)

	rstRoleRe     = regexp.MustCompile("(?::[\\w.+:-]+:)?`([^`]+)`(?::[\\w.+:-]+:)?(__?)?")
	rstLiteralRe  = regexp.MustCompile("``(.+?)``")
	rstStrongRe   = regexp.MustCompile(`\*\*(\S(?:.*?\S)?)\*\*`)
	rstEmRe       = regexp.MustCompile(`(^|[\s(\["'“‘<-])\*(\S(?:.*?\S)?)\*`)
	rstFnRefRe    = regexp.MustCompile(`\[(#[\w-]*|\*|\d+|[A-Za-z][\w.-]*)\]_`)
	rstSubRefRe   = regexp.MustCompile(`\|(\S(?:[^|]*\S)?)\|(__?)?`)
	rstSimpleRef  = regexp.MustCompile(`\b([A-Za-z0-9][\w.-]*?)__?(\W|$)`)
	rstTargetLink = regexp.MustCompile(`^(.*?)\s*<([^<>]+)>$`)
	rstEscapeRe   = regexp.MustCompile(`\\(.)`)
)

// readRST converts reStructuredText source.
func readRST(s string) *markupDoc {
	r := &rstReader{d: &markupDoc{}, subs: map[string]string{}}
	lines := strings.Split(strings.ReplaceAll(s, "\t", "        "), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \r")
		if m := rstSubstDefRe.FindStringSubmatch(lines[i]); m != nil {
			switch m[2] {
			case "replace", "unicode":
				r.subs[m[1]] = m[3]
			default:
				r.subs[m[1]] = m[1]
			}
		}
	}
	r.parse(lines, 0, true)
	r.d.titleBlock()
	return r.d
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// indented returns the block of lines from i on that are blank or
// indented past base, dedented, and the index after it.
func indented(lines []string, i, base int) ([]string, int) {
	j := i
	for j < len(lines) && (lines[j] == "" || indentOf(lines[j]) > base) {
		j++
	}
	for j > i && lines[j-1] == "" {
		j--
	}
	return dedent(lines[i:j]), j
}

func dedent(ls []string) []string {
	m := -1
	for _, l := range ls {
		if l != "" && (m < 0 || indentOf(l) < m) {
			m = indentOf(l)
		}
	}
	out := make([]string, len(ls))
	for k, l := range ls {
		if len(l) >= m && m > 0 {
			l = l[m:]
		}
		out[k] = l
	}
	return out
}

// parse reads lines (dedented); top says it is the document's own level
// (section titles and the bibliographic field list are read there only).
func (r *rstReader) parse(lines []string, level int, top bool) {
	for i := 0; i < len(lines); {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			i++
			continue
		}
		if indentOf(l) > 0 { // a block quote
			blk, j := indented(lines, i, 0)
			r.parse(blk, level, false)
			i = j
			continue
		}
		if top {
			if n, ok := r.section(lines, i); ok {
				i = n
				continue
			}
		}
		if strings.HasPrefix(l, "..") && (len(l) == 2 || l[2] == ' ') {
			i = r.explicit(lines, i, level)
			continue
		}
		if rstAnonRe.MatchString(l) {
			r.d.link(rstAnonRe.FindStringSubmatch(l)[1], false)
			i++
			continue
		}
		if rstGridRe.MatchString(l) {
			j := i
			for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
				j++
			}
			r.gridTable(lines[i:j])
			i = j
			continue
		}
		if rstSimpleRe.MatchString(l) {
			i = r.simpleTable(lines, i)
			continue
		}
		if m := rstBulletRe.FindStringSubmatch(l); m != nil {
			i = r.item(lines, i, len(m[1])+len(m[2]), "", level+1)
			continue
		}
		if m := rstEnumRe.FindStringSubmatch(l); m != nil && (i+1 >= len(lines) || lines[i+1] == "" || indentOf(lines[i+1]) > 0 || rstEnumRe.MatchString(lines[i+1])) {
			num := m[1]
			if strings.Contains(num, "#") {
				num = ""
			}
			i = r.item(lines, i, len(m[1])+len(m[2]), num, level+1)
			continue
		}
		if m := rstFieldRe.FindStringSubmatch(l); m != nil {
			body, j := indented(lines, i+1, 0)
			val := strings.TrimSpace(m[2] + "\n" + strings.Join(body, "\n"))
			if top && !r.anyBlock {
				// the bibliographic fields: metadata, and the lines of
				// docutils' docinfo table under the title (text/18:
				// "Version: 1.2.3", "License: Apache-2.0" were in
				// metadata only, out of the page and search); the fields a
				// reader shows as paragraphs (shownFields) land so
				r.d.fieldMeta(m[1], r.inline(val))
				if !isShownField(m[1]) {
					r.d.add(document.ListItem, r.inline(m[1])+": "+r.inline(val), level+1)
				}
			} else {
				r.d.add(document.ListItem, r.inline(m[1])+": "+r.inline(val), level+1)
			}
			i = j
			continue
		}
		if strings.HasPrefix(l, "| ") || l == "|" { // a line block
			var out []string
			for i < len(lines) && (strings.HasPrefix(lines[i], "| ") || lines[i] == "|") {
				out = append(out, r.inline(strings.TrimPrefix(strings.TrimPrefix(lines[i], "|"), " ")))
				i++
			}
			r.text(document.NarrativeText, strings.Join(out, "\n"), 0)
			continue
		}
		if strings.HasPrefix(l, ">>>") { // a doctest block
			j := i
			for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
				j++
			}
			r.text(document.NarrativeText, strings.Join(lines[i:j], "\n"), 0)
			i = j
			continue
		}
		if rstAdorn.MatchString(l) && (i+1 >= len(lines) || lines[i+1] == "") { // a transition
			i++
			continue
		}
		// a definition list item: a term, its definition indented under it
		if i+1 < len(lines) && lines[i+1] != "" && indentOf(lines[i+1]) > 0 {
			term := l
			if k := strings.Index(term, " : "); k > 0 {
				term = term[:k]
			}
			r.text(document.NarrativeText, r.inline(term), 0)
			blk, j := indented(lines, i+1, 0)
			r.parse(blk, level, false)
			i = j
			continue
		}
		// a paragraph
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) != "" && indentOf(lines[j]) == 0 {
			j++
		}
		para := strings.Join(lines[i:j], "\n")
		i = j
		if strings.HasSuffix(para, "::") {
			switch {
			case strings.TrimSpace(para) == "::":
				para = ""
			case strings.HasSuffix(para, " ::"):
				para = strings.TrimSuffix(para, " ::")
			default:
				para = strings.TrimSuffix(para, ":")
			}
			r.text(document.NarrativeText, r.inline(para), 0)
			for i < len(lines) && lines[i] == "" {
				i++
			}
			if i < len(lines) && indentOf(lines[i]) > 0 {
				blk, j := indented(lines, i, 0)
				r.text(document.NarrativeText, strings.Join(blk, "\n"), 0)
				i = j
			}
			continue
		}
		r.text(document.NarrativeText, r.inline(para), 0)
	}
}

func (r *rstReader) text(cat document.Category, s string, level int) {
	if strings.TrimSpace(s) == "" {
		return
	}
	r.anyBlock = true
	r.d.add(cat, s, level)
}

// section reads a section title at lines[i] (underlined, or over- and
// underlined) and returns the index after it.
func (r *rstReader) section(lines []string, i int) (int, bool) {
	var title, style string
	next := 0
	switch {
	case i+2 < len(lines) && rstAdorn.MatchString(lines[i]) && rstAdorn.MatchString(lines[i+2]) && lines[i+1] != "" && !rstAdorn.MatchString(lines[i+1]) && lines[i][0] == lines[i+2][0]:
		title, style, next = strings.TrimSpace(lines[i+1]), "over"+lines[i][:1], i+3
	case i+1 < len(lines) && rstAdorn.MatchString(lines[i+1]) && !rstAdorn.MatchString(lines[i]) &&
		len(lines[i+1]) >= min(3, utf8.RuneCountInString(strings.TrimSpace(lines[i]))) &&
		utf8.RuneCountInString(lines[i+1]) >= utf8.RuneCountInString(strings.TrimSpace(lines[i]))-2:
		title, style, next = strings.TrimSpace(lines[i]), lines[i+1][:1], i+2
	default:
		return 0, false
	}
	docTitle := len(r.styles) == 0 && !r.anyBlock
	level := 0
	for k, s := range r.styles {
		if s == style {
			level = k + 1
		}
	}
	if level == 0 {
		r.styles = append(r.styles, style)
		level = len(r.styles)
	}
	title = r.inline(title)
	// a lone first title (and a lone subtitle under it) is the document's title
	if docTitle {
		r.d.meta.Title = title
		r.d.add(document.Title, title, level) // the bibliographic fields may follow
		return next, true
	}
	r.text(document.Title, title, level)
	return next, true
}

// item reads a list item whose text starts at column col of lines[i].
func (r *rstReader) item(lines []string, i, col int, num string, level int) int {
	first := lines[i][col:]
	j := i + 1
	for j < len(lines) && (lines[j] == "" || indentOf(lines[j]) >= col) {
		j++
	}
	for j > i+1 && lines[j-1] == "" {
		j--
	}
	body := append([]string{first}, dedent(lines[i+1:j])...)
	k := 0
	for k < len(body) && strings.TrimSpace(body[k]) != "" && !(k > 0 && (rstBulletRe.MatchString(body[k]) || rstEnumRe.MatchString(body[k]))) {
		k++
	}
	txt := r.inline(strings.Join(body[:k], "\n"))
	if num != "" {
		txt = num + " " + txt
	}
	r.text(document.ListItem, txt, level)
	if k < len(body) {
		r.parse(body[k:], level, false)
	}
	return j
}

// explicit reads an explicit markup block (directive, footnote, target,
// substitution definition, comment) at lines[i].
func (r *rstReader) explicit(lines []string, i, level int) int {
	l := lines[i]
	if strings.TrimSpace(l) == ".." && (i+1 == len(lines) || lines[i+1] == "") {
		return i + 1 // an empty comment ends a list before a block quote
	}
	body, j := indented(lines, i+1, 0)
	switch {
	case rstSubstDefRe.MatchString(l):
		return j
	case rstDirectiveRe.MatchString(l):
		m := rstDirectiveRe.FindStringSubmatch(l)
		r.directive(strings.ToLower(m[1]), m[2], body, level)
		return j
	case rstTargetRe.MatchString(l):
		m := rstTargetRe.FindStringSubmatch(l)
		r.d.link(strings.TrimSpace(m[2]+" "+strings.Join(body, "")), false)
		return j
	case rstFootnoteRe.MatchString(l):
		m := rstFootnoteRe.FindStringSubmatch(l)
		label := m[1]
		if strings.HasPrefix(label, "#") {
			r.autoDef++
			label = strconv.Itoa(r.autoDef)
		}
		blk := append([]string{m[2]}, body...)
		k := 0
		for k < len(blk) && (k == 0 || strings.TrimSpace(blk[k]) != "") {
			k++
		}
		r.text(document.NarrativeText, "["+label+"] "+r.inline(strings.TrimSpace(strings.Join(blk[:k], "\n"))), 0)
		if k < len(blk) {
			r.parse(blk[k:], level, false)
		}
		return j
	}
	return j // a comment
}

// directive lands a directive's content by its kind.
func (r *rstReader) directive(name, arg string, body []string, level int) {
	opts := map[string]string{}
	for len(body) > 0 {
		m := rstOptionRe.FindStringSubmatch(body[0])
		if m == nil {
			break
		}
		opts[m[1]] = m[2]
		body = body[1:]
	}
	for len(body) > 0 && body[0] == "" {
		body = body[1:]
	}
	content := strings.Join(body, "\n")
	switch name {
	case "code", "code-block", "sourcecode", "math", "parsed-literal", "literal", "productionlist", "doctest", "testcode", "testoutput", "prompt":
		if name == "math" && arg != "" {
			content = strings.TrimSpace(arg + "\n" + content)
		}
		r.text(document.NarrativeText, content, 0)
	case "raw":
		if strings.Contains(strings.ToLower(arg), "html") {
			r.text(document.NarrativeText, htmlText(content), 0)
		} else {
			r.text(document.NarrativeText, content, 0)
		}
	case "image", "figure":
		r.d.link(arg, true)
		if alt := opts["alt"]; alt != "" && name == "image" {
			r.text(document.NarrativeText, r.inline(alt), 0)
		}
		if name == "figure" {
			if alt := opts["alt"]; alt != "" && len(body) == 0 {
				r.text(document.NarrativeText, r.inline(alt), 0)
			}
			k := 0
			for k < len(body) && strings.TrimSpace(body[k]) != "" {
				k++
			}
			r.text(document.Caption, r.inline(strings.Join(body[:k], "\n")), 0)
			if k < len(body) {
				r.parse(body[k:], level, false)
			}
		}
	case "csv-table":
		r.csvTable(arg, opts, content)
	case "list-table":
		r.listTable(arg, opts, body)
	case "table":
		if arg != "" {
			r.text(document.Caption, r.inline(arg), 0)
		}
		r.parse(body, level, false)
	case "toctree", "contents", "sectnum", "section-numbering", "meta", "highlight", "default-role", "role",
		"index", "tabularcolumns", "header", "footer", "title", "include", "literalinclude", "target-notes", "class", "currentmodule", "module":
		// settings and navigation, no text of the document's own (an
		// include is warned by unfollowedIncludes)
	case "note", "warning", "tip", "important", "hint", "caution", "danger", "error", "attention", "seealso", "todo":
		r.text(document.NarrativeText, strings.ToUpper(name[:1])+name[1:], 0)
		if arg != "" {
			r.text(document.NarrativeText, r.inline(arg), 0)
		}
		r.parse(body, level, false)
	default: // admonition, topic, sidebar, rubric, container, versionadded, an extension's: its argument and content
		if arg != "" {
			r.text(document.NarrativeText, r.inline(arg), 0)
		}
		r.parse(body, level, false)
	}
}

func (r *rstReader) csvTable(arg string, opts map[string]string, content string) {
	if arg != "" {
		r.text(document.Caption, r.inline(arg), 0)
	}
	read := func(s string) [][]string {
		cr := csv.NewReader(strings.NewReader(s))
		cr.FieldsPerRecord = -1
		cr.LazyQuotes = true
		cr.TrimLeadingSpace = true
		recs, _ := cr.ReadAll()
		for _, rec := range recs {
			for k := range rec {
				rec[k] = r.inline(strings.TrimSpace(rec[k]))
			}
		}
		return recs
	}
	rows := read(content)
	var header []string
	if h := read(opts["header"]); len(h) > 0 {
		header = h[0]
	} else if n, _ := strconv.Atoi(opts["header-rows"]); n > 0 && len(rows) > 0 {
		header, rows = rows[0], rows[1:]
	}
	r.anyBlock = true
	r.d.addTable(header, rows)
}

// listTable reads a list-table: a bullet list of rows, each a bullet
// list of cells.
func (r *rstReader) listTable(arg string, opts map[string]string, body []string) {
	if arg != "" {
		r.text(document.Caption, r.inline(arg), 0)
	}
	var pieces [][][]string // a cell's lines, joined once (+= per line was quadratic: review45)
	for i := 0; i < len(body); i++ {
		l := body[i]
		if strings.HasPrefix(l, "* ") || strings.HasPrefix(l, "- ") {
			pieces = append(pieces, nil)
			l = "  " + l[2:]
		}
		t := strings.TrimSpace(l)
		if len(pieces) == 0 || t == "" {
			continue
		}
		row := &pieces[len(pieces)-1]
		if strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "- ") || t == "-" || t == "*" {
			*row = append(*row, []string{strings.TrimSpace(t[1:])})
		} else if len(*row) > 0 {
			(*row)[len(*row)-1] = append((*row)[len(*row)-1], t)
		}
	}
	rows := r.joinCells(pieces)
	var header []string
	if n, _ := strconv.Atoi(opts["header-rows"]); n > 0 && len(rows) > 0 {
		header, rows = rows[0], rows[1:]
	}
	r.anyBlock = true
	r.d.addTable(header, rows)
}

// gridTable reads a grid table (+---+ borders); a cell spanning columns
// lands in its first column. "=" in a border ends the header.
func (r *rstReader) gridTable(ls []string) {
	border := ls[0]
	var cols []int // the "+" positions of the top border
	for k, c := range border {
		if c == '+' {
			cols = append(cols, k)
		}
	}
	var header []string
	var rows [][]string
	cur := make([][]string, len(cols)-1) // a cell's lines, joined once
	has := false
	flush := func(sep string) {
		if has {
			row := make([]string, len(cur))
			for k := range cur {
				row[k] = r.inline(strings.TrimSpace(strings.Join(cur[k], " ")))
			}
			if strings.Contains(sep, "=") && header == nil && rows == nil {
				header = row
			} else {
				rows = append(rows, row)
			}
		}
		cur = make([][]string, len(cols)-1)
		has = false
	}
	for _, l := range ls[1:] {
		if strings.HasPrefix(l, "+") {
			flush(l)
			continue
		}
		for k := 0; k+1 < len(cols); k++ {
			a, b := cols[k]+1, cols[k+1]
			if a >= len(l) {
				break
			}
			cell := strings.TrimSpace(l[a:min(b, len(l))])
			if cell != "" {
				has = true
				cur[k] = append(cur[k], cell)
			}
		}
	}
	flush("")
	r.anyBlock = true
	r.d.addTable(header, rows)
}

// simpleTable reads a simple table (=== === borders) from lines[i] and
// returns the index after it.
func (r *rstReader) simpleTable(lines []string, i int) int {
	border := lines[i]
	var spans [][2]int
	for k := 0; k < len(border); {
		if border[k] != '=' {
			k++
			continue
		}
		e := k
		for e < len(border) && border[e] == '=' {
			e++
		}
		spans = append(spans, [2]int{k, e})
		k = e
	}
	var header []string
	var rows [][][]string // a cell's lines, joined once
	borders := 1
	j := i + 1
	for ; j < len(lines); j++ {
		l := lines[j]
		if rstSimpleRe.MatchString(l) || (len(l) > 0 && strings.Trim(l, "= ") == "" && strings.Contains(l, "=")) {
			borders++
			if borders == 2 && j+1 < len(lines) && lines[j+1] != "" {
				header, rows = joinPieces(firstRow(rows)), nil
				continue
			}
			j++
			break
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		if strings.Trim(strings.TrimSpace(l), "-") == "" { // a column span rule
			continue
		}
		row := make([][]string, len(spans))
		for k, sp := range spans {
			a := sp[0]
			b := len(l)
			if k+1 < len(spans) {
				b = spans[k+1][0]
			}
			if a < len(l) {
				if t := strings.TrimSpace(l[a:min(b, len(l))]); t != "" {
					row[k] = []string{t}
				}
			}
		}
		if row[0] == nil && len(rows) > 0 { // continues the row above
			prev := rows[len(rows)-1]
			for k := range row {
				prev[k] = append(prev[k], row[k]...)
			}
			continue
		}
		rows = append(rows, row)
	}
	for k := range header {
		header[k] = r.inline(header[k])
	}
	r.anyBlock = true
	r.d.addTable(header, r.joinCells(rows))
	return j
}

// firstRow is the simple table's lines above its header border as one
// row: each cell's lines in order.
func firstRow(rows [][][]string) [][]string {
	if len(rows) == 0 {
		return nil
	}
	h := rows[0]
	for _, row := range rows[1:] {
		for k := range h {
			h[k] = append(h[k], row[k]...)
		}
	}
	return h
}

// joinPieces is a row whose cells' lines are joined by spaces.
func joinPieces(row [][]string) []string {
	if row == nil {
		return nil
	}
	out := make([]string, len(row))
	for k, p := range row {
		out[k] = strings.Join(p, " ")
	}
	return out
}

// joinCells is rows of cells' lines joined (joinPieces) and read inline.
func (r *rstReader) joinCells(rows [][][]string) [][]string {
	out := make([][]string, len(rows))
	for i, row := range rows {
		out[i] = joinPieces(row)
		for k := range out[i] {
			out[i][k] = r.inline(out[i][k])
		}
	}
	return out
}

// inline is a text's inline markup read: roles, references, literals,
// emphasis, footnote references, substitutions, escapes.
func (r *rstReader) inline(s string) string {
	s = rstLiteralRe.ReplaceAllStringFunc(s, func(m string) string { return "\x01" + escapeAll(m[2:len(m)-2]) + "\x02" })
	s = rstRoleRe.ReplaceAllStringFunc(s, func(m string) string {
		sm := rstRoleRe.FindStringSubmatch(m)
		t := sm[1]
		if lm := rstTargetLink.FindStringSubmatch(t); lm != nil && (sm[2] != "" || strings.HasPrefix(m, ":")) {
			if sm[2] != "" {
				r.d.link(lm[2], false)
			}
			if lm[1] != "" {
				t = lm[1]
			} else {
				t = lm[2]
			}
		}
		return escapeAll(t)
	})
	s = rstStrongRe.ReplaceAllString(s, "$1")
	s = rstEmRe.ReplaceAllString(s, "$1$2")
	s = rstFnRefRe.ReplaceAllStringFunc(s, func(m string) string {
		label := strings.TrimSpace(m)
		label = label[1 : len(label)-2]
		if strings.HasPrefix(label, "#") {
			r.autoRef++
			label = strconv.Itoa(r.autoRef)
		}
		return "[" + label + "]"
	})
	s = rstSubRefRe.ReplaceAllStringFunc(s, func(m string) string {
		name := rstSubRefRe.FindStringSubmatch(m)[1]
		if v, ok := r.subs[name]; ok {
			return v
		}
		return m
	})
	s = rstSimpleRef.ReplaceAllString(s, "$1$2")
	s = rstEscapeRe.ReplaceAllStringFunc(s, func(m string) string {
		if m[1] == ' ' || m[1] == '\n' {
			return ""
		}
		return m[1:]
	})
	s = strings.NewReplacer("\x01", "", "\x02", "", "\x03", "\\", "\x04", "*", "\x05", "`", "\x06", "_", "\x07", "|").Replace(s)
	return strings.TrimSpace(s)
}

// escapeAll hides a literal's characters from the later replacements.
func escapeAll(s string) string {
	return strings.NewReplacer("\\", "\x03", "*", "\x04", "`", "\x05", "_", "\x06", "|", "\x07").Replace(s)
}
