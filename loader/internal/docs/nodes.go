package docs

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/docs/catalog"
	"github.com/docket-dev/docket/loader/internal/docs/svg"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// lineageNodes turns the manifest into graph nodes: every node and source.
func (s *site) lineageNodes() []svg.GraphNode {
	var out []svg.GraphNode
	for _, n := range s.m.All() {
		group := n.Schema
		if n.ResourceType == "test" {
			group = "tests"
		}
		label := n.Name
		if n.ResourceType == "source" {
			label = n.SourceName + "." + n.Name
		}
		title := n.ResourceType + " " + n.UniqueID
		if n.Description != "" {
			title += "\n" + n.Description
		}
		st := s.results[n.UniqueID].Status
		out = append(out, svg.GraphNode{ID: n.UniqueID, Label: label, Kind: n.ResourceType, Group: group,
			Href: nodeRel(n.UniqueID), Title: title, Status: st, Parents: s.m.Parents(n.UniqueID)})
	}
	return out
}

var lineageTpl = tmpl("lineage", `<h1>Lineage</h1>
<p class="muted">{{.Count}} nodes: loader-owned sources on the left, then every seed, model, test and snapshot, one column per
layer of the DAG. Drag to pan, wheel or the buttons to zoom; every box links to its page.</p>
<div class="legend-row"><span><i style="background:#dbe9fb"></i>source</span><span><i style="background:#efe1f7"></i>seed</span>
<span><i style="background:#e3f2f0"></i>staging model</span><span><i style="background:#e8f5e2"></i>curated model</span>
<span><i style="background:#f6e9f0"></i>embeddings</span><span><i style="background:#fdf0e3"></i>retrieval</span><span><i style="background:#eceff6"></i>ops</span>
<span><i style="background:#f3f4f6"></i>test</span><span><i style="background:#fff;border-color:#c62828;border-width:2px"></i>last run failed</span></div>
<div class="lineage-wrap"><div class="zoom-ctl"><button data-zoom="1.25" title="zoom in">+</button><button data-zoom="0.8" title="zoom out">−</button><button data-zoom="reset" title="fit">⤢</button></div>
{{svg .SVG}}</div>`)

var nodeTpl = tmpl("node", `<h1><span class="badge">{{.N.ResourceType}}</span> {{.Label}}</h1>
{{if .N.Description}}<p>{{.N.Description}}</p>{{end}}
<dl class="kv">
<dt>unique id</dt><dd><code>{{.N.UniqueID}}</code></dd>
{{if .Relation}}<dt>relation</dt><dd><code>{{.Relation}}</code>{{if .RelType}} ({{.RelType}}){{end}}</dd>{{end}}
{{if .Materialized}}<dt>materialization</dt><dd>{{.Materialized}}</dd>{{end}}
{{if .HasRows}}<dt>rows</dt><dd>{{human .Rows}}</dd>{{end}}
{{if .N.Path}}<dt>file</dt><dd><code>{{.N.Path}}</code></dd>{{end}}
{{if .Result.Status}}<dt>last result</dt><dd><span class="badge st-{{.Result.Status}}">{{.Result.Status}}</span>{{if .Result.Failures}} {{deref .Result.Failures}} failing rows{{end}} {{.Result.Message}}</dd>{{end}}
{{if .UDFs}}<dt>Go UDFs called</dt><dd>{{range .UDFs}}<code title="{{.Signature}}">{{.Name}}</code> {{end}}</dd>{{end}}
</dl>
{{if .Parents}}<h3>Depends on</h3><ul>{{range .Parents}}<li><a href="../{{.Href}}">{{.Label}}</a></li>{{end}}</ul>{{end}}
{{if .Children}}<h3>Used by</h3><ul>{{range .Children}}<li><a href="../{{.Href}}">{{.Label}}</a></li>{{end}}</ul>{{end}}
{{if .Columns}}<h2>Columns</h2><table class="grid"><tr><th>#</th><th>column</th><th>type</th><th>description</th></tr>
{{range .Columns}}<tr><td class="num">{{if .Index}}{{.Index}}{{end}}</td><td><code>{{.Name}}</code></td><td><code>{{.Type}}</code></td><td>{{.Description}}</td></tr>{{end}}</table>{{end}}
{{if .Tests}}<h2>Tests</h2><table class="grid"><tr><th>test</th><th>column</th><th>last result</th><th class="num">failing rows</th><th>message</th></tr>
{{range .Tests}}<tr><td><a href="../{{.Href}}">{{.Name}}</a></td><td>{{.Column}}</td><td>{{if .Status}}<span class="badge st-{{.Status}}">{{.Status}}</span>{{else}}<span class="muted">not run</span>{{end}}</td><td class="num">{{.Failures}}</td><td>{{.Message}}</td></tr>{{end}}</table>{{end}}
{{if .N.RawCode}}<h2>SQL</h2><pre class="sql">{{.N.RawCode}}</pre>{{end}}
{{if .N.CompiledCode}}<h2>Compiled SQL</h2><pre class="sql">{{.N.CompiledCode}}</pre>{{end}}`)

type link struct{ Label, Href string }

type colRow struct {
	Index             int
	Name, Type        string
	Description       string
	declaredOnlyOrder int
}

