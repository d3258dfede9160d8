package compiler

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// warn records a setting docket reads but does not apply as written.
func (m *Manifest) warn(path string, at Position, format string, a ...any) {
	if at == (Position{}) {
		at = Position{1, 1}
	}
	m.Warnings = append(m.Warnings, Diagnostic{Path: path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, a...)})
}

// keepUnacted keeps YAML resources docket does not act on (semantic
// models, metrics, exposures, ...) for the manifest and says so once per
// kind.
func (m *Manifest) keepUnacted(path string, k, v *yaml.Node) {
	if m.Unacted == nil {
		m.Unacted = map[string][]UnactedItem{}
	}
	items, _ := yany(v).([]any)
	for i, it := range yseq(v) {
		if i >= len(items) {
			break
		}
		if x, ok := items[i].(map[string]any); !ok || ystrAny(x["name"]) == "" {
			m.warn(path, ypos(it), "%s: an entry without a name is not kept", k.Value)
		}
	}
	if _, seen := m.Unacted[k.Value]; !seen {
		if k.Value == "unit_tests" {
			// acted on: they run (unittest.go), and manifest.json keeps them
		} else if k.Value == "exposures" {
			m.warn(path, ypos(k), "exposures: read and kept in manifest.json; docket runs nothing for them, but selects them as dbt does "+
				"(docket ls -s exposure:NAME lists one, docket build -s +exposure:NAME builds what it depends on) (reported once)")
		} else if placedUnacted[k.Value] {
			m.warn(path, ypos(k), "%s: read and kept in manifest.json, but docket does not act on them (reported once)", k.Value)
		} else {
			m.warn(path, ypos(k), "%s: read, but docket does not act on them (reported once)", k.Value)
		}
		m.Unacted[k.Value] = []UnactedItem{}
	}
	seq := yseq(v)
	for i, it := range items {
		if x, ok := it.(map[string]any); ok && i < len(seq) {
			m.Unacted[k.Value] = append(m.Unacted[k.Value], UnactedItem{Path: path, Item: x, at: ypos(seq[i])})
		}
	}
}

// projectWarnings turns the project's own warnings into diagnostics.
func (m *Manifest) projectWarnings() {
	for _, w := range m.Project.Warnings {
		m.warn(m.RelPath(w.File), Position{w.Line, 1}, "%s", w.Msg)
	}
}

// place is where a config is written: a file (relative to the project)
// and a position in it.
type place struct {
	path string
	at   Position
}

// folderPlaces lists where n's folder-level config key k is written on
// the levels of its models:/seeds:/snapshots: tree that apply to n, in
// the order folderConfig merges them (so the last is the one in effect):
// project.yaml's tree when it sets one (it wins), else dbt_project.yml's.
// Nil for nodes of packages and of other kinds (tests), whose trees the
// caller looks up with configSourcePos.
func (m *Manifest) folderPlaces(n *Node, k string) []place {
	if n.PackageName != m.Name || len(n.FQN) < 2 {
		return nil
	}
	var kind string
	folders := n.FQN[1:]
	switch n.ResourceType {
	case Model:
		kind = "models"
	case Seed:
		kind = "seeds"
	case Snapshot:
		if !strings.HasPrefix(n.Path, "snapshots/") {
			return nil
		}
		kind = "snapshots"
		parts := strings.Split(strings.TrimPrefix(n.Path, "snapshots/"), "/")
		folders = parts[:len(parts)-1]
	default:
		return nil
	}
	file, tree := m.configTree(kind)
	if tree == nil {
		return nil
	}
	var out []place
	take := func(level *yaml.Node) {
		for i := 0; i+1 < len(level.Content); i += 2 {
			key, v := level.Content[i], level.Content[i+1]
			plus := strings.HasPrefix(key.Value, "+")
			if !plus && (!isConfigKey(key.Value) || v.Kind == yaml.MappingNode && key.Value != "meta" && key.Value != "column_types") {
				continue // a folder (folderConfig's rule)
			}
			if normKey(key.Value) == k {
				out = append(out, place{file, ypos(key)})
			}
		}
	}
	level := tree
	if sub := yget(level, m.Name); sub != nil && sub.Kind == yaml.MappingNode && !isConfigKey(m.Name) {
		take(level)
		level = sub
	}
	take(level)
	for _, f := range folders {
		sub := yget(level, f)
		if sub == nil || sub.Kind != yaml.MappingNode {
			break
		}
		level = sub
		take(level)
	}
	return out
}

