package compiler

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/render"

	"gopkg.in/yaml.v3"
)

// ParseOptions tune Parse.
type ParseOptions struct {
	Vars map[string]any // --vars, override project.yaml vars
	UDFs []Function     // Go UDFs the warehouse registers
	// Owned are the relations ("raw.documents", …) the loader creates
	// and fills: no model, seed or snapshot may replace one.
	Owned []string
	// FS holds the project's files, paths relative to the project folder
	// (nil: the folder p.Dir on disk). Parse reads nothing else, except a
	// local package outside the folder (packages.yml `local: ../x`).
	FS fs.FS
	// Log receives the messages of {{ log(msg, info=True) }} as templates
	// render (while parsing and again when a node runs); nil drops them.
	Log func(msg string)
	// Inline is dbt show's --inline SQL: parsed and compiled as the node
	// InlineID (an analysis: never built), with ref, source, var, macros.
	Inline string
	// Which and FullRefresh are the invocation's command, as dbt's
	// flags.WHICH names it (build, list, run-operation, ...; "" is a
	// render with no command: run with a warehouse, compile without), and
	// its --full-refresh: templates read them at parse too (a config()
	// that branches on flags.WHICH decides the materialization there).
	Which       string
	FullRefresh bool
}

// Manifest is a parsed project.
type Manifest struct {
	Project  *project.Project
	Name     string
	Nodes    map[string]*Node // models, seeds, tests
	Sources  map[string]*Node
	Macros   map[string]string // macro name → file
	UDFs     []Function
	Vars     map[string]any
	Parents  map[string][]string
	Children map[string][]string
	Order    []string // models and seeds in a stable topological order
	// TargetRel is the target folder relative to the project ("target"),
	// used in diagnostics that point at compiled SQL.
	TargetRel string

	// Unacted holds YAML resources docket keeps but does not act on
	// (semantic_models, metrics, exposures, ...), by key.
	Unacted map[string][]UnactedItem
	// Disabled holds nodes whose config says enabled: false.
	Disabled map[string]*Node
	// Warnings are settings read but not applied as written, with the
	// place they were read from; they never stop a build.
	Warnings []Diagnostic
	// Selectors are selectors.yml's named selections (selectors_yml.go);
	// DefaultSelector is the one marked default: true, if any.
	Selectors       map[string]*Selector
	DefaultSelector string

	env     *render.Env
	log     func(string)                // ParseOptions.Log
	started time.Time                   // run_started_at of templates
	byName  map[string]*Node            // models and seeds, as a ref without a package finds them (pkgmodels.go)
	byPkg   map[string]map[string]*Node // package (the root's name too) → its models and seeds
	scoped  bool                        // byName is one package's while its YAML is read (scopeTo)
	pkgDirs []pkgDir                    // installed packages
	pkgVars map[string]map[string]any   // what var() reads in a package's nodes (varsFor)
	// pkgsMissing: packages.yml lists a package not installed (the vars
	// it would read are unknown: unusedVars says so)
	pkgsMissing bool
	missingPkgs []string                    // their names as packages.yml gives them (dbt_date, dbt-utils)
	packages    []string                    // installed package names
	docs        map[string]docBlock         // {% docs %} blocks by name (docblocks.go)
	deferred    map[string]DeferredRelation // unique_id → relation of a previous run (defer.go)
	edges       map[string]map[string]bool  // macro → macros it calls, as renders saw (macros.go)
	Owned       map[string]bool             // ParseOptions.Owned (owned.go)
	fsys        fs.FS                       // ParseOptions.FS (tree.go)
	yamlRoots   map[string]*yaml.Node       // project.yaml and dbt_project.yml parsed for positions (configTree)
	flat        *flatGraph                  // the Jinja graph, built on first use (graphctx.go)
	run         *RunContext                 // set by ForRun: what a run adds to templates
	cliVars     map[string]any              // --vars (invocation_args_dict's vars)
	which       string                      // ParseOptions.Which
	fullRefresh bool                        // ParseOptions.FullRefresh
	// snapPatches are snapshots/*.yml entries without relation: (snapshot
	// properties), applied with the schema files (patchSnapshot)
	snapPatches []yamlEntry
	// unitPaths are every unit test's config path under unit_tests:
	// (enabled or not), for checkConfigPaths
	unitPaths [][]string
	// sourcesRead is false while snapshots are parsed, before the schema
	// files declare the sources; a source() not found then is checked
	// again in resolve (laterSources), not refused.
	sourcesRead  bool
	laterSources []laterSource
}

