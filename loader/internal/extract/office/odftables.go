package office

import (
	"cmp"
	"encoding/xml"
	"slices"
	"strconv"
	"strings"
)

// odfTables is tableNest with ODF's repeats, for the body's walk and a
// note's (odfNoteText).
type odfTables struct {
	tableNest
	cellRep []int // number-columns-repeated of the open cell, per open table
	rowRep  []int // number-rows-repeated of the open row, per open table
	// rowCap > 0 (a spreadsheet's): the most rows with text a table
	// holds, a repeated row's copies included; its empty rows are not
	// kept. 0: a repeated row is added up to maxRepeat times.
	rowCap int
	filled []int // rows with text added, per open table (rowCap > 0)
}

// startTag reads a table:table (when tableOK: in the body, not a
// style's), table-row or table-cell start tag.
func (o *odfTables) startTag(t xml.StartElement, tableOK bool) {
	switch t.Name.Local {
	case "table":
		if tableOK && strings.Contains(t.Name.Space, "table") {
			o.start()
			o.cellRep, o.rowRep = append(o.cellRep, 1), append(o.rowRep, 1)
			o.filled = append(o.filled, 0)
		}
	case "table-row":
		if o.top() != nil {
			o.startRow()
			o.rowRep[len(o.rowRep)-1] = repeatUpTo(t, "number-rows-repeated", cmp.Or(o.rowCap, maxRepeat))
		}
	case "table-cell", "covered-table-cell":
		if o.top() != nil {
			o.startCell()
			o.cellRep[len(o.cellRep)-1] = repeat(t, "number-columns-repeated")
		}
	}
}

// endTag reads a table's, row's or cell's end tag; an outermost table's
// end returns its rows (ok).
func (o *odfTables) endTag(t xml.EndElement) (rows [][]string, ok bool) {
	switch t.Name.Local {
	case "table-cell", "covered-table-cell":
		if o.top() != nil {
			o.endCell(o.cellRep[len(o.cellRep)-1], 0)
		}
	case "table-row":
		if tb := o.top(); tb != nil {
			// A repeated empty row (spreadsheets repeat them by the
			// thousand) is added once.
			k := o.rowRep[len(o.rowRep)-1]
			empty := slices.IndexFunc(tb.row, func(c string) bool { return c != "" }) < 0
			if empty {
				k = 1
			}
			if o.rowCap > 0 {
				// A sheet holds rowCap rows with text at most, however
				// many the file repeats or writes (a row repeated 20,000
				// times a hundred times over was 2 million rows in
				// memory; the sheet's reader keeps the first ones).
				n := &o.filled[len(o.filled)-1]
				if empty {
					k = 0
				}
				k = min(k, o.rowCap-*n)
				*n += k
			}
			o.endRow(k)
		}
	case "table":
		if o.top() == nil || !strings.Contains(t.Name.Space, "table") {
			return nil, false
		}
		o.cellRep, o.rowRep = o.cellRep[:len(o.cellRep)-1], o.rowRep[:len(o.rowRep)-1]
		o.filled = o.filled[:len(o.filled)-1]
		if tb, ok := o.end(); ok {
			return tb.rows, true
		}
	}
	return nil, false
}

func repeat(se xml.StartElement, name string) int { return repeatUpTo(se, name, maxRepeat) }

// repeatUpTo is the count of a repeat attribute, 1 to limit.
func repeatUpTo(se xml.StartElement, name string, limit int) int {
	v, ok := attr(se, name)
	if !ok {
		return 1
	}
	k, err := strconv.Atoi(v)
	if err != nil || k < 1 {
		return 1
	}
	return min(k, limit)
}
