package compiler

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// A package's own models, seeds and YAML are nodes of the build as in
// dbt-core: model.<pkg>.<name> with fqn [pkg, folders..., name], placed
// by the package's dbt_project.yml (model-paths, seed-paths, models:,
// seeds:, vars:) under the root dbt_project.yml's `models: <pkg>:` (which
// wins: how users disable or reschema package models).

// pkgPaths are a package's folders of one kind (its dbt_project.yml's
// paths, else the default), relative to the root project.
func (pk pkgDir) pkgPaths(paths []string, def string) []string {
	if len(paths) == 0 {
		paths = []string{def}
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = path.Join(pk.dir, strings.Trim(path.Clean(filepath.ToSlash(p)), "/"))
	}
	return out
}

// partsBelow splits p below the first of dirs that holds it.
func partsBelow(p string, dirs []string) []string {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return strings.Split(strings.TrimPrefix(p, d+"/"), "/")
		}
	}
	return []string{path.Base(p)}
}

// pkgOf is the package a project file belongs to: the installed package
// whose folder holds it, else the root project.
func (m *Manifest) pkgOf(p string) string {
	for _, pk := range m.pkgDirs {
		if strings.HasPrefix(p, pk.dir+"/") {
			return pk.name
		}
	}
	return m.Name
}

// packageNodes reads the models (kind Model) or seeds of every package.
func (ps *parser) packageNodes(kind string) error {
	m := ps.m
	for _, pk := range m.pkgDirs {
		dirs, tree, rootTree, ext := pk.pkgPaths(pk.modelPaths, "models"), pk.models, m.Project.Models, ".sql"
		if kind == Seed {
			dirs, tree, rootTree, ext = pk.pkgPaths(pk.seedPaths, "seeds"), pk.seeds, m.Project.Seeds, ".csv"
		}
		files, err := m.listTrees(dirs, ext)
		if err != nil {
			return err
		}
		for _, p := range files {
			parts := partsBelow(p, dirs)
			name := strings.TrimSuffix(parts[len(parts)-1], ext)
			n := &Node{UniqueID: kind + "." + pk.name + "." + name, ResourceType: kind, PackageName: pk.name, Name: name,
				Alias: name, Database: m.Database(), Path: p, Columns: map[string]Column{},
				FQN: append([]string{pk.name}, nodePath(parts, name)...), layer: "main"}
			if kind == Seed {
				n.SeedFile, n.layer = filepath.Join(m.Project.Dir, filepath.FromSlash(p)), "seeds"
			} else if b, err := m.readFile(p); err != nil {
				return err
			} else {
				n.RawCode = string(b)
				if len(parts) > 1 {
					n.layer = parts[0]
				}
			}
			n.Schema = m.defaultSchema(n, "")
			n.Relation = Relation(n.Schema, name)
			n.folderCfg = m.pkgFolderConfig(pk.name, tree, rootTree, nodePath(parts, name))
			if prev := m.byPkg[pk.name][name]; prev != nil {
				ps.diag(p, Position{1, 1}, "%s name %q is already used by %s in package %s; names must be unique within a package", kind, name, prev.Path, pk.name)
				continue
			}
			m.setRef(pk.name, name, n)
			m.Nodes[n.UniqueID] = n
		}
	}
	return nil
}

// pkgFolderConfig is a package node's project-file config: the package's
// own `models: <pkg>:` tree, then the root project's top-level + keys and
// its `models: <pkg>:` tree, which win (tags and meta add up).
func (m *Manifest) pkgFolderConfig(pkg string, own, root map[string]any, folders []string) map[string]any {
	out := configAlong(own, pkg, folders)
	for k, v := range configAlong(root, pkg, folders) {
		mergeCfg(out, k, v)
	}
	return out
}

// configAlong merges a config tree's + keys along pkg's fqn: the top
// level, then tree[pkg] and its folders.
func configAlong(tree map[string]any, pkg string, folders []string) map[string]any {
	out := map[string]any{}
	take := func(level map[string]any) {
		for k, v := range level {
			if strings.HasPrefix(k, "+") || isConfigKey(k) {
				if _, isMap := v.(map[string]any); isMap && !strings.HasPrefix(k, "+") && k != "meta" && k != "column_types" {
					continue
				}
				mergeCfg(out, normKey(k), v)
			}
		}
	}
	take(tree)
	level, ok := tree[pkg].(map[string]any)
	if !ok {
		return out
	}
	take(level)
	for _, f := range folders {
		if level, ok = level[f].(map[string]any); !ok {
			break
		}
		take(level)
	}
	return out
}