// configTree is the YAML of the models:, seeds: or snapshots: tree the
// root project's nodes take their folder configs from, and its file:
// project.yaml's when it has one (it wins), else dbt_project.yml's.
func (m *Manifest) configTree(kind string) (string, *yaml.Node) {
	files := []string{m.Project.File}
	if m.Project.DBT != nil {
		files = append(files, m.Project.DBT.File)
	}
	for _, f := range files {
		if m.yamlRoots == nil {
			m.yamlRoots = map[string]*yaml.Node{}
		}
		root, seen := m.yamlRoots[f]
		if !seen {
			if text, ok := m.fileText(f); ok {
				root, _ = yroot([]byte(text))
			}
			m.yamlRoots[f] = root
		}
		if tree := yget(root, kind); tree != nil && tree.Kind == yaml.MappingNode {
			return m.RelPath(f), tree
		}
	}
	return "", nil
}

// configSourcePos finds where a folder-level config key is written in
// dbt_project.yml or project.yaml (the first "+key:" or "key:" line).
func (m *Manifest) configSourcePos(key string) (string, Position) {
	files := []string{}
	if m.Project.DBT != nil {
		files = append(files, m.Project.DBT.File)
	}
	files = append(files, m.Project.File)
	for _, f := range files {
		text, ok := m.fileText(f)
		if !ok {
			continue
		}
		for i, l := range strings.Split(text, "\n") {
			t := strings.TrimSpace(l)
			for _, k := range []string{"+" + key + ":", "+" + strings.ReplaceAll(key, "_", "-") + ":", key + ":"} {
				if strings.HasPrefix(t, k) {
					return m.RelPath(f), Position{i + 1, strings.Index(l, k) + 1}
				}
			}
		}
	}
	return "project.yaml", Position{1, 1}
}

// checkTreeKeys warns about a models:/seeds: key that is neither a config,
// the project's name, a package's name nor a folder: dbt would not apply
// what is under it either, but silently (a project renamed in
// dbt_project.yml whose models: key still has the old name).
func (m *Manifest) checkTreeKeys(kind string, tree map[string]any, folders map[string]bool, packages map[string]bool) {
	for _, k := range SortedKeys(tree) {
		if _, isMap := tree[k].(map[string]any); !isMap || strings.HasPrefix(k, "+") || isConfigKey(k) {
			continue
		}
		if k == m.Name || packages[k] || folders[k] {
			continue
		}
		path, at := m.configSourcePos(k)
		if m.missingPkg(k) {
			m.warn(path, at, "%s: key %q names a package packages.yml lists but is not installed under dbt_packages/: the configs under it apply to nothing until it is", kind, k)
			continue
		}
		m.warn(path, at, "%s: key %q is not the project name %q, a package or a folder: the configs under it apply to nothing", kind, k, m.Name)
	}
}

// unbuiltFiles warns about dbt files docket does not build, so none is
// left out in silence: Python models (python.go).
func (m *Manifest) unbuiltFiles() {
	for _, id := range SortedKeys(m.Nodes) {
		if n := m.Nodes[id]; n.Language == "python" {
			m.warn(n.Path, Position{1, 1}, "%s is a dbt Python model (def model(dbt, session)): docket does not run Python (dbt-duckdb runs it "+
				"in-process with the duckdb Python module, which docket does not embed), so a build reports it as an error and skips the models that ref it", n.Path)
		}
	}
}

