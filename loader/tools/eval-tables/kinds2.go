package main

// The kinds set's second generation (kindsVersion 2, session 23): table
// kinds that real documents have and that neither tablegen nor the v1
// kinds draw, chosen from what ordinary reports, manuals, minutes and
// data sheets look like (written without reading the held-out browser
// set's drawing code): small tables with no rules or shading inside
// running text; paragraphs in the table's own font and leading right
// above, below or beside it; two tables side by side; a table directly
// followed by another of other columns; tables whose first column is
// long wrapped text; column groups under spanning head cells (and row
// groups in a spanning first column); tables inside a list item or a
// framed box.

import (
	"fmt"
	"slices"
	"strings"
)

var kdKindsV2 = []string{"unruled", "prose", "beside", "sidebyside", "stacked", "wrapped", "spanhead", "boxed"}

// kdTopic is a small table's subject: its column heads and a value
// maker per column.
type kdTopic struct {
	heads []string
	vals  []func(g kdGen) string
}

func pickOf(xs ...string) func(g kdGen) string { return func(g kdGen) string { return g.pick(xs) } }

func numOf(lo, hi int) func(g kdGen) string {
	return func(g kdGen) string { return fmt.Sprint(g.n(lo, hi)) }
}

func decOf(lo, hi, d int) func(g kdGen) string {
	return func(g kdGen) string {
		return fmt.Sprintf("%d.%0*d", g.n(lo, hi), d, g.n(0, pow10(d)-1))
	}
}

func pow10(d int) int {
	p := 1
	for ; d > 0; d-- {
		p *= 10
	}
	return p
}

var kdTopics = []kdTopic{
	{[]string{"Parameter", "Symbol", "Value", "Unit"}, []func(kdGen) string{
		pickOf("Supply voltage", "Output current", "Operating temperature", "Switching frequency", "Weight", "Storage humidity", "Input impedance", "Cable length"),
		pickOf("V", "I", "T", "f", "m", "RH", "Z", "L"), decOf(0, 480, 1), pickOf("V", "mA", "°C", "kHz", "kg", "%", "kΩ", "m")}},
	{[]string{"Country", "Capital", "Population (m)", "Area (km²)"}, []func(kdGen) string{
		pickOf("Portugal", "Norway", "Chile", "Kenya", "Vietnam", "Canada", "Austria", "Peru", "Ghana", "Finland"),
		pickOf("Lisbon", "Oslo", "Santiago", "Nairobi", "Hanoi", "Ottawa", "Vienna", "Lima", "Accra", "Helsinki"),
		decOf(1, 98, 1), func(g kdGen) string { return group(g.n(20000, 999999), ",") }}},
	{[]string{"Name", "Role", "Extension", "Room"}, []func(kdGen) string{
		pickOf("A. Lindqvist", "R. Okafor", "M. Dubois", "S. Tanaka", "J. García", "P. Novak", "L. Rossi", "K. Mensah"),
		pickOf("Chair", "Secretary", "Treasurer", "Project lead", "Data officer", "Site manager", "Member"),
		numOf(2000, 7999), func(g kdGen) string { return fmt.Sprintf("%c-%d", 'A'+rune(g.n(0, 5)), g.n(101, 420)) }}},
	{[]string{"Date", "Session", "Speaker", "Time"}, []func(kdGen) string{
		func(g kdGen) string {
			return fmt.Sprintf("%d %s", g.n(1, 28), g.pick([]string{"March", "April", "June", "October", "November"}))
		},
		pickOf("Opening remarks", "Budget review", "Field report", "Panel discussion", "Closing", "Workshop A", "Poster session"),
		pickOf("Dr Weber", "Ms Haddad", "Prof. Ito", "Mr Boateng", "Dr Silva", "Ms Kowalska"),
		func(g kdGen) string { return fmt.Sprintf("%02d:%02d", g.n(8, 17), 15*g.n(0, 3)) }}},
	{[]string{"Grade", "Score", "Students", "Share"}, []func(kdGen) string{
		pickOf("A", "B", "C", "D", "E", "Pass", "Merit", "Distinction"), func(g kdGen) string { lo := g.n(40, 85); return fmt.Sprintf("%d–%d", lo, lo+g.n(4, 14)) },
		numOf(3, 240), func(g kdGen) string { return decOf(1, 48, 1)(g) + "%" }}},
	{[]string{"Component", "Part no.", "Qty", "Price"}, []func(kdGen) string{
		pickOf("Hex bolt M8", "Washer", "Bearing 6204", "Seal kit", "Drive belt", "Relay 24 V", "Fuse 10 A", "Hose clamp"),
		func(g kdGen) string {
			return fmt.Sprintf("%s-%04d", g.pick([]string{"HB", "WS", "BR", "SK", "DB", "RL"}), g.n(1, 9999))
		},
		numOf(1, 60), func(g kdGen) string { return decOf(0, 380, 2)(g) }}},
	{[]string{"Year", "Visitors", "Events", "Income"}, []func(kdGen) string{
		numOf(2014, 2026), func(g kdGen) string { return group(g.n(1200, 98000), ",") }, numOf(4, 90),
		func(g kdGen) string { return "£" + group(g.n(3000, 900000), ",") }}},
}

