package main

// The styles set's tables (styles.go): their contents and their CSS.

import (
	"fmt"
	"strings"
)

// stStyle gives t one of stylesStyles: Chromium's defaults, a site's
// style, or partial rules. Head cells ending on the last head row get the
// class hb (a head underline).
func (g kdGen) stStyle(t *kdTable) {
	h := 0
	for h < len(t.rows) && t.rows[h][0].head {
		h++
	}
	for r := 0; r < h; r++ {
		for i, c := range t.rows[r] {
			if c.head && r+c.rs == h {
				t.rows[r][i] = c.with("hb")
			}
		}
	}
	pad := fmt.Sprintf("%dpx %dpx", g.n(1, 4), g.n(3, 12))
	rule := fmt.Sprintf("%s solid %s", g.pick([]string{"0.75px", "1px", "1.5px"}), g.pick([]string{"#000", "#444", "#999"}))
	if g.p(0.7) {
		t.css += `#T .n{text-align:right}`
	}
	switch g.pick(stylesStyles) {
	case "default": // Chromium's user-agent table CSS only
	case "framework":
		t.css += fmt.Sprintf(`#T{width:100%%;border-collapse:collapse}#T th,#T td{padding:%s;vertical-align:top;border-top:1px solid #dee2e6;text-align:left}#T .hb{vertical-align:bottom;border-bottom:2px solid #dee2e6}`, g.pick([]string{".75rem", ".3rem", ".5rem"}))
	case "framework-striped":
		t.css += `#T{width:100%;border-collapse:collapse}#T th,#T td{padding:.3rem .5rem;border-top:1px solid #dee2e6}#T .hb{border-bottom:2px solid #dee2e6}#T tr:nth-child(odd) td{background:rgba(0,0,0,.05)}`
	case "wiki":
		t.css += `#T{background:#f8f9fa;color:#202122;border:1px solid #a2a9b1;border-collapse:collapse;margin:1em 0}#T th,#T td{border:1px solid #a2a9b1;padding:.2em .4em}#T th{background:#eaecf0;text-align:center}`
	case "codehost":
		t.css += `#T{border-spacing:0;border-collapse:collapse}#T th,#T td{padding:6px 13px;border:1px solid #d0d7de}#T th{font-weight:600}#T tr:nth-child(2n) td{background:#f6f8fa}`
	case "border1": // the legacy <table border=1>
		t.css += `#T{border:1px outset #808080}#T th,#T td{border:1px inset #808080}`
	case "headline":
		t.css += `#T{border-collapse:collapse}#T td,#T th{padding:` + pad + `}#T .hb{border-bottom:` + rule + `}`
	case "hrules":
		t.css += `#T{border-collapse:collapse}#T td,#T th{padding:` + pad + `;border-bottom:` + rule + `}`
	case "box":
		t.css += `#T{border-collapse:collapse;border:` + rule + `}#T td,#T th{padding:` + pad + `}`
	case "vrules":
		t.css += `#T{border-collapse:collapse;border-left:hidden;border-right:hidden}#T td,#T th{padding:` + pad + `;border-left:` + rule + `;border-right:` + rule + `}`
	}
}

// stBody is a table of kind's contents, cols columns and about rows body
// rows (head rows and spans as the kind draws them).
func (g kdGen) stBody(kind string, cols, rows int) kdTable {
	switch kind {
	case "money":
		return g.stMoney(cols, rows)
	case "spans":
		return g.stSpans(cols, rows)
	case "text":
		return g.stText(cols, rows)
	}
	return g.stStats(cols, rows)
}

// stAmount is an amount in a table's currency form: thousands grouped,
// negatives in parentheses or with a minus, now and then empty or a dash.
func (g kdGen) stAmount(cur string, neg bool) string {
	switch {
	case g.p(0.08):
		return ""
	case g.p(0.04):
		return g.pick([]string{"–", "-", "n/a"})
	}
	v := group(g.n(1, 9999)*g.n(1, 300), ",")
	if g.p(0.3) {
		v += fmt.Sprintf(".%02d", g.n(0, 99))
	}
	if neg && g.p(0.3) {
		if g.p(0.7) {
			v = "(" + v + ")"
		} else {
			v = g.pick([]string{"−", "-"}) + v
		}
	}
	return strings.Replace(cur, "#", v, 1)
}