// setRef makes n what ref(pkg, key) names, and byName (the lookup of a
// ref without a package) the root's node of that key, else the first
// package's (dbt's _find_unique_id_for_package).
func (m *Manifest) setRef(pkg, key string, n *Node) {
	if m.byPkg[pkg] == nil {
		m.byPkg[pkg] = map[string]*Node{}
	}
	if n == nil {
		delete(m.byPkg[pkg], key)
	} else {
		m.byPkg[pkg][key] = n
	}
	if !m.scoped {
		m.mergeRef(key)
	}
}

// mergeRef sets byName[key] from byPkg: root first, then the packages in
// name order.
func (m *Manifest) mergeRef(key string) {
	if t := m.byPkg[m.Name][key]; t != nil {
		m.byName[key] = t
		return
	}
	for _, p := range m.packages {
		if t := m.byPkg[p][key]; t != nil {
			m.byName[key] = t
			return
		}
	}
	delete(m.byName, key)
}

// scopeTo makes byName package pkg's own lookup while its files are read
// (a YAML entry describes a model of its own package); the returned
// function restores the merged lookup.
func (m *Manifest) scopeTo(pkg string) func() {
	if m.byPkg[pkg] == nil {
		m.byPkg[pkg] = map[string]*Node{}
	}
	saved := m.byName
	m.byName, m.scoped = m.byPkg[pkg], true
	return func() {
		m.byName, m.scoped = saved, false
		clear(m.byName)
		for _, keys := range m.byPkg {
			for k := range keys {
				m.mergeRef(k)
			}
		}
	}
}

// findRef is the node ref([pkg,] key) names from a node of package from
// (nil: the root's), as dbt-core's resolve_ref: with a package only that
// package; without, the root project, then the node's own package, then
// any package.
func (m *Manifest) findRef(pkg, key string, from *Node) *Node {
	if pkg != "" {
		return m.byPkg[pkg][key]
	}
	if t := m.byPkg[m.Name][key]; t != nil {
		return t
	}
	if from != nil {
		if t := m.byPkg[from.PackageName][key]; t != nil {
			return t
		}
	}
	return m.byName[key]
}

// refTarget is findRef of a recorded ref ([key] or [pkg, key]).
func (m *Manifest) refTarget(r []string, from *Node) *Node {
	if len(r) > 1 {
		return m.findRef(r[0], r[len(r)-1], from)
	}
	return m.findRef("", r[0], from)
}

// disabledRef reports whether ref([pkg,] key) names a disabled node.
func (m *Manifest) disabledRef(pkg, key string) bool {
	for _, d := range m.Disabled {
		if d.ResourceType != Model && d.ResourceType != Seed && d.ResourceType != Snapshot {
			continue
		}
		if (d.refKey() == key || d.Name == key) && (pkg == "" || d.PackageName == pkg) {
			return true
		}
	}
	return false
}

// packageRef says why ref(pkg, name) names nothing.
func (m *Manifest) packageRef(pkg, name, key string) string {
	if pkg == m.Name || m.byPkg[pkg] != nil {
		return fmt.Sprintf("ref(%q, %q): package %s has no model or seed named %q", pkg, name, pkg, key)
	}
	return fmt.Sprintf("ref(%q, %q): no project or installed package named %q (this project is %q)", pkg, name, pkg, m.Name)
}

// varsFor is what var() reads in a node of package pkg, as dbt's
// ModelConfiguredVar: the package's own vars (its scoped block winning),
// under the root project's (its `vars: {<pkg>: ...}` block winning),
// under --vars.
func (m *Manifest) varsFor(pkg string) map[string]any {
	if v, ok := m.pkgVars[pkg]; ok {
		return v
	}
	return m.Vars
}

