package office

import (
	"bytes"
	"cmp"
	"context"
	"encoding/xml"
	"io"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// Charts (DrawingML chart parts, word/charts/chartN.xml and the like) hold
// their data in caches beside the picture: series names, categories and
// values. Each chart becomes a Caption ("Chart: <title>") and a table whose
// header is the series names and whose rows are the categories with one
// value per series. A chart part is found through the relationships of the
// part that shows it (a slide, a sheet's drawing, the main document).

// chartData is one chart's title and series.
type chartData struct {
	title  string
	series []chartSeries
}

type chartSeries struct {
	name string
	cats map[int]string
	vals map[int]string
	refs map[string]string // "tx", "cat", "val": the cell ranges the caches copy
	xy   bool              // cats are x values (xVal: scatter, bubble), not categories
}

// readChart parses a chart part.
func readChart(ctx context.Context, ix *zipIndex, part string) (*chartData, error) {
	rc, err := ix.open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := newDecoder(rc)
	ch := &chartData{}
	var stack []string
	var ser *chartSeries
	var title strings.Builder
	idx, lvl := 0, 0
	var text strings.Builder
	within := func(names ...string) string { // the nearest of names on the stack
		for i := len(stack) - 1; i >= 0; i-- {
			for _, n := range names {
				if stack[i] == n {
					return n
				}
			}
		}
		return ""
	}
	n := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return ch, err
		}
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			switch t.Name.Local {
			case "ser":
				ch.series = append(ch.series, chartSeries{cats: map[int]string{}, vals: map[int]string{}, refs: map[string]string{}})
				ser = &ch.series[len(ch.series)-1]
			case "pt":
				idx, _ = strconv.Atoi(attrVal(t, "idx"))
			case "lvl":
				lvl++
			case "cat", "xVal":
				lvl = 0
				if ser != nil && t.Name.Local == "xVal" {
					ser.xy = true
				}
			case "v", "t", "f":
				text.Reset()
			}
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			if top := stack[len(stack)-1]; top == "v" || top == "t" || top == "f" {
				text.Write(t)
			}
		case xml.EndElement:
			name := t.Name.Local
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			switch {
			case name == "t" && ser == nil && within("title") != "" && within("plotArea", "legend") == "":
				title.WriteString(text.String())
			case name == "v" && ser != nil && within("ser") != "":
				v := strings.TrimSpace(text.String())
				switch within("tx", "cat", "xVal", "val", "yVal", "bubbleSize") {
				case "tx":
					ser.name = v
				case "cat", "xVal":
					if lvl <= 1 {
						ser.cats[idx] = v
					}
				case "val", "yVal":
					ser.vals[idx] = v
				}
			case name == "f" && ser != nil:
				switch within("tx", "cat", "xVal", "val", "yVal") {
				case "tx":
					ser.refs["tx"] = strings.TrimSpace(text.String())
				case "cat", "xVal":
					ser.refs["cat"] = strings.TrimSpace(text.String())
				case "val", "yVal":
					ser.refs["val"] = strings.TrimSpace(text.String())
				}
			case name == "ser":
				ser = nil
			}
		}
	}
	ch.title = strings.Join(strings.Fields(title.String()), " ")
	return ch, nil
}

func attrVal(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// rows is the chart as a table: header ("" then the series names), then
// one row per category. A scatter or bubble chart whose series have x
// values of their own is a pair of columns per series (its x values, then
// its y values): one category column took the first series' x values for
// every series (office/23). Rows are the point indices some series holds,
// in order; rows x columns stay within budget (cutCells says rows or
// series were left out so) and the data rows within rowLimit (cutRows).
func (ch *chartData) rows(budget, rowLimit int) (rows [][]string, cutRows, cutCells bool) {
	if len(ch.series) == 0 || budget < 2 {
		return nil, false, len(ch.series) > 0
	}
	xy := ch.ownXValues()
	per := 1 // columns per series
	if xy {
		per = 2
	}
	series := ch.series
	if most := (budget - 1) / per; len(series) > most {
		series, cutCells = series[:most], true
	}
	var header []string
	if !xy {
		header = append(header, "")
	}
	keys := map[int]bool{}
	for i, s := range series {
		name := s.name
		if name == "" {
			name = "Series " + strconv.Itoa(i+1)
		}
		if xy {
			header = append(header, name+" (x)", name)
		} else {
			header = append(header, name)
		}
		for k := range s.vals {
			keys[k] = true
		}
		for k := range s.cats {
			keys[k] = true
		}
	}
	idx := slices.Sorted(maps.Keys(keys))
	if len(idx) > rowLimit {
		idx, cutRows = idx[:rowLimit], true
	}
	if most := budget/len(header) - 1; len(idx) > most { // the header is a row
		idx, cutCells = idx[:most], true
	}
	rows = append(rows, header)
	for _, k := range idx {
		row := make([]string, 0, len(header))
		if xy {
			for _, s := range series {
				row = append(row, s.cats[k], s.vals[k])
			}
			rows = append(rows, row)
			continue
		}
		cat := ""
		for _, s := range series {
			if c, ok := s.cats[k]; ok {
				cat = c
				break
			}
		}
		if cat == "" {
			cat = strconv.Itoa(k + 1)
		}
		row = append(row, cat)
		for _, s := range series {
			row = append(row, s.vals[k])
		}
		rows = append(rows, row)
	}
	return rows, cutRows, cutCells
}

// ownXValues says whether two series of an x-y chart have different x
// values.
func (ch *chartData) ownXValues() bool {
	for _, s := range ch.series[1:] {
		if !s.xy || !ch.series[0].xy {
			continue
		}
		if !maps.Equal(s.cats, ch.series[0].cats) {
			return true
		}
	}
	return false
}

// chartParts lists the chart parts a part shows: its own chart
// relationships, and those of the drawings it holds (sheets).
func chartParts(ix *zipIndex, part string) []string {
	var out []string
	var visit func(p string, depth int)
	visit = func(p string, depth int) {
		rels := readRels(ix, relsPathFor(p), path.Dir(p))
		ids := make([]string, 0, len(rels))
		for id := range rels {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(a, b int) bool { return relOrder(ids[a]) < relOrder(ids[b]) })
		for _, id := range ids {
			r := rels[id]
			switch {
			case r.External:
			case strings.HasSuffix(r.Type, "/chart"):
				out = append(out, r.Target)
			case strings.HasSuffix(r.Type, "/drawing") && depth == 0:
				visit(r.Target, 1)
			}
		}
	}
	visit(part, 0)
	return out
}

// relOrder sorts rIdN by N (then by name).
func relOrder(id string) string {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "rId"))
	if err != nil {
		return "z" + id
	}
	return strconv.Itoa(1e6 + n)
}

