package main

// The kinds set: a TUNE set of Chromium-printed table pages, of another
// origin than tablegen's (which draws with its own page writer) and
// written apart from the held-out browser set (whose drawing code was not
// read for it). Each page draws one kind of table that real documents
// have and tablegen does not: financial statements with indented stubs,
// section rows and subtotal rules, numbers aligned with a wrapped stub's
// last line; scientific tables with a caption above, booktabs rules,
// two-level column heads, decimals with footnote marks and notes under
// the table; forms-like key/value grids; invoices with wrapped line items
// and totals under them; timetables of narrow time columns; dense
// small-font statistical tables with a source line; tables in a
// two-column article; a table continued on a second page with its head
// repeated. Fonts, sizes, rules and shading vary per page.
//
// Seeds 1001..1000+n (its own range) from its own RNG stream; even seeds
// are the tune split (-v and -show print their documents), odd seeds the
// report split (figures only). Printing and the truth (cells from the
// HTML, boxes from Chromium's layout of the same file) are the browser
// set's (renderBrowser, browserTruth).

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// kindsVersion names the generator: figures of other versions are not
// comparable.
const kindsVersion = 4 // 4: session 39: the font, size and leading reach Chromium (kdFamilies' quotes); 3: session 23: side-by-side tables in a CSS grid (review26); 2: session 23: the v2 kinds (kinds2.go) drawn with v1's

// kindsFirst is the seed before the set's first (its own range: the
// browser set's are 1..60).
const kindsFirst = 1000

// kindsStream is the RNG's second word (its own stream).
const kindsStream = 0x6b696e6473 // "kinds"

// kindsReport says whether a kinds seed is in the report split (odd).
func kindsReport(seed uint64) bool { return seed%2 == 1 }

// kdCell is one HTML cell: text ("\n" is a line break), spans, a head
// cell, and CSS classes of the table's style sheet.
type kdCell struct {
	text   string
	rs, cs int
	head   bool
	cls    string
}

// kdTable is one table: rows of cells as written (spanned places left
// out) and its CSS, "#T" standing for its id.
type kdTable struct {
	rows [][]kdCell
	css  string
}

// brTable is the table as the browser set's writer and truth take it.
func (t kdTable) brTable() brTable {
	b := brTable{css: t.css}
	for _, row := range t.rows {
		var r []brCell
		for _, c := range row {
			r = append(r, brCell{lines: strings.Split(c.text, "\n"), rs: c.rs, cs: c.cs, head: c.head, cls: c.cls})
		}
		b.rows = append(b.rows, r)
	}
	return b
}

func (t kdTable) html(id string) string { return t.brTable().html(id) }

func kc(text string) kdCell             { return kdCell{text: text, rs: 1, cs: 1} }
func kh(text string) kdCell             { return kdCell{text: text, rs: 1, cs: 1, head: true} }
func (c kdCell) with(cls string) kdCell { c.cls = strings.TrimSpace(c.cls + " " + cls); return c }
func (c kdCell) span(rs, cs int) kdCell { c.rs, c.cs = rs, cs; return c }

type kdGen struct{ r *rand.Rand }

func (g kdGen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }
func (g kdGen) n(lo, hi int) int        { return lo + g.r.IntN(hi-lo+1) }
func (g kdGen) p(x float64) bool        { return g.r.Float64() < x }

// The set's own vocabulary (prose of annual reports, papers, notices).
var kdProse = strings.Fields(`the group company during year results increased decreased compared
previous period mainly due higher lower demand costs revenue margin segment operations customers
market growth management board expects further investment programme contracts energy prices
sample participants study measured significant difference between groups treatment baseline
follow analysis model estimated effect observed reported values were shown table above below
service passengers timetable changes apply from station route connections weekend holiday
invoice payment terms delivery goods received within days account reference statement notes
accounting policies fair value assets liabilities equity shares dividend interest tax cash flows`)

