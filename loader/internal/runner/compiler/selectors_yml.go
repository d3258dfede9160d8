package compiler

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Selector is one entry of the project's selectors.yml (dbt's YAML
// selectors): a named selection used with --selector NAME, or by default
// when the command has no selection and the entry says `default: true`.
type Selector struct {
	Name        string
	Description string
	Default     bool
	Path        string   // the file it is defined in
	At          Position // where its entry starts
	raw         any      // the definition as written, for manifest.json
	spec        *selSpec
}

// selSpec is a parsed selector definition: a set operation over its
// parts, or one criterion (an atom in the CLI syntax), with the parts in
// exclude taken away.
type selSpec struct {
	op       string // "union", "intersection" or "" (criterion)
	parts    []*selSpec
	exclude  *selSpec
	criteria string // the CLI form, e.g. "2+tag:nightly+"
	indirect string // the criterion's indirect_selection, "" = the command's
	path     string
	at       Position
}

// selectorsFile reads selectors.yml (or .yaml) at the project root, as
// dbt does: each selector's definition is a CLI-style string, a
// `method: value` pair, a full mapping (method, value, parents, children,
// parents_depth, children_depth, childrens_parents, indirect_selection,
// exclude) or a union/intersection list of those; `method: selector`
// reuses a selector defined above it. Jinja in values is rendered
// (env_var, target, var). Mistakes are diagnostics at their line.
func (ps *parser) selectorsFile() error {
	m := ps.m
	for _, f := range []string{"selectors.yml", "selectors.yaml"} {
		data, err := fs.ReadFile(m.fsys, f)
		if err != nil {
			continue
		}
		root, err := yroot(data)
		if err != nil {
			ps.diag(f, Position{1, 1}, "selectors file: %v", err)
			return nil
		}
		m.renderYAMLValue(f, root, &ps.diags)
		ps.readSelectors(f, root)
		return nil
	}
	return nil
}

func (ps *parser) readSelectors(f string, root *yaml.Node) {
	m := ps.m
	list := yget(root, "selectors")
	if list == nil || list.Kind != yaml.SequenceNode {
		ps.diag(f, ypos(root), "selectors file: expected a `selectors:` list")
		return
	}
	m.Selectors = map[string]*Selector{}
	for _, e := range list.Content {
		name := ystr(e, "name")
		def := yget(e, "definition")
		if e.Kind != yaml.MappingNode || name == "" || def == nil {
			ps.diag(f, ypos(e), "a selector needs a name and a definition")
			continue
		}
		if m.Selectors[name] != nil {
			ps.diag(f, ypos(e), "selector %q is defined twice", name)
			continue
		}
		s := &Selector{Name: name, Description: ystr(e, "description"), Path: f, At: ypos(e), raw: yany(def)}
		if d := yget(e, "default"); d != nil {
			b, err := strconv.ParseBool(d.Value)
			if err != nil {
				ps.diag(f, ypos(d), "selector %q: default must be true or false (got %q)", name, d.Value)
			}
			s.Default = b
		}
		if def.Kind == yaml.MappingNode && len(def.Content) > 2 && (yget(def, "union") != nil || yget(def, "intersection") != nil) {
			ps.diag(f, ypos(def), "selector %q: only one `union` or `intersection` key is allowed at the top of a definition", name)
			continue
		}
		spec, err := m.parseSelSpec(f, def)
		if err != nil {
			ps.diags = append(ps.diags, *err)
			continue
		}
		s.spec = spec
		if s.Default {
			if m.DefaultSelector != "" {
				ps.diag(f, ypos(e), "selectors %q and %q both say default: true; only one may", m.DefaultSelector, name)
				continue
			}
			m.DefaultSelector = name
		}
		m.Selectors[name] = s
	}
}

func (m *Manifest) parseSelSpec(f string, d *yaml.Node) (*selSpec, *Diagnostic) {
	bad := func(n *yaml.Node, format string, a ...any) (*selSpec, *Diagnostic) {
		return nil, &Diagnostic{Path: f, Line: ypos(n).Line, Col: ypos(n).Col, Msg: fmt.Sprintf(format, a...)}
	}
	switch d.Kind {
	case yaml.ScalarNode:
		return m.criterion(f, d, d.Value, "")
	case yaml.MappingNode:
	default:
		return bad(d, "a selector definition is a string, a mapping or a union/intersection list")
	}
	for _, op := range []string{"union", "intersection"} {
		if l := yget(d, op); l != nil {
			return m.parseSetOp(f, op, l)
		}
	}
	if len(d.Content) == 2 { // `tag: nightly`
		return m.criterion(f, d, d.Content[0].Value+":"+d.Content[1].Value, "")
	}
	method := ystr(d, "method")
	if method == "" || yget(d, "value") == nil {
		return bad(d, "a selector mapping has either one `method: value` key or `method` and `value` keys")
	}
	value := ystr(d, "value")
	if method == "selector" {
		s := m.Selectors[value]
		if s == nil {
			return bad(d, "selector %q is not defined above this one in the file", value)
		}
		return s.spec, nil
	}
	spec, err := m.criterion(f, d, m.graphWrapped(f, d, method, value), ystr(d, "indirect_selection"))
	if err != nil {
		return nil, err
	}
	if ex := yget(d, "exclude"); ex != nil {
		x, err := m.parseSetOp(f, "union", ex)
		if err != nil {
			return nil, err
		}
		spec = &selSpec{op: "union", parts: []*selSpec{spec}, exclude: x, path: f, at: ypos(d)}
	}
	return spec, nil
}

