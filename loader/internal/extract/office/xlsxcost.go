package office

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

var (
	formulaString = regexp.MustCompile(`"(?:[^"]|"")*"`)
	// a reference, its sheet optional: A1, $A$1:B9, A:C, 3:5, 'My sheet'!A1
	formulaRef  = regexp.MustCompile(`(?:('(?:[^']|'')+'|[A-Za-z0-9_.]+)!)?(\$?[A-Za-z]{1,3}\$?[0-9]+(?::\$?[A-Za-z]{1,3}\$?[0-9]+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?[0-9]+:\$?[0-9]+)`)
	formulaName = regexp.MustCompile(`[A-Za-z_\\][A-Za-z0-9_.\\]*`)
)

// calcCost estimates the cells the workbook's formulas read, each formula
// counted (a shared formula once per copy): a range's rows x columns, a
// whole column its sheet's last row (the engine reads up to it), a whole
// row its last column, a defined name its reference's. It is an upper
// bound of the engine's work give or take a constant: it recalculates each
// formula at most twice (its caches), reading each range once a time.
func calcCost(f *excelize.File, scans map[string]*sheetFormulas) int64 {
	names := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		names[strings.ToUpper(dn.Name)] = dn.RefersTo
	}
	var total int64
	for sheet, sf := range scans {
		for _, fm := range sf.texts {
			total += formulaCost(fm, sheet, scans, names, 1)
		}
		for si, n := range sf.sharedCopies {
			if fm, ok := sf.sharedText[si]; ok {
				total += int64(n) * formulaCost(fm, sheet, scans, names, 1)
			}
		}
		if total > maxCalcCells {
			return total
		}
	}
	return total
}

// formulaCost is the cells one formula's text reads (depth: defined names
// followed, one level).
func formulaCost(fm, sheet string, scans map[string]*sheetFormulas, names map[string]string, depth int) int64 {
	fm = formulaString.ReplaceAllString(fm, `""`)
	var cost int64
	for _, m := range formulaRef.FindAllStringSubmatch(fm, -1) {
		s := sheet
		if m[1] != "" {
			s = strings.ReplaceAll(strings.Trim(m[1], "'"), "''", "'")
		}
		cost += refCost(m[2], scans[s])
	}
	if depth > 0 && len(names) > 0 {
		for _, n := range formulaName.FindAllString(fm, -1) {
			if rt, ok := names[strings.ToUpper(n)]; ok {
				cost += formulaCost(rt, sheet, scans, names, depth-1)
			}
		}
	}
	return cost + 1
}

// refCost is the cells one reference reads on a sheet (sf nil: a sheet
// docket did not scan, another workbook's: a whole row or column counts
// one, as the engine does not read it).
func refCost(ref string, sf *sheetFormulas) int64 {
	ref = strings.ReplaceAll(ref, "$", "")
	from, to, isRange := strings.Cut(ref, ":")
	if !isRange {
		return 1
	}
	if r0, err0 := strconv.Atoi(from); err0 == nil { // whole rows
		if sf == nil {
			return 1
		}
		r1, _ := strconv.Atoi(to)
		return (int64(abs(r1-r0)) + 1) * int64(max(sf.maxCol, 1))
	}
	c0, r0, err0 := excelize.CellNameToCoordinates(from)
	c1, r1, err1 := excelize.CellNameToCoordinates(to)
	if err0 != nil || err1 != nil { // whole columns
		a, e0 := excelize.ColumnNameToNumber(from)
		z, e1 := excelize.ColumnNameToNumber(to)
		if e0 != nil || e1 != nil || sf == nil {
			return 1
		}
		return (int64(abs(z-a)) + 1) * int64(max(sf.maxRow, 1))
	}
	return (int64(abs(c1-c0)) + 1) * (int64(abs(r1-r0)) + 1)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