// stMoney is a statement of amounts: items down the stub, a year a
// column (a spanning group head over them now and then), section rows
// spanning the table, totals.
func (g kdGen) stMoney(cols, rows int) kdTable {
	cur := g.pick([]string{"#", "#", "$#", "$ #", "€ #", "# €", "£#", "CHF #"})
	neg := g.p(0.7)
	t := kdTable{}
	year := g.n(2018, 2026)
	stub := kh(g.pick([]string{"", "Item", "In thousands", "Description", "Account"}))
	var years []kdCell
	for c := 1; c < cols; c++ {
		years = append(years, kh(fmt.Sprint(year-c+1)).with("n"))
	}
	if g.p(0.4) {
		t.rows = append(t.rows, []kdCell{stub.span(2, 1), kh(g.pick([]string{"Year ended 31 December", "Group", "Actual", "Budget and outturn"})).span(1, cols-1)}, years)
	} else {
		t.rows = append(t.rows, append([]kdCell{stub}, years...))
	}
	for r := 0; r < rows; r++ {
		switch {
		case r > 0 && r < rows-1 && g.p(0.1):
			t.rows = append(t.rows, []kdCell{kc(g.pick(kdSections)).span(1, cols)})
			continue
		case r == rows-1 && g.p(0.5):
			row := []kdCell{kc(g.pick([]string{"Total", "Net result", "Balance carried forward"}))}
			for c := 1; c < cols; c++ {
				row = append(row, kc(g.stAmount(cur, neg)).with("n"))
			}
			t.rows = append(t.rows, row)
			continue
		}
		row := []kdCell{kc(g.pick(kdItems))}
		for c := 1; c < cols; c++ {
			row = append(row, kc(g.stAmount(cur, neg)).with("n"))
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// stSpans has column groups under spanning heads (a last column whose
// head spans both head rows when they do not pair up) and row spans in
// the body: a category down the first column, and now and then a value
// shared by two rows in another column.
func (g kdGen) stSpans(cols, rows int) kdTable {
	cols = max(cols, 3)
	t := kdTable{}
	gn := g.r.Perm(6)
	gnames := []string{"Men", "Women", "Inland", "Abroad", "Staff", "Contractors"}
	top := []kdCell{kh(g.pick([]string{"Category", "Region", "Division"})).span(2, 1), kh(g.pick([]string{"Unit", "Site", "Team"})).span(2, 1)}
	var second []kdCell
	left := cols - 2
	for i := 0; left > 0; i++ {
		if left == 1 {
			top = append(top, kh(g.pick([]string{"Total", "Status", "Remarks"})).span(2, 1))
			break
		}
		top = append(top, kh(gnames[gn[i%6]]).span(1, 2))
		second = append(second, kh(g.pick([]string{"2025", "n", "Q1", "Plan"})).with("n"), kh(g.pick([]string{"2026", "%", "Q2", "Actual"})).with("n"))
		left -= 2
	}
	if len(second) == 0 { // three columns: one head row
		for i := range top {
			top[i].rs = 1
		}
		t.rows = append(t.rows, top)
	} else {
		t.rows = append(t.rows, top, second)
	}
	units := []string{"Harbour works", "Central depot", "Field office", "Laboratory", "Call centre", "North plant", "Archive", "Workshop B"}
	skip := map[[2]int]bool{}
	for r := 0; r < rows; {
		k := min(g.n(1, 3), rows-r)
		for i := 0; i < k; i++ {
			var row []kdCell
			if i == 0 {
				row = append(row, kc(g.pick([]string{"North", "South", "East", "West", "Central", "Other"})).span(k, 1))
			}
			row = append(row, kc(g.pick(units)))
			for c := 2; c < cols; c++ {
				if skip[[2]int{r + i, c}] {
					continue
				}
				cl := kc(fmt.Sprint(g.n(0, 999))).with("n")
				if r+i+1 < rows && g.p(0.08) {
					cl = kc(g.pick([]string{"closed", "not reported", "shared"})).span(2, 1)
					skip[[2]int{r + i + 1, c}] = true
				}
				row = append(row, cl)
			}
			t.rows = append(t.rows, row)
		}
		r += k
	}
	return t
}

// stLongHeads are column heads longer than their columns are wide.
var stLongHeads = []string{"Responsible department or unit", "Date of last inspection", "Estimated cost of the measure",
	"Number of households affected", "Change on the previous year, %", "Share of total expenditure", "Average waiting time in days",
	"Persons employed at year end", "Planned completion", "Risk after mitigation"}

// stNotes are medium texts for a narrow remarks column.
var stNotes = []string{"Awaiting the contractor's revised quotation", "Postponed until the budget is approved", "Completed ahead of schedule",
	"See the minutes of the March meeting", "Partly funded by the regional grant", "Under review by the safety officer",
	"Included in the maintenance contract", "No action needed this year", "Replaced by the new procedure in annex C"}

// stText has long text in narrow columns: a description column of a set
// width, a remarks column narrower still, long heads over narrow columns.
func (g kdGen) stText(cols, rows int) kdTable {
	t := kdTable{css: fmt.Sprintf(`#T{width:%s%%}#T .w{width:%d%%}#T .x{width:%d%%}#T td{vertical-align:%s}`,
		g.pick([]string{"60", "75", "90", "100"}), g.n(25, 40), g.n(12, 20), g.pick([]string{"top", "top", "baseline", "middle"}))}
	head := []kdCell{kh(g.pick([]string{"No.", "Ref.", "#"})), kh(g.pick([]string{"Measure", "Description", "Finding"})).with("w")}
	vals := []func() kdCell{
		func() kdCell { return kc(fmt.Sprintf("%d.%d", g.n(1, 9), g.n(1, 20))) },
		func() kdCell { return kc(g.pick(kdLong) + ".").with("w") },
	}
	for c := 2; c < cols; c++ {
		switch g.n(0, 2) {
		case 0:
			head = append(head, kh(g.pick([]string{"Remarks", "Comment", "Progress"})).with("x"))
			vals = append(vals, func() kdCell {
				if g.p(0.15) {
					return kc("")
				}
				return kc(g.pick(stNotes)).with("x")
			})
		case 1:
			head = append(head, kh(g.pick(stLongHeads)).with("n"))
			vals = append(vals, func() kdCell { return kc(g.stAmount("#", true)).with("n") })
		default:
			head = append(head, kh(g.pick(stLongHeads)))
			vals = append(vals, func() kdCell {
				return kc(fmt.Sprintf("%02d/%02d/%d", g.n(1, 28), g.n(1, 12), g.n(2024, 2028)))
			})
		}
	}
	t.rows = append(t.rows, head)
	for r := rows; r > 0; r-- {
		var row []kdCell
		for _, v := range vals {
			row = append(row, v())
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// stStats is a grid of figures: regions down the stub, long heads over
// narrow number columns, decimals, negatives, empty cells, marks.
func (g kdGen) stStats(cols, rows int) kdTable {
	t := kdTable{}
	head := []kdCell{kh(g.pick([]string{"", "Region", "Area", "Country"}))}
	hp := g.r.Perm(len(stLongHeads))
	for c := 1; c < cols; c++ {
		lab := stLongHeads[hp[c-1]]
		if g.p(0.4) {
			lab = kdDenseHeads[g.n(0, len(kdDenseHeads)-1)]
		}
		head = append(head, kh(lab).with("n"))
	}
	t.rows = append(t.rows, head)
	rp := g.r.Perm(len(kdRegions))
	for r := 0; r < rows; r++ {
		row := []kdCell{kc(kdRegions[rp[r%len(rp)]])}
		for c := 1; c < cols; c++ {
			v := g.decimal(1)
			switch {
			case g.p(0.1):
				v = ""
			case g.p(0.1):
				v = g.pick([]string{"(", "−", "-"}) + v
				if v[0] == '(' {
					v += ")"
				}
			case g.p(0.05):
				v = g.pick([]string{"..", "x", "–"})
			case g.p(0.05):
				v += g.pick([]string{"*", " p", "a"})
			}
			row = append(row, kc(v).with("n"))
		}
		t.rows = append(t.rows, row)
	}
	return t
}
