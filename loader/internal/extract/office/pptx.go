package office

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// PPTX is read like DOCX: archive/zip + a streaming encoding/xml walk per
// slide (no maintained free Go library for PresentationML is served).

// pptxPara is one DrawingML paragraph.
type pptxPara struct {
	text   strings.Builder
	lvl    int
	bullet int // 1 explicit bullet/numbering, -1 explicit none, 0 inherited
}

// pptxShape is one text-bearing shape or table in document order.
type pptxShape struct {
	ph    string // placeholder type ("" = none, "body" for an untyped placeholder)
	paras []*pptxPara
	table [][]string
	spans []document.CellSpan // the table's merged cells (a:tc gridSpan, rowSpan)
	isTbl bool
	// hidden: its cNvPr, or a group's around it, has hidden="1" (the
	// Selection Pane's closed eye: not shown on the slide nor in a show)
	hidden bool
	name   string // its cNvPr name ("TextBox 3")
}

// readSlideShapes streams one slide (or notes slide) part into shapes,
// flattening group shapes in document order.
func readSlideShapes(ctx context.Context, r io.Reader, part string) ([]*pptxShape, error) {
	d := newDecoder(r)
	var (
		shapes   []*pptxShape
		cur      *pptxShape // open sp or graphicFrame
		para     *pptxPara
		inT      bool
		row      []string
		cell     *strings.Builder
		cellSkip bool
		n        int
		groups   []bool // open p:grpSp, each hidden or inside a hidden one
	)
	for {
		n++
		if n%4096 == 0 {
			if err := ctxErr(ctx); err != nil {
				return nil, err
			}
		}
		tok, err := d.Token()
		if err == io.EOF {
			return shapes, nil
		}
		if err != nil {
			if len(shapes) > 0 {
				return shapes, xmlErr(part, err)
			}
			return nil, xmlErr(part, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "Fallback":
				if err := d.Skip(); err != nil {
					return shapes, xmlErr(part, err)
				}
			case "sp", "graphicFrame", "cxnSp":
				cur = &pptxShape{hidden: len(groups) > 0 && groups[len(groups)-1]}
			case "grpSp":
				groups = append(groups, len(groups) > 0 && groups[len(groups)-1])
			case "cNvPr":
				switch {
				case cur != nil:
					cur.name = attrVal(t, "name")
					cur.hidden = cur.hidden || onOffAttr(t, "hidden")
				case len(groups) > 0 && onOffAttr(t, "hidden"):
					groups[len(groups)-1] = true
				}
			case "ph":
				if cur != nil {
					typ, ok := attr(t, "type")
					if !ok {
						typ = "body"
					}
					cur.ph = typ
				}
			case "tbl":
				if cur != nil {
					cur.isTbl = true
				}
			case "tr":
				row = nil
			case "tc":
				cell = &strings.Builder{}
				hm, _ := attr(t, "hMerge")
				vm, _ := attr(t, "vMerge")
				cellSkip = hm == "1" || hm == "true" || vm == "1" || vm == "true"
				if cur != nil && !cellSkip {
					gs, _ := strconv.Atoi(attrVal(t, "gridSpan"))
					rs, _ := strconv.Atoi(attrVal(t, "rowSpan"))
					gs, rs = min(gs, 1000), min(rs, 1000) // as DOCX's gridSpan; the builder clips to the table
					if gs > 1 || rs > 1 {
						cur.spans = append(cur.spans, document.CellSpan{Row: len(cur.table), Col: len(row), Rows: max(rs, 1), Cols: max(gs, 1)})
					}
				}
			case "p":
				if cur != nil && t.Name.Space != nsP {
					para = &pptxPara{}
				}
			case "pPr":
				if para != nil {
					if v, ok := attr(t, "lvl"); ok {
						para.lvl, _ = strconv.Atoi(v)
					}
				}
			case "buChar", "buAutoNum", "buBlip":
				if para != nil {
					para.bullet = 1
				}
			case "buNone":
				if para != nil {
					para.bullet = -1
				}
			case "t":
				inT = para != nil
			case "br":
				if para != nil {
					para.text.WriteString("\n")
				}
			}
		case xml.CharData:
			if inT && para != nil {
				para.text.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inT = false
			case "p":
				if para == nil || t.Name.Space == nsP {
					continue
				}
				if cell != nil {
					if cell.Len() > 0 {
						cell.WriteString("\n")
					}
					cell.WriteString(strings.TrimSpace(para.text.String()))
				} else if cur != nil {
					cur.paras = append(cur.paras, para)
				}
				para = nil
			case "tc":
				if cell != nil {
					s := strings.TrimSpace(cell.String())
					if cellSkip {
						s = ""
					}
					row = append(row, s)
				}
				cell = nil
			case "tr":
				if cur != nil {
					cur.table = append(cur.table, row)
				}
				row = nil
			case "sp", "graphicFrame", "cxnSp":
				if cur != nil && (len(cur.paras) > 0 || len(cur.table) > 0) {
					shapes = append(shapes, cur)
				}
				cur = nil
			case "grpSp":
				if len(groups) > 0 {
					groups = groups[:len(groups)-1]
				}
			}
		}
	}
}