// laterSource is a source() call met before the sources were read.
type laterSource struct {
	n        *Node
	src, tbl string
	at       Position
}

// parser carries one Parse: the manifest it builds, the user mistakes it
// finds and the generic tests read from YAML (built once every node is
// known).
type parser struct {
	m       *Manifest
	diags   []Diagnostic
	specs   []testSpec
	cliVars map[string]any // ParseOptions.Vars
	inline  string         // ParseOptions.Inline
}

func (ps *parser) diag(path string, at Position, format string, a ...any) {
	ps.diags = append(ps.diags, Diagnostic{Path: path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, a...)})
}

// Parse reads the project's files and renders every model without a
// Database. User mistakes come back as sorted diagnostics; error is for
// I/O problems only. It runs in phases, each reading one kind of file or
// resolving what the earlier ones read.
func Parse(p *project.Project, opts ParseOptions) (*Manifest, []Diagnostic, error) {
	m := &Manifest{Project: p, Name: p.Name, Nodes: map[string]*Node{}, Sources: map[string]*Node{},
		UDFs: opts.UDFs, Vars: map[string]any{}, byName: map[string]*Node{}, byPkg: map[string]map[string]*Node{}, Disabled: map[string]*Node{}}
	m.TargetRel = "target"
	m.which, m.fullRefresh = opts.Which, opts.FullRefresh
	m.started = time.Now().UTC() // run_started_at and invocation_id of this invocation
	m.flat = &flatGraph{}
	m.log = opts.Log
	m.fsys = opts.FS
	if m.fsys == nil {
		m.fsys = os.DirFS(p.Dir)
	}
	m.Owned = map[string]bool{}
	for _, t := range opts.Owned {
		m.Owned[strings.ToLower(t)] = true
	}
	if rel, err := filepath.Rel(p.Dir, p.TargetDir); err == nil && p.TargetDir != "" {
		m.TargetRel = filepath.ToSlash(rel)
	}
	for k, v := range p.Vars {
		m.Vars[k] = v
	}
	for k, v := range opts.Vars {
		m.Vars[k] = v
	}
	ps := &parser{m: m, cliVars: opts.Vars, inline: opts.Inline}
	for _, phase := range []func() error{ps.macros, ps.models, ps.seeds, ps.snapshots, ps.schemaFiles,
		ps.resolve, ps.singularTests, ps.analyses, ps.tests, ps.selectorsFile, ps.compile} {
		if err := phase(); err != nil {
			return nil, nil, err
		}
	}
	for _, n := range m.Sources {
		n.LoaderOwned = m.Owned[strings.ToLower(n.Schema+"."+n.Identifier)]
	}
	m.folderWarnings()
	m.attachedViews()
	m.microbatchInputs()
	m.unusedVars()
	m.Warnings = SortDiagnostics(m.Warnings)
	return m, SortDiagnostics(ps.diags), nil
}

// macros reads the project's macros (and generic tests), dbt's
// cross-database ones and the installed packages'.
func (ps *parser) macros() error {
	m := ps.m
	p := m.Project
	macroDirs := m.dirs("macros")
	for _, t := range m.dirs("tests") {
		macroDirs = append(macroDirs, t+"/generic") // generic tests ({% test %})
	}
	macroFiles, err := m.readTrees(macroDirs, ".sql")
	if err != nil {
		return err
	}
	env, merrs := render.NewEnv(macroFiles)
	env.Root = m.Name
	merrs = append(merrs, env.AddPackage("dbt", builtinMacros())...)
	pkgs, err := m.findPackages()
	if err != nil {
		return err
	}
	for _, pk := range pkgs {
		files, err := m.packageMacroFiles(pk)
		if err != nil {
			return err
		}
		// A package file docket's Jinja cannot read makes its macros
		// unavailable; a project that calls one gets an undefined-name error.
		for _, e := range env.AddPackage(pk.name, files) {
			m.warn(e.File, Position{e.Err.Line, e.Err.Col}, "package macros unavailable: %s", FirstLine(e.Err.Msg))
		}
		m.packages = append(m.packages, pk.name)
		m.warnPackageUnbuilt(pk)
	}
	m.pkgDirs = pkgs
	m.buildVars(p.Vars, ps.cliVars)
	if d := p.DBT; d != nil {
		env.Dispatch = map[string][]string{}
		for _, x := range d.Dispatch {
			env.Dispatch[x.MacroNamespace] = x.SearchOrder
		}
	}
	for _, e := range merrs {
		ps.diag(e.File, Position{e.Err.Line, e.Err.Col}, "%s", e.Err.Msg)
	}
	m.env, m.Macros = env, env.Macros()
	m.warnBuiltinOverrides()
	m.warnNativeMacroOverrides()
	return nil
}