// small is a small table of one topic: 2-4 columns, 3-6 body rows, no
// rules and no shading, a head row (bold, italic or plain) or none.
func (g kdGen) small() kdTable {
	tp := kdTopics[g.r.IntN(len(kdTopics))]
	cols := g.n(2, 4)
	idx := g.r.Perm(len(tp.heads))[:cols]
	slices.Sort(idx) // the topic's order reads better
	css := `#T{border-collapse:collapse;margin:` + fmt.Sprint(g.n(2, 10)) + `px 0}#T td,#T th{padding:0 ` + fmt.Sprint(g.n(10, 28)) + `px 0 0;text-align:left;vertical-align:top}` +
		`#T th{font-weight:` + g.pick([]string{"bold", "bold", "normal;font-style:italic", "normal"}) + `}`
	if g.p(0.4) {
		css += `#T .n{text-align:right}`
	}
	if g.p(0.3) {
		css += `#T{margin-left:` + fmt.Sprint(g.n(16, 48)) + `px}`
	}
	t := kdTable{css: css}
	if g.p(0.75) {
		var h []kdCell
		for _, c := range idx {
			h = append(h, kh(tp.heads[c]))
		}
		t.rows = append(t.rows, h)
	}
	for r := g.n(3, 6); r > 0; r-- {
		var row []kdCell
		for i, c := range idx {
			cl := kc(tp.vals[c](g))
			if i > 0 {
				cl = cl.with("n")
			}
			row = append(row, cl)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

var kdLong = []string{
	"The contractor shall submit a method statement for all work carried out at height before the start of the works",
	"Access to the site is restricted to authorised persons wearing the protective equipment listed in annex B",
	"Records of inspections are kept for at least five years and made available to the authority on request",
	"Where the supply is interrupted for more than four hours the operator informs the customers concerned",
	"Samples are stored at four degrees and analysed within forty-eight hours of collection",
	"Staff who handle personal data complete the annual training and confirm that they have read the policy",
	"The system logs every change of a user's rights together with the name of the person who approved it",
	"Invoices that do not quote the purchase order number are returned to the supplier without payment",
	"Fire doors are kept closed at all times and checked weekly for damage to the seals and closers",
	"Spare parts for critical equipment are held in stock so that a failure can be repaired within one shift",
	"Meeting minutes are circulated within ten working days and approved at the following meeting",
	"Temporary works are designed by a competent engineer and checked independently before use",
}

// wrapped is a table whose first column holds long text that wraps
// over two to four lines (requirements, risks, actions), the others
// short values; rules between rows, a full grid or none.
func (g kdGen) wrapped() kdTable {
	cols := g.n(2, 4)
	rules := g.pick([]string{"none", "rows", "grid", "rows"})
	css := `#T{border-collapse:collapse;width:100%;margin:6px 0}#T td,#T th{padding:` + fmt.Sprint(g.n(2, 6)) + `px 6px;text-align:left;vertical-align:` + g.pick([]string{"top", "top", "middle"}) + `}#T .w{width:` + fmt.Sprint(g.n(45, 65)) + `%}`
	switch rules {
	case "rows":
		css += `#T tr+tr td{border-top:0.75px solid #888}#T th{border-bottom:1.5px solid #000}`
	case "grid":
		css += `#T td,#T th{border:0.75px solid #555}#T th{background:#e4e8ec}`
	}
	heads := [][]string{{"Requirement", "Ref.", "Status", "Due"}, {"Risk", "Likelihood", "Impact", "Owner"}, {"Action", "Owner", "Deadline", "Done"}}[g.n(0, 2)]
	vals := []func(kdGen) string{
		func(g kdGen) string { return fmt.Sprintf("%d.%d", g.n(1, 9), g.n(1, 20)) },
		pickOf("Open", "Closed", "High", "Low", "Medium", "In progress", "J. Meyer", "Facilities"),
		func(g kdGen) string { return fmt.Sprintf("%02d/%02d/2027", g.n(1, 28), g.n(1, 12)) },
	}
	t := kdTable{css: css}
	h := []kdCell{kh(heads[0]).with("w")}
	for c := 1; c < cols; c++ {
		h = append(h, kh(heads[c]))
	}
	t.rows = append(t.rows, h)
	for r := g.n(3, 7); r > 0; r-- {
		txt := g.pick(kdLong)
		if g.p(0.4) {
			more := g.pick(kdLong)
			txt += "; " + strings.ToLower(more[:1]) + more[1:]
		}
		row := []kdCell{kc(txt + ".").with("w")}
		for c := 1; c < cols; c++ {
			row = append(row, kc(vals[c-1](g)))
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// spanhead has column groups under spanning head cells (a stub head
// spanning the two head rows), and now and then row groups: a category
// in the first column spanning two or three rows.
func (g kdGen) spanhead() kdTable {
	groups := g.n(2, 3)
	per := g.n(2, 3)
	rules := g.pick([]string{"grid", "under", "none"})
	css := `#T{border-collapse:collapse;margin:6px 0}#T td,#T th{padding:2px ` + fmt.Sprint(g.n(5, 12)) + `px}#T td.n{text-align:right}#T th{text-align:center;font-weight:` + g.pick([]string{"bold", "normal"}) + `}#T .rg{vertical-align:` + g.pick([]string{"middle", "top"}) + `;text-align:left}`
	switch rules {
	case "grid":
		css += `#T td,#T th{border:0.75px solid #444}`
	case "under":
		css += `#T .g{border-bottom:0.75px solid #000}#T tr.x th{border-bottom:1px solid #000}#T{border-bottom:1px solid #000}`
	}
	gn := g.r.Perm(6)
	gnames := []string{"Men", "Women", "Urban", "Rural", "Full time", "Part time"}
	sn := [][]string{{"2024", "2025", "2026"}, {"n", "%", "Δ"}, {"Q1", "Q2", "Q3"}}[g.n(0, 2)][:per]
	rowGroups := g.p(0.5)
	t := kdTable{css: css}
	top := []kdCell{kh(g.pick([]string{"Age group", "Sector", "Region", "Indicator"})).span(2, 1)}
	if rowGroups {
		top = append([]kdCell{kh("").span(2, 1)}, top...)
	}
	var second []kdCell
	for i := 0; i < groups; i++ {
		top = append(top, kh(gnames[gn[i]]).span(1, per).with("g"))
		for _, s := range sn {
			second = append(second, kh(s))
		}
	}
	t.rows = append(t.rows, top, second)
	stubs := []string{"16–24", "25–34", "35–49", "50–64", "65 and over", "Agriculture", "Manufacturing", "Construction", "Retail", "Public sector"}
	sp := g.r.Perm(len(stubs))
	ncols := groups * per
	body := g.n(4, 9)
	for r := 0; r < body; {
		var row []kdCell
		left := body - r
		if rowGroups {
			k := g.n(2, 3)
			if k > left {
				k = left
			}
			cat := g.pick([]string{"North", "South", "East", "West", "Total", "Other"})
			for i := 0; i < k; i++ {
				row = nil
				if i == 0 {
					row = append(row, kc(cat).span(k, 1).with("rg"))
				}
				row = append(row, kc(stubs[sp[(r+i)%len(sp)]]))
				for c := 0; c < ncols; c++ {
					row = append(row, kc(decOf(0, 99, 1)(g)).with("n"))
				}
				t.rows = append(t.rows, row)
			}
			r += k
			continue
		}
		row = append(row, kc(stubs[sp[r%len(sp)]]))
		for c := 0; c < ncols; c++ {
			row = append(row, kc(decOf(0, 99, 1)(g)).with("n"))
		}
		t.rows = append(t.rows, row)
		r++
	}
	return t
}

// tight is a paragraph in the page's font and leading with no margin
// between it and what comes next.
func (g kdGen) tight(lo, hi int) string {
	return strings.Replace(g.para(lo, hi), "<p>", `<p style="margin:0">`, 1)
}

// v2Page draws the v2 kinds; ok false for another kind.
func (g kdGen) v2Page(kind string, one func(string, ...kdTable) kdPage) (kdPage, bool) {
	anyTable := func() kdTable {
		switch g.n(0, 3) {
		case 0:
			return g.wrapped()
		case 1:
			return g.spanhead()
		}
		return g.small()
	}
	switch kind {
	case "unruled":
		// one to three small tables inside running text
		body := g.para(1, 3)
		var ts []kdTable
		for i := g.n(1, 3); i > 0; i-- {
			if g.p(0.4) {
				body += "<p>" + strings.TrimSuffix(g.sentence(), ".") + ":</p>"
			}
			body += fmt.Sprintf("{T%d}", len(ts)) + g.para(1, 2)
			ts = append(ts, g.small())
		}
		return one(body, ts...), true
	case "prose":
		// paragraphs with no margin right above and below the table
		t := anyTable()
		t.css += `#T{margin:0}`
		return one(g.para(0, 1)+g.tight(1, 3)+"{T0}"+g.tight(1, 3)+g.para(0, 2), t), true
	case "beside":
		// a table floated left or right, the text running beside it
		t := g.small()
		side := g.pick([]string{"left", "right"})
		t.css += fmt.Sprintf(`#T{float:%s;margin:4px %dpx 4px %dpx}`, side, map[string]int{"left": g.n(10, 24), "right": 0}[side], map[string]int{"left": 0, "right": g.n(10, 24)}[side])
		return one(g.para(1, 2)+"{T0}"+g.para(3, 5)+g.para(2, 4)+`<div style="clear:both"></div>`+g.para(0, 2), t), true
	case "sidebyside":
		a, b := g.small(), anyTable()
		if g.p(0.5) {
			b = g.small()
		}
		b.css += `#T{width:auto}`
		a.css += `#T{width:auto}`
		// a two-track grid, the first track as wide as its table, the
		// second taking the rest
		body := g.para(1, 2) + fmt.Sprintf(`<div style="display:grid;grid-template-columns:max-content minmax(0,1fr);column-gap:%dpx;align-items:start">`, g.n(20, 60)) +
			"<div>{T0}</div><div>{T1}</div></div>" + g.para(1, 2)
		return one(body, a, b), true
	case "stacked":
		// a table right after another of other columns, the same style
		a, b := anyTable(), anyTable()
		for len(b.rows[len(b.rows)-1]) == len(a.rows[len(a.rows)-1]) {
			b = anyTable()
		}
		gap := g.n(0, 10)
		a.css += fmt.Sprintf(`#T{margin:6px 0 %dpx 0}`, gap)
		b.css += `#T{margin-top:0}`
		return one(g.para(1, 2)+"{T0}{T1}"+g.para(1, 2), a, b), true
	case "wrapped":
		return one(g.para(1, 2)+"{T0}"+g.para(1, 2), g.wrapped()), true
	case "spanhead":
		body := g.para(1, 2)
		if g.p(0.5) {
			body += fmt.Sprintf("<p><b>Table %d.</b> %s</p>", g.n(1, 9), strings.TrimSuffix(g.sentence(), "."))
		}
		return one(body+"{T0}"+g.para(1, 2), g.spanhead()), true
	case "boxed":
		t := g.small()
		if g.p(0.4) {
			t = anyTable()
		}
		if g.p(0.5) {
			// in a list item, after its own text
			body := g.para(1, 1) + "<ol>" + "<li>" + g.sentence() + "</li><li>" + g.sentence() + "{T0}</li><li>" + g.sentence() + "</li></ol>" + g.para(1, 2)
			return one(body, t), true
		}
		box := fmt.Sprintf(`<div style="border:%s;background:%s;padding:%dpx %dpx;margin:10px 0">`, g.pick([]string{"1px solid #333", "2px solid #6a8caf", "0.75px solid #999"}),
			g.pick([]string{"#f4f6f8", "#fff8e6", "none"}), g.n(6, 14), g.n(8, 20))
		body := g.para(1, 2) + box + "<p style=\"margin:0 0 4px 0\"><b>" + g.pick([]string{"Box 2", "Key figures", "At a glance", "Note on method", "Example"}) + "</b> " + g.sentence() + "</p>{T0}</div>" + g.para(1, 2)
		return one(body, t), true
	}
	return kdPage{}, false
}
