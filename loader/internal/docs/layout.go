package docs

import (
	"bytes"
	"fmt"
	"html/template"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/docket-dev/docket/loader/internal/docs/catalog"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// site holds what every page writer needs.
type site struct {
	o       Options
	dir     string
	m       *catalog.Manifest
	results map[string]catalog.Result
	rels    []warehouse.Relation
	cat     *catalog.Catalog
	rep     *Report
	docs    []warehouse.SiteDoc
	docByID map[string]*warehouse.SiteDoc
	// loaded: the warehouse has the loader's tables (a plain dbt project's
	// has none: its site has no documents and no load runs)
	loaded bool
}

// loaderTables are what the documents and health pages read.
var loaderTables = []string{"ops.load_runs", "ops.document_events", "raw.documents", "staging.pages", "staging.ocr_words"}

// hasLoaderTables reports whether every one of loaderTables is among rels.
func hasLoaderTables(rels []warehouse.Relation) bool {
	have := map[string]bool{}
	for _, r := range rels {
		have[strings.ToLower(r.Schema+"."+r.Name)] = true
	}
	for _, t := range loaderTables {
		if !have[t] {
			return false
		}
	}
	return true
}

// page is the data of the shared layout.
type page struct {
	Title   string
	Root    string // "" at the top, "../" one level down
	Nav     string // which nav entry is lit
	Project string
	Body    template.HTML
}

// The templates are parsed on first use (sync.OnceValue), not at package
// initialisation, which every docket command would pay.
var layout = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("layout").Funcs(template.FuncMap{"navs": func() []navEntry { return navList }}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · docket docs</title>
<link rel="stylesheet" href="{{.Root}}assets/style.css">
<script src="{{.Root}}assets/site.js"></script>
</head><body>
<header class="top"><a class="brand" href="{{.Root}}index.html">docket · {{.Project}}</a>
{{- range $k, $v := navs}}<a href="{{$.Root}}{{$v.Href}}"{{if eq $.Nav $v.Key}} class="here"{{end}}>{{$v.Label}}</a>{{end}}
</header>
<main>
{{.Body}}
</main></body></html>
`))
})

type navEntry struct{ Key, Label, Href string }

var navList = []navEntry{
	{"index", "Catalog", "index.html"}, {"lineage", "Lineage", "lineage.html"}, {"health", "Health", "health.html"},
	{"documents", "Documents", "documents.html"}, {"search", "Search", "search.html"},
}

// write renders body template tpl with data into the layout at rel.
func (s *site) write(rel, title, nav string, tpl func() *template.Template, data any) error {
	var body bytes.Buffer
	if err := tpl().Execute(&body, data); err != nil {
		return fmt.Errorf("docs: %s: %w", rel, err)
	}
	root := strings.Repeat("../", strings.Count(rel, "/"))
	var out bytes.Buffer
	if err := layout().Execute(&out, page{Title: title, Root: root, Nav: nav, Project: s.o.Project, Body: template.HTML(body.String())}); err != nil {
		return fmt.Errorf("docs: %s: %w", rel, err)
	}
	return writeFile(filepath.Join(s.dir, filepath.FromSlash(rel)), out.Bytes())
}

// funcs shared by the page templates.
var funcs = template.FuncMap{
	"human": humanInt,
	"pct": func(v float64) string {
		return fmt.Sprintf("%.0f%%", v*100)
	},
	"f1":    func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"svg":   func(s string) template.HTML { return template.HTML(s) },
	"deref": func(p *int) int { return *p },
	"short": func(s string) string { return clipText(s, 12) },
	"secs":  func(ms int64) string { return fmt.Sprintf("%.1f", float64(ms)/1000) },
}

func tmpl(name, text string) func() *template.Template {
	return sync.OnceValue(func() *template.Template {
		return template.Must(template.New(name).Funcs(funcs).Parse(text))
	})
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// nodeRel is the page of a manifest node or catalog relation.
func nodeRel(id string) string { return "nodes/" + unsafeName.ReplaceAllString(id, "_") + ".html" }

// docRel is the page of a document.
func docRel(docID string) string {
	if len(docID) > 20 {
		docID = docID[:20]
	}
	return "doc/" + unsafeName.ReplaceAllString(docID, "_") + ".html"
}

func humanInt(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + humanInt(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