const nsP = "http://schemas.openxmlformats.org/presentationml/2006/main"

func isTitlePh(ph string) bool { return ph == "title" || ph == "ctrTitle" }

// ExtractPPTX reads a presentation: one page per slide in presentation
// order; the slide title (title/ctrTitle placeholder) first as Title, then
// text frames paragraph by paragraph (ListItem for bulleted or indented
// paragraphs, Level = outline level + 1), tables as tables, footer/date
// placeholders as Footer, slide numbers as PageNumber, and last the speaker
// notes as NarrativeText elements whose Section is "notes".
func ExtractPPTX(ctx context.Context, p string, opts document.Options) (*document.Result, error) {
	zr, err := openPackage(p, "PPTX")
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	ix := newZipIndex(&zr.Reader)

	main := officeDocumentPart(ix)
	if main == "" {
		main = "ppt/presentation.xml"
	}
	data, err := ix.readAll(main)
	if err != nil {
		return nil, document.Errorf(document.KindCorrupt, "PPTX package has no presentation part (%s)", main)
	}
	var pres struct {
		Slides []struct {
			RID string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sldIdLst>sldId"`
		Size struct {
			CX float64 `xml:"cx,attr"`
			CY float64 `xml:"cy,attr"`
		} `xml:"sldSz"`
	}
	if err := newDecoder(strings.NewReader(string(data))).Decode(&pres); err != nil {
		return nil, xmlErr(main, err)
	}
	rels := readRels(ix, relsPathFor(main), path.Dir(main))
	var slides []string
	for _, s := range pres.Slides {
		if r, ok := rels[s.RID]; ok && !r.External {
			slides = append(slides, r.Target)
		}
	}
	if len(slides) == 0 && len(pres.Slides) == 0 {
		// no slide list: fall back to the slide parts by number
		for name := range ix.files {
			if strings.HasPrefix(name, "ppt/slides/slide") && strings.HasSuffix(name, ".xml") {
				slides = append(slides, name)
			}
		}
		sort.Slice(slides, func(i, j int) bool { return slideNum(slides[i]) < slideNum(slides[j]) })
	}

	b := newBuilderFor("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", opts)
	b.chartRows = maxRows(opts)
	coreProps(ix, b.res)
	if opts.MaxPages > 0 && len(slides) > opts.MaxPages {
		return nil, document.Errorf(document.KindTooManyPage, "%d slides, more than the limit of %d", len(slides), opts.MaxPages)
	}
	bad := 0
	var hidden, hiddenShapes []string
	for i, part := range slides {
		if err := ctxErr(ctx); err != nil {
			return nil, err
		}
		if i > 0 {
			b.newUnit()
		}
		rc, err := ix.open(part)
		if err != nil {
			b.warn("slide %d: %v", i+1, err)
			bad++
			continue
		}
		shapes, err := readSlideShapes(ctx, rc, part)
		rc.Close()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctxErr(ctx)
			}
			b.warn("slide %d: %v", i+1, err)
			bad++
		}
		if slideHidden(ix, part) {
			hidden = append(hidden, strconv.Itoa(i+1))
		}
		hiddenShapes = append(hiddenShapes, shapesHidden(i+1, shapes)...)
		emitSlide(b, shapes)
		if err := emitCharts(ctx, b, ix, part, nil); err != nil {
			return nil, err
		}
		// speaker notes
		for _, r := range readRels(ix, relsPathFor(part), path.Dir(part)) {
			if !strings.HasSuffix(r.Type, "/notesSlide") || r.External {
				continue
			}
			nrc, err := ix.open(r.Target)
			if err != nil {
				continue
			}
			notes, err := readSlideShapes(ctx, nrc, r.Target)
			nrc.Close()
			if err != nil {
				b.warn("notes of slide %d: %v", i+1, err)
			}
			for _, sh := range notes {
				if sh.ph != "body" {
					continue
				}
				for _, pp := range sh.paras {
					if k := b.add(document.NarrativeText, pp.text.String(), 0); k >= 0 {
						b.res.Elements[k].Section = "notes"
					}
				}
			}
		}
	}
	if len(slides) > 0 && bad == len(slides) {
		return nil, document.Errorf(document.KindCorrupt, "no slide of the presentation could be read (%s)", b.res.Warnings[0])
	}
	sayHiddenSlides(b, hidden)
	sayHiddenShapes(b, hiddenShapes)
	res := b.finish()
	if pres.Size.CX > 0 && pres.Size.CY > 0 {
		for i := range res.Pages {
			res.Pages[i].Width = pres.Size.CX / 12700 // EMU → points
			res.Pages[i].Height = pres.Size.CY / 12700
		}
	}
	return res, nil
}

