package compiler

import (
	"regexp"
	"slices"
	"strings"
)

// directMacros are the macros n's own template calls, plus the project
// macros its raw text names (a call in a hook is rendered only at run time).
func (m *Manifest) directMacros(n *Node) []string {
	set := map[string]bool{}
	if n.calls != nil {
		for id := range n.calls.Direct {
			set[id] = true
		}
	}
	// a call the parse render did not reach (a branch not taken): dbt
	// finds those in the template's calls (statically_extract_macro_calls)
	called := map[string]bool{}
	for _, c := range callRe.FindAllStringSubmatch(n.RawCode, -1) {
		if c[1] == "" || c[1] == m.Name {
			called[c[2]] = true
		}
	}
	// adapter.dispatch('name', ...): its implementations, as dbt's
	// statically_parse_adapter_dispatch
	for _, c := range dispatchRe.FindAllStringSubmatch(n.RawCode, -1) {
		called["duckdb__"+c[1]], called["default__"+c[1]] = true, true
	}
	for _, mac := range SortedKeys(m.Macros) {
		if called[mac] {
			set["macro."+m.Name+"."+mac] = true
		}
	}
	for _, mac := range goDbtMacros {
		if _, own := m.Macros[mac]; called[mac] && !own {
			set["macro.dbt."+mac] = true
		}
	}
	return SortedKeys(set)
}

// goDbtMacros are dbt's global-project macros docket runs in Go
// (render.DbtMacro): depends_on.macros and manifest.json's macros name
// them as dbt does (macro.dbt.<name>), with no SQL of their own.
var goDbtMacros = []string{"is_incremental", "run_query"}

// dispatchRe finds adapter.dispatch('name' (c[1] the macro's name).
var dispatchRe = regexp.MustCompile(`adapter\.dispatch\(\s*(?:macro_name\s*=\s*)?['"]([A-Za-z_][A-Za-z0-9_]*)['"]`)

// callRe finds a call name( or pkg.name(: a name not part of a longer
// one (c[1] the package, c[2] the name).
var callRe = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.])(?:([A-Za-z_][A-Za-z0-9_]*)\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// macroEdges merges what every node's render saw: macro → macros it called.
func (m *Manifest) macroEdges() map[string]map[string]bool {
	if m.edges != nil {
		return m.edges
	}
	m.edges = map[string]map[string]bool{}
	for _, n := range m.Nodes {
		if n.calls == nil {
			continue
		}
		for from, tos := range n.calls.Edges {
			if m.edges[from] == nil {
				m.edges[from] = map[string]bool{}
			}
			for to := range tos {
				m.edges[from][to] = true
			}
		}
	}
	return m.edges
}

// macroCallees lists the macros macro id was seen calling.
func (m *Manifest) macroCallees(id string) []string {
	return SortedKeys(m.macroEdges()[id])
}

// MacroClosure lists every macro node n calls, directly or through other
// macros, sorted.
func (m *Manifest) MacroClosure(n *Node) []string {
	edges := m.macroEdges()
	seen := map[string]bool{}
	todo := append([]string(nil), n.DependsOn.Macros...)
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		for to := range edges[id] {
			todo = append(todo, to)
		}
	}
	return SortedKeys(seen)
}

// MacroSQL is the current {% macro %} block of macro id
// ("macro.<package>.<name>"); ok is false when no such macro exists.
func (m *Manifest) MacroSQL(id string) (string, bool) {
	rest, ok := strings.CutPrefix(id, "macro.")
	if !ok {
		return "", false
	}
	pkg, name, ok := strings.Cut(rest, ".")
	if !ok {
		return "", false
	}
	if pkg == m.Name {
		if f, ok := m.Macros[name]; ok {
			return m.macroSQL(f, name), true
		}
	}
	if m.env != nil {
		if f, ok := m.env.PackageMacros()[pkg][name]; ok {
			return m.macroSQL(f, name), true
		}
	}
	return "", pkg == "dbt" && slices.Contains(goDbtMacros, name)
}

// contractConfig is config contract as manifest.json's config has it
// (read, not enforced by docket: a use is a "not applied" warning).
func contractConfig(v any) map[string]any {
	out := map[string]any{"enforced": false, "alias_types": true}
	if mp, ok := v.(map[string]any); ok {
		for _, k := range []string{"enforced", "alias_types"} {
			if b, ok := mp[k].(bool); ok {
				out[k] = b
			}
		}
	}
	return out
}
