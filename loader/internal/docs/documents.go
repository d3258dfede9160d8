package docs

import (
	"context"
	"fmt"
	"sort"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

func (s *site) loadDocs(ctx context.Context) error {
	docs := []warehouse.SiteDoc{}
	if s.loaded {
		var err error
		if docs, err = s.o.DB.SiteDocuments(ctx); err != nil {
			return err
		}
	}
	s.docs = docs
	s.docByID = map[string]*warehouse.SiteDoc{}
	for i := range s.docs {
		s.docByID[s.docs[i].DocID] = &s.docs[i]
	}
	s.rep.Documents = len(docs)
	return nil
}

var listTpl = tmpl("documents", `<h1>Documents</h1>
<div class="filters">
{{range .Filters}}<label>{{.Label}} <select name="{{.Name}}"><option value="">all</option>{{range .Values}}<option>{{.}}</option>{{end}}</select></label>{{end}}
<label>path <input type="search" placeholder="part of the path"></label>
<span class="muted"><span id="doc-count">{{len .Rows}}</span> of {{len .Rows}} shown</span>
</div>
<table class="grid" id="doc-table"><thead><tr><th>document</th><th>source</th><th>type</th><th>status</th><th>verdict</th><th class="num">pages</th><th class="num">characters</th><th class="num">OCR pages</th><th class="num">review</th></tr></thead><tbody>
{{range .Rows}}<tr data-type="{{.DetectedType}}" data-status="{{.Status}}" data-verdict="{{.Verdict}}" data-source="{{.SourceName}}" data-path="{{.Display}}">
<td><a href="{{.Href}}">{{.Display}}</a></td><td>{{.SourceName}}</td><td>{{.DetectedType}}</td><td><span class="badge st-{{.Status}}">{{.Status}}</span>{{if .ErrorKind}} {{.ErrorKind}}{{end}}</td>
<td>{{if .Verdict}}<span class="badge st-{{.Verdict}}">{{.Verdict}}</span>{{end}}</td><td class="num">{{.Pages}}</td><td class="num">{{human .Chars}}</td><td class="num">{{.OCRPages}}</td><td class="num">{{.ReviewPages}}</td></tr>
{{end}}</tbody></table>`)

type filter struct {
	Name, Label string
	Values      []string
}

type listRow struct {
	warehouse.SiteDoc
	Href string
}

func (s *site) writeList() error {
	var rows []listRow
	vals := map[string]map[string]bool{"type": {}, "status": {}, "verdict": {}, "source": {}}
	for _, d := range s.docs {
		rows = append(rows, listRow{SiteDoc: d, Href: docRel(d.DocID)})
		vals["type"][d.DetectedType] = true
		vals["status"][d.Status] = true
		vals["verdict"][d.Verdict] = true
		vals["source"][d.SourceName] = true
	}
	var filters []filter
	for _, f := range [][2]string{{"type", "type"}, {"status", "status"}, {"verdict", "verdict"}, {"source", "source"}} {
		var v []string
		for x := range vals[f[0]] {
			if x != "" {
				v = append(v, x)
			}
		}
		sort.Strings(v)
		filters = append(filters, filter{Name: f[0], Label: f[1], Values: v})
	}
	return s.write("documents.html", "Documents", "documents", listTpl, map[string]any{"Rows": rows, "Filters": filters})
}

// writeDocuments writes the list and one page per document, rendering the
// page images that are not cached yet.
func (s *site) writeDocuments(ctx context.Context) error {
	if err := s.loadDocs(ctx); err != nil {
		return err
	}
	if err := s.writeList(); err != nil {
		return err
	}
	r := newRenderJob(s)
	defer r.close()
	const batch = 200
	for start := 0; start < len(s.docs); start += batch {
		end := min(start+batch, len(s.docs))
		var hashes, ids []string
		seen := map[string]bool{}
		for _, d := range s.docs[start:end] {
			ids = append(ids, d.DocID)
			if d.Status == "landed" && d.SourceHash != "" && !seen[d.SourceHash] {
				seen[d.SourceHash] = true
				hashes = append(hashes, d.SourceHash)
			}
		}
		contents, err := s.o.DB.SiteContents(ctx, hashes, ids)
		if err != nil {
			return err
		}
		for i := start; i < end; i++ {
			d := &s.docs[i]
			var c *warehouse.Content
			if d.Status == "landed" {
				c = contents[d.SourceHash]
			}
			imgs := r.images(ctx, d, c)
			if err := s.write(docRel(d.DocID), d.Display, "documents", docTpl, s.docView(d, c, imgs)); err != nil {
				return err
			}
		}
	}
	s.rep.Images = r.stats
	s.rep.Images.Bytes = r.cache.Used()
	s.rep.Warnings = append(s.rep.Warnings, r.warnings...)
	return nil
}

func pct(n, d int) string {
	if d == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(d))
}

// displayOf is a document's path as a person reads it (an attachment as
// "parent.eml › attachment.pdf"); rel when the document is not listed.
func (s *site) displayOf(docID, rel string) string {
	if d := s.docByID[docID]; d != nil {
		return d.Display
	}
	return rel
}
