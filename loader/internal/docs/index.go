package docs

import (
	"context"
	"github.com/docket-dev/docket/loader/internal/docs/catalog"
	"sort"
	"strings"
)

var indexTpl = tmpl("index", `<h1>{{.Project}}</h1>
<div class="cards">
<div class="card"><b>{{.Docs}}</b>documents (<a href="documents.html">list</a>)</div>
<div class="card"><b>{{.Landed}}</b>landed</div>
<div class="card"><b class="{{if .Quarantined}}bad{{end}}">{{.Quarantined}}</b><a href="health.html#quarantine">quarantined</a></div>
<div class="card"><b>{{.Runs}}</b>load runs (<a href="health.html">health</a>)</div>
<div class="card"><b>{{.Nodes}}</b>lineage nodes (<a href="lineage.html">graph</a>)</div>
<div class="card"><b class="{{if .Failed}}bad{{end}}">{{.Failed}}</b>failed in the last run of models/tests</div>
</div>
<h2>Catalog</h2>
<p class="muted">Every relation of the warehouse with its row count; <code>target/catalog.json</code> holds the same with every column and type.</p>
<table class="grid"><tr><th>relation</th><th>type</th><th>node</th><th class="num">columns</th><th class="num">rows</th></tr>
{{range .Rels}}<tr><td><a href="{{.Href}}">{{.Name}}</a></td><td>{{.Type}}</td><td>{{.Kind}}</td><td class="num">{{.Cols}}</td><td class="num">{{.Rows}}</td></tr>{{end}}</table>
{{if .Errors}}<h3>Not in the warehouse</h3><ul>{{range .Errors}}<li>{{.}}</li>{{end}}</ul>{{end}}`)

type relRow struct {
	Name, Href, Type, Kind, Rows string
	Cols                         int
}

func (s *site) writeIndex(ctx context.Context) error {
	var rows []relRow
	add := func(id string, t catalog.Table) {
		r := relRow{Name: t.Metadata.Schema + "." + t.Metadata.Name, Href: nodeRel(id), Type: t.Metadata.Type,
			Kind: strings.SplitN(id, ".", 2)[0], Cols: len(t.Columns)}
		if n, ok := t.Stats["row_count"].Value.(int64); ok {
			r.Rows = humanInt(n)
		}
		rows = append(rows, r)
	}
	for id, t := range s.cat.Nodes {
		add(id, t)
	}
	for id, t := range s.cat.Sources {
		add(id, t)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	landed, quarantined, failed := 0, 0, 0
	for _, d := range s.docs {
		switch d.Status {
		case "landed":
			landed++
		case "quarantined":
			quarantined++
		}
	}
	for _, r := range s.results {
		if r.Status == "fail" || r.Status == "error" {
			failed++
		}
	}
	return s.write("index.html", "Catalog", "index", indexTpl, map[string]any{
		"Project": s.o.Project, "Docs": len(s.docs), "Landed": landed, "Quarantined": quarantined, "Runs": s.rep.Runs,
		"Nodes": s.rep.LineageNodes, "Failed": failed, "Rels": rows, "Errors": s.cat.Errors,
	})
}

var searchTpl = tmpl("search", `<h1>Search</h1>
<form id="search-form" class="search-box"><input name="q" type="search" placeholder="termination notice period" autofocus> <button type="submit">search</button></form>
<p id="search-note" class="muted">Hybrid search (BM25 + vectors) over the chunks; each result links to its page with the cited span lit.</p>
<div id="search-results"></div>`)

func (s *site) writeSearch(ctx context.Context) error {
	return s.write("search.html", "Search", "search", searchTpl, nil)
}
