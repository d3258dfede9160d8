package office

import (
	"cmp"
	"encoding/xml"
	"slices"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
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
	// cellWant, rowWant: the repeat counts the open cell and row asked
	// for, per open table, before the cap.
	cellWant, rowWant []int
	// Dropped counts the copies of rows and cells holding text that the
	// repeat cap left out (a spreadsheet's rowCap is its reader's to
	// report): the caller warns and flags the document truncated
	// (before, an ODT table's, a chart's or an ODC's cut was silent).
	Dropped int
	// The outermost table's hidden rows (table:visibility "collapse" or
	// "filter") that hold text and were added, and its hidden columns
	// (a table:table-column's visibility) holding text in a row added,
	// by row and column number (1-based, repeats counted); set at its
	// end, for its reader to say (office/28).
	HidRows, HidCols []span
	hidCols          []span // the outermost table's hidden columns
	rowNo, colNo     int    // rows and columns of the outermost table so far
	rowHidden        bool   // its open row is hidden
}

// odfHidden says whether a table:visibility hides its row or column.
func odfHidden(t xml.StartElement) bool {
	v := attrVal(t, "visibility")
	return v == "collapse" || v == "filter"
}

// repeatWanted is a repeat attribute's count as the file asks, bounded
// only so that a count's sum cannot overflow.
func repeatWanted(se xml.StartElement, name string) int { return repeatUpTo(se, name, 1<<40) }

// startTag reads a table:table (when tableOK: in the body, not a
// style's), table-row or table-cell start tag.
func (o *odfTables) startTag(t xml.StartElement, tableOK bool) {
	switch t.Name.Local {
	case "table":
		if tableOK && strings.Contains(t.Name.Space, "table") {
			o.start()
			o.cellRep, o.rowRep = append(o.cellRep, 1), append(o.rowRep, 1)
			o.cellWant, o.rowWant = append(o.cellWant, 1), append(o.rowWant, 1)
			o.filled = append(o.filled, 0)
			if len(o.open) == 1 {
				o.HidRows, o.HidCols, o.hidCols, o.rowNo, o.colNo = nil, nil, nil, 0, 0
			}
		}
	case "table-column":
		if len(o.open) == 1 && strings.Contains(t.Name.Space, "table") {
			n := min(repeatWanted(t, "number-columns-repeated"), 1<<14)
			if odfHidden(t) {
				o.hidCols = addSpan(o.hidCols, span{o.colNo + 1, o.colNo + n})
			}
			o.colNo += n
		}
	case "table-row":
		if o.top() != nil {
			if len(o.open) == 1 {
				o.rowHidden = odfHidden(t)
			}
			o.startRow()
			o.rowRep[len(o.rowRep)-1] = repeatUpTo(t, "number-rows-repeated", cmp.Or(o.rowCap, maxRepeat))
			o.rowWant[len(o.rowWant)-1] = repeatWanted(t, "number-rows-repeated")
		}
	case "table-cell", "covered-table-cell":
		if o.top() != nil {
			o.startCell()
			o.cellRep[len(o.cellRep)-1] = repeat(t, "number-columns-repeated")
			o.cellWant[len(o.cellWant)-1] = repeatWanted(t, "number-columns-repeated")
		}
	}
}

// endTag reads a table's, row's or cell's end tag; an outermost table's
// end returns its rows (ok).
func (o *odfTables) endTag(t xml.EndElement) (rows [][]string, ok bool) {
	switch t.Name.Local {
	case "table-cell", "covered-table-cell":
		if tb := o.top(); tb != nil {
			k := len(o.cellRep) - 1
			if tb.cell != nil && strings.TrimSpace(tb.cell.String()) != "" {
				o.Dropped += o.cellWant[k] - o.cellRep[k]
			}
			o.endCell(o.cellRep[k], 0)
		}
	case "table-row":
		if tb := o.top(); tb != nil {
			// A repeated empty row (spreadsheets repeat them by the
			// thousand) is added once.
			k := o.rowRep[len(o.rowRep)-1]
			empty := slices.IndexFunc(tb.row, func(c string) bool { return c != "" }) < 0
			if empty {
				k = 1
			} else if o.rowCap == 0 {
				o.Dropped += o.rowWant[len(o.rowWant)-1] - k
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
			if len(o.open) == 1 {
				if o.rowHidden && !empty && k > 0 {
					o.HidRows = addSpan(o.HidRows, span{o.rowNo + 1, o.rowNo + k})
				}
				o.rowNo += min(o.rowWant[len(o.rowWant)-1], 1<<20)
			}
			o.endRow(k)
		}
	case "table":
		if o.top() == nil || !strings.Contains(t.Name.Space, "table") {
			return nil, false
		}
		o.cellRep, o.rowRep = o.cellRep[:len(o.cellRep)-1], o.rowRep[:len(o.rowRep)-1]
		o.cellWant, o.rowWant = o.cellWant[:len(o.cellWant)-1], o.rowWant[:len(o.rowWant)-1]
		o.filled = o.filled[:len(o.filled)-1]
		if tb, ok := o.end(); ok {
			if len(o.hidCols) > 0 {
				_, o.HidCols = hiddenLanded(tb.rows, nil, nil, o.hidCols)
			}
			return tb.rows, true
		}
	}
	return nil, false
}

func repeat(se xml.StartElement, name string) int { return repeatUpTo(se, name, maxRepeat) }

// repeatCut is the warning and truncated review of copies a repeat cap
// left out (odfTables.Dropped > 0): where names the table's place.
func repeatCut(b *builder, where string, dropped int) {
	if dropped <= 0 {
		return
	}
	b.warn("%s: a row or cell repeated more than %d times (number-rows/columns-repeated): %d copies holding text were not kept", where, maxRepeat, dropped)
	b.res.Flag(0, document.ReviewTruncated, "%s repeats a row or cell holding text more than %d times: %d copies were not kept", where, maxRepeat, dropped)
}

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
