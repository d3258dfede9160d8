package office

import (
	"context"
	"encoding/xml"
	"path"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// An ODF document shows a chart as an embedded object: a draw:object whose
// xlink:href names a folder of the package ("./Object 1") holding the
// chart's own content.xml, its title, subtitle and data (a local table:
// the series names over their values by category). LibreOffice writes
// every chart of a text, spreadsheet or presentation so. Before
// office/13 none was read: python-odf's barchart example (an ODT of one
// chart) landed nothing, with no warning.

// odfChart is an embedded chart's caption and table rows.
type odfChart struct {
	title, subtitle string
	rows            [][]string
	dropped         int // repeated rows' and cells' copies the cap left out (odfTables.Dropped)
}

// odfObjectPart is the content part an internal object reference names
// ("" for an external or empty one).
func odfObjectPart(href string) string {
	h := strings.TrimPrefix(strings.TrimSpace(href), "./")
	if h == "" || strings.Contains(h, ":") || strings.HasPrefix(h, "/") || strings.HasPrefix(h, "..") {
		return ""
	}
	return path.Join(h, "content.xml")
}

// readODFChart reads an object's content part: ok is false when the
// object is no chart (a formula, a text), err when the part cannot be read.
func readODFChart(ctx context.Context, ix *zipIndex, part string) (ch odfChart, ok bool, err error) {
	rc, err := ix.open(part)
	if err != nil {
		return ch, false, err
	}
	defer rc.Close()
	toks := partTokens{ctx: ctx, d: newDecoder(rc), part: part}
	var (
		stack  []string // open elements' local names
		tables odfTables
		text   strings.Builder
		inText int // open text:p or text:h
	)
	for {
		tok, err := toks.next()
		if tok == nil {
			ch.dropped = tables.Dropped
			return ch, ok, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			switch t.Name.Local {
			case "chart":
				if strings.Contains(t.Name.Space, ":office:") {
					ok = true
				}
			case "p", "h":
				inText++
				if inText == 1 {
					text.Reset()
				}
			case "s", "tab", "line-break":
				text.WriteString(odfWhitespace(t))
			case "table", "table-row", "table-cell", "covered-table-cell":
				tables.startTag(t, true)
			}
		case xml.CharData:
			if inText > 0 {
				text.Write(t)
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			switch t.Name.Local {
			case "p", "h":
				if inText--; inText > 0 {
					continue
				}
				s := strings.Join(strings.Fields(text.String()), " ")
				// the chart's own title and subtitle (an axis's title is
				// inside chart:axis)
				parent := ""
				if n := len(stack); n >= 2 {
					parent = stack[n-1] + "<" + stack[n-2]
				}
				switch parent {
				case "title<chart":
					ch.title = s
				case "subtitle<chart":
					ch.subtitle = s
				default:
					tables.addPara(s)
				}
			case "table", "table-row", "table-cell", "covered-table-cell":
				if rows, done := tables.endTag(t); done && ch.rows == nil {
					ch.rows = rows
				}
			}
		}
	}
}

// caption is the chart's Caption text: "Chart: title", the subtitle on
// the next line.
func (ch odfChart) caption() string {
	s := "Chart"
	if ch.title != "" {
		s += ": " + ch.title
	}
	if ch.subtitle != "" {
		s += "\n" + ch.subtitle
	}
	return s
}

// odfObjects are the charts met in the walk, emitted after the paragraph,
// table or sheet that shows them (flush).
type odfObjects struct {
	ctx   context.Context
	b     *builder
	ix    *zipIndex
	parts []string
}

// add records a draw:object's reference.
func (o *odfObjects) add(href string) {
	if p := odfObjectPart(href); p != "" {
		o.parts = append(o.parts, p)
	}
}

// flush adds each recorded chart: a Caption and its table. An object
// that is no chart (a formula, an embedded text) or cannot be read is a
// warning.
func (o *odfObjects) flush() {
	for _, part := range o.parts {
		ch, ok, err := readODFChart(o.ctx, o.ix, part)
		switch {
		case err != nil:
			o.b.warn("embedded object %q: %v", path.Dir(part), err)
		case !ok:
			o.b.warn("embedded object %q is no chart: its content is not read", path.Dir(part))
		default:
			o.b.add(document.Caption, ch.caption(), 0)
			o.b.addTableRows(ch.rows)
			repeatCut(o.b, "chart "+path.Dir(part), ch.dropped)
		}
	}
	o.parts = o.parts[:0]
}