// parseSetOp reads a union or intersection list; one `exclude:` item in
// it is taken away from the result.
func (m *Manifest) parseSetOp(f, op string, l *yaml.Node) (*selSpec, *Diagnostic) {
	if l.Kind != yaml.SequenceNode {
		return nil, &Diagnostic{Path: f, Line: l.Line, Col: l.Column, Msg: fmt.Sprintf("`%s` takes a list", op)}
	}
	out := &selSpec{op: op, path: f, at: ypos(l)}
	for _, item := range l.Content {
		if ex := yget(item, "exclude"); ex != nil && len(item.Content) == 2 {
			if out.exclude != nil {
				return nil, &Diagnostic{Path: f, Line: item.Line, Col: item.Column, Msg: "only one `exclude` per union or intersection"}
			}
			x, err := m.parseSetOp(f, "union", ex)
			if err != nil {
				return nil, err
			}
			out.exclude = x
			continue
		}
		p, err := m.parseSelSpec(f, item)
		if err != nil {
			return nil, err
		}
		out.parts = append(out.parts, p)
	}
	return out, nil
}

// graphWrapped is a full-syntax criterion in the CLI form: parents,
// parents_depth, children, children_depth, childrens_parents become the
// graph operators around method:value. As dbt's collect_specified_neighbors,
// a depth applies only with its flag (parents: true / children: true); a
// depth without it selects nothing more and is warned at its line.
func (m *Manifest) graphWrapped(f string, d *yaml.Node, method, value string) string {
	flag := func(k string) bool { b, _ := strconv.ParseBool(ystr(d, k)); return b }
	depth := func(k, on string) string {
		n := ystr(d, k)
		if n != "" && !flag(on) {
			m.warn(f, ypos(yget(d, k)), "%s is not applied without %s: true (dbt applies a depth only with its flag)", k, on)
			return ""
		}
		return n
	}
	core := value
	if method != "fqn" {
		core = method + ":" + value
	}
	up, down := depth("parents_depth", "parents"), depth("children_depth", "children")
	if flag("childrens_parents") {
		return "@" + core
	}
	if flag("parents") {
		core = up + "+" + core
	}
	if flag("children") {
		core += "+" + down
	}
	return core
}

// criterion checks one criterion now: a method docket does not know
// (misspelt, or one of dbt's it lacks, such as state: here) is a warning
// at its line, and an error only when the selector is used.
func (m *Manifest) criterion(f string, at *yaml.Node, crit, indirect string) (*selSpec, *Diagnostic) {
	if _, err := m.union(splitSelectors([]string{crit})); err != nil {
		m.warn(f, ypos(at), "selector criterion %q: %v; a command using this selector fails", crit, err)
	}
	switch indirect {
	case "", "eager", "cautious", "buildable", "empty":
	default:
		return nil, &Diagnostic{Path: f, Line: at.Line, Col: at.Column, Msg: fmt.Sprintf("indirect_selection must be eager, cautious, buildable or empty (got %q)", indirect)}
	}
	return &selSpec{criteria: crit, indirect: indirect, path: f, at: ypos(at)}, nil
}

// SelectSelector is the selection of the named selectors.yml selector, as
// Select returns one: indirect is the command's --indirect-selection,
// used where a criterion does not set its own.
func (m *Manifest) SelectSelector(name, indirect string, types ...string) ([]string, error) {
	s := m.Selectors[name]
	if s == nil {
		known := SortedKeys(m.Selectors)
		if len(known) == 0 {
			return nil, fmt.Errorf("--selector %s: the project has no selectors.yml selectors", name)
		}
		return nil, fmt.Errorf("--selector %s: no such selector in selectors.yml (defined: %s)", name, strings.Join(known, ", "))
	}
	sel, err := m.evalSel(s.spec, indirect)
	if err != nil {
		return nil, err
	}
	return m.keepTypes(sel, types), nil
}

func (m *Manifest) evalSel(s *selSpec, indirect string) (map[string]bool, error) {
	var out map[string]bool
	if s.op == "" {
		set, err := m.union(splitSelectors([]string{s.criteria}))
		if err != nil {
			return nil, fmt.Errorf("%s:%d:%d: %v", s.path, s.at.Line, s.at.Col, err)
		}
		mode := indirect
		if s.indirect != "" {
			mode = s.indirect
		}
		m.addTests(set, mode)
		return set, nil
	}
	for i, p := range s.parts {
		set, err := m.evalSel(p, indirect)
		if err != nil {
			return nil, err
		}
		switch {
		case i == 0:
			out = set
		case s.op == "union":
			for id := range set {
				out[id] = true
			}
		default:
			for id := range out {
				if !set[id] {
					delete(out, id)
				}
			}
		}
	}
	if out == nil {
		out = map[string]bool{}
	}
	if s.exclude != nil {
		x, err := m.evalSel(s.exclude, "eager") // excluding a node excludes its tests
		if err != nil {
			return nil, err
		}
		for id := range x {
			delete(out, id)
		}
	}
	return out, nil
}

// selectorsDoc is manifest.json's selectors: each selector as written.
func (m *Manifest) selectorsDoc() map[string]any {
	out := map[string]any{}
	for name, s := range m.Selectors {
		d := map[string]any{"name": name, "definition": s.raw}
		if s.Description != "" {
			d["description"] = s.Description
		}
		if s.Default {
			d["default"] = true
		}
		out[name] = d
	}
	return out
}
