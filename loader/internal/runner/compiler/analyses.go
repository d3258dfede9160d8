package compiler

import "strings"

// Analysis is a SQL file under analyses/ (dbt_project.yml analysis-paths):
// compiled like a model (ref, source, var, macros), listed in the
// manifest as analysis.<project>.<name> with its depends_on, never run.
// `docket compile` writes its SQL to target/compiled/, as `dbt compile`;
// build and run leave it out, as dbt's do.
const Analysis = "analysis"

// analyses reads analyses/**/*.sql once the models are placed (a ref to
// a model that does not exist is an error, as in dbt).
func (ps *parser) analyses() error {
	m := ps.m
	files, err := m.readTrees(m.dirs("analyses"), ".sql")
	if err != nil {
		return err
	}
	for _, path := range SortedKeys(files) {
		parts := m.relParts(path, "analyses")
		name := strings.TrimSuffix(parts[len(parts)-1], ".sql")
		n := &Node{UniqueID: Analysis + "." + m.Name + "." + name, ResourceType: Analysis, PackageName: m.Name, Name: name,
			Schema: m.Target().Schema, Alias: name, Database: m.Database(), Path: path, RawCode: files[path],
			FQN:     append([]string{m.Name, "analysis"}, append(parts[:len(parts)-1:len(parts)-1], name)...),
			Columns: map[string]Column{}}
		if prev := m.Nodes[n.UniqueID]; prev != nil {
			ps.diag(path, Position{1, 1}, "analysis name %q is already used by %s", name, prev.Path)
			continue
		}
		m.Nodes[n.UniqueID] = n
		ps.diags = append(ps.diags, m.parseNode(n)...)
		ps.diags = append(ps.diags, m.resolveConfig(n)...)
		if !n.Config.Enabled {
			delete(m.Nodes, n.UniqueID)
			m.Disabled[n.UniqueID] = n
		}
	}
	if ps.inline != "" {
		// dbt's inline node (sql_operation.<project>.inline_query, file
		// sql/inline_query): compiled as an analysis is
		n := &Node{UniqueID: InlineID(m.Name), ResourceType: Analysis, PackageName: m.Name, Name: "inline_query",
			Schema: m.Target().Schema, Alias: "inline_query", Database: m.Database(), Path: "--inline", RawCode: ps.inline,
			FQN: []string{m.Name, "sql", "inline_query"}, Columns: map[string]Column{}}
		m.Nodes[n.UniqueID] = n
		ps.diags = append(ps.diags, m.parseNode(n)...)
		ps.diags = append(ps.diags, m.resolveConfig(n)...)
	}
	return nil
}

// InlineID is the node ParseOptions.Inline is parsed as.
func InlineID(project string) string { return "sql_operation." + project + ".inline_query" }
