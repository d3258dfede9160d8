package main

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The pure parts of the realhtml set (realhtml.go): a table as the page's
// DOM has it (read by Chromium's script, or by x/net/html to pick the
// pages worth printing), the test that tells a data table from a layout
// table, and the truth grid with its spans.

// domCell is one td or th: its text (whitespace folded), spans, whether it
// is a th, and whether it is rendered (a display:none cell prints
// nothing, so it is no cell of the truth).
type domCell struct {
	Text   string `json:"t"`
	RS     int    `json:"rs"`
	CS     int    `json:"cs"`
	TH     bool   `json:"th,omitempty"`
	Hidden bool   `json:"hid,omitempty"`
}

// domRow is one tr: its row group (thead, a tbody, tfoot or the table
// itself, numbered in order; a rowspan ends at its group's last row) and
// its cells.
type domRow struct {
	Group int       `json:"g"`
	Cells []domCell `json:"c"`
}

// domTable is one table element: its rows, whether it holds or sits in
// another table, whether it is rendered, its role attribute and its box
// on its printed page (CSS pixels, top-left origin).
type domTable struct {
	Rows   []domRow   `json:"rows"`
	Nested bool       `json:"nested,omitempty"`
	Form   bool       `json:"form,omitempty"` // holds an input, select, textarea or button
	Hidden bool       `json:"hid,omitempty"`
	Role   string     `json:"role,omitempty"`
	Box    [4]float64 `json:"box"`
}

// maxDataCell is the longest cell text a data table holds: a cell of more
// is a page column laid out with a table (an article, a sidebar).
const maxDataCell = 600

// dataTable says whether t is a data table of the set, or why not: not
// nested in or holding another table, rendered, not role=presentation,
// no form field in it, no cell longer than maxDataCell, at least 2 rows
// and 2 columns, a th with text or at least 2 rows with 2 cells of text
// each, not a calendar and not a grid of single characters (icon fonts).
// The last three came from looking at the tune split's missed tables
// (session 29): a newsletter form, a date picker, a row of social icons
// are no table to a reader. So did a list (session 36): two rows or more
// under the first and none of them with two cells of text (a product
// list whose price columns a script fills, printed empty; a feature list
// beside a column of check-mark images) is one column of text to a
// reader, whatever heads the first row holds.
func dataTable(t domTable) (bool, string) {
	switch {
	case t.Nested:
		return false, "nested table"
	case t.Hidden:
		return false, "not rendered"
	case t.Role == "presentation" || t.Role == "none":
		return false, "role=" + t.Role
	case t.Form:
		return false, "a form (input fields in its cells)"
	case calendar(t):
		return false, "a calendar"
	case singleChars(t):
		return false, "cells of single characters (icons)"
	}
	th, full, bodyFull, maxCols := false, 0, 0, 0
	for i, r := range t.Rows {
		n, cols := 0, 0
		for _, c := range r.Cells {
			if c.Hidden {
				continue
			}
			cols += max(1, c.CS)
			if len(c.Text) > maxDataCell {
				return false, "a cell of page text"
			}
			if c.Text != "" {
				n++
				th = th || c.TH
			}
		}
		maxCols = max(maxCols, cols)
		if n >= 2 {
			full++
			if i > 0 {
				bodyFull++
			}
		}
	}
	switch {
	case len(t.Rows) < 2 || maxCols < 2:
		return false, "fewer than 2 rows or columns"
	case !th && full < 2:
		return false, "no th and fewer than 2 rows of 2 cells with text"
	case len(t.Rows) >= 3 && bodyFull == 0:
		return false, "a list: no row under the first with 2 cells of text"
	}
	return true, ""
}

// calendar: at least 4 rows of 7 cells, most of the non-empty cells day
// numbers (1-31).
func calendar(t domTable) bool {
	weeks, n, days := 0, 0, 0
	for _, r := range t.Rows {
		if len(r.Cells) == 7 {
			weeks++
		}
		for _, c := range r.Cells {
			if c.Text == "" {
				continue
			}
			n++
			if d, err := strconv.Atoi(c.Text); err == nil && d >= 1 && d <= 31 {
				days++
			}
		}
	}
	return weeks >= 4 && 10*days >= 6*n
}

// singleChars: every non-empty cell is one character, none a digit (the
// letters an icon font draws as logos).
func singleChars(t domTable) bool {
	any := false
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if utf8.RuneCountInString(c.Text) > 1 || (c.Text != "" && unicode.IsDigit([]rune(c.Text)[0])) {
				return false
			}
			any = any || c.Text != ""
		}
	}
	return any
}

