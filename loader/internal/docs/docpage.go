package docs

import (
	"fmt"
	"html"
	"html/template"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

var docTpl = tmpl("doc", `<h1>{{.D.Display}}</h1>
<dl class="kv">
<dt>source</dt><dd>{{.D.SourceName}} · <code>{{.D.SourceURI}}</code></dd>
<dt>status</dt><dd><span class="badge st-{{.D.Status}}">{{.D.Status}}</span>{{if .D.ErrorKind}} <b>{{.D.ErrorKind}}</b>: {{.D.ErrorMessage}}{{end}}</dd>
{{if .D.Verdict}}<dt>quality verdict</dt><dd><span class="badge st-{{.D.Verdict}}">{{.D.Verdict}}</span> {{.D.VerdictReason}}</dd>{{end}}
<dt>type</dt><dd>{{.D.DetectedType}}{{if .D.MIME}} ({{.D.MIME}}){{end}}</dd>
{{if .D.Title}}<dt>title</dt><dd>{{.D.Title}}</dd>{{end}}
<dt>size</dt><dd>{{human .D.SizeBytes}} bytes</dd>
<dt>content hash</dt><dd><code>{{.D.SourceHash}}</code></dd>
{{if .D.Pages}}<dt>pages</dt><dd>{{.D.Pages}} ({{.D.OCRPages}} OCR'd{{if .Conf}}, mean confidence {{.Conf}}{{end}}; {{.D.ReviewPages}} flagged for review) · {{human .D.Chars}} characters · {{.NChunks}} chunks</dd>{{end}}
{{if .Parent.Href}}<dt>attached to</dt><dd><a href="../{{.Parent.Href}}">{{.Parent.Label}}</a></dd>{{end}}
{{if .Children}}<dt>attachments</dt><dd>{{range .Children}}<a href="../{{.Href}}">{{.Label}}</a> {{end}}</dd>{{end}}
{{if .D.Warnings}}<dt>warnings</dt><dd><pre>{{.D.Warnings}}</pre></dd>{{end}}
</dl>
{{if .Dups}}<h2>Near duplicates</h2><table class="grid"><tr><th>document</th><th>kind</th><th class="num">shared chunks</th><th class="num">max similarity</th></tr>
{{range .Dups}}<tr><td>{{if .Href}}<a href="../{{.Href}}">{{.Label}}</a>{{else}}{{.Label}}{{end}}</td><td>{{.Kind}}</td><td class="num">{{.Chunks}}</td><td class="num">{{.Sim}}</td></tr>{{end}}</table>{{end}}
{{if .Pages}}<div class="ctl"><label><input type="checkbox" data-toggle="hide-els" checked> element boxes</label>
<label><input type="checkbox" data-toggle="hide-words" checked> OCR words (darker = less confident)</label>
<span>boxes by type:
<span style="color:#d32f2f">Title</span> · <span style="color:#1976d2">NarrativeText</span> · <span style="color:#388e3c">ListItem</span> · <span style="color:#f57c00">Table</span> · <span style="color:#757575">Header/Footer/PageNumber</span> · <span style="color:#7b1fa2">Caption</span> · <span style="color:#00897b">Image</span></span></div>{{end}}
{{range .Pages}}<section class="page-block" id="p{{.Number}}">
<div>
<h3>Page {{.Number}} <span class="muted">· {{.Method}}{{if .Conf}} · OCR confidence {{.Conf}}{{end}} · {{.Chars}} characters</span></h3>
{{if .Review}}<p class="warn">flagged for review: {{.Review}}</p>{{end}}
{{if .SVG}}<div class="page-view">{{.SVG}}</div>{{end}}
{{if .ImgNote}}<p class="muted">{{.ImgNote}}</p>{{end}}
{{if .Elements}}<div class="elist">{{range .Elements}}<div class="elem el-{{.Category}}"><span class="cat">{{.Category}} · chars {{.Start}}–{{.End}}{{if .Section}} · § {{.Section}}{{end}}</span>{{.Text}}</div>{{end}}</div>{{end}}
{{range .Tables}}<h3>Table {{.Seq}}</h3><table class="grid">{{if .Header}}<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>{{end}}{{range .Cells}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</table>{{end}}
</div>
<div>
<h3>Page text</h3>
<pre class="page-text" data-page="{{.Number}}">{{.Text}}</pre>
{{if .Chunks}}<h3>Chunks on this page</h3><table class="grid chunks"><tr><th>chunk</th><th class="num">chars</th><th>section</th><th>elements</th></tr>
{{range .Chunks}}<tr data-page="{{.Page}}" data-s="{{.CharOffset}}" data-e="{{.End}}"><td><code>{{short .ChunkID}}</code></td><td class="num">{{.CharOffset}}–{{.End}}</td><td>{{.Section}}</td><td>{{.ElementsCategory}}</td></tr>{{end}}</table>{{end}}
</div></section>{{end}}`)

type dupRow struct {
	Label, Href, Kind, Sim string
	Chunks                 int
}

type elemRow struct {
	Category, Text, Section string
	Start, End              int
}

type pageData struct {
	Number               int
	Method, Conf, Review string
	Chars                int
	SVG                  template.HTML
	ImgNote              string
	Text                 template.HTML
	Elements             []elemRow
	Tables               []warehouse.SiteTable
	Chunks               []warehouse.SiteChunk
}

type docData struct {
	D        *warehouse.SiteDoc
	Conf     string
	NChunks  int
	Parent   link
	Children []link
	Dups     []dupRow
	Pages    []pageData
}

func (s *site) docView(d *warehouse.SiteDoc, c *warehouse.Content, imgs map[int]pageImage) docData {
	v := docData{D: d}
	if d.MeanOCRConfidence != nil {
		v.Conf = fmt.Sprintf("%.1f", *d.MeanOCRConfidence)
	}
	if p := s.docByID[d.ParentDocID]; p != nil {
		v.Parent = link{p.Display, docRel(p.DocID)}
	}
	for _, o := range s.docs {
		if o.ParentDocID == d.DocID {
			v.Children = append(v.Children, link{o.Display, docRel(o.DocID)})
		}
	}
	if c == nil {
		return v
	}
	for _, dup := range c.Duplicates[d.DocID] {
		row := dupRow{Label: dup.OtherDocID, Kind: dup.Kind, Chunks: dup.Chunks, Sim: fmt.Sprintf("%.2f", dup.MaxSimilarity)}
		if o := s.docByID[dup.OtherDocID]; o != nil {
			row.Label, row.Href = o.Display, docRel(o.DocID)
		}
		v.Dups = append(v.Dups, row)
	}
	chunks := c.Chunks[d.DocID]
	v.NChunks = len(chunks)
	els, words, tables, chs := map[int][]warehouse.SiteElement{}, map[int][]warehouse.SiteWord{}, map[int][]warehouse.SiteTable{}, map[int][]warehouse.SiteChunk{}
	for _, e := range c.Elements {
		els[e.Page] = append(els[e.Page], e)
	}
	for _, w := range c.Words {
		words[w.Page] = append(words[w.Page], w)
	}
	for _, t := range c.Tables {
		tables[t.Page] = append(tables[t.Page], t)
	}
	for _, k := range chunks {
		chs[k.Page] = append(chs[k.Page], k)
	}
	for _, p := range c.Pages {
		pe, pw, ch := els[p.Number], words[p.Number], chs[p.Number]
		pd := pageData{Number: p.Number, Method: p.Method, Review: p.ReviewReason, Chars: len([]rune(p.Text)), Tables: tables[p.Number], Chunks: ch,
			Text: segmented(p.Text, ch)}
		if p.OCRConfidence != nil {
			pd.Conf = fmt.Sprintf("%.1f", *p.OCRConfidence)
		}
		img := imgs[p.Number]
		pd.ImgNote = img.Note
		hasBoxes := false
		for _, e := range pe {
			hasBoxes = hasBoxes || e.Box.Valid
		}
		if img.Rel != "" || (hasBoxes && p.Width > 0) {
			pd.SVG = template.HTML(pageSVG(p, img.Rel, pe, pw))
		}
		if !hasBoxes || img.Rel == "" {
			for _, e := range pe {
				pd.Elements = append(pd.Elements, elemRow{Category: e.Category, Text: e.Text, Section: e.Section, Start: e.CharStart, End: e.CharEnd})
			}
		}
		v.Pages = append(v.Pages, pd)
	}
	return v
}

// pageSVG draws the page image with the elements' boxes and the OCR words
// on top, in the page's own units (points for PDF pages, pixels for
// images), so the boxes land where the extractor found them.
func pageSVG(p warehouse.SitePage, img string, els []warehouse.SiteElement, words []warehouse.SiteWord) string {
	w, h := p.Width, p.Height
	if w <= 0 || h <= 0 {
		w, h = 612, 792
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.1f %.1f" class="page-svg" data-page="%d">`, w, h, p.Number)
	if img != "" {
		fmt.Fprintf(&b, `<image class="page-img" href="../%s" x="0" y="0" width="%.1f" height="%.1f" preserveAspectRatio="none"/>`, html.EscapeString(img), w, h)
	} else {
		fmt.Fprintf(&b, `<rect x="0" y="0" width="%.1f" height="%.1f" fill="#fafafa"/>`, w, h)
	}
	b.WriteString(`<g class="words">`)
	for _, wd := range words {
		if !wd.Box.Valid {
			continue
		}
		op := (100 - clamp(wd.Confidence, 0, 100)) / 100 * 0.6
		fmt.Fprintf(&b, `<rect class="w" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill-opacity="%.2f"><title>%s (confidence %.0f)</title></rect>`,
			wd.Box.X0, wd.Box.Y0, wd.Box.X1-wd.Box.X0, wd.Box.Y1-wd.Box.Y0, op, html.EscapeString(wd.Text), wd.Confidence)
	}
	b.WriteString(`</g><g class="els">`)
	for _, e := range els {
		if !e.Box.Valid {
			continue
		}
		fmt.Fprintf(&b, `<rect class="el el-%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s #%d: %s</title></rect>`,
			html.EscapeString(e.Category), e.Box.X0, e.Box.Y0, e.Box.X1-e.Box.X0, e.Box.Y1-e.Box.Y0, html.EscapeString(e.Category), e.Seq, html.EscapeString(clipText(e.Text, 120)))
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

// segmented splits the page text at every chunk boundary into spans
// carrying their code-point offsets (data-s, data-e), so the page can
// light a chunk or a cited span; c1/c2 shade text covered by one or by
// overlapping chunks.
func segmented(text string, chunks []warehouse.SiteChunk) template.HTML {
	r := []rune(text)
	n := len(r)
	cuts := map[int]bool{0: true, n: true}
	for _, c := range chunks {
		cuts[clampInt(c.CharOffset, 0, n)] = true
		cuts[clampInt(c.End, 0, n)] = true
	}
	var pts []int
	for k := range cuts {
		pts = append(pts, k)
	}
	sort.Ints(pts)
	var b strings.Builder
	for i := 0; i+1 < len(pts); i++ {
		a, z := pts[i], pts[i+1]
		if a == z {
			continue
		}
		cover := 0
		for _, c := range chunks {
			if c.CharOffset <= a && c.End >= z {
				cover++
			}
		}
		cls := "seg"
		if cover == 1 {
			cls += " c1"
		} else if cover > 1 {
			cls += " c2"
		}
		fmt.Fprintf(&b, `<span class="%s" data-s="%d" data-e="%d">%s</span>`, cls, a, z, html.EscapeString(string(r[a:z])))
	}
	return template.HTML(b.String())
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }

func clampInt(v, lo, hi int) int { return max(lo, min(hi, v)) }

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
