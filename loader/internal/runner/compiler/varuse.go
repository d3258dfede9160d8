package compiler

import (
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// ReadByDocket are vars docket's own Go code reads besides any model
// (the search command's BM25 weights, the embedding model it sets): a
// project that sets one is not told that no model reads it.
var ReadByDocket = map[string]bool{"bm25_k1": true, "bm25_b": true, "embedding_model": true}

// unusedVars warns at each var that project.yaml or dbt_project.yml sets
// (at the root, or in the root project's scoped block) and that nothing
// reads, and at each var of a block scoped to an installed package that
// nothing the package's nodes see reads (its own models, tests, ..., any
// macro, and the root's project files, which configure its nodes; not
// the root's models, which do not see the block): no var() of a model, macro, snapshot, test, analysis, hook or
// schema file, whatever branch it is in (read from the parse trees, not
// from a render, so an incremental build's branch counts on a full
// build). A macro that hands a parameter on to var() reads the literals
// its callers pass there (batch_count(ref('x'), 'signature_batch_texts')).
// A var() whose name is computed makes what is read unknown: that is
// warned once at its place and no var is called unused.
func (m *Manifest) unusedVars() {
	if m.env == nil {
		return
	}
	set := m.varsSet()
	if len(set) == 0 {
		return
	}
	reads := m.env.VarReads(m.varSources())
	if len(reads.Computed) > 0 {
		c := reads.Computed[0]
		m.warn(c.File, Position{c.Line, c.Col}, "var() with a computed name (not a literal nor a macro parameter handed on): "+
			"what it reads is unknown, so vars the project sets that nothing reads are not reported")
		return
	}
	why := "a misspelt name? var() falls back to its default"
	if m.pkgsMissing {
		why = "or a package packages.yml lists but is not installed does"
	}
	for _, v := range set {
		switch {
		case v.pkg == "":
			if !reads.Names[v.name] && !ReadByDocket[v.name] {
				m.warn(v.file, v.at, "var %q is set but no model, macro, hook or test reads it (%s)", v.name, why)
			}
		case !reads.BySource[v.pkg][v.name] && !reads.BySource[""][v.name] && !reads.InMacros[v.name]:
			m.warn(v.file, v.at, "var %q is set for package %q but none of its models, hooks or tests nor any macro reads it (%s)", v.name, v.pkg, why)
		}
	}
}

// varSources are the files whose Jinja can read a var (group → file →
// text): the models, snapshots, tests, analyses and seeds folders' SQL
// and YAML of the root project (group: its name) and of every installed
// package (its name: a root project sets the vars of its packages'
// sources and models, stripe_schema), and the root's project files
// (group "": dbt_project.yml's +enabled: "{{ var(...) }}", selectors.yml).
func (m *Manifest) varSources() map[string]map[string]string {
	all := map[string]map[string]string{}
	sources := map[string]string{}
	add := func(dirs []string) {
		for _, ext := range []string{".sql", ".yml", ".yaml"} {
			files, err := m.readTrees(dirs, ext)
			if err != nil {
				continue
			}
			for f, s := range files {
				sources[f] = s
			}
		}
	}
	addFiles := func(files ...string) {
		for _, f := range files {
			if s, ok := m.fileText(f); ok && f != "" {
				sources[m.RelPath(f)] = s
			}
		}
	}
	for _, kind := range []string{"models", "snapshots", "tests", "analyses", "seeds"} {
		add(m.dirs(kind))
	}
	all[m.Name] = sources
	sources = map[string]string{}
	// selectors.yml's values are rendered with var() (selectorsFile)
	addFiles(m.Project.File, m.dbtFile(), "selectors.yml", "selectors.yaml")
	all[""] = sources
	for _, pk := range m.pkgDirs {
		sources = map[string]string{}
		add(pk.pkgPaths(pk.modelPaths, "models"))
		add(pk.pkgPaths(pk.seedPaths, "seeds"))
		add(pk.pkgPaths(pk.snapshotPaths, "snapshots"))
		add(pk.pkgPaths(pk.testPaths, "tests"))
		add(pk.pkgPaths(pk.analysisPaths, "analyses"))
		addFiles(pk.dir + "/dbt_project.yml")
		all[pk.name] = sources
	}
	return all
}

// varSet is a var the project sets, where, and the installed package
// whose block sets it ("" the root's or a global one).
type varSet struct {
	name, file, pkg string
	at              Position
}

// varsSet lists the vars of project.yaml and dbt_project.yml with their
// places: the top-level keys of vars:, and those of its blocks scoped to
// the root project or to an installed package. A block scoped to a
// package packages.yml lists but that is not installed is warned once:
// what would read its vars is unknown.
func (m *Manifest) varsSet() []varSet {
	var out []varSet
	packages := map[string]bool{}
	for _, p := range m.packages {
		packages[p] = true
	}
	for _, f := range []string{m.dbtFile(), m.Project.File} {
		if f == "" {
			continue
		}
		text, ok := m.fileText(f)
		if !ok {
			continue
		}
		root, err := yroot([]byte(text))
		if err != nil {
			continue
		}
		vars := yget(root, "vars")
		if vars == nil || vars.Kind != yaml.MappingNode {
			continue
		}
		rel := m.RelPath(f)
		var keys func(n *yaml.Node, pkg string, scoped bool)
		keys = func(n *yaml.Node, pkg string, scoped bool) {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				switch {
				case scoped || v.Kind != yaml.MappingNode:
				case k.Value == m.Name:
					keys(v, "", true)
					continue
				case packages[k.Value]:
					keys(v, k.Value, true)
					continue
				case m.missingPkg(k.Value):
					m.warn(rel, ypos(k), "vars scoped to package %q are not checked for misspellings: packages.yml lists it but it is not installed under dbt_packages/, so what reads them is unknown", k.Value)
					continue
				}
				out = append(out, varSet{k.Value, rel, pkg, ypos(k)})
			}
		}
		keys(vars, "", false)
	}
	return out
}

// missingPkg reports whether name is a package packages.yml lists but
// that is not installed (dbt_date for godatadriven/dbt_date; dbt_utils or
// audit_helper for a git URL ending in dbt-utils.git or
// dbt-audit-helper.git).
func (m *Manifest) missingPkg(name string) bool {
	for _, p := range m.missingPkgs {
		p = strings.ToLower(strings.ReplaceAll(p, "-", "_"))
		if n := strings.ToLower(name); n == p || "dbt_"+n == p {
			return true
		}
	}
	return false
}

// dbtFile is dbt_project.yml's path ("" when the project has none).
func (m *Manifest) dbtFile() string {
	if m.Project.DBT == nil {
		return ""
	}
	return m.Project.DBT.File
}

// RelPath is a path relative to the project folder, slash-separated, as
// the project's warnings print it.
func (m *Manifest) RelPath(f string) string {
	if rel, err := filepath.Rel(m.Project.Dir, f); err == nil {
		return filepath.ToSlash(rel)
	}
	return f
}
