package table

// labelLines counts a band's lines starting left of firstCol (a label
// in the stub) and its lines of two cells or more.
func labelLines(cols *columnStats, band []*textLine, firstCol float64) (label, multi int) {
	for _, l := range band {
		if l.ws[0].cx() < firstCol {
			label++
		}
		if len(cols.cellsOf(l)) >= 2 {
			multi++
		}
	}
	return label, multi
}

// numberRows counts a band's lines starting with a label left of
// firstCol with a number in a cell right of it.
func numberRows(cols *columnStats, band []*textLine, firstCol float64) int {
	n := 0
	for _, l := range band {
		if l.ws[0].cx() >= firstCol {
			continue
		}
		for _, lc := range cols.cellsOf(l)[1:] {
			if numericCell(lc.ws) {
				n++
				break
			}
		}
	}
	return n
}