// emitSlide adds one slide's shapes: titles first, then the rest in
// document order.
func emitSlide(b *builder, shapes []*pptxShape) {
	for _, sh := range shapes {
		if !isTitlePh(sh.ph) {
			continue
		}
		var parts []string
		for _, pp := range sh.paras {
			if s := strings.TrimSpace(pp.text.String()); s != "" {
				parts = append(parts, s)
			}
		}
		b.add(document.Title, strings.Join(parts, "\n"), 1)
	}
	for _, sh := range shapes {
		if isTitlePh(sh.ph) {
			continue
		}
		if sh.isTbl {
			b.addTableSpans(sh.table, sh.spans)
			continue
		}
		for _, pp := range sh.paras {
			cat, level := document.NarrativeText, 0
			switch sh.ph {
			case "subTitle":
				cat, level = document.Title, 2
			case "ftr", "dt":
				cat = document.Footer
			case "hdr":
				cat = document.Header
			case "sldNum":
				cat = document.PageNumber
			default:
				if pp.bullet > 0 || (pp.bullet == 0 && pp.lvl > 0) {
					cat, level = document.ListItem, pp.lvl+1
				}
			}
			b.add(cat, pp.text.String(), level)
		}
	}
}

func slideNum(name string) int {
	s := strings.TrimSuffix(strings.TrimPrefix(path.Base(name), "slide"), ".xml")
	n, _ := strconv.Atoi(s)
	return n
}

// slideHidden says whether a slide part is hidden: its root p:sld has
// show="0" (PowerPoint's "Hide Slide"). Before office/20 a hidden slide
// landed as any other, nothing saying so.
func slideHidden(ix *zipIndex, part string) bool {
	rc, err := ix.open(part)
	if err != nil {
		return false
	}
	defer rc.Close()
	d := newDecoder(rc)
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if t, ok := tok.(xml.StartElement); ok {
			v := attrVal(t, "show")
			return t.Name.Local == "sld" && (v == "0" || v == "false")
		}
	}
}

// shapesHidden names a slide's hidden shapes that hold text ("slide 2:
// TextBox 3"; a shape without a name by its text's start).
func shapesHidden(slide int, shapes []*pptxShape) []string {
	var out []string
	for _, sh := range shapes {
		if !sh.hidden || !shapeHasText(sh) {
			continue
		}
		name := strings.TrimSpace(sh.name)
		if name == "" {
			name = "a shape"
		}
		out = append(out, fmt.Sprintf("slide %d: %s", slide, name))
	}
	return out
}

func shapeHasText(sh *pptxShape) bool {
	for _, pp := range sh.paras {
		if strings.TrimSpace(pp.text.String()) != "" {
			return true
		}
	}
	for _, row := range sh.table {
		for _, c := range row {
			if strings.TrimSpace(c) != "" {
				return true
			}
		}
	}
	return false
}

// sayHiddenShapes says the hidden shapes whose text landed (as office/20
// says hidden slides: landed, named, metadata hidden_shapes). PowerPoint
// shows them neither on the slide nor in a show (the Selection Pane's
// closed eye); before office/28 their text landed as the others', nothing
// saying so.
func sayHiddenShapes(b *builder, names []string) {
	if len(names) == 0 {
		return
	}
	md := names
	if len(md) > 50 {
		md = append(md[:50:50], fmt.Sprintf("and %d more", len(names)-50))
	}
	setExtra(&b.res.Metadata, "hidden_shapes", strings.Join(md, "\t"))
	shown := names
	more := ""
	if len(shown) > 10 {
		shown, more = shown[:10], fmt.Sprintf(" and %d more", len(names)-10)
	}
	b.warn("%d hidden shape(s) (PowerPoint shows them neither on the slide nor in a slide show): their text landed as the others' (%s%s; metadata hidden_shapes)", len(names), strings.Join(shown, ", "), more)
}
