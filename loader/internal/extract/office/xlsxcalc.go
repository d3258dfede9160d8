package office

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Formula cells saved without their value (<c r="D2"><f>B2*C2</f><v></v></c>,
// or no <v>: openpyxl never calculates, excelize's SetCellFormula and other
// scripts write none) land as their formula ("=B2*C2"), with a warning; they
// are never calculated (office/31: excelize's engine is unbounded per cell,
// =SUM(MUNIT(5000)) took over 120 s and 5 GB). Before office/27 they landed
// empty and nothing was said: a workbook of totals written by a script lost
// every total, and a row of formulas only (a total row without a label) was
// dropped as an empty row.
//
// The formula texts are read before the sheet's rows, so they are bounded
// by what they hold, not by what lands (review45: 60,000 cells of 8,000-
// character formulas in an 860 KB file held 987 MB): past maxUncalculated
// cells a sheet or maxUncalcBytes of formula text a workbook, a cell lands
// empty and the warning counts it.
const maxUncalculated = 1 << 20 // formula cells without a value recorded per sheet (the rest stay empty)

// maxUncalcBytes bounds the formula text recorded in a workbook (the rest
// stay empty); a variable for tests.
var maxUncalcBytes = 16 << 20

// sheetCalc is what a sheet's formula cells saved without a value became:
// their formula text by row number and column index (0-based) and the
// counts the warning gives.
type sheetCalc struct {
	value          map[int]map[int]string
	asFormula      int
	empty          int    // no formula text to land (a shared formula's copy) or past maxUncalculated
	exampleFormula string // the first one landed as its formula: "D2 =B2*C2"
}

// notCalculated is why formula cells land as their formula (office/31):
// excelize's engine is unbounded per cell (=SUM(MUNIT(5000)) over 120 s and
// 5 GB, REPT 180M-character cells, circular references given made-up
// values; review44).
const notCalculated = "docket does not calculate formulas (the spreadsheet program does when it opens the file)"

// uncalcCell is a formula cell saved without a value.
type uncalcCell struct {
	ref      string
	row, col int // 1-based
	formula  string
	shared   string // a shared formula's copy: its si (no text of its own)
}

// sheetFormulas is one worksheet part's formula cells without a value as
// scanFormulas read them.
type sheetFormulas struct {
	missing []uncalcCell
	dropped int // missing cells past maxUncalculated or the text budget
}

// planCalc finds every sheet's formula cells saved without a value and
// calculates them (within the bounds above) or takes their formula text.
// A workbook whose parts show no such cell (Excel's: every formula has its
// value) costs a byte search of each worksheet part. It returns nil when
// there is nothing to do; the error is the context's.
func planCalc(ctx context.Context, f *excelize.File, ix *zipIndex, sheets []string, parts map[string]string) (map[string]*sheetCalc, error) {
	if ix == nil {
		return nil, nil
	}
	found := false
	for _, s := range sheets {
		if part, ok := parts[s]; ok {
			if has, _ := mayLackValues(ix, part); has {
				found = true
				break
			}
		}
	}
	if !found {
		return nil, nil
	}
	scans := map[string]*sheetFormulas{}
	budget := maxUncalcBytes
	for _, s := range sheets {
		part, ok := parts[s]
		if !ok {
			continue
		}
		sf, err := scanFormulas(ctx, ix, part, &budget)
		if err != nil {
			if ce := ctxErr(ctx); ce != nil {
				return nil, ce
			}
		}
		scans[s] = sf
	}
	out := map[string]*sheetCalc{}
	for s, sf := range scans {
		if len(sf.missing) > 0 || sf.dropped > 0 {
			out[s] = &sheetCalc{empty: sf.dropped}
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	n := 0
	for _, s := range sheets {
		sc, sf := out[s], scans[s]
		if sc == nil {
			continue
		}
		for _, c := range sf.missing {
			if n++; n%256 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			fm := c.formula
			if fm == "" {
				sc.empty++ // a shared formula's copy: no text of its own
				continue
			}
			v := "=" + strings.TrimPrefix(fm, "=")
			sc.asFormula++
			if sc.exampleFormula == "" {
				sc.exampleFormula = c.ref + " " + v
			}
			if sc.value == nil {
				sc.value = map[int]map[int]string{}
			}
			if sc.value[c.row] == nil {
				sc.value[c.row] = map[int]string{}
			}
			sc.value[c.row][c.col-1] = v
		}
	}
	return out, nil
}

// fill puts the formulas into a row read by the rows
// iterator (row number n), where the row has nothing.
func (sc *sheetCalc) fill(n int, cols []string) []string {
	if sc == nil {
		return cols
	}
	for c, v := range sc.value[n] {
		for len(cols) <= c {
			cols = append(cols, "")
		}
		if cols[c] == "" {
			cols[c] = v
		}
	}
	return cols
}

// say warns of what planCalc did with the sheet's formula cells.
func (sc *sheetCalc) say(b *builder, sheet string) {
	if sc == nil {
		return
	}
	total := sc.asFormula + sc.empty
	if total == 0 {
		return
	}
	var parts []string
	if sc.asFormula > 0 {
		parts = append(parts, fmt.Sprintf("%d landed as their formula, not calculated: %s (first %s)", sc.asFormula, notCalculated, sc.exampleFormula))
	}
	if sc.empty > 0 {
		parts = append(parts, fmt.Sprintf("%d landed empty (no formula text of their own, or past the first %d cells or %d MiB of formula text)", sc.empty, maxUncalculated, maxUncalcBytes>>20))
	}
	b.warn("sheet %q: %d formula cell(s) were saved without their value (the program that wrote the workbook did not calculate them, as openpyxl does not): %s", sheet, total, strings.Join(parts, ", "))
}

// scanFormulas streams a worksheet part for its formula cells without a
// value (no <v>, or an empty one, and no inline string). Their texts take
// from *budget bytes; a cell whose text it cannot hold is dropped.
func scanFormulas(ctx context.Context, ix *zipIndex, part string, budget *int) (*sheetFormulas, error) {
	sf := &sheetFormulas{}
	rc, err := ix.open(part)
	if err != nil {
		return sf, err
	}
	defer rc.Close()
	d := newDecoder(bufio.NewReaderSize(rc, 64<<10))
	var (
		cell                   uncalcCell
		inCell, isFormula, inF bool
		inV, hasValue          bool
		si                     string
		isShared               bool
		text                   strings.Builder
	)
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return sf, err
			}
		}
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return sf, nil
			}
			return sf, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "c":
				cell = uncalcCell{ref: attrVal(t, "r")}
				inCell, isFormula, hasValue, isShared, si = true, false, false, false, ""
				if c, r, err := excelize.CellNameToCoordinates(cell.ref); err == nil {
					cell.row, cell.col = r, c
				}
			case "f":
				if inCell {
					isFormula, inF = true, true
					text.Reset()
					if attrVal(t, "t") == "shared" {
						isShared, si = true, attrVal(t, "si")
					}
				}
			case "v":
				inV = inCell
			case "is":
				hasValue = inCell
			}
		case xml.CharData:
			switch {
			case inF:
				if text.Len() < 8192 {
					text.Write(t)
				}
			case inV && len(bytes.TrimSpace(t)) > 0:
				hasValue = true
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "f":
				inF = false
			case "v":
				inV = false
			case "c":
				if inCell && isFormula {
					fm := strings.TrimSpace(text.String())
					if !hasValue && cell.row > 0 {
						if len(sf.missing) == maxUncalculated || len(fm) > *budget {
							sf.dropped++
						} else {
							*budget -= len(fm)
							cell.formula = fm
							if fm == "" && isShared {
								cell.shared = si
							}
							sf.missing = append(sf.missing, cell)
						}
					}
				}
				inCell = false
			}
		}
	}
}

// mayLackValues searches a part's bytes for what a formula cell without a
// value looks like: a formula's end before its cell's (<f>B2</f></c>,
// <f t="shared" si="0"/></c>, prefixed <x:f>B2</x:f></x:c>) or an empty
// value (<v></v>, <v/>).
func mayLackValues(ix *zipIndex, part string) (bool, error) {
	// 8: the longest key less one
	return searchPart(ix, part, 8, func(buf []byte) int {
		for _, key := range formulaKeys {
			if i := bytes.Index(buf, key); i >= 0 {
				return i
			}
		}
		return -1
	}, nil)
}

var formulaKeys = [][]byte{[]byte("</f></"), []byte("/></c>"), []byte("<v></v>"), []byte("<v/>"), []byte("<v />"), []byte(":f></"), []byte(":v></"), []byte(":v/>")}