// emitCharts adds the charts a part shows to the current page: each
// chart part once a document (a part named by several relationships
// landed once for each: review44), within the document's budget of
// maxChartCells (b.chartCells) and, as a sheet, b.chartRows rows a chart.
// Its error is the context's only.
func emitCharts(ctx context.Context, b *builder, ix *zipIndex, part string, resolve resolver) error {
	rowLimit := cmp.Or(b.chartRows, DefaultMaxSheetRows)
	for _, cp := range chartParts(ix, part) {
		if b.chartSeen[cp] {
			continue
		}
		if b.chartSeen == nil {
			b.chartSeen = map[string]bool{}
		}
		b.chartSeen[cp] = true
		left := maxChartCells - b.chartCells
		if left <= 0 {
			b.warn("chart %s: the document's charts hold more than %d cells of data: its data was not read", cp, maxChartCells)
			b.res.Flag(0, document.ReviewTruncated, "the document's charts hold more than %d cells of data: chart %s's are not in the warehouse", maxChartCells, cp)
			continue
		}
		ch, err := readChart(ctx, ix, cp)
		if ce := ctxErr(ctx); ce != nil {
			return ce
		}
		if err != nil {
			b.warn("chart %s: %v", cp, err)
			if ch == nil {
				continue
			}
		}
		var clipped bool
		read := 0
		if resolve == nil && ch.cachesEmpty() {
			// a chart of a document or slide with no cached values:
			// its data is in the workbook embedded beside it
			if r, done := embeddedWorkbook(ix, cp); r != nil {
				read, clipped, err = ch.fill(ctx, r, left, rowLimit+1)
				done()
			}
		} else {
			read, clipped, err = ch.fill(ctx, resolve, left, rowLimit+1)
		}
		if ce := ctxErr(ctx); ce != nil {
			return ce
		}
		if ch.cachesEmpty() && len(ch.series) > 0 {
			b.warn("chart %s: its series hold no cached values and its data could not be read from a workbook: only its title and series names landed", cp)
		}
		rows, cutRows, cutCells := ch.rows(left, rowLimit)
		landed := 0
		for _, r := range rows {
			landed += len(r)
		}
		b.chartCells += max(read, landed)
		switch {
		case cutCells || clipped && !cutRows:
			b.chartCells = maxChartCells // spent: the next charts are not read
			b.warn("chart %s: the document's charts hold more than %d cells of data: the rest were not read", cp, maxChartCells)
			b.res.Flag(0, document.ReviewTruncated, "the document's charts hold more than %d cells of data: chart %s's first %d rows are in the warehouse, the rest are not", maxChartCells, cp, max(len(rows)-1, 0))
		case cutRows:
			b.warn("chart %s: more than %d rows of data (loader.max_sheet_rows, as a sheet's): the rest were not read", cp, rowLimit)
			b.res.Flag(0, document.ReviewTruncated, "chart %s has more than %d rows of data (loader.max_sheet_rows): only its first %d are in the warehouse", cp, rowLimit, rowLimit)
		}
		if len(rows) == 0 {
			continue
		}
		label := "Chart"
		if ch.title != "" {
			label += ": " + ch.title
		}
		b.add(document.Caption, label, 0)
		b.addTableRows(rows)
	}
	return nil
}

// cachesEmpty says whether no series holds a value.
func (ch *chartData) cachesEmpty() bool {
	for _, s := range ch.series {
		if len(s.vals) > 0 {
			return false
		}
	}
	return true
}

// maxEmbeddedWorkbook bounds the embedded workbook read for a chart's data.
const maxEmbeddedWorkbook = 64 << 20

// embeddedWorkbook opens the workbook a chart part's externalData names
// (an embedded package, ../embeddings/Microsoft_Excel_Worksheet.xlsx) and
// returns its cell reader; nil when there is none or it cannot be read.
// Before office/23 such a chart landed its caption and a header with no
// data, silently.
func embeddedWorkbook(ix *zipIndex, chartPart string) (resolver, func()) {
	for _, r := range readRels(ix, relsPathFor(chartPart), path.Dir(chartPart)) {
		if r.External || !strings.HasSuffix(r.Type, "/package") || !strings.HasSuffix(strings.ToLower(r.Target), ".xlsx") {
			continue
		}
		f := ix.get(r.Target)
		if f == nil || f.UncompressedSize64 > maxEmbeddedWorkbook {
			continue
		}
		data, err := ix.readAll(r.Target)
		if err != nil {
			continue
		}
		wb, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipXMLSizeLimit: 16 << 20})
		if err != nil {
			continue
		}
		return cellRange(wb), func() { wb.Close() }
	}
	return nil, func() {}
}