// models reads models/**/*.sql.
func (ps *parser) models() error {
	m := ps.m
	p := m.Project
	modelFiles, err := m.readTrees(m.dirs("models"), ".sql")
	if err != nil {
		return err
	}
	pyFiles, err := m.readTrees(m.dirs("models"), ".py")
	if err != nil {
		return err
	}
	for f, code := range pyFiles {
		modelFiles[f] = code
	}
	for _, path := range SortedKeys(modelFiles) {
		parts := m.relParts(path, "models")
		name := strings.TrimSuffix(strings.TrimSuffix(parts[len(parts)-1], ".sql"), ".py")
		n := &Node{UniqueID: Model + "." + m.Name + "." + name, ResourceType: Model, PackageName: m.Name, Name: name,
			Alias: name, Database: m.Database(), Path: path, RawCode: modelFiles[path],
			FQN: append([]string{m.Name}, append(parts[:len(parts)-1:len(parts)-1], name)...), Columns: map[string]Column{}}
		n.layer = "main"
		if len(parts) > 1 {
			n.layer = parts[0]
		}
		n.Schema = m.defaultSchema(n, "")
		n.Relation = Relation(n.Schema, name)
		n.folderCfg = m.folderConfig(p.Models, nodePath(parts, name))
		if strings.HasSuffix(path, ".py") {
			n.Language = "python"
		}
		if prev := m.byPkg[m.Name][name]; prev != nil {
			ps.diag(path, Position{1, 1}, "model name %q is already used by %s; model names must be unique", name, prev.Path)
			continue
		}
		m.setRef(m.Name, name, n)
		m.Nodes[n.UniqueID] = n
	}
	return ps.packageNodes(Model)
}

// snapshots reads snapshots/ (snapshot.go).
func (ps *parser) snapshots() error {
	ds, err := ps.m.readSnapshots()
	ps.diags = append(ps.diags, ds...)
	return err
}

// seeds reads seeds/**/*.csv.
func (ps *parser) seeds() error {
	m := ps.m
	p := m.Project
	seedFiles, err := m.listTrees(m.dirs("seeds"), ".csv")
	if err != nil {
		return err
	}
	for _, path := range seedFiles {
		parts := m.relParts(path, "seeds")
		name := strings.TrimSuffix(parts[len(parts)-1], ".csv")
		n := &Node{UniqueID: Seed + "." + m.Name + "." + name, ResourceType: Seed, PackageName: m.Name, Name: name,
			Alias: name, Database: m.Database(), Path: path,
			FQN:     append([]string{m.Name}, append(parts[:len(parts)-1:len(parts)-1], name)...),
			Columns: map[string]Column{}, SeedFile: filepath.Join(p.Dir, filepath.FromSlash(path)), layer: "seeds"}
		n.Schema = m.defaultSchema(n, "")
		n.Relation = Relation(n.Schema, name)
		n.folderCfg = m.folderConfig(p.Seeds, nodePath(parts, name))
		if prev := m.byPkg[m.Name][name]; prev != nil {
			ps.diag(path, Position{1, 1}, "seed name %q is already used by %s", name, prev.Path)
			continue
		}
		m.setRef(m.Name, name, n)
		m.Nodes[n.UniqueID] = n
	}
	return ps.packageNodes(Seed)
}

