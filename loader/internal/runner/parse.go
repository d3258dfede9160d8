package runner

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"gopkg.in/yaml.v3"
)

// ParseOptions tune Parse.
type ParseOptions struct {
	Vars map[string]any  // --vars, override project.yaml vars
	UDFs []warehouse.UDF // Go UDFs the warehouse registers
	// Log receives the messages of {{ log(msg, info=True) }} as templates
	// render (while parsing and again when a node runs); nil drops them.
	Log func(msg string)
}

// Manifest is a parsed project.
type Manifest struct {
	Project  *project.Project
	Name     string
	Nodes    map[string]*Node // models, seeds, tests
	Sources  map[string]*Node
	Macros   map[string]string // macro name → file
	UDFs     []warehouse.UDF
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

	env      *render.Env
	log      func(string)               // ParseOptions.Log
	byName   map[string]*Node           // models and seeds
	packages []string                   // installed package names
	docs     map[string]docBlock        // {% docs %} blocks by name (docblocks.go)
	deferred map[string]string          // unique_id → relation of a previous run (defer.go)
	edges    map[string]map[string]bool // macro → macros it calls, as renders saw (macros.go)
}

// Parse reads the project's files and renders every model without a
// database. User mistakes come back as sorted diagnostics; error is for
// I/O problems only.
func Parse(p *project.Project, opts ParseOptions) (*Manifest, []Diagnostic, error) {
	m := &Manifest{Project: p, Name: p.Name, Nodes: map[string]*Node{}, Sources: map[string]*Node{},
		UDFs: opts.UDFs, Vars: map[string]any{}, byName: map[string]*Node{}, Disabled: map[string]*Node{}}
	m.TargetRel = "target"
	m.log = opts.Log
	if rel, err := filepath.Rel(p.Dir, p.TargetDir); err == nil && p.TargetDir != "" {
		m.TargetRel = filepath.ToSlash(rel)
	}
	for k, v := range p.Vars {
		m.Vars[k] = v
	}
	for k, v := range opts.Vars {
		m.Vars[k] = v
	}
	var diags []Diagnostic
	diag := func(path string, ps pos, format string, a ...any) {
		diags = append(diags, Diagnostic{Path: path, Line: ps.line, Col: ps.col, Msg: fmt.Sprintf(format, a...)})
	}

	// macros
	macroDirs := m.dirs("macros")
	for _, t := range m.dirs("tests") {
		macroDirs = append(macroDirs, t+"/generic") // generic tests ({% test %})
	}
	macroFiles, err := m.readTrees(macroDirs, ".sql")
	if err != nil {
		return nil, nil, err
	}
	env, merrs := render.NewEnv(macroFiles)
	env.Root = m.Name
	merrs = append(merrs, env.AddPackage("dbt", builtinMacros())...)
	pkgs, err := m.findPackages()
	if err != nil {
		return nil, nil, err
	}
	for _, pk := range pkgs {
		files, err := m.packageMacroFiles(pk)
		if err != nil {
			return nil, nil, err
		}
		// A package file docket's Jinja cannot read makes its macros
		// unavailable; a project that calls one gets an undefined-name error.
		for _, e := range env.AddPackage(pk.name, files) {
			m.warn(e.File, pos{e.Err.Line, e.Err.Col}, "package macros unavailable: %s", firstLine(e.Err.Msg))
		}
		m.packages = append(m.packages, pk.name)
	}
	if d := p.DBT; d != nil {
		env.Dispatch = map[string][]string{}
		for _, x := range d.Dispatch {
			env.Dispatch[x.MacroNamespace] = x.SearchOrder
		}
	}
	for _, e := range merrs {
		diag(e.File, pos{e.Err.Line, e.Err.Col}, "%s", e.Err.Msg)
	}
	m.env, m.Macros = env, env.Macros()

	// models
	modelFiles, err := m.readTrees(m.dirs("models"), ".sql")
	if err != nil {
		return nil, nil, err
	}
	for _, path := range sortedKeys(modelFiles) {
		parts := m.relParts(path, "models")
		name := strings.TrimSuffix(parts[len(parts)-1], ".sql")
		n := &Node{UniqueID: Model + "." + m.Name + "." + name, ResourceType: Model, PackageName: m.Name, Name: name,
			Alias: name, Database: m.database(), Path: path, RawCode: modelFiles[path],
			FQN: append([]string{m.Name}, append(parts[:len(parts)-1:len(parts)-1], name)...), Columns: map[string]Column{}}
		n.layer = "main"
		if len(parts) > 1 {
			n.layer = parts[0]
		}
		n.Schema = m.defaultSchema(n, "")
		n.Relation = Relation(n.Schema, name)
		n.folderCfg = m.folderConfig(p.Models, parts[:len(parts)-1])
		if prev := m.byName[name]; prev != nil {
			diag(path, pos{1, 1}, "model name %q is already used by %s; model names must be unique", name, prev.Path)
			continue
		}
		m.byName[name] = n
		m.Nodes[n.UniqueID] = n
	}

	// snapshots (snapshot.go)
	snapDiags, err := m.readSnapshots()
	if err != nil {
		return nil, nil, err
	}
	diags = append(diags, snapDiags...)

	// seeds
	seedFiles, err := m.listTrees(m.dirs("seeds"), ".csv")
	if err != nil {
		return nil, nil, err
	}
	for _, path := range seedFiles {
		parts := m.relParts(path, "seeds")
		name := strings.TrimSuffix(parts[len(parts)-1], ".csv")
		n := &Node{UniqueID: Seed + "." + m.Name + "." + name, ResourceType: Seed, PackageName: m.Name, Name: name,
			Alias: name, Database: m.database(), Path: path,
			FQN:     append([]string{m.Name}, append(parts[:len(parts)-1:len(parts)-1], name)...),
			Columns: map[string]Column{}, seedFile: filepath.Join(p.Dir, filepath.FromSlash(path)), layer: "seeds"}
		n.Schema = m.defaultSchema(n, "")
		n.Relation = Relation(n.Schema, name)
		n.folderCfg = m.folderConfig(p.Seeds, parts[:len(parts)-1])
		if prev := m.byName[name]; prev != nil {
			diag(path, pos{1, 1}, "seed name %q is already used by %s", name, prev.Path)
			continue
		}
		m.byName[name] = n
		m.Nodes[n.UniqueID] = n
	}

	// YAML: sources, model and seed docs, generic tests
	var ymls []string
	for _, dir := range append(m.dirs("models"), m.dirs("seeds")...) {
		for _, ext := range []string{".yml", ".yaml"} {
			l, err := m.listTrees([]string{dir}, ext)
			if err != nil {
				return nil, nil, err
			}
			ymls = append(ymls, l...)
		}
	}
	sort.Strings(ymls)
	var testSpecs []testSpec
	for _, path := range ymls {
		data, err := os.ReadFile(filepath.Join(p.Dir, filepath.FromSlash(path)))
		if err != nil {
			return nil, nil, err
		}
		specs, ds := m.readYAML(path, data)
		diags = append(diags, ds...)
		testSpecs = append(testSpecs, specs...)
	}

	// render models (parse pass)
	for _, id := range sortedKeys(m.Nodes) {
		n := m.Nodes[id]
		if n.ResourceType != Model {
			continue
		}
		diags = append(diags, m.parseNode(n)...)
	}
	// resolve config
	for _, id := range sortedKeys(m.Nodes) {
		n := m.Nodes[id]
		diags = append(diags, m.resolveConfig(n)...)
	}
	for _, id := range sortedKeys(m.Nodes) {
		if n := m.Nodes[id]; n.Config.Enabled {
			m.checkConstraints(n)
		}
	}
	disabled := map[string]bool{}
	for _, id := range sortedKeys(m.Nodes) {
		if n := m.Nodes[id]; !n.Config.Enabled {
			delete(m.Nodes, id)
			delete(m.byName, n.Name)
			disabled[n.Name] = true
			m.Disabled[id] = n
		}
	}
	// schema, alias and database as dbt places them
	for _, id := range sortedKeys(m.Nodes) {
		diags = append(diags, m.place(m.Nodes[id])...)
	}
	for _, id := range sortedKeys(m.Nodes) {
		if d := m.ownedClash(m.Nodes[id]); d != nil {
			diags = append(diags, *d)
		}
	}
	// refs to disabled or ephemeral checks
	for _, id := range sortedKeys(m.Nodes) {
		n := m.Nodes[id]
		for _, r := range n.Refs {
			name := r[len(r)-1]
			if m.byName[name] == nil && n.refPos[name] != (pos{}) {
				// already reported as unknown during rendering unless it was disabled
				if disabled[name] {
					diag(n.Path, n.refPos[name], "ref(%q) points to a disabled model", name)
				}
			}
		}
	}

	// singular tests
	testFiles, err := m.readTrees(m.dirs("tests"), ".sql")
	if err != nil {
		return nil, nil, err
	}
	for _, path := range sortedKeys(testFiles) {
		if strings.Contains("/"+path, "/generic/") {
			continue // generic test definitions ({% test %}), read with the macros
		}
		name := strings.TrimSuffix(filepath.Base(path), ".sql")
		n := &Node{UniqueID: Test + "." + m.Name + "." + name, ResourceType: Test, PackageName: m.Name, Name: name,
			Schema: "main", Alias: name, Database: m.database(), Path: path, RawCode: testFiles[path],
			FQN: []string{m.Name, name}, Columns: map[string]Column{}}
		n.folderCfg = map[string]any{}
		if m.Nodes[n.UniqueID] != nil {
			diag(path, pos{1, 1}, "test name %q is already used", name)
			continue
		}
		m.Nodes[n.UniqueID] = n
		diags = append(diags, m.parseNode(n)...)
		diags = append(diags, m.resolveConfig(n)...)
	}
	// generic tests, unit tests
	diags = append(diags, m.buildGenericTests(testSpecs)...)
	diags = append(diags, m.buildUnitTests()...)
	// tests with enabled: false (config() in the file, or the yml's
	// config) are disabled, as models are
	for _, id := range sortedKeys(m.Nodes) {
		if n := m.Nodes[id]; n.ResourceType == Test && !n.Config.Enabled {
			delete(m.Nodes, id)
			m.Disabled[id] = n
		}
	}

	// graph
	diags = append(diags, m.buildGraph()...)
	if len(diags) == 0 {
		for _, id := range sortedKeys(m.Nodes) {
			n := m.Nodes[id]
			if n.ResourceType == Model || n.ResourceType == Test {
				n.rendered = n.CompiledCode
				n.CompiledCode = m.finish(n, n.CompiledCode, map[string]bool{})
				n.CompiledPath = m.TargetRel + "/" + compiledRel(n)
			}
		}
	}
	m.projectWarnings()
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
	m.Warnings = SortDiagnostics(m.Warnings)
	return m, SortDiagnostics(diags), nil
}