func (g kdGen) sentence() string {
	w := make([]string, g.n(8, 20))
	for i := range w {
		w[i] = g.pick(kdProse)
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ") + "."
}

func (g kdGen) para(lo, hi int) string {
	s := make([]string, g.n(lo, hi))
	for i := range s {
		s[i] = g.sentence()
	}
	return "<p>" + strings.Join(s, " ") + "</p>\n"
}

// kdFamilies are the pages' CSS font families, their names in single
// quotes: the pages write them into a double-quoted style attribute,
// which a double quote would end (before v4, v3, v2 of the kinds, hard
// and surround sets it did: their pages printed in the page's default
// font, size and leading).
var kdFamilies = []string{`'Liberation Sans', sans-serif`, `'Liberation Serif', serif`, `'Liberation Sans Narrow', sans-serif`,
	`'DejaVu Sans Condensed', sans-serif`, `'DejaVu Serif', serif`, `'DejaVu Sans', sans-serif`}

// group formats n with thousands separators.
func group(n int, sep string) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + sep + s[i:]
	}
	return s
}

// money is an accounting amount: thousands grouped, negatives in
// parentheses (or a minus), nil as a dash.
func (g kdGen) money(neg bool) string {
	if g.p(0.05) {
		return g.pick([]string{"–", "—", "-"})
	}
	v := group(g.n(1, 99999)*g.n(1, 40), ",")
	if neg {
		if g.p(0.8) {
			return "(" + v + ")"
		}
		return "−" + v
	}
	return v
}

func (g kdGen) decimal(d int) string {
	return fmt.Sprintf("%.*f", d, float64(g.n(1, 9999))/float64(g.n(1, 100)))
}

// page wraps a body in a div of the page's font and size.
func kdWrap(font string, size float64, body string) string {
	return fmt.Sprintf(`<div style="font-family:%s;font-size:%.1fpx;line-height:1.3">`, font, size) + body + "</div>"
}

// kdPage is one seed's page or pages (a continued table takes two) and
// the layout kind drawn.
type kdPage struct {
	pages []brPage
	kind  string
}

var kdKinds = append([]string{"statement", "science", "form", "invoice", "timetable", "dense", "article", "continued"}, kdKindsV2...)

func kindsPage(seed uint64) kdPage {
	g := kdGen{rand.New(rand.NewPCG(seed, kindsStream))}
	kind := kdKinds[g.r.IntN(len(kdKinds))]
	font := g.pick(kdFamilies)
	size := float64(g.n(18, 24)) / 2
	one := func(body string, ts ...kdTable) kdPage {
		p := brPage{}
		for i, t := range ts {
			body = strings.Replace(body, fmt.Sprintf("{T%d}", i), t.html(fmt.Sprintf("k%d_%d", seed, i)), 1)
			p.tables = append(p.tables, t.brTable())
		}
		p.body = kdWrap(font, size, body)
		return kdPage{pages: []brPage{p}, kind: kind}
	}
	if kp, ok := g.v2Page(kind, one); ok {
		return kp
	}
	switch kind {
	case "statement":
		t := g.statement(g.n(8, 20))
		body := g.para(1, 3) + fmt.Sprintf("<p style=\"font-weight:bold;margin-bottom:2px\">%s</p>", g.pick(kdStatementTitles))
		if g.p(0.5) {
			body += "<p style=\"margin-top:0\">(" + g.pick([]string{"in thousands of euros", "USD millions", "£000", "in CHF thousands"}) + ")</p>"
		}
		body += "{T0}" + g.para(1, 2)
		if g.p(0.4) {
			body += "{T1}"
			return one(body, t, g.statement(g.n(5, 9)))
		}
		return one(body, t)
	case "science":
		t := g.science()
		body := g.para(1, 2) + fmt.Sprintf("<p><b>Table %d.</b> %s</p>{T0}", g.n(1, 6), strings.TrimSuffix(g.sentence(), ".")) + g.notes() + g.para(1, 3)
		return one(body, t)
	case "form":
		body := fmt.Sprintf("<h3>%s</h3>", g.pick([]string{"Application for a permit", "Supplier registration", "Claim form", "Change of address notice"})) +
			g.para(1, 1) + "{T0}"
		if g.p(0.6) {
			body += "<p></p>{T1}" + g.para(0, 1)
			return one(body, g.form(), g.form())
		}
		return one(body+g.para(1, 2), g.form())
	case "invoice":
		return one(g.invoiceHead()+"{T0}"+"<p style=\"font-size:90%\">Payment terms: "+g.sentence()+"</p>", g.invoice())
	case "timetable":
		t := g.timetable()
		body := fmt.Sprintf("<p><b>%s</b> — %s</p>{T0}<p style=\"font-size:85%%\">%s</p>", g.pick(kdStops)+" – "+g.pick(kdStops),
			g.pick([]string{"Mondays to Fridays", "Saturdays", "Sundays and public holidays", "Daily from 14 December"}), g.sentence())
		return one(g.para(0, 1)+body, t)
	case "dense":
		t := g.dense(g.n(12, 30))
		body := g.para(1, 2) + fmt.Sprintf("<p><b>%s</b></p>{T0}<p style=\"font-size:80%%\">Source: %s</p>", g.pick(kdDenseTitles), g.pick(kdSources)) + g.para(0, 1)
		return one(body, t)
	case "article":
		return g.article(seed, font, size)
	}
	return g.continued(seed, font, size)
}