// schemaFiles reads the YAML beside models and seeds: sources, docs,
// generic tests (kept for tests()) and the keys docket keeps.
// Each project's YAML (the root's, then each package's) describes its
// own nodes (scopeTo).
func (ps *parser) schemaFiles() error {
	m := ps.m
	// every resource path but snapshots' (snapshot.go reads those), as
	// dbt's all_source_paths: unit tests often live in tests/*.yml
	var dirs []string
	for _, kind := range []string{"models", "seeds", "tests", "analyses", "macros"} {
		dirs = append(dirs, m.dirs(kind)...)
	}
	if err := ps.projectYAML(m.Name, dirs); err != nil {
		return err
	}
	for _, pk := range m.pkgDirs {
		// a package's too (its analyses are not built: warnPackageUnbuilt)
		dirs := append(pk.pkgPaths(pk.modelPaths, "models"), pk.pkgPaths(pk.seedPaths, "seeds")...)
		dirs = append(dirs, pk.pkgPaths(pk.testPaths, "tests")...)
		if err := ps.projectYAML(pk.name, append(dirs, pk.pkgPaths(pk.macroPaths, "macros")...)); err != nil {
			return err
		}
	}
	restore := m.scopeTo(m.Name)
	defer restore()
	for _, p := range m.snapPatches {
		ps.specs = append(ps.specs, m.patchSnapshot(p.path, p.e, &ps.diags)...)
	}
	return nil
}

// projectYAML reads the YAML files under dirs, which belong to pkg.
func (ps *parser) projectYAML(pkg string, dirs []string) error {
	m := ps.m
	var ymls []string
	for _, dir := range dirs {
		for _, ext := range []string{".yml", ".yaml"} {
			l, err := m.listTrees([]string{dir}, ext)
			if err != nil {
				return err
			}
			ymls = append(ymls, l...)
		}
	}
	sort.Strings(ymls)
	ymls = slices.Compact(ymls) // two path settings naming one folder
	restore := m.scopeTo(pkg)
	defer restore()
	for _, path := range ymls {
		data, err := m.readFile(path)
		if err != nil {
			return err
		}
		specs, ds := m.readYAML(path, data)
		ps.diags = append(ps.diags, ds...)
		ps.specs = append(ps.specs, specs...)
	}
	return nil
}

// resolve renders the models, resolves their configs, sets the disabled
// aside and places each node (schema, alias, database).
func (ps *parser) resolve() error {
	m := ps.m
	m.sourcesRead = true
	for _, l := range m.laterSources {
		if m.findSource(l.src, l.tbl, l.n) == nil {
			ps.diag(l.n.Path, l.at, "%s", m.unknownSource(l.src, l.tbl))
		}
	}
	m.laterSources = nil
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		switch {
		case n.ResourceType != Model:
		case n.Language == "python":
			ps.diags = append(ps.diags, m.parsePython(n)...)
			m.parsePythonConfig(n)
		default:
			ps.diags = append(ps.diags, m.parseNode(n)...)
		}
	}
	// resolve config
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		ps.diags = append(ps.diags, m.resolveConfig(n)...)
		m.pythonMaterialized(n)
	}
	for _, id := range SortedKeys(m.Nodes) {
		if n := m.Nodes[id]; n.Config.Enabled {
			m.checkConstraints(n)
		}
	}
	for _, id := range SortedKeys(m.Nodes) {
		if n := m.Nodes[id]; !n.Config.Enabled {
			delete(m.Nodes, id)
			if m.byPkg[n.PackageName][n.Name] == n {
				m.setRef(n.PackageName, n.Name, nil)
			}
			m.setRef(n.PackageName, n.refKey(), nil)
			m.Disabled[id] = n
		}
	}
	// schema, alias and database as dbt places them
	for _, id := range SortedKeys(m.Nodes) {
		ps.diags = append(ps.diags, m.place(m.Nodes[id])...)
	}
	ps.diags = append(ps.diags, m.relationClashes()...)
	for _, id := range SortedKeys(m.Nodes) {
		if d := m.ownedClash(m.Nodes[id]); d != nil {
			ps.diags = append(ps.diags, *d)
		}
	}
	// refs to disabled or ephemeral checks
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		for _, r := range n.Refs {
			key, pkg := r[len(r)-1], ""
			if len(r) > 1 {
				pkg = r[0]
			}
			if m.refTarget(r, n) == nil && n.refPos[key] != (Position{}) {
				// already reported as unknown during rendering unless it was disabled
				if m.disabledRef(pkg, key) {
					ps.diag(n.Path, n.refPos[key], "%s points to a disabled model", refCall(pkg, key))
				}
			}
		}
	}
	return nil
}

// singularTests reads tests/**/*.sql (not tests/generic/).
// A package's tests/ (its test-paths) are read as the root's, its nodes
// test.<pkg>.<name>.
func (ps *parser) singularTests() error {
	m := ps.m
	if err := ps.singularTestsIn(m.Name, m.dirs("tests")); err != nil {
		return err
	}
	for _, pk := range m.pkgDirs {
		if err := ps.singularTestsIn(pk.name, pk.pkgPaths(pk.testPaths, "tests")); err != nil {
			return err
		}
	}
	return nil
}