// buildVars fills Vars (the root's) and pkgVars.
func (m *Manifest) buildVars(root, cli map[string]any) {
	scoped := func(dst, vars map[string]any, pkg string) {
		for k, v := range vars {
			dst[k] = v
		}
		if sub, ok := stringKeyed(vars[pkg]); ok {
			for k, v := range sub {
				dst[k] = v
			}
		}
	}
	m.Vars = map[string]any{}
	scoped(m.Vars, root, m.Name)
	scoped(m.Vars, cli, "")
	m.cliVars = cli
	m.pkgVars = map[string]map[string]any{}
	for _, pk := range m.pkgDirs {
		v := map[string]any{}
		scoped(v, pk.vars, pk.name)
		scoped(v, root, pk.name)
		scoped(v, cli, "")
		m.pkgVars[pk.name] = v
	}
}

// macroPkg is the render package of a node's templates ("" = root).
func (m *Manifest) macroPkg(pkg string) string {
	if pkg == m.Name {
		return ""
	}
	return pkg
}

// refCall is a ref as written: ref("name"), ref("pkg", "name", v=N).
func refCall(pkg, key string) string {
	name, v := splitRefKey(key)
	args := fmt.Sprintf("%q", name)
	if pkg != "" {
		args = fmt.Sprintf("%q, %q", pkg, name)
	}
	if v != "" {
		args += ", v=" + v
	}
	return "ref(" + args + ")"
}

// pkgDir is the installed package named pkg.
func (m *Manifest) pkgDir(pkg string) pkgDir {
	for _, pk := range m.pkgDirs {
		if pk.name == pkg {
			return pk
		}
	}
	return pkgDir{name: pkg}
}

// findSource is source(src, tbl) from a node of package from (nil: the
// root's): the root project's, the node's package's, then any package's
// (dbt's _packages_to_search).
func (m *Manifest) findSource(src, tbl string, from *Node) *Node {
	key := "." + src + "." + tbl
	if s := m.Sources[Source+"."+m.Name+key]; s != nil {
		return s
	}
	if from != nil {
		if s := m.Sources[Source+"."+from.PackageName+key]; s != nil {
			return s
		}
	}
	for _, p := range m.packages {
		if s := m.Sources[Source+"."+p+key]; s != nil {
			return s
		}
	}
	return nil
}

// warnPackageUnbuilt: docket builds a package's models, seeds, YAML,
// singular tests, {% snapshot %} blocks and on-run hooks, not yet its
// snapshots: YAML entries, analyses or Python models; a
// package that has any says so at its dbt_project.yml.
func (m *Manifest) warnPackageUnbuilt(pk pkgDir) {
	var what []string
	for _, k := range []struct {
		label string
		dirs  []string
		ext   string
	}{{"snapshot YAML file(s)", pk.pkgPaths(pk.snapshotPaths, "snapshots"), ".yml"}, {"analysis file(s)", pk.pkgPaths(pk.analysisPaths, "analyses"), ".sql"},
		{"Python model(s)", pk.pkgPaths(pk.modelPaths, "models"), ".py"}} {
		if files, _ := m.listTrees(k.dirs, k.ext); len(files) > 0 {
			what = append(what, fmt.Sprintf("%d %s (%s, ...)", len(files), k.label, path.Base(files[0])))
		}
	}
	if len(what) > 0 {
		m.warn(pk.dir+"/dbt_project.yml", Position{1, 1}, "package %s has %s: docket builds a package's models, seeds, YAML, singular tests, snapshot blocks and on-run hooks, not yet these",
			pk.name, strings.Join(what, ", "))
	}
}

// relationClashes is dbt's AmbiguousAliasError: two models, seeds or
// snapshots (of any packages) placed at the same database relation.
func (m *Manifest) relationClashes() []Diagnostic {
	var diags []Diagnostic
	seen := map[string]*Node{}
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		if n.ResourceType != Model && n.ResourceType != Seed && n.ResourceType != Snapshot {
			continue
		}
		key := strings.ToLower(n.Database + "." + n.Schema + "." + n.Alias)
		if prev := seen[key]; prev != nil {
			diags = append(diags, Diagnostic{Path: n.Path, Line: 1, Col: 1, Msg: fmt.Sprintf(
				"dbt found two resources with the database representation %s (%s in %s and %s): change the schema or alias of one of them",
				n.Relation, prev.UniqueID, prev.Path, n.UniqueID)})
			continue
		}
		seen[key] = n
	}
	return diags
}