func toInt(v any) int {
	switch t := v.(type) {
	case int:
		return t
	case float64:
		return int(t)
	}
	var n int
	fmt.Sscan(fmt.Sprint(v), &n)
	return n
}

func (m *Manifest) fileText(path string) (string, bool) {
	b, err := os.ReadFile(path)
	return string(b), err == nil
}

func (m *Manifest) database() string {
	b := filepath.Base(m.Project.Warehouse)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// readTree reads every file under dir with the extension, keyed by
// slash-separated path relative to the project.
func (m *Manifest) readTree(dir, ext string) (map[string]string, error) {
	paths, err := m.listTree(dir, ext)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(m.Project.Dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("runner: %w", err)
		}
		out[p] = string(b)
	}
	return out, nil
}

func (m *Manifest) listTree(dir, ext string) ([]string, error) {
	root := filepath.Join(m.Project.Dir, dir)
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == root {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ext) && !strings.HasPrefix(d.Name(), ".") {
			rel, _ := filepath.Rel(m.Project.Dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("runner: scan %s: %w", dir, err)
	}
	sort.Strings(out)
	return out, nil
}

func sortedKeys[V any](mp map[string]V) []string {
	out := make([]string, 0, len(mp))
	for k := range mp {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// folderConfig merges dbt-style folder defaults along the folder path.
func (m *Manifest) folderConfig(tree map[string]any, folders []string) map[string]any {
	out := map[string]any{}
	level := tree
	if sub, ok := level[m.Name].(map[string]any); ok && !isConfigKey(m.Name) {
		merge := func(l map[string]any) {
			for k, v := range l {
				if strings.HasPrefix(k, "+") || isConfigKey(k) {
					if _, isMap := v.(map[string]any); isMap && !strings.HasPrefix(k, "+") && k != "meta" && k != "column_types" {
						continue
					}
					mergeCfg(out, normKey(k), v)
				}
			}
		}
		merge(level)
		level = sub
	}
	for i := 0; ; i++ {
		for k, v := range level {
			if strings.HasPrefix(k, "+") || isConfigKey(k) {
				if _, isMap := v.(map[string]any); isMap && !strings.HasPrefix(k, "+") && k != "meta" && k != "column_types" {
					continue // a folder named like a key
				}
				mergeCfg(out, normKey(k), v)
			}
		}
		if i >= len(folders) {
			break
		}
		sub, ok := level[folders[i]].(map[string]any)
		if !ok {
			break
		}
		level = sub
	}
	return out
}

func normKey(k string) string {
	k = strings.TrimPrefix(k, "+")
	return strings.ReplaceAll(k, "-", "_")
}

// appliedKeys are the configs docket applies.
var appliedKeys = map[string]bool{"materialized": true, "tags": true, "unique_key": true, "incremental_strategy": true,
	"on_schema_change": true, "pre_hook": true, "post_hook": true, "enabled": true, "severity": true, "where": true,
	"column_types": true, "meta": true, "schema": true, "alias": true, "database": true, "full_refresh": true,
	"limit": true, "warn_if": true, "error_if": true, "fail_calc": true, "scoped_to": true,
	"store_failures": true, "store_failures_as": true, "contract": true}

// notApplied are valid dbt configs docket reads and does not apply: each
// use is a warning with the place it was written.
var notApplied = map[string]bool{"docs": true, "persist_docs": true, "grants": true,
	"quote_columns": true, "delimiter": true, "group": true,
	"access": true, "packages": true, "event_time": true, "batch_size": true, "lookback": true, "begin": true,
	"concurrent_batches": true, "docs_hidden": true, "sql_header": true, "on_configuration_change": true,
	"quoting": true, "column_name": true, "indexes": true, "labels": true, "transient": true, "copy_grants": true,
	"unlogged": true, "partition_by": true, "cluster_by": true, "location": true, "format": true, "options": true}

var knownKeys = func() map[string]bool {
	out := map[string]bool{}
	for k := range appliedKeys {
		out[k] = true
	}
	for k := range notApplied {
		out[k] = true
	}
	return out
}()

func isConfigKey(k string) bool { return knownKeys[normKey(k)] }

// mergeCfg sets key, accumulating tags and hooks like dbt does.
func mergeCfg(dst map[string]any, k string, v any) {
	switch k {
	case "tags", "pre_hook", "post_hook":
		prev := toStrings(dst[k])
		dst[k] = append(prev, toStrings(v)...)
	default:
		dst[k] = v
	}
}

func toStrings(v any) []string {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		return []string{t}
	case []string:
		return append([]string(nil), t...)
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return []string{fmt.Sprint(v)}
}

var refMarker = regexp.MustCompile("\x00ref\x01([^\x00]*)\x00")

func marker(name string) string { return "\x00ref\x01" + name + "\x00" }

// renderCtx records what a template calls.
type renderCtx struct {
	m           *Manifest
	n           *Node
	incremental bool
	refs        [][]string
	sources     [][]string
	cfg         map[string]any
	diags       []Diagnostic
	usedIncr    bool
	refPos      map[string]pos
	// database-reading Jinja (dbjinja.go): db is the run's connection
	// (nil at parse); lenient renders with execute=false; needsDB is
	// set when the template called one of those functions
	db      *dbConn
	lenient bool
	needsDB bool
	calls   *render.Calls // macros the render called, when recorded (macros.go)
}

func (rc *renderCtx) vars() map[string]any {
	m, n := rc.m, rc.n
	p := m.Project
	findPos := func(fn, arg string) pos {
		re := regexp.MustCompile(fn + `\(\s*(?:['"][^'"]*['"]\s*,\s*)*['"]` + regexp.QuoteMeta(arg) + `['"]`)
		if loc := re.FindStringIndex(n.RawCode); loc != nil {
			return offsetPos(n.RawCode, loc[0])
		}
		return pos{1, 1}
	}
	ctx := map[string]any{
		"ref": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("ref() needs a model name")
			}
			name := fmt.Sprint(a.Pos[len(a.Pos)-1])
			rc.refs = append(rc.refs, []string{name})
			if _, seen := rc.refPos[name]; !seen {
				rc.refPos[name] = findPos("ref", name)
			}
			if m.byName[name] == nil {
				msg := fmt.Sprintf("ref(%q): no model or seed named %q", name, name)
				if s := suggest(name, m.names()); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				rc.diags = append(rc.diags, Diagnostic{Path: n.Path, Line: rc.refPos[name].line, Col: rc.refPos[name].col, Msg: msg})
				return marker(name), nil
			}
			// a Relation (dbt packages read .schema, .is_cte, ...) that
			// renders as the marker finish() resolves
			t := m.byName[name]
			return render.Relation{Database: t.Database, Schema: t.Schema, Identifier: t.Alias, Rendered: marker(name), Type: relKind(t)}, nil
		}),
		"source": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) != 2 {
				return nil, fmt.Errorf("source() needs a source name and a table name")
			}
			src, tbl := fmt.Sprint(a.Pos[0]), fmt.Sprint(a.Pos[1])
			rc.sources = append(rc.sources, []string{src, tbl})
			s := m.Sources[Source+"."+m.Name+"."+src+"."+tbl]
			if s == nil {
				ps := findPos("source", tbl)
				msg := fmt.Sprintf("source(%q, %q) is not declared in models/sources.yml", src, tbl)
				if d := m.Disabled[Source+"."+m.Name+"."+src+"."+tbl]; d != nil {
					msg = fmt.Sprintf("source(%q, %q) points to a disabled source (enabled: false in %s)", src, tbl, d.Path)
				}
				rc.diags = append(rc.diags, Diagnostic{Path: n.Path, Line: ps.line, Col: ps.col, Msg: msg})
				return Relation(src, tbl), nil
			}
			return s.Relation, nil
		}),
		"config": render.Wrap(func(a render.Args) (any, error) {
			for k, v := range a.Kw {
				mergeCfg(rc.cfg, normKey(k), v)
			}
			if len(a.Pos) == 1 {
				if mp, ok := a.Pos[0].(map[string]any); ok {
					for k, v := range mp {
						mergeCfg(rc.cfg, normKey(k), v)
					}
				}
			}
			return "", nil
		}),
		"var": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("var() needs a name")
			}
			name := fmt.Sprint(a.Pos[0])
			if v, ok := m.Vars[name]; ok {
				return v, nil
			}
			if len(a.Pos) > 1 {
				return a.Pos[1], nil
			}
			return nil, fmt.Errorf("required var %q is not set in project.yaml vars or --vars", name)
		}),
		"env_var": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("env_var() needs a name")
			}
			if v, ok := os.LookupEnv(fmt.Sprint(a.Pos[0])); ok {
				return v, nil
			}
			if len(a.Pos) > 1 {
				return a.Pos[1], nil
			}
			return nil, fmt.Errorf("environment variable %q is not set", a.Pos[0])
		}),
		"is_incremental": render.Wrap(func(render.Args) (any, error) {
			rc.usedIncr = true
			return rc.incremental, nil
		}),
		"log": render.Wrap(func(a render.Args) (any, error) {
			// dbt's log(msg, info=False): info=True shows msg to the user
			info := a.Kw["info"]
			if len(a.Pos) > 1 {
				info = a.Pos[1]
			}
			if b, _ := info.(bool); b && len(a.Pos) > 0 && m.log != nil {
				m.log(fmt.Sprint(a.Pos[0]))
			}
			return "", nil
		}),
		"this": render.Relation{Database: m.database(), Schema: n.Schema, Identifier: n.Alias, Rendered: Relation(n.Schema, n.Alias)},
		"target": map[string]any{"name": m.target().Name, "schema": m.target().Schema, "type": "duckdb", "path": p.Warehouse,
			"database": m.database(), "threads": p.Threads, "profile_name": m.target().Profile, "target_name": m.target().Name},
		"project_name": m.Name,
		"execute":      !rc.lenient,
	}
	rc.dbFuncs(ctx)
	rc.contextModules(ctx)
	if rc.calls != nil {
		ctx[render.CallsKey] = rc.calls
	}
	return ctx
}