var kdStatementTitles = []string{"Consolidated income statement", "Statement of financial position", "Cash flow statement",
	"Segment information", "Statement of changes in equity", "Five-year summary"}

var kdSections = []string{"Revenue", "Operating expenses", "Non-current assets", "Current assets", "Financing activities",
	"Investing activities", "Equity", "Liabilities"}

var kdItems = []string{"Sales of goods", "Rendering of services", "Cost of sales", "Personnel expenses", "Depreciation and amortisation",
	"Other operating income", "Impairment of goodwill and other intangible assets", "Trade and other receivables",
	"Inventories", "Cash and cash equivalents", "Property, plant and equipment", "Right-of-use assets", "Deferred tax assets",
	"Interest paid", "Proceeds from borrowings", "Repayment of lease liabilities", "Dividends paid to shareholders of the parent",
	"Share-based payment reserve", "Provisions", "Income tax expense", "Net finance costs", "Research and development costs",
	"Gain on disposal of subsidiaries, net of cash disposed", "Employee benefit obligations"}

// statement is a financial statement: section rows, indented items,
// subtotal and total rows with rules over their amounts.
func (g kdGen) statement(rows int) kdTable {
	cols := g.n(2, 3)
	note := g.p(0.4)
	cur := g.pick([]string{"", "", "$", "€", "£"})
	css := `#T{border-collapse:collapse;width:100%}#T td,#T th{padding:1px 6px;vertical-align:` + g.pick([]string{"bottom", "bottom", "top"}) + `}
#T .n{text-align:right;white-space:nowrap}#T .i1{padding-left:14px}#T .i2{padding-left:28px}#T .sub{border-top:1px solid #000}
#T .tot{border-top:1px solid #000;border-bottom:3px double #000;font-weight:bold}#T .sec{font-weight:bold}#T th{text-align:right;font-weight:bold}#T .st{width:` + fmt.Sprint(g.n(35, 55)) + `%}`
	if g.p(0.3) {
		css += `#T tr:nth-child(even) td{background:#eef1f6}`
	}
	if g.p(0.3) {
		css += `#T th{border-bottom:1px solid #000}`
	}
	var t kdTable
	t.css = css
	head := []kdCell{kh("").with("st")}
	if note {
		head = append(head, kh("Note"))
	}
	year := g.n(2019, 2026)
	var yh []kdCell
	for c := 0; c < cols; c++ {
		lab := fmt.Sprint(year - c)
		if c == 2 && g.p(0.5) {
			lab = "Change"
		}
		yh = append(yh, kh(lab))
	}
	if g.p(0.35) {
		top := []kdCell{kh("").with("st")}
		if note {
			top = append(top, kh(""))
		}
		t.rows = append(t.rows, append(top, kh(g.pick([]string{"Year ended 31 December", "Group", "Six months to 30 June"})).span(1, cols)))
	}
	t.rows = append(t.rows, append(head, yh...))
	amounts := func(cls string, neg bool) []kdCell {
		var out []kdCell
		for c := 0; c < cols; c++ {
			v := g.money(neg && g.p(0.7))
			if cur != "" && cls != "" {
				v = cur + " " + v
			}
			out = append(out, kc(v).with("n "+cls))
		}
		return out
	}
	for r := 0; r < rows; r++ {
		var row []kdCell
		switch {
		case r > 0 && g.p(0.15):
			row = append(row, kc(g.pick(kdSections)).with("sec"))
			for c := 0; c < cols+btoi(note); c++ {
				row = append(row, kc(""))
			}
		case r > 2 && g.p(0.15):
			row = append(row, kc(g.pick([]string{"Total", "Subtotal", "Gross profit", "Operating profit", "Net cash from operating activities", "Profit for the year"})).with("sec"))
			if note {
				row = append(row, kc(""))
			}
			cls := "sub"
			if g.p(0.4) {
				cls = "tot"
			}
			row = append(row, amounts(cls, false)...)
		default:
			row = append(row, kc(g.pick(kdItems)).with(g.pick([]string{"i1", "i1", "i2", ""})))
			if note {
				n := ""
				if g.p(0.5) {
					n = fmt.Sprint(g.n(3, 28))
				}
				row = append(row, kc(n).with("n"))
			}
			row = append(row, amounts("", g.p(0.3))...)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

var kdVars = []string{"Age, years", "Body mass index, kg/m²", "Systolic pressure, mmHg", "Follow-up, months", "Haemoglobin, g/dL",
	"Yield, t/ha", "Soil nitrogen, mg/kg", "Response time, ms", "Accuracy, %", "Plot density", "Temperature, °C", "Dose, mg"}

// science is a booktabs table with a two-level head, a stub of
// variables (some in groups) and decimals with footnote marks.
func (g kdGen) science() kdTable {
	groups := g.n(2, 3)
	per := g.n(1, 3)
	subs := []string{"Mean", "SD", "n", "95% CI", "Median", "IQR"}[:per]
	if per == 1 {
		subs = []string{g.pick([]string{"Mean ± SD", "n (%)", "Median (IQR)"})}
	}
	css := `#T{border-collapse:collapse;margin:4px 0}#T td,#T th{padding:2px ` + fmt.Sprint(g.n(6, 12)) + `px}#T{border-top:1.5px solid #000;border-bottom:1.5px solid #000}
#T .h2 th{border-bottom:1px solid #000}#T .g{border-bottom:0.8px solid #000}#T .n{text-align:` + g.pick([]string{"right", "center", "right"}) + `}#T th{font-weight:` + g.pick([]string{"bold", "normal"}) + `}#T .i1{padding-left:18px}`
	t := kdTable{css: css}
	gnames := []string{"Control", "Treatment", "Placebo", "Low dose", "High dose", "Cohort A", "Cohort B", "Site 1", "Site 2"}
	top := []kdCell{kh(g.pick([]string{"Variable", "Characteristic", "Outcome", "Parameter"})).span(2, 1)}
	if per == 1 {
		top[0] = top[0].span(1, 1)
	}
	var second []kdCell
	for i := 0; i < groups; i++ {
		lab := gnames[(i+g.n(0, 8))%len(gnames)]
		if per == 1 {
			top = append(top, kh(lab+"\n"+fmt.Sprintf("(n = %d)", g.n(12, 480))))
			continue
		}
		top = append(top, kh(lab).span(1, per).with("g"))
		for _, s := range subs {
			second = append(second, kh(s))
		}
	}
	if g.p(0.5) {
		if per == 1 {
			top = append(top, kh("p"))
		} else {
			top = append(top, kh("p value").span(2, 1))
		}
	}
	t.rows = append(t.rows, top)
	if second != nil {
		t.rows = append(t.rows, second)
	}
	ncols := len(top) - 1 + (groups*per - groups)
	if per == 1 {
		ncols = len(top) - 1
	}
	rows := g.n(4, 12)
	for r := 0; r < rows; r++ {
		if g.p(0.15) {
			row := []kdCell{kc(g.pick([]string{"Sex", "Region", "Baseline", "Outcomes at 12 months", "Soil type"})).with("sec")}
			for c := 0; c < ncols; c++ {
				row = append(row, kc(""))
			}
			t.rows = append(t.rows, row)
			continue
		}
		row := []kdCell{kc(g.pick(kdVars)).with(g.pick([]string{"", "i1"}))}
		for c := 0; c < ncols; c++ {
			v := g.decimal(g.n(1, 2))
			switch {
			case per == 1 && g.p(0.5):
				v += " ± " + g.decimal(1)
			case g.p(0.1):
				v += g.pick([]string{"*", "**", "a", "†", "b"})
			case g.p(0.05):
				v = g.pick([]string{"—", "NA", "<0.001"})
			}
			row = append(row, kc(v).with("n"))
		}
		t.rows = append(t.rows, row)
	}
	return t
}

func (g kdGen) notes() string {
	s := `<div style="font-size:85%;margin-top:3px">`
	s += "<p style=\"margin:0\">" + g.pick([]string{"Note.", "Notes:", "Abbreviations:"}) + " " + g.sentence() + "</p>"
	for i := g.n(0, 2); i > 0; i-- {
		s += "<p style=\"margin:0\">" + g.pick([]string{"*", "a", "†", "b"}) + " " + g.sentence() + "</p>"
	}
	return s + "</div>"
}

var kdLabels = []string{"Surname", "Given names", "Date of birth", "Registration number", "Street and number", "Postcode",
	"Town", "Country", "Telephone", "E-mail", "Tax reference", "Bank account (IBAN)", "Date of application", "Signature",
	"Type of business", "Number of employees", "Contact person", "Position held"}

var kdValues = []string{"Hartmann", "Maria Elena", "14/03/1981", "HRB 48213", "Lindenallee 12", "80331", "Aberdeen",
	"Portugal", "+44 20 7946 0018", "m.keller@example.org", "GB 293 8841 02", "DE89 3704 0044 0532 0130 00", "02 December 2026",
	"", "Wholesale of machinery and equipment", "27", "J. Okafor", "Finance manager", "Yes", "No", "Not applicable"}

// form is a key/value grid: labels and values in 2 or 4 columns, full
// rules, a section head spanning the grid, now and then a value over the
// rest of its row.
func (g kdGen) form() kdTable {
	pairs := g.n(1, 2)
	css := `#T{border-collapse:collapse;width:100%;margin:6px 0}#T td,#T th{border:` + g.pick([]string{"1px", "0.75px", "1.5px"}) + ` solid #444;padding:3px 5px;text-align:left}
#T .l{` + g.pick([]string{"font-weight:bold", "background:#e8e8e8", "font-size:85%"}) + `;width:` + fmt.Sprint(g.n(14, 28)) + `%}#T th{background:#cfd8dc}`
	t := kdTable{css: css}
	if g.p(0.6) {
		t.rows = append(t.rows, []kdCell{kh(g.pick([]string{"Part A — Applicant", "1. Personal details", "Section 3: Business information", "Details of the claim"})).span(1, 2*pairs)})
	}
	for r := g.n(3, 9); r > 0; r-- {
		var row []kdCell
		if pairs == 2 && g.p(0.2) {
			row = []kdCell{kc(g.pick(kdLabels)).with("l"), kc(g.pick(kdValues)+" "+g.pick(kdValues)).span(1, 3)}
		} else {
			for p := 0; p < pairs; p++ {
				row = append(row, kc(g.pick(kdLabels)).with("l"), kc(g.pick(kdValues)))
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

var kdGoods = []string{"Consulting services", "Annual software licence", "Replacement filter cartridge", "Installation and commissioning of the heat pump unit",
	"Travel expenses", "Steel bracket, galvanised", "Delivery charge", "Maintenance contract, quarterly, including spare parts and labour",
	"Printing of brochures (A4, 16 pages)", "Cable tray 2 m", "Training workshop, one day"}

func (g kdGen) invoiceHead() string {
	left := fmt.Sprintf("<div style=\"float:left;width:50%%\"><b>%s</b><br>%s<br>%s</div>", g.pick([]string{"Northgate Supplies Ltd", "Atelier Brun SARL", "Keller & Söhne GmbH"}),
		g.pick(kdValues[4:6]), g.pick([]string{"Leeds LS1 4AP", "69002 Lyon", "80331 München"}))
	right := fmt.Sprintf("<div style=\"float:right;text-align:right\">Invoice no. %d<br>Date: %02d/%02d/2026<br>Customer no. %d</div>", g.n(10000, 99999), g.n(1, 28), g.n(1, 12), g.n(100, 9999))
	return "<h2>" + g.pick([]string{"INVOICE", "Invoice", "Tax invoice"}) + "</h2>" + left + right + "<div style=\"clear:both;height:24px\"></div>"
}

// invoice is a line-item table: wrapped descriptions, right-aligned
// amounts, totals under the items with their label beside the amount.
func (g kdGen) invoice() kdTable {
	css := `#T{border-collapse:collapse;width:100%}#T td,#T th{padding:4px 6px;text-align:left}#T th{background:` + g.pick([]string{"#333;color:#fff", "#ddd", "none;border-bottom:1.5px solid #000"}) + `}
#T .n{text-align:right}#T .d{width:` + fmt.Sprint(g.n(30, 45)) + `%}#T td.line{border-bottom:` + g.pick([]string{"0.5px solid #999", "0", "0.5px dotted #777"}) + `}#T .tl{text-align:right;font-weight:bold}`
	t := kdTable{css: css}
	vat := g.p(0.5)
	head := []kdCell{kh("Item"), kh("Description").with("d"), kh("Qty").with("n"), kh("Unit price").with("n")}
	if vat {
		head = append(head, kh("VAT").with("n"))
	}
	head = append(head, kh("Amount").with("n"))
	t.rows = append(t.rows, head)
	for r := g.n(2, 10); r > 0; r-- {
		row := []kdCell{kc(fmt.Sprintf("%d-%03d", g.n(10, 99), g.n(0, 999))), kc(g.pick(kdGoods)).with("d"), kc(fmt.Sprint(g.n(1, 40))).with("n"),
			kc(group(g.n(1, 4000), ",") + "." + fmt.Sprintf("%02d", g.n(0, 99))).with("n")}
		if vat {
			row = append(row, kc(g.pick([]string{"20%", "7%", "19%", "0%"})).with("n"))
		}
		row = append(row, kc(group(g.n(1, 90000), ",")+"."+fmt.Sprintf("%02d", g.n(0, 99))).with("n"))
		for i := range row {
			row[i] = row[i].with("line")
		}
		t.rows = append(t.rows, row)
	}
	w := len(head)
	for _, lab := range []string{"Subtotal", "VAT", "Total due"}[:g.n(1, 3)] {
		t.rows = append(t.rows, []kdCell{kc("").span(1, w-2), kc(lab).with("tl"), kc(g.pick([]string{"", "€ ", "$ "}) + group(g.n(100, 99000), ",") + ".00").with("n")})
	}
	return t
}

var kdStops = []string{"Central Station", "Harbour Road", "Market Square", "Hospital (main entrance)", "University", "Airport Terminal 2",
	"Mill Lane", "Riverside Park & Ride", "Old Town Gate", "Westfield", "Industrial Estate North", "Church Street", "Lakeside"}

// timetable: stops down the stub, departures in narrow columns, dashes
// for runs that do not stop.
func (g kdGen) timetable() kdTable {
	cols := g.n(5, 11)
	css := `#T{border-collapse:collapse;font-size:` + fmt.Sprint(g.n(80, 95)) + `%}#T td,#T th{padding:1px 4px;text-align:` + g.pick([]string{"right", "center"}) + `}#T td.s,#T th.s{text-align:left;padding-right:12px}`
	if g.p(0.5) {
		css += `#T tr:nth-child(odd) td{background:#f0f0f0}`
	}
	if g.p(0.4) {
		css += `#T td,#T th{border-left:0.5px solid #888}`
	}
	t := kdTable{css: css}
	head := []kdCell{kh(g.pick([]string{"Service", "Route", "Train"})).with("s")}
	for c := 0; c < cols; c++ {
		head = append(head, kh(fmt.Sprint(g.n(100, 999))))
	}
	t.rows = append(t.rows, head)
	if g.p(0.4) {
		row := []kdCell{kc("Days").with("s")}
		for c := 0; c < cols; c++ {
			row = append(row, kc(g.pick([]string{"Mo–Fr", "Daily", "Sa", "Mo–Sa", "Su"})))
		}
		t.rows = append(t.rows, row)
	}
	start := make([]int, cols)
	for c := range start {
		start[c] = 300 + c*g.n(20, 70) + g.n(0, 9)
	}
	stops := g.n(6, 14)
	perm := g.r.Perm(len(kdStops))
	for s := 0; s < stops; s++ {
		name := kdStops[perm[s%len(perm)]]
		if s >= len(perm) {
			name += " " + fmt.Sprint(s)
		}
		row := []kdCell{kc(name).with("s")}
		for c := 0; c < cols; c++ {
			start[c] += g.n(2, 9)
			v := fmt.Sprintf("%02d:%02d", start[c]/60%24, start[c]%60)
			if g.p(0.12) {
				v = g.pick([]string{"|", "–", "↓"})
			}
			row = append(row, kc(v))
		}
		t.rows = append(t.rows, row)
	}
	return t
}

var kdDenseTitles = []string{"Households by region and type, 2025", "Enrolment by district and level", "Energy balance by sector (PJ)",
	"Exports by destination and product group", "Hospital activity by trust"}

var kdSources = []string{"National Statistics Office, household survey 2025.", "Ministry of Education, annual census.",
	"Company filings; own calculations.", "Eurostat (nrg_bal_c), extracted 3 November 2026."}

var kdRegions = []string{"North East", "North West", "Yorkshire", "East Midlands", "West Midlands", "East", "London", "South East",
	"South West", "Wales", "Scotland", "Northern Ireland", "Île-de-France", "Bavaria", "Lombardy", "Catalonia", "Flanders", "Upper Austria"}

var kdDenseHeads = []string{"Total", "Single person", "Couple, no children", "Couple with children", "Lone parent", "Other",
	"Primary", "Lower secondary", "Upper secondary", "Tertiary", "Coal", "Oil", "Gas", "Renewables", "Share, %", "Change on 2024, %"}

// dense is a small-font table of many numeric columns with multi-word
// heads that wrap in their narrow columns; regions in the stub, groups
// now and then.
func (g kdGen) dense(rows int) kdTable {
	cols := g.n(6, 11)
	css := `#T{border-collapse:collapse;width:100%;font-size:` + fmt.Sprint(g.n(65, 80)) + `%}#T td,#T th{padding:1px 3px}#T td{text-align:right}#T td.s{text-align:left}
#T th{vertical-align:bottom;font-weight:normal;text-align:right}#T{border-top:1px solid #000;border-bottom:1px solid #000}#T tr.h th{border-bottom:0.5px solid #000}`
	if g.p(0.4) {
		css += `#T tr:nth-child(4n) td{border-bottom:0.5px solid #bbb}`
	}
	t := kdTable{css: css}
	head := []kdCell{kh("").with("s")}
	perm := g.r.Perm(len(kdDenseHeads))
	for c := 0; c < cols; c++ {
		head = append(head, kh(kdDenseHeads[perm[c]]))
	}
	t.rows = append(t.rows, head)
	rp := g.r.Perm(len(kdRegions))
	for r := 0; r < rows; r++ {
		row := []kdCell{kc(kdRegions[rp[r%len(rp)]]).with("s")}
		for c := 0; c < cols; c++ {
			v := group(g.n(0, 250000), g.pick([]string{",", " ", ","}))
			if g.p(0.3) {
				v = g.decimal(1)
			}
			if g.p(0.04) {
				v = g.pick([]string{"..", ":", "x", "–"})
			}
			row = append(row, kc(v))
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// article is a two-column page: paragraphs in both columns, a narrow
// table in one with its caption.
func (g kdGen) article(seed uint64, font string, size float64) kdPage {
	var t kdTable
	switch g.n(0, 2) {
	case 0:
		t = g.dense(g.n(5, 10))
		t.rows = narrow(t.rows, g.n(3, 4))
	case 1:
		t = g.statement(g.n(4, 8))
	default:
		t = g.form()
	}
	t.css += `#T{break-inside:avoid;width:100%}`
	id := fmt.Sprintf("k%d_0", seed)
	body := fmt.Sprintf(`<h2 style="font-size:150%%">%s</h2><div style="column-count:2;column-gap:%dpx;text-align:justify">`, strings.TrimSuffix(g.sentence(), "."), g.n(18, 36))
	body += g.para(2, 4) + g.para(1, 3)
	body += fmt.Sprintf("<p style=\"text-align:left\"><b>Table %d</b> %s</p>", g.n(1, 4), strings.TrimSuffix(g.sentence(), ".")) + t.html(id)
	body += g.para(2, 4) + g.para(2, 4) + "</div>"
	return kdPage{kind: "article", pages: []brPage{{body: kdWrap(font, size, body), tables: []brTable{t.brTable()}}}}
}

// narrow keeps the first n columns of rows that span none.
func narrow(rows [][]kdCell, n int) [][]kdCell {
	out := make([][]kdCell, len(rows))
	for i, r := range rows {
		if len(r) > n {
			r = r[:n]
		}
		out[i] = r
	}
	return out
}

// continued is a table that runs over two pages: the first page's part
// under paragraphs down to its foot, the second's under a "continued"
// caption with the head repeated.
func (g kdGen) continued(seed uint64, font string, size float64) kdPage {
	var t kdTable
	if g.p(0.5) {
		t = g.dense(g.n(40, 56))
	} else {
		t = g.statement(g.n(40, 50))
	}
	// the head rows: th cells only
	h := 0
	for h < len(t.rows) && t.rows[h][0].head {
		h++
	}
	cut := h + (len(t.rows)-h)*g.n(55, 70)/100
	a := kdTable{css: t.css, rows: t.rows[:cut]}
	b := kdTable{css: t.css, rows: append(append([][]kdCell{}, t.rows[:h]...), t.rows[cut:]...)}
	title := g.pick(kdDenseTitles)
	p1 := g.para(1, 2) + "<p><b>" + title + "</b></p>" + a.html(fmt.Sprintf("k%d_0", seed))
	p2 := "<p><b>" + title + " (continued)</b></p>" + b.html(fmt.Sprintf("k%d_1", seed)) + g.para(1, 2)
	return kdPage{kind: "continued", pages: []brPage{
		{body: kdWrap(font, size, p1), tables: []brTable{a.brTable()}},
		{body: kdWrap(font, size, p2), tables: []brTable{b.brTable()}},
	}}
}