// domGrid places t's rendered cells as the HTML table model does: each
// cell at its row's first free column, covering rs rows (0: to its row
// group's end; never past it) and cs columns. Rows that end up empty of
// cells still count, as the printed table has them.
func domGrid(t domTable) []cell {
	groupEnd := make([]int, len(t.Rows)) // last row of each row's group
	for i := len(t.Rows) - 1; i >= 0; i-- {
		groupEnd[i] = i
		if i+1 < len(t.Rows) && t.Rows[i+1].Group == t.Rows[i].Group {
			groupEnd[i] = groupEnd[i+1]
		}
	}
	taken := map[[2]int]bool{}
	var cells []cell
	for r, row := range t.Rows {
		c := 0
		for _, dc := range row.Cells {
			if dc.Hidden {
				continue
			}
			for taken[[2]int{r, c}] {
				c++
			}
			r1 := r + max(1, dc.RS) - 1
			if dc.RS == 0 || r1 > groupEnd[r] {
				r1 = groupEnd[r]
			}
			c1 := c + min(max(1, dc.CS), 1000) - 1
			for i := r; i <= r1; i++ {
				for j := c; j <= c1; j++ {
					taken[[2]int{i, j}] = true
				}
			}
			cells = append(cells, cell{r0: r, c0: c, r1: r1, c1: c1, text: dc.Text})
			c = c1 + 1
		}
	}
	return cells
}

// parsedTables reads the tables of a parsed page as x/net/html has them,
// before any CSS: nothing is hidden, a cell's text is its text content
// folded. It picks the pages worth printing (those with a dataTable).
func parsedTables(doc *html.Node) []domTable {
	var out []domTable
	var walk func(n *html.Node, inTable bool)
	walk = func(n *html.Node, inTable bool) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Table {
			t := parsedTable(n)
			t.Nested = inTable || t.Nested
			out = append(out, t)
			inTable = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inTable)
		}
	}
	walk(doc, false)
	return out
}

// parsedTable is one table element's rows (its own, not a nested
// table's); Nested is set when it holds a table.
func parsedTable(tn *html.Node) domTable {
	var t domTable
	group := 0
	for _, a := range tn.Attr {
		if a.Key == "role" {
			t.Role = a.Val
		}
	}
	var rows func(n *html.Node)
	rows = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Thead, atom.Tbody, atom.Tfoot:
				group++
				rows(c)
				group++
			case atom.Tr:
				t.Rows = append(t.Rows, domRow{Group: group, Cells: parsedCells(c, &t)})
			}
		}
	}
	rows(tn)
	return t
}

// parsedCells is a tr's td and th cells; t's Nested and Form are set when
// one holds a table or a form field.
func parsedCells(tr *html.Node, t *domTable) []domCell {
	var cells []domCell
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || (c.DataAtom != atom.Td && c.DataAtom != atom.Th) {
			continue
		}
		dc := domCell{RS: 1, CS: 1, TH: c.DataAtom == atom.Th}
		for _, a := range c.Attr {
			switch a.Key {
			case "rowspan":
				dc.RS = spanAttr(a.Val, 1)
			case "colspan":
				dc.CS = max(1, spanAttr(a.Val, 1))
			}
		}
		var b strings.Builder
		textOf(c, &b, t)
		dc.Text = strings.Join(strings.Fields(b.String()), " ")
		cells = append(cells, dc)
	}
	return cells
}

// spanAttr reads a rowspan or colspan as browsers do: the leading digits,
// def when there are none.
func spanAttr(s string, def int) int {
	s = strings.TrimSpace(s)
	n, any := 0, false
	for _, r := range s {
		if r < '0' || r > '9' || n > 65534 {
			break
		}
		n, any = n*10+int(r-'0'), true
	}
	if !any {
		return def
	}
	return n
}

// textOf writes n's text content (scripts and styles left out); a table
// inside sets t.Nested, a form field (not a hidden input) t.Form.
func textOf(n *html.Node, b *strings.Builder, t *domTable) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			b.WriteString(c.Data)
		case c.Type == html.ElementNode && c.DataAtom == atom.Table:
			t.Nested = true
		case c.Type == html.ElementNode && (c.DataAtom == atom.Select || c.DataAtom == atom.Textarea || c.DataAtom == atom.Button ||
			(c.DataAtom == atom.Input && !hiddenInput(c))):
			t.Form = true
		case c.Type == html.ElementNode && (c.DataAtom == atom.Script || c.DataAtom == atom.Style):
		case c.Type == html.ElementNode:
			if c.DataAtom == atom.Br || c.DataAtom == atom.P || c.DataAtom == atom.Div {
				b.WriteByte(' ')
			}
			textOf(c, b, t)
		}
	}
}

// hiddenInput: an input of type hidden (it shows nothing).
func hiddenInput(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key == "type" && strings.EqualFold(strings.TrimSpace(a.Val), "hidden") {
			return true
		}
	}
	return false
}