// checkConfigPaths warns, at its line, of each folder or node name under
// the project's name in a models:, seeds:, snapshots: or tests: tree
// (and at the top of the last two, which checkTreeKeys does not read)
// that no node's config path reaches: its configs apply to nothing (dbt
// warns of these "unused configuration paths"; a folder renamed or a
// model moved left them silent).
func (m *Manifest) checkConfigPaths(kind string) {
	file, tree := m.configTree(kind)
	if tree == nil || kind != "models" && kind != "seeds" && m.Project.DBT == nil {
		return
	}
	reached := map[string]bool{}
	add := func(path []string) {
		for i := 1; i <= len(path); i++ {
			reached[strings.Join(path[:i], "/")] = true
		}
	}
	nodes := []*Node{}
	for _, n := range m.Nodes {
		nodes = append(nodes, n)
	}
	for _, n := range m.Disabled {
		nodes = append(nodes, n)
	}
	for _, n := range m.Sources {
		nodes = append(nodes, n)
	}
	for _, n := range nodes {
		if n.PackageName != m.Name {
			continue
		}
		switch {
		case kind == "models" && n.ResourceType == Model, kind == "seeds" && n.ResourceType == Seed:
			if len(n.FQN) > 1 {
				add(n.FQN[1:])
			}
		case kind == "snapshots" && n.ResourceType == Snapshot && strings.HasPrefix(n.Path, "snapshots/"):
			parts := strings.Split(strings.TrimPrefix(n.Path, "snapshots/"), "/")
			add(append(parts[:len(parts)-1:len(parts)-1], n.Name))
		case kind == "tests" && n.ResourceType == Test:
			add(nodePath(m.partsUnder(n.Path, "models", "seeds", "tests"), n.Name))
		case kind == "sources" && n.ResourceType == Source: // dbt's fqn: the YAML file's folders, source, table
			add(append(nodePath(m.partsUnder(n.Path, "models"), n.SourceName), n.Name))
		}
	}
	if kind == "unit_tests" {
		for _, p := range m.unitPaths {
			add(p)
		}
	}
	noun := map[string]string{"unit_tests": "unit test"}[kind]
	if noun == "" {
		noun = strings.TrimSuffix(kind, "s")
	}
	packages := m.packageNames()
	var walk func(level *yaml.Node, prefix []string)
	walk = func(level *yaml.Node, prefix []string) {
		for i := 0; i+1 < len(level.Content); i += 2 {
			key, v := level.Content[i], level.Content[i+1]
			if !treePath(key.Value, v) {
				continue // a config, not a path
			}
			path := append(prefix[:len(prefix):len(prefix)], key.Value)
			if !reached[strings.Join(path, "/")] {
				hint := ""
				if isConfigKey(key.Value) {
					hint = fmt.Sprintf(" (to set the config %s, write +%s)", key.Value, key.Value)
				}
				m.warn(file, ypos(key), "%s: %s is a config path no %s reaches (no folder or node %s): the configs under it apply to nothing%s",
					kind, strings.Join(append([]string{m.Name}, path...), "."), noun, strings.Join(path, "/"), hint)
				continue
			}
			walk(v, path)
		}
	}
	top := tree
	if sub := yget(tree, m.Name); sub != nil && sub.Kind == yaml.MappingNode {
		walk(sub, nil)
	}
	if kind == "tests" || kind == "snapshots" {
		// the top level: the project's name, packages, config keys and
		// (docket reads paths without the project's name) folders
		for i := 0; i+1 < len(top.Content); i += 2 {
			key, v := top.Content[i], top.Content[i+1]
			if key.Value == m.Name || packages[key.Value] || !treePath(key.Value, v) {
				continue
			}
			if !reached[key.Value] {
				m.warn(file, ypos(key), "%s: key %q is not the project name %q, a package or a folder: the configs under it apply to nothing", kind, key.Value, m.Name)
				continue
			}
			walk(v, []string{key.Value})
		}
	}
}

// treePath: key k (with value v) of a dbt_project.yml tree is a folder or
// node name, not a config, as folderConfig reads it: a '+' key and a
// config key with a scalar or list value are configs; a config key whose
// value is a mapping (docs:, tags:, persist_docs: without '+') is a
// folder, as in dbt, but for meta and column_types.
func treePath(k string, v *yaml.Node) bool {
	if strings.HasPrefix(k, "+") || v.Kind != yaml.MappingNode {
		return false
	}
	return !isConfigKey(k) || normKey(k) != "meta" && normKey(k) != "column_types"
}

// checkYAMLVersion warns of a schema file version other than 2: dbt's
// check_format_version stops there ("version 1 is not supported", "the
// version is not an integer"); docket reads the file as version 2.
func (m *Manifest) checkYAMLVersion(path string, v *yaml.Node) {
	why := ""
	switch {
	case v.Kind != yaml.ScalarNode || v.Tag != "!!int":
		why = "the version is not an integer"
	case v.Value != "2":
		why = "version " + v.Value + " is not supported"
	default:
		return
	}
	shown := v.Value
	if v.Style&(yaml.SingleQuotedStyle) != 0 {
		shown = "'" + v.Value + "'"
	} else if v.Style&yaml.DoubleQuotedStyle != 0 {
		shown = `"` + v.Value + `"`
	}
	m.warn(path, ypos(v), "version %s: dbt reads only version 2 schema files (it stops here: %q); docket reads this one as version 2", shown, why)
}
