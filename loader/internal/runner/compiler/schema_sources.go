package compiler

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// readSources reads a schema file's sources: list: one source node per
// table (disabled ones kept aside); it returns their tests.
func (m *Manifest) readSources(path string, v *yaml.Node, diags *[]Diagnostic) []testSpec {
	var specs []testSpec
	for _, s := range yseq(v) {
		src := ystr(s, "name")
		if src == "" {
			*diags = append(*diags, yamlDiag(path, ypos(s), "source has no name"))
			continue
		}
		m.renderYAMLEntry(path, s, diags)
		m.checkSourceKeys(path, "source "+src, s, sourceKeys)
		srcDesc := m.describe(path, s, diags)
		for _, t := range yseq(yget(s, "tables")) {
			specs = append(specs, m.readSourceTable(path, s, t, src, srcDesc, diags)...)
		}
	}
	return specs
}

func yamlDiag(path string, p Position, format string, a ...any) Diagnostic {
	return Diagnostic{Path: path, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, a...)}
}

// readSourceTable reads table t of source s (named src, described
// srcDesc) into a source node.
func (m *Manifest) readSourceTable(path string, s, t *yaml.Node, src, srcDesc string, diags *[]Diagnostic) []testSpec {
	tn := ystr(t, "name")
	if tn == "" {
		*diags = append(*diags, yamlDiag(path, ypos(t), "source table has no name"))
		return nil
	}
	m.checkSourceKeys(path, "source "+src+"."+tn, t, sourceTableKeys)
	schema := ystr(s, "schema")
	if schema == "" {
		schema = src
	}
	ident := ystr(t, "identifier")
	if ident == "" {
		ident = tn
	}
	pkg := m.pkgOf(path)
	id := Source + "." + pkg + "." + src + "." + tn
	if m.Sources[id] != nil {
		*diags = append(*diags, yamlDiag(path, ypos(t), "source %s.%s is declared twice", src, tn))
		return nil
	}
	n := &Node{UniqueID: id, ResourceType: Source, PackageName: pkg, Name: tn, Schema: schema,
		Alias: ident, Identifier: ident, SourceName: src, Database: m.Database(), Path: path,
		FQN: []string{pkg, src, tn}, Description: m.describe(path, t, diags), Columns: map[string]Column{},
		Tags: []string{}, Pos: ypos(t), Config: Config{Enabled: true, Tags: []string{}, PreHook: []Hook{}, PostHook: []Hook{}}}
	n.srcDesc, n.srcLoader = srcDesc, ystr(s, "loader")
	if n.Description == "" {
		n.Description = srcDesc
	}
	n.Relation = Relation(schema, ident)
	if database := ystr(s, "database"); database != "" && database != m.Database() {
		// another catalog (dbt-duckdb's attach): read there
		n.Database, n.Relation = database, Quote(database)+"."+n.Relation
	}
	if loc := externalLocation(s, t, n, m.Project.Dir); loc != "" {
		n.Relation = loc // dbt-duckdb's external source: read from files
	}
	n.Tags, n.Config.Meta = sourceTagsMeta(s, t)
	n.tblMeta, n.srcMeta = levelMeta(t), levelMeta(s)
	n.Config.Tags = n.Tags
	n.Config.EventTime = sourceEventTime(s, t)
	m.readFreshness(path, n, s, t, diags)
	if !sourceEnabled(s, t) {
		n.Config.Enabled = false // as dbt: kept under disabled, source() to it is an error
		m.Disabled[id] = n
		return nil
	}
	m.Sources[id] = n
	n.quoteColumns = sourceQuoteColumns(s, t)
	return m.readColumns(path, n, t, diags)
}

// sourceQuoteColumns is dbt's quote_columns of a source table: its own
// quoting: column if set, else its source's (UnpatchedSourceDefinition).
func sourceQuoteColumns(src, table *yaml.Node) bool {
	q := false
	for _, y := range []*yaml.Node{src, table} {
		if v, ok := ymap(yget(y, "quoting"))["column"].(bool); ok {
			q = v
		}
	}
	return q
}

// sourceEventTime is a source table's config event_time, else its
// source's (dbt 1.9: a microbatch model reading it filters by it).
func sourceEventTime(src, table *yaml.Node) string {
	for _, y := range []*yaml.Node{table, src} {
		if v, ok := ymap(yget(y, "config"))["event_time"].(string); ok && v != "" {
			return v
		}
	}
	return ""
}
