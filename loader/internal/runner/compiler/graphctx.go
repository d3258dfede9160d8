package compiler

import (
	"encoding/json"
	"sync"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// RunContext is what one invocation adds to the templates a run renders:
// selected_resources, and --empty (dbt 1.8: every ref and source reads
// no rows).
type RunContext struct {
	Selected []string // unique_ids the invocation runs (selected_resources)
	Empty    bool
}

// ForRun is m as one run renders it (Execute calls it): templates that
// read graph or selected_resources see this run's (they render again at
// run time, as those that read the database); with Empty every model,
// snapshot and test compiles again, each ref and source a subquery of no
// rows. m is left as it is; a node that no longer compiles is an error.
func (m *Manifest) ForRun(r RunContext) (*Manifest, error) {
	c := *m
	c.run = &r
	if !r.Empty {
		return &c, nil
	}
	code, diags := c.compileAll()
	if len(diags) > 0 {
		return nil, &DiagnosticError{D: diags[0]}
	}
	return c.withCode(code), nil
}

// graphKeys are the members of dbt's flat graph (Manifest.build_flat_graph).
var graphKeys = []string{"exposures", "groups", "metrics", "nodes", "sources", "semantic_models", "saved_queries"}

// flatGraph is dbt's `graph`, built once per manifest on first use.
type flatGraph struct {
	once sync.Once
	v    map[string]any
}

// FlatGraph is the Jinja `graph` at run time: every node, source,
// exposure, ... by unique_id, each as manifest.json has it (resource_type,
// name, package_name, config, depends_on, fqn, original_file_path,
// columns, ...), as plain maps and lists.
func (m *Manifest) FlatGraph() map[string]any {
	m.flat.once.Do(func() {
		doc := m.ManifestDoc()
		parts := map[string]any{"exposures": doc.Exposures, "groups": doc.Groups, "metrics": doc.Metrics, "nodes": doc.Nodes,
			"sources": doc.Sources, "semantic_models": doc.SemanticModels, "saved_queries": doc.SavedQueries}
		b, err := json.Marshal(parts)
		if err == nil {
			err = json.Unmarshal(b, &m.flat.v)
		}
		if err != nil || m.flat.v == nil {
			m.flat.v = map[string]any{}
		}
	})
	return m.flat.v
}

// graphValue is the Jinja `graph`. Rendered without a run (at parse) it
// is what dbt's parse sees, empty mappings, and the node renders again at
// run time with the flat graph (n.needsDB, as a node that reads the
// database).
type graphValue struct{ rc *renderCtx }

func (g graphValue) member(name string) (any, bool) {
	if g.rc.m.run == nil {
		g.rc.needsDB = true
		for _, k := range graphKeys {
			if k == name {
				return map[string]any{}, true
			}
		}
		return nil, false
	}
	v, ok := g.rc.m.FlatGraph()[name]
	return v, ok
}

func (g graphValue) GetAttribute(name string) (*exec.Value, bool) {
	v, ok := g.member(name)
	if !ok {
		return nil, false
	}
	return exec.AsValue(v), true
}

func (g graphValue) GetItem(key any) (*exec.Value, bool) {
	s, _ := key.(string)
	return g.GetAttribute(s)
}

// selectedResources is the Jinja selected_resources: the run's selected
// unique_ids; at parse an empty list that makes the node render again at
// run time.
type selectedResources struct{ rc *renderCtx }

func (s *selectedResources) JinjaList() []any {
	out := []any{}
	if s.rc.m.run == nil {
		s.rc.needsDB = true
		return out
	}
	for _, id := range s.rc.m.run.Selected {
		out = append(out, id)
	}
	return out
}