type testRow struct {
	Name, Href, Column, Status, Message string
	Failures                            string
}

type nodeData struct {
	N                 *catalog.Node
	Label             string
	Relation, RelType string
	Materialized      string
	HasRows           bool
	Rows              int64
	Result            catalog.Result
	UDFs              []udfRef
	Parents, Children []link
	Columns           []colRow
	Tests             []testRow
}

type udfRef struct{ Name, Signature string }

func (s *site) writeNodes(ctx context.Context) error {
	nodes := s.lineageNodes()
	s.rep.LineageNodes = len(nodes)
	if err := s.write("lineage.html", "Lineage", "lineage", lineageTpl, map[string]any{"SVG": svg.Lineage(nodes), "Count": len(nodes)}); err != nil {
		return err
	}
	children := map[string][]string{}
	all := s.m.All()
	byID := map[string]*catalog.Node{}
	for _, n := range all {
		byID[n.UniqueID] = n
		for _, p := range s.m.Parents(n.UniqueID) {
			children[p] = append(children[p], n.UniqueID)
		}
	}
	relByName := map[string]*warehouse.Relation{}
	for i := range s.rels {
		relByName[strings.ToLower(s.rels[i].Schema+"."+s.rels[i].Name)] = &s.rels[i]
	}
	udfRes := make([]*regexp.Regexp, len(s.m.UDFs))
	for i, u := range s.m.UDFs {
		udfRes[i] = regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(u.Name) + `\s*\(`)
	}
	label := func(id string) link {
		if n := byID[id]; n != nil {
			l := n.ResourceType + " " + n.Name
			if n.ResourceType == "source" {
				l = "source " + n.SourceName + "." + n.Name
			}
			return link{l, nodeRel(id)}
		}
		return link{id, nodeRel(id)}
	}
	for _, n := range all {
		d := nodeData{N: n, Label: label(n.UniqueID).Label, Result: s.results[n.UniqueID], Materialized: n.Materialized()}
		if n.ResourceType != "test" {
			d.Relation = catalog.RelationOf(n)
			if r := relByName[strings.ToLower(d.Relation)]; r != nil {
				d.RelType, d.HasRows, d.Rows = r.Type, r.RowsErr == "", r.Rows
				d.Columns = columns(r, n)
			} else {
				d.Columns = columns(nil, n)
			}
		}
		for _, p := range s.m.Parents(n.UniqueID) {
			d.Parents = append(d.Parents, label(p))
		}
		kids := children[n.UniqueID]
		sort.Strings(kids)
		for _, c := range kids {
			cn := byID[c]
			if cn != nil && cn.ResourceType == "test" {
				r := s.results[c]
				t := testRow{Name: cn.Name, Href: nodeRel(c), Column: cn.ColumnName, Status: r.Status, Message: r.Message}
				if r.Failures != nil {
					t.Failures = humanInt(int64(*r.Failures))
				}
				d.Tests = append(d.Tests, t)
				continue
			}
			d.Children = append(d.Children, label(c))
		}
		code := n.CompiledCode
		if code == "" {
			code = n.RawCode
		}
		for i, re := range udfRes {
			if re.MatchString(code) {
				d.UDFs = append(d.UDFs, udfRef{s.m.UDFs[i].Name, s.m.UDFs[i].Signature})
			}
		}
		if err := s.write(nodeRel(n.UniqueID), d.Label, "lineage", nodeTpl, d); err != nil {
			return err
		}
	}
	// relations of the warehouse no manifest node names (loader tables
	// without a source entry, for example) still get a catalog page
	for id, t := range s.cat.Nodes {
		if !strings.HasPrefix(id, "relation.") {
			continue
		}
		r := relByName[strings.ToLower(t.Metadata.Schema+"."+t.Metadata.Name)]
		n := &catalog.Node{UniqueID: id, Name: t.Metadata.Name, ResourceType: "relation", Schema: t.Metadata.Schema,
			Description: "A relation of the warehouse that no model, seed or source of the project declares."}
		d := nodeData{N: n, Label: t.Metadata.Schema + "." + t.Metadata.Name, Relation: t.Metadata.Schema + "." + t.Metadata.Name,
			RelType: r.Type, HasRows: r.RowsErr == "", Rows: r.Rows, Columns: columns(r, n)}
		if err := s.write(nodeRel(id), d.Label, "index", nodeTpl, d); err != nil {
			return err
		}
	}
	return nil
}

// columns merges the relation's columns (names, types) with the
// descriptions declared in schema.yml; declared columns missing from the
// relation are listed without a type.
func columns(r *warehouse.Relation, n *catalog.Node) []colRow {
	desc := map[string]string{}
	for k, c := range n.Columns {
		desc[strings.ToLower(k)] = c.Description
	}
	var out []colRow
	seen := map[string]bool{}
	if r != nil {
		for _, c := range r.Columns {
			out = append(out, colRow{Index: c.Index, Name: c.Name, Type: c.Type, Description: firstNonEmpty(desc[strings.ToLower(c.Name)], c.Comment)})
			seen[strings.ToLower(c.Name)] = true
		}
	}
	var extra []string
	for k := range n.Columns {
		if !seen[strings.ToLower(k)] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		out = append(out, colRow{Name: k, Type: "(not in the warehouse)", Description: n.Columns[k].Description})
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