func offsetPos(src string, off int) pos {
	line := 1 + strings.Count(src[:off], "\n")
	col := off - strings.LastIndex(src[:off], "\n")
	return pos{line, col}
}

func (m *Manifest) names() []string {
	out := make([]string, 0, len(m.byName))
	for n := range m.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// suggest returns the closest name within edit distance 2.
func suggest(name string, names []string) string {
	best, bestD := "", 3
	for _, c := range names {
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev = cur
	}
	return prev[len(b)]
}

// parseNode parses and renders a model or singular test's template.
func (m *Manifest) parseNode(n *Node) []Diagnostic {
	tpl, err := m.env.Parse(n.Path, n.RawCode)
	if err != nil {
		re := err.(*render.Error)
		return []Diagnostic{{Path: n.Path, Line: re.Line, Col: re.Col, Msg: re.Msg}}
	}
	n.tpl = tpl
	n.calls = &render.Calls{}
	rc := &renderCtx{m: m, n: n, cfg: map[string]any{}, refPos: map[string]pos{}, calls: n.calls}
	out, err := tpl.Render(rc.vars())
	if rc.needsDB {
		// it reads the database: parse as dbt does (execute=false); the
		// run renders it again with a connection
		n.needsDB = true
		rc = &renderCtx{m: m, n: n, cfg: map[string]any{}, refPos: map[string]pos{}, lenient: true, calls: n.calls}
		out, err = tpl.Render(rc.vars())
	}
	if err != nil {
		re := err.(*render.Error)
		return append(rc.diags, Diagnostic{Path: n.Path, Line: re.Line, Col: re.Col, Msg: re.Msg})
	}
	n.CompiledCode = out
	n.modelCfg = rc.cfg
	n.usesIncr = rc.usedIncr
	n.refPos = rc.refPos
	if loc := regexp.MustCompile(`config\s*\(`).FindStringIndex(n.RawCode); loc != nil {
		n.configPos = offsetPos(n.RawCode, loc[0])
	} else {
		n.configPos = pos{1, 1}
	}
	seen := map[string]bool{}
	for _, r := range rc.refs {
		if !seen["r"+r[0]] {
			seen["r"+r[0]] = true
			n.Refs = append(n.Refs, r)
		}
	}
	for _, s := range rc.sources {
		if k := "s" + s[0] + "." + s[1]; !seen[k] {
			seen[k] = true
			n.Sources = append(n.Sources, s)
		}
	}
	return rc.diags
}

// resolveConfig merges folder < yml < model config and validates it.
func (m *Manifest) resolveConfig(n *Node) []Diagnostic {
	var diags []Diagnostic
	bad := func(p pos, format string, a ...any) {
		diags = append(diags, Diagnostic{Path: n.Path, Line: p.line, Col: p.col, Msg: fmt.Sprintf(format, a...)})
	}
	raw := map[string]any{}
	for _, src := range []map[string]any{n.folderCfg, n.ymlCfg, n.modelCfg} {
		for k, v := range src {
			if k == "tags" || k == "pre_hook" || k == "post_hook" {
				mergeCfg(raw, k, v)
			} else {
				raw[k] = v
			}
		}
	}
	at := n.configPos
	if at == (pos{}) {
		at = pos{1, 1}
	}
	for k, v := range raw {
		// dbt renders Jinja in dbt_project.yml and YAML config values
		if str, ok := v.(string); ok && (strings.Contains(str, "{{") || strings.Contains(str, "{%")) && k != "pre_hook" && k != "post_hook" {
			out, err := m.renderValue(n, str)
			if err != nil {
				from, fat := m.configSourcePos(k)
				diags = append(diags, Diagnostic{Path: from, Line: fat.line, Col: fat.col, Msg: fmt.Sprintf("config %s: %v", k, err)})
				continue
			}
			raw[k] = yamlScalar(out)
		}
	}
	c := Config{Enabled: true, Tags: []string{}, PreHook: []string{}, PostHook: []string{}}
	n.contract = contractConfig(raw["contract"])
	for _, k := range sortedKeys(raw) {
		v := raw[k]
		str := func() string {
			s, ok := v.(string)
			if !ok {
				bad(at, "config %s must be a string (got %v)", k, v)
			}
			return s
		}
		switch k {
		case "materialized":
			c.Materialized = str()
		case "tags":
			c.Tags = dedupe(toStrings(v))
		case "unique_key":
			c.UniqueKey = toStrings(v)
		case "incremental_strategy":
			c.IncrementalStrategy = str()
		case "on_schema_change":
			c.OnSchemaChange = str()
		case "pre_hook":
			c.PreHook = toStrings(v)
		case "post_hook":
			c.PostHook = toStrings(v)
		case "enabled":
			b, ok := v.(bool)
			if !ok {
				bad(at, "config enabled must be true or false (got %v)", v)
			}
			c.Enabled = b
		case "severity":
			c.Severity = strings.ToLower(str())
		case "where":
			c.Where = str()
		case "column_types":
			mp, ok := v.(map[string]any)
			if !ok {
				bad(at, "config column_types must be a mapping of column to type")
				continue
			}
			c.ColumnTypes = map[string]string{}
			for ck, cv := range mp {
				c.ColumnTypes[ck] = fmt.Sprint(cv)
			}
		case "meta":
			c.Meta, _ = v.(map[string]any)
		case "schema":
			c.Schema = str()
		case "alias":
			c.Alias = str()
		case "database":
			c.Database = str()
		case "full_refresh":
			b, ok := v.(bool)
			if !ok {
				bad(at, "config full_refresh must be true or false (got %v)", v)
			}
			c.FullRefresh = &b
		case "limit":
			c.Limit = toInt(v)
		case "scoped_to":
			c.ScopedTo = str()
		case "contract":
			// read into n.contract above; enforced when the model builds (contract.go)
		case "store_failures":
			b, ok := v.(bool)
			if sv, isStr := v.(string); isStr {
				b, ok = strings.EqualFold(strings.TrimSpace(sv), "true"), true
			}
			if !ok {
				bad(at, "config store_failures must be true or false (got %v)", v)
			}
			c.StoreFailures = b
		case "store_failures_as":
			switch sv := strings.ToLower(str()); sv {
			case "table", "view", "ephemeral":
				c.StoreFailuresAs = sv
			default:
				bad(at, "config store_failures_as must be table, view or ephemeral (got %v)", v)
			}
		case "warn_if", "error_if", "fail_calc":
			sv := strings.TrimSpace(fmt.Sprint(v))
			switch k {
			case "warn_if":
				c.WarnIf = sv
			case "error_if":
				c.ErrorIf = sv
			default:
				c.FailCalc = sv
			}
		default:
			from, fat := n.Path, at
			if _, own := n.modelCfg[k]; !own {
				if _, yml := n.ymlCfg[k]; !yml {
					from, fat = m.configSourcePos(k)
				}
			}
			if notApplied[k] {
				m.warn(from, fat, "config %s is read but not applied by docket", k)
				continue
			}
			msg := fmt.Sprintf("unknown config key %q", k)
			if s := suggest(k, sortedKeys(knownKeys)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			m.warn(from, fat, "%s: not applied", msg)
		}
	}
	switch n.ResourceType {
	case Model:
		if c.Materialized == "" {
			c.Materialized = "view"
		}
		switch c.Materialized {
		case "view", "table", "incremental", "ephemeral":
		default:
			bad(at, "materialized must be view, table, incremental or ephemeral (got %q)", c.Materialized)
		}
		if c.Materialized == "incremental" {
			if c.IncrementalStrategy == "" {
				c.IncrementalStrategy = "append"
				if len(c.UniqueKey) > 0 {
					c.IncrementalStrategy = "delete+insert"
				}
			}
			switch c.IncrementalStrategy {
			case "append":
			case "delete+insert", "merge":
				if len(c.UniqueKey) == 0 {
					bad(at, "incremental_strategy %q needs a unique_key", c.IncrementalStrategy)
				}
			default:
				bad(at, "incremental_strategy must be append, delete+insert or merge (got %q)", c.IncrementalStrategy)
			}
			if c.OnSchemaChange == "" {
				c.OnSchemaChange = "fail"
			}
			switch c.OnSchemaChange {
			case "ignore", "fail", "append_new_columns", "sync_all_columns":
			default:
				bad(at, "on_schema_change must be ignore, fail, append_new_columns or sync_all_columns (got %q)", c.OnSchemaChange)
			}
		}
	case Seed:
		c.Materialized = "seed"
	case Test:
		c.Materialized = "test"
		if c.Severity == "" {
			c.Severity = "error"
		}
		if c.Severity != "error" && c.Severity != "warn" {
			bad(n.pos, "severity must be warn or error (got %q)", c.Severity)
		}
	}
	n.Config = c
	n.Tags = c.Tags
	return diags
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// finish replaces ref markers with relations and inlines ephemeral models
// as CTEs named __dbt__cte__<name>.
func (m *Manifest) finish(n *Node, sql string, stack map[string]bool) string {
	var ctes []string
	seen := map[string]bool{}
	out := refMarker.ReplaceAllStringFunc(sql, func(s string) string {
		name := refMarker.FindStringSubmatch(s)[1]
		t := m.byName[name]
		if t == nil {
			return name
		}
		if r := m.deferred[t.UniqueID]; r != "" {
			return r
		}
		if t.ResourceType == Model && t.Config.Materialized == "ephemeral" {
			cte := "__dbt__cte__" + t.Name
			if !seen[name] && !stack[name] {
				seen[name] = true
				stack[name] = true
				src := t.CompiledCode
				if t.rendered != "" {
					src = t.rendered // markers kept: a deferred ref inside resolves too
				}
				body := m.finish(t, src, stack)
				delete(stack, name)
				ctes = append(ctes, cte+" as (\n"+trimSQL(body)+"\n)")
			}
			return cte
		}
		return t.Relation
	})
	if len(ctes) == 0 {
		return out
	}
	return injectCTEs(out, ctes)
}

var withRe = regexp.MustCompile(`(?is)^(\s*(?:--[^\n]*\n\s*|/\*.*?\*/\s*)*)with\s+(recursive\s+)?`)

func injectCTEs(sql string, ctes []string) string {
	joined := strings.Join(ctes, ", ")
	if loc := withRe.FindStringSubmatchIndex(sql); loc != nil {
		head := sql[:loc[1]]
		return head + joined + ",\n" + sql[loc[1]:]
	}
	lead := len(sql) - len(strings.TrimLeft(sql, " \t\r\n"))
	return sql[:lead] + "with " + joined + "\n" + sql[lead:]
}

// trimSQL drops surrounding blanks and trailing semicolons.
func trimSQL(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasSuffix(s, ";") {
		s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	}
	return s
}

// renderValue renders a Jinja string from YAML (a config value) for node n.
func (m *Manifest) renderValue(n *Node, src string) (string, error) {
	tpl, err := m.env.Parse(n.Path+":config", src)
	if err != nil {
		return "", err
	}
	rc := &renderCtx{m: m, n: n, cfg: map[string]any{}, refPos: map[string]pos{}}
	out, err := tpl.Render(rc.vars())
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// yamlScalar reads a rendered value back as YAML does: true/false,
// numbers, else the string.
func yamlScalar(s string) any {
	switch strings.ToLower(s) {
	case "true":
		return true
	case "false":
		return false
	case "none", "null", "":
		return nil
	}
	var v any
	if err := yaml.Unmarshal([]byte(s), &v); err == nil {
		switch v.(type) {
		case int, float64:
			return v
		}
	}
	return s
}

// packageNames lists installed packages' names (none yet: filled by the
// package reader).
func (m *Manifest) packageNames() map[string]bool {
	out := map[string]bool{}
	for _, p := range m.packages {
		out[p] = true
	}
	return out
}
