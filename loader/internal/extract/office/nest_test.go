package office

import (
	"reflect"
	"strings"
	"testing"
)

// TestTableNest: the table structure DOCX and ODT share. A paragraph in a
// cell becomes a line of it, a spanning cell is followed by empty ones, a
// repeated cell and row repeat, a nested table's rows go into the
// enclosing cell, and only the outermost table comes out.
func TestTableNest(t *testing.T) {
	var n tableNest
	if n.addPara("outside") {
		t.Fatal("a paragraph outside any table is the caller's")
	}
	n.start()
	n.startRow()
	n.startCell()
	n.addPara(" first line ")
	n.addPara("second line")
	n.endCell(1, 2) // a cell spanning three grid columns
	n.startCell()
	n.start() // a table inside the cell
	n.startRow()
	n.startCell()
	n.addPara("in")
	n.endCell(1, 0)
	n.startCell()
	n.addPara("ner")
	n.endCell(1, 0)
	n.endRow(1)
	if _, ok := n.end(); ok {
		t.Fatal("a nested table is not emitted")
	}
	n.endCell(1, 0)
	n.endRow(1)
	n.startRow()
	n.startCell()
	n.addPara("v")
	n.endCell(2, 0) // repeated twice
	n.endRow(3)     // repeated three times
	tb, ok := n.end()
	if !ok || n.top() != nil {
		t.Fatal("the outermost table should come out")
	}
	want := [][]string{{"first line\nsecond line", "", "", "in ner"}, {"v", "v"}, {"v", "v"}, {"v", "v"}}
	if !reflect.DeepEqual(tb.rows, want) {
		t.Errorf("rows %q, want %q", tb.rows, want)
	}
	var outer strings.Builder
	outer.WriteString("Body")
	foldPara(&outer, "  text box  ")
	foldPara(&outer, "   ")
	if outer.String() != "Body\ntext box\n" {
		t.Errorf("folded %q", outer.String())
	}

	// endPara: a text box paragraph folds into its paragraph, a paragraph
	// in a cell goes to the cell, any other is the body's.
	type para struct{ text strings.Builder }
	text := func(p *para) *strings.Builder { return &p.text }
	outerP, box := &para{}, &para{}
	outerP.text.WriteString("Outer")
	box.text.WriteString("boxed")
	paras := []*para{outerP, box}
	var m tableNest
	if _, body, inCell := endPara(&paras, text, &m); body || inCell || len(paras) != 1 || outerP.text.String() != "Outer\nboxed\n" {
		t.Errorf("text box: body %v cell %v, outer %q", body, inCell, outerP.text.String())
	}
	m.start()
	m.startRow()
	m.startCell()
	if _, body, inCell := endPara(&paras, text, &m); body || !inCell || len(paras) != 0 || m.top().cell.String() != "Outer\nboxed" {
		t.Errorf("in a cell: body %v cell %v", body, inCell)
	}
	m.endCell(1, 0)
	paras = []*para{{}}
	if _, body, inCell := endPara(&paras, text, &m); !body || inCell {
		t.Errorf("between cells: body %v cell %v", body, inCell)
	}
}