// singularTestsIn reads package pkg's singular tests under dirs.
func (ps *parser) singularTestsIn(pkg string, dirs []string) error {
	m := ps.m
	testFiles, err := m.readTrees(dirs, ".sql")
	if err != nil {
		return err
	}
	for _, path := range SortedKeys(testFiles) {
		if strings.Contains("/"+path, "/generic/") {
			continue // generic test definitions ({% test %}), read with the macros
		}
		name := strings.TrimSuffix(filepath.Base(path), ".sql")
		n := &Node{UniqueID: Test + "." + pkg + "." + name, ResourceType: Test, PackageName: pkg, Name: name,
			Schema: "main", Alias: name, Database: m.Database(), Path: path, RawCode: testFiles[path],
			FQN: []string{pkg, name}, Columns: map[string]Column{}}
		n.folderCfg = m.testFolderConfig(path, name)
		if m.Nodes[n.UniqueID] != nil {
			ps.diag(path, Position{1, 1}, "test name %q is already used", name)
			continue
		}
		m.Nodes[n.UniqueID] = n
		ps.diags = append(ps.diags, m.parseNode(n)...)
		ps.diags = append(ps.diags, m.resolveConfig(n)...)
		ps.diags = append(ps.diags, m.placeAudit(n)...)
	}
	return nil
}

// tests builds the generic tests read from YAML and the unit tests, then
// sets disabled tests aside.
func (ps *parser) tests() error {
	m := ps.m
	ps.diags = append(ps.diags, m.buildGenericTests(ps.specs)...)
	ps.diags = append(ps.diags, m.buildUnitTests()...)
	// tests with enabled: false (config() in the file, or the yml's
	// config) are disabled, as models are
	for _, id := range SortedKeys(m.Nodes) {
		if n := m.Nodes[id]; n.ResourceType == Test && !n.Config.Enabled {
			delete(m.Nodes, id)
			m.Disabled[id] = n
		}
	}
	return nil
}

// compile builds the graph and, when the parse is clean, the compiled SQL
// (each template rendered again with every node placed, compile.go).
func (ps *parser) compile() error {
	m := ps.m
	ps.diags = append(ps.diags, m.buildGraph()...)
	if len(ps.diags) > 0 {
		return nil
	}
	code, diags := m.compilePass(true)
	ps.diags = append(ps.diags, diags...)
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		if sql, ok := code[id]; ok {
			n.CompiledCode = sql
		}
		if n.builtin != nil {
			_, n.TestFrom = m.builtinSQL(n)
		}
		if (n.ResourceType == Model && n.Language == "") || n.ResourceType == Test || n.ResourceType == Analysis {
			n.CompiledPath = m.TargetRel + "/" + m.CompiledRel(n)
		}
	}
	return nil
}

// folderWarnings: projectWarnings, files docket does not build, and
// folder config keys that match no folder.
func (m *Manifest) folderWarnings() {
	p := m.Project
	m.projectWarnings()
	if p.DBT != nil {
		if text, ok := m.fileText(p.DBT.File); ok {
			m.checkDbtProjectVersions("dbt_project.yml", []byte(text))
		}
	}
	m.unbuiltFiles()
	for kind, tree := range map[string]map[string]any{"models": p.Models, "seeds": p.Seeds} {
		folders := map[string]bool{}
		for _, n := range m.Nodes {
			if (n.ResourceType == Model && kind == "models") || (n.ResourceType == Seed && kind == "seeds") {
				if len(n.FQN) > 2 {
					folders[n.FQN[1]] = true
				}
			}
		}
		for _, n := range m.Disabled {
			if len(n.FQN) > 2 {
				folders[n.FQN[1]] = true
			}
		}
		m.checkTreeKeys(kind, tree, folders, m.packageNames())
	}
	for _, kind := range []string{"models", "seeds", "snapshots", "tests", "unit_tests", "sources"} {
		m.checkConfigPaths(kind)
	}
}

// nodePath is the config path of a model or seed in the project file: its
// folders, then its own name (dbt applies project configs by fqn, so
// `models: proj: marts: orders: +materialized: table` configures orders).
func nodePath(parts []string, name string) []string {
	return append(append(make([]string, 0, len(parts)), parts[:len(parts)-1]...), name)
}
