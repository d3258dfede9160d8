package office

import (
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// tableNest is the table half of the body walk DOCX and ODT share: the
// tables open around the reader (a table inside a cell nests), the row
// and cell being filled, and what each format's end tags do with them. A
// nested table's rows go into the enclosing cell as lines; only
// outermost tables are emitted. The formats differ in how a cell counts
// (a DOCX gridSpan adds empty cells after it, an ODF
// number-columns-repeated repeats it) and a row (ODF rows repeat), which
// the callers pass in.
type tableNest struct {
	open []*openTable
}

type openTable struct {
	rows       [][]string
	row        []string
	cell       *strings.Builder
	span       int  // grid columns the open cell covers (DOCX gridSpan)
	breakAfter bool // a page break inside the table: after it (DOCX)
	col        int  // grid column the open cell starts at
	// merged cells (DOCX): the spans found, the vertical merge of the
	// open cell (vMerge), and the vertical merges open by grid column
	spans  []document.CellSpan
	vmerge vMerge
	vOpen  map[int]int // grid column -> index in spans
}

// vMerge is a DOCX cell's part in a vertical merge.
type vMerge int

const (
	vmNone     vMerge = iota
	vmRestart         // the merge's first cell: its text shows
	vmContinue        // a cell the merge above covers
)

// start opens a table.
func (n *tableNest) start() { n.open = append(n.open, &openTable{}) }

// top is the innermost open table, or nil.
func (n *tableNest) top() *openTable {
	if len(n.open) == 0 {
		return nil
	}
	return n.open[len(n.open)-1]
}

// startRow begins a row of the innermost table.
func (n *tableNest) startRow() {
	if t := n.top(); t != nil {
		t.row = nil
	}
}

// startCell begins a cell of the innermost table.
func (n *tableNest) startCell() {
	if t := n.top(); t != nil {
		t.cell, t.span, t.col, t.vmerge = &strings.Builder{}, 1, len(t.row), vmNone
	}
}

// addPara adds a finished paragraph's text to the open cell, on a line of
// its own; false when no cell is open (the paragraph is the caller's).
func (n *tableNest) addPara(text string) bool {
	t := n.top()
	if t == nil || t.cell == nil {
		return false
	}
	if t.cell.Len() > 0 {
		t.cell.WriteString("\n")
	}
	t.cell.WriteString(strings.TrimSpace(text))
	return true
}

// endCell closes the open cell: its text copies times, then blanks empty
// cells.
func (n *tableNest) endCell(copies, blanks int) {
	t := n.top()
	if t == nil || t.cell == nil {
		return
	}
	s := strings.TrimSpace(t.cell.String())
	for i := 0; i < copies; i++ {
		t.row = append(t.row, s)
	}
	for i := 0; i < blanks; i++ {
		t.row = append(t.row, "")
	}
	t.cell = nil
}

// endRow closes the row, adding it times times.
func (n *tableNest) endRow(times int) {
	t := n.top()
	if t == nil {
		return
	}
	for i := 0; i < times; i++ {
		t.rows = append(t.rows, append([]string(nil), t.row...))
	}
	t.row = nil
}

// end closes the innermost table. An outermost table is returned (ok); a
// nested one's rows are written into the enclosing cell, one per line.
func (n *tableNest) end() (t *openTable, ok bool) {
	t = n.top()
	if t == nil {
		return nil, false
	}
	n.open = n.open[:len(n.open)-1]
	if outer := n.top(); outer != nil {
		if outer.cell != nil {
			for _, r := range t.rows {
				outer.cell.WriteString("\n" + strings.Join(r, " "))
			}
		}
		return nil, false
	}
	return t, true
}

// endPara closes the innermost open paragraph of paras (their texts
// through text). A paragraph inside another (a text box's) is folded into
// the outer one's text on a line of its own; one in a table cell becomes a
// line of the cell (inCell); any other is a body paragraph the caller
// emits (body).
func endPara[P any](paras *[]P, text func(P) *strings.Builder, tables *tableNest) (p P, body, inCell bool) {
	ps := *paras
	p = ps[len(ps)-1]
	*paras = ps[:len(ps)-1]
	if len(ps) > 1 {
		foldPara(text(ps[len(ps)-2]), text(p).String())
		return p, false, false
	}
	if tables.addPara(text(p).String()) {
		return p, false, true
	}
	return p, true, false
}

// foldPara writes a paragraph nested in another (a text box's) into the
// outer one's text on a line of its own.
func foldPara(outer *strings.Builder, inner string) {
	if s := strings.TrimSpace(inner); s != "" {
		outer.WriteString("\n" + s + "\n")
	}
}

// mergeCell records the open cell's part in a merged cell (DOCX): a
// gridSpan over several grid columns, a vMerge restart opening a
// vertical merge at its column, a continue adding a row to the one open
// there (one with none opens one), any other cell closing it.
func (t *openTable) mergeCell() {
	row, col := len(t.rows), t.col
	if t.vOpen == nil {
		t.vOpen = map[int]int{}
	}
	if t.vmerge == vmContinue {
		if i, ok := t.vOpen[col]; ok {
			t.spans[i].Rows++
			return
		}
	}
	delete(t.vOpen, col)
	if t.vmerge == vmNone && t.span <= 1 {
		return
	}
	t.spans = append(t.spans, document.CellSpan{Row: row, Col: col, Rows: 1, Cols: t.span})
	if t.vmerge != vmNone {
		t.vOpen[col] = len(t.spans) - 1
	}
}
