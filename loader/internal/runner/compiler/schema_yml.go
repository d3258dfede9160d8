package compiler

import (
	"crypto/md5"
	"fmt"
	"github.com/docket-dev/docket/loader/internal/runner/render"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// testSpec is one generic test declared in YAML.
type testSpec struct {
	path     string
	at       Position
	kind     string // unique, not_null, accepted_values, relationships
	parentID string // model, seed or source node
	column   string
	args     map[string]any
	cfg      map[string]any
	name     string // a custom name (the test's name: key), else dbt's synthesized one
	desc     string // its description: (dbt 1.9), doc() rendered
	// keyOrder is the file's key order of each argument that is a
	// mapping: dbt names the test from such a dict's values in its order
	keyOrder map[string][]string
}

// readYAML reads one models/**/*.yml or seeds/*.yml file.
func (m *Manifest) readYAML(path string, data []byte) ([]testSpec, []Diagnostic) {
	var diags []Diagnostic
	root, err := yroot(data)
	if err != nil {
		return nil, []Diagnostic{yamlSyntaxDiag(path, err)}
	}
	if d, bad := impossibleTimestamp(path, root); bad {
		return nil, []Diagnostic{d}
	}
	var specs []testSpec
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "version":
			m.checkYAMLVersion(path, v)
		case "sources":
			specs = append(specs, m.readSources(path, v, &diags)...) // schema_sources.go
		case "models", "seeds":
			kind := Model
			if k.Value == "seeds" {
				kind = Seed
			}
			for _, e := range yseq(v) {
				specs = append(specs, m.readNodeEntry(path, kind, e, &diags)...)
			}
		case "snapshots":
			for _, e := range yseq(v) {
				if yget(e, "relation") != nil {
					m.warn(path, ypos(e), "snapshot %s: docket reads snapshot definitions (relation:) from snapshots/: not applied", ystr(e, "name"))
					continue
				}
				specs = append(specs, m.patchSnapshot(path, e, &diags)...)
			}
		case "semantic_models", "metrics", "saved_queries", "exposures", "groups", "unit_tests", "analyses",
			"macros", "data_tests", "tests", "functions":
			m.keepUnacted(path, k, v)
		default:
			m.warn(path, ypos(k), "unknown key %q (docket reads version, sources, models and seeds): not applied", k.Value)
		}
	}
	return specs, diags
}

// yamlSyntaxDiag places a YAML parse error at the line it names.
func yamlSyntaxDiag(path string, err error) Diagnostic {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	p := Position{1, 1}
	if sm := regexp.MustCompile(`^line (\d+): (.*)`).FindStringSubmatch(msg); sm != nil {
		fmt.Sscan(sm[1], &p.Line)
		msg = sm[2]
	}
	return Diagnostic{Path: path, Line: p.Line, Col: p.Col, Msg: "invalid YAML: " + msg}
}

// readNodeEntry reads one entry of models: or seeds: (kind): a versioned
// model's versions, else the patch of the node of that name; it returns
// the entry's tests.
func (m *Manifest) readNodeEntry(path, kind string, e *yaml.Node, diags *[]Diagnostic) []testSpec {
	name := ystr(e, "name")
	if kind == Model && yget(e, "versions") != nil {
		m.renderYAMLEntry(path, e, diags)
		return m.readVersions(path, e, diags) // versions.go
	}
	n := m.byName[name]
	if n != nil && n.ResourceType != kind {
		// dbt: the entry's tests are built on the node its name
		// refs; the patch (description, config) finds no node
		m.warn(path, ypos(e), "%s describes %s %q, but %q is a %s: its tests are read, its description, columns and config are not applied (as dbt does)",
			path, kind, name, name, n.ResourceType)
		other := *n
		other.Columns = map[string]Column{}
		return m.readColumns(path, &other, e, diags)
	}
	if n == nil {
		msg := fmt.Sprintf("%s describes %s %q, but there is no such %s", path, kind, name, kind)
		if s := suggest(name, m.names()); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		m.warn(path, ypos(e), "%s: not applied", msg)
		return nil
	}
	m.renderYAMLEntry(path, e, diags)
	return m.patchNode(path, kind, n, e, diags)
}

// patchNode applies a model's or seed's YAML entry e to n: description,
// config, tags, constraints, columns; it returns the entry's tests.
func (m *Manifest) patchNode(path, kind string, n *Node, e *yaml.Node, diags *[]Diagnostic) []testSpec {
	n.Description = m.describe(path, e, diags)
	n.ymlCfg = map[string]any{}
	if c := yget(e, "config"); c != nil {
		for ck, cv := range ymap(c) {
			mergeCfg(n.ymlCfg, normKey(ck), cv)
		}
		if mm := ymeta(yget(c, "meta")); mm != nil {
			n.ymlCfg["meta"] = mm // the file's order
		}
		n.ymlAt = configPlaces(path, c)
	}
	for j := 0; j+1 < len(e.Content); j += 2 {
		ek := e.Content[j]
		switch ek.Value {
		case "name", "description", "columns", "config", "tests", "data_tests":
		case "meta":
			m.topLevelMeta(path, n, e, ek, e.Content[j+1], diags)
		case "docs":
			warnDocsKey(m, path, ek, fmt.Sprintf("%s %s", kind, n.Name))
		case "tags":
			mergeCfg(n.ymlCfg, "tags", yany(e.Content[j+1]))
		case "constraints":
			m.readConstraints(path, n, "", e.Content[j+1]) // applied or warned (constraints.go)
		case "deprecation_date":
			n.DeprecationDate = deprecationDate(e.Content[j+1].Value)
			if deprecated(n.DeprecationDate) { // dbt's DeprecatedModel warning
				m.warn(path, ypos(ek), "%s passed its deprecation date %s: disable or remove it", n.UniqueID, n.DeprecationDate)
			}
		case "v", "defined_in":
			if n.Version == "" {
				m.warn(path, ypos(ek), "%s %s: key %q belongs under versions: (not applied)", kind, n.Name, ek.Value)
			} // else a version's own key (versions.go)
		default:
			m.warn(path, ypos(ek), "%s %s: key %q is read but not applied by docket", kind, n.Name, ek.Value)
		}
	}
	return m.readColumns(path, n, e, diags)
}

// topLevelMeta is a YAML entry's meta: beside its config: (k its key, v
// its value): dbt's schema reader (normalize_meta_attribute) moves it
// into config.meta, and refuses an entry that has both. docket read it
// and dropped it without a word (node.meta and config.meta were {}).
func (m *Manifest) topLevelMeta(path string, n *Node, e, k, v *yaml.Node, diags *[]Diagnostic) {
	if yget(yget(e, "config"), "meta") != nil {
		*diags = append(*diags, Diagnostic{Path: path, Line: k.Line, Col: k.Column,
			Msg: fmt.Sprintf("%s: found meta dictionary in 'config' dictionary and as top-level key (as dbt does, refused): define it under config: only", n.Name)})
		return
	}
	if mm := ymeta(v); mm != nil {
		mergeCfg(n.ymlCfg, "meta", mm) // the file's order
	} else {
		mergeCfg(n.ymlCfg, "meta", yany(v))
	}
	if n.ymlAt == nil {
		n.ymlAt = map[string]place{}
	}
	n.ymlAt["meta"] = place{path, ypos(k)}
}

// warnDocsKey: a YAML docs: property (show, node_color) is for dbt's
// docs site; docket's site and manifest.json show every node with no
// colour, so it is warned at its line (the docs config was, this was
// taken without a word).
func warnDocsKey(m *Manifest, path string, k *yaml.Node, what string) {
	m.warn(path, ypos(k), "%s: key \"docs\" (show, node_color) is read but not applied by docket (its docs site shows every node)", what)
}

// quoteIdent is adapter.quote(name): DuckDB's double quotes.
func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// columnMetaTags are a YAML column's meta and tags, its own and its
// config:'s (dbt 1.10 writes them there), as dbt's ColumnInfo holds them;
// docket read both and dropped them (manifest.json and a template's
// model.columns showed {} and []; the column's tests lacked its tags).
func columnMetaTags(c *yaml.Node) (*render.Mapping, []string) {
	meta := &render.Mapping{Vals: map[string]any{}}
	var tags []string
	for _, holder := range []*yaml.Node{c, yget(c, "config")} {
		if mm := ymeta(yget(holder, "meta")); mm != nil {
			meta.Update(mm)
		}
		tags = append(tags, toStrings(yany(yget(holder, "tags")))...)
	}
	if meta.Len() == 0 {
		meta = nil
	}
	return meta, tags
}

// readColumns reads columns (docs and tests) and entity-level tests.
func (m *Manifest) readColumns(path string, n *Node, e *yaml.Node, diags *[]Diagnostic) []testSpec {
	var specs []testSpec
	for _, c := range yseq(yget(e, "columns")) {
		cn := ystr(c, "name")
		if cn == "" {
			*diags = append(*diags, Diagnostic{Path: path, Line: c.Line, Col: c.Column, Msg: "column has no name"})
			continue
		}
		n.Columns[cn] = Column{Name: cn, Description: m.describe(path, c, diags), DataType: ystr(c, "data_type")}
		testCol := cn
		if n.quoteColumns { // quote: below may say otherwise
			testCol = quoteIdent(cn)
		}
		for j := 0; j+1 < len(c.Content); j += 2 {
			switch ck := c.Content[j]; ck.Value {
			case "name", "description", "data_type", "tests", "data_tests":
			case "meta", "tags": // read below
			case "quote":
				// dbt's schema parser: the column's tests get
				// adapter.quote(name) as their column_name
				if q, ok := yany(c.Content[j+1]).(bool); !ok {
					*diags = append(*diags, Diagnostic{Path: path, Line: ck.Line, Col: ck.Column, Msg: fmt.Sprintf("column %s.%s: quote must be true or false", n.Name, cn)})
				} else if q {
					testCol = quoteIdent(cn)
				} else {
					testCol = cn
				}
			case "docs":
				warnDocsKey(m, path, ck, fmt.Sprintf("column %s.%s", n.Name, cn))
			case "constraints":
				m.readConstraints(path, n, cn, c.Content[j+1]) // applied or warned (constraints.go)
			default: // quote, policy_tags, granularity, ...
				m.warn(path, ypos(ck), "column %s.%s: key %q is read but not applied by docket", n.Name, cn, ck.Value)
			}
		}
		col := n.Columns[cn]
		col.Meta, col.Tags = columnMetaTags(c)
		n.Columns[cn] = col
		for _, key := range []string{"tests", "data_tests"} {
			for _, t := range yseq(yget(c, key)) {
				if s, ok := m.readTest(path, n, testCol, t, diags); ok {
					if len(col.Tags) > 0 { // dbt: a column's tests carry its tags
						mergeCfg(s.cfg, "tags", col.Tags)
					}
					specs = append(specs, s)
				}
			}
		}
	}
	for _, key := range []string{"tests", "data_tests"} {
		for _, t := range yseq(yget(e, key)) {
			if s, ok := m.readTest(path, n, "", t, diags); ok {
				specs = append(specs, s)
			}
		}
	}
	return specs
}

func (m *Manifest) readTest(path string, n *Node, column string, t *yaml.Node, diags *[]Diagnostic) (testSpec, bool) {
	s := testSpec{path: path, at: ypos(t), parentID: n.UniqueID, column: column, args: map[string]any{}, cfg: map[string]any{}}
	switch t.Kind {
	case yaml.ScalarNode:
		s.kind = t.Value
	case yaml.MappingNode:
		if len(t.Content) != 2 {
			*diags = append(*diags, Diagnostic{Path: path, Line: t.Line, Col: t.Column, Msg: "a test is a name or a mapping with one key (the test name)"})
			return s, false
		}
		s.kind = t.Content[0].Value
		body := ymap(t.Content[1])
		s.keyOrder = argKeyOrder(t.Content[1])
		for k, v := range body {
			switch k {
			case "config":
				cm, _ := v.(map[string]any)
				for ck, cv := range cm {
					s.cfg[normKey(ck)] = cv
				}
			case "severity", "where", "tags", "enabled", "limit", "warn_if", "error_if", "fail_calc", "store_failures", "store_failures_as", "meta", "alias", "schema", "database":
				s.cfg[k] = v
			case "name": // dbt's custom test name (not an argument of the test)
				s.name = strings.TrimSpace(fmt.Sprint(v))
			case "description": // the test's (dbt 1.9), not an argument either
				s.desc = m.describe(path, t.Content[1], diags)
			case "arguments":
				am, _ := v.(map[string]any)
				for ak, av := range am {
					s.args[ak] = av
				}
			default:
				s.args[k] = v
			}
		}
	default:
		*diags = append(*diags, Diagnostic{Path: path, Line: t.Line, Col: t.Column, Msg: "a test is a name or a mapping"})
		return s, false
	}
	for k, v := range s.args {
		s.args[k] = m.renderTestArg(path, t, v, diags)
	}
	if cn, ok := s.args["column_name"].(string); ok {
		s.column = cn
		delete(s.args, "column_name")
	}
	return s, true
}

var (
	toRefRe = regexp.MustCompile(`^\s*ref\(\s*['"]([^'"]+)['"]\s*(?:,\s*(?:v|version)\s*=\s*['"]?([^'"\s)]+)['"]?\s*)?\)\s*$`)
	toSrcRe = regexp.MustCompile(`^\s*source\(\s*['"]([^'"]+)['"]\s*,\s*['"]([^'"]+)['"]\s*\)\s*$`)
)

var testNameRe = regexp.MustCompile(`[^0-9a-zA-Z_]+`)

var builtinTests = map[string]bool{"unique": true, "not_null": true, "accepted_values": true, "relationships": true}

// genericTestName is dbt's name for a generic test (dbt-core's
// synthesize_generic_test_names): type_model_ then the argument values
// (column_name included, by argument name; a list's items and a dict's
// values one by one, as Python prints them) joined by "__", each with
// every run of other characters than [0-9a-zA-Z_] made "_". The alias
// (the relation of stored failures) is that name, or when it has 64
// characters or more its first 30 of type_model and the name's md5. A
// test given a name: is called that, as in dbt.
func genericTestName(s testSpec, parent *Node) (name, alias string) {
	if s.name != "" {
		return s.name, s.name
	}
	kind := strings.ReplaceAll(s.kind, ".", "_")
	model := parent.Name
	if parent.Version != "" {
		model += "_v" + parent.Version // dbt's target name of a versioned model
	}
	if parent.ResourceType == Source {
		kind, model = "source_"+kind, parent.SourceName+"_"+parent.Name
	}
	args := map[string]any{}
	for k, v := range s.args {
		args[k] = v
	}
	if s.column != "" {
		args["column_name"] = s.column
	}
	var flat []string
	for _, k := range SortedKeys(args) {
		switch v := args[k].(type) {
		case []any:
			for _, e := range v {
				flat = append(flat, pyStr(e))
			}
		case map[string]any: // dbt: list(arg_val.values()), in the dict's order
			for _, mk := range inOrder(s.keyOrder[k], v) {
				flat = append(flat, pyStr(v[mk]))
			}
		default:
			flat = append(flat, pyStr(v))
		}
	}
	for i, a := range flat {
		flat[i] = testNameRe.ReplaceAllString(a, "_")
	}
	ident := kind + "_" + model
	name = ident + "_" + strings.Join(flat, "__")
	if len(name) < 64 {
		return name, name
	}
	if len(ident) > 30 {
		ident = ident[:30]
	}
	return name, fmt.Sprintf("%s_%x", ident, md5.Sum([]byte(name)))
}

// argKeyOrder is, for each argument of a test's YAML body (its own keys
// and those under arguments:) that is a mapping, its keys in the file's
// order.
func argKeyOrder(body *yaml.Node) map[string][]string {
	out := map[string][]string{}
	var read func(n *yaml.Node)
	read = func(n *yaml.Node) {
		if n == nil || n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			if k == "arguments" {
				read(v)
				continue
			}
			if v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					out[k] = append(out[k], v.Content[j].Value)
				}
			}
		}
	}
	read(body)
	return out
}

// inOrder is the keys of v in order (as the file wrote them), then any
// other key of v sorted (a mapping rendered from Jinja has no file order).
func inOrder(order []string, v map[string]any) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range order {
		if _, ok := v[k]; ok && !seen[k] {
			out, seen[k] = append(out, k), true
		}
	}
	for _, k := range SortedKeys(v) {
		if !seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// buildGenericTests turns YAML test specs into test nodes with SQL.
func (m *Manifest) buildGenericTests(specs []testSpec) []Diagnostic {
	var diags []Diagnostic
	for _, s := range specs {
		n, err := m.genericTest(s)
		if err != nil {
			diags = append(diags, Diagnostic{Path: s.path, Line: s.at.Line, Col: s.at.Col, Msg: err.Error()})
			continue
		}
		if n != nil {
			m.Nodes[n.UniqueID] = n
			diags = append(diags, m.resolveConfig(n)...)
			diags = append(diags, m.placeAudit(n)...)
			// the where as resolved (the test block's config(), then the
			// YAML's, its Jinja rendered) is what the SQL filters by
			if n.builtin != nil {
				n.builtin.where = n.Config.Where
			}
			if n.test != nil {
				n.test.where = n.Config.Where
			}
		}
	}
	return diags
}

// genericTest is the test node of one YAML test spec (nil when its
// parent is disabled); error is the spec's mistake.
func (m *Manifest) genericTest(s testSpec) (*Node, error) {
	parent := m.Nodes[s.parentID]
	if parent == nil {
		parent = m.Sources[s.parentID]
	}
	if parent == nil {
		return nil, nil // disabled
	}
	if builtinTests[s.kind] {
		if parent.ResourceType == Model && parent.Config.Materialized == "ephemeral" {
			return nil, fmt.Errorf("model %s is ephemeral: it has no table to test", parent.Name)
		}
		if s.column == "" {
			return nil, fmt.Errorf("test %s needs a column (put it under columns:, or give column_name)", s.kind)
		}
	}
	where := ""
	if w, ok := s.cfg["where"].(string); ok && w != "" {
		where = w
	}
	col := s.column
	kwargs := map[string]any{"column_name": col, "model": modelKwarg(parent)}
	deps := []string{parent.UniqueID}
	name, alias := genericTestName(s, parent)
	base, pkg := name, m.pkgOf(s.path)
	for i := 2; m.Nodes[Test+"."+pkg+"."+name] != nil; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	n := &Node{UniqueID: Test + "." + pkg + "." + name, ResourceType: Test, PackageName: pkg, Name: name,
		Schema: "main", Alias: alias, Database: m.Database(), Path: s.path, FQN: []string{pkg, name},
		Columns: map[string]Column{}, ColumnName: col, AttachedNode: parent.UniqueID,
		TestMetadata: &TestMetadata{Name: s.kind, Kwargs: kwargs}, Pos: s.at, ConfigPos: s.at, Description: s.desc,
		folderCfg: m.testFolderConfig(s.path, name), ymlCfg: s.cfg}
	if builtinTests[s.kind] {
		b, to, err := m.builtinTest(s, parent, where, kwargs)
		if err != nil {
			return nil, err
		}
		// at parse, the relations as placed so far; compiled again
		// through relation (compile.go)
		n.builtin = b
		n.CompiledCode, n.TestFrom = b.sql(func(t *Node) string { return t.Relation })
		if to != nil {
			deps = append(deps, to.UniqueID)
		}
	} else {
		if m.disabledWithoutMacro(n, parent, s.kind) {
			return nil, nil
		}
		mt, err := m.macroTestSQL(testCall{kind: s.kind, parent: parent, column: col, args: s.args, where: where})
		if err != nil {
			return nil, err
		}
		if mt == nil {
			return nil, fmt.Errorf("unknown test %q (no {%% test %s %%} in macros/, tests/generic/ or a package; built in: unique, not_null, accepted_values, relationships)", s.kind, s.kind)
		}
		for k, v := range s.args {
			kwargs[k] = v
		}
		for _, r := range mt.refs {
			if t := m.refTarget(r, parent); t != nil {
				deps = append(deps, t.UniqueID)
			}
		}
		for _, sr := range mt.sources { // a source() in an argument is a dependency too, as dbt's depends_on
			if src := m.findSource(sr[0], sr[1], parent); src != nil {
				deps = append(deps, src.UniqueID)
			}
		}
		n.CompiledCode, n.calls, n.tpl, n.test, n.needsDB = mt.sql, mt.calls, mt.call.tpl, mt.call, mt.needsDB
		if len(mt.cfg) > 0 {
			// the test macro's own config() (dbt_utils.equality's
			// fail_calc) ranks below the yml's
			for k, v := range mt.cfg {
				mergeCfg(n.folderCfg, k, v)
			}
		}
	}
	deps = dedupe(deps)
	sort.Strings(deps)
	n.DependsOn.Nodes = deps
	return n, nil
}

// disabledWithoutMacro sets n aside as disabled when its test macro (or
// the macro's package) is missing and its configs, as resolved without
// the macro, disable it. dbt's parser renders a generic test with
// capture_macros (a missing macro is no error there) and adds a disabled
// one to the manifest's disabled: a disabled dbt_expectations test does
// not need dbt_expectations installed. An enabled one stays an error.
func (m *Manifest) disabledWithoutMacro(n, parent *Node, kind string) bool {
	if _, found, err := m.testMacro(kind, m.macroPkg(parent.PackageName)); err == nil && found {
		return false
	}
	if diags := m.resolveConfig(n); len(diags) > 0 || n.Config.Enabled {
		return false
	}
	m.Disabled[n.UniqueID] = n
	return true
}

// modelKwarg is a generic test's model argument as dbt's test builder
// writes it in test_metadata.kwargs: the Jinja that renders it.
func modelKwarg(parent *Node) string {
	if parent.ResourceType == Source {
		return fmt.Sprintf("{{ get_where_subquery(source('%s', '%s')) }}", parent.SourceName, parent.Name)
	}
	if parent.Version != "" {
		return fmt.Sprintf("{{ get_where_subquery(ref('%s', version='%s')) }}", parent.Name, parent.Version)
	}
	return fmt.Sprintf("{{ get_where_subquery(ref('%s')) }}", parent.Name)
}

// builtinTest is a built-in generic test (unique, not_null,
// accepted_values, relationships) of parent; kwargs gets its arguments.
// to is a relationships test's other parent.
func (m *Manifest) builtinTest(s testSpec, parent *Node, where string, kwargs map[string]any) (b *builtinTest, to *Node, err error) {
	b = &builtinTest{kind: s.kind, col: s.column, where: where, parent: parent}
	switch s.kind {
	case "unique", "not_null":
		return b, nil, nil
	case "accepted_values":
		vals, ok := s.args["values"].([]any)
		if !ok || len(vals) == 0 {
			return nil, nil, fmt.Errorf("accepted_values needs values: [...]")
		}
		quote := true
		if q, ok := s.args["quote"].(bool); ok {
			quote = q
		}
		var lits []string
		for _, v := range vals {
			sv := fmt.Sprint(v)
			if quote {
				sv = "'" + strings.ReplaceAll(sv, "'", "''") + "'"
			}
			lits = append(lits, sv)
		}
		kwargs["values"] = vals
		b.values = strings.Join(lits, ", ")
		return b, nil, nil
	}
	// relationships
	ref, _ := s.args["to"].(string)
	field, _ := s.args["field"].(string)
	if ref == "" || field == "" {
		return nil, nil, fmt.Errorf("relationships needs to: ref('model') or source('src', 'table'), and field: column")
	}
	target, err := m.relationshipsTarget(ref)
	if err != nil {
		return nil, nil, err
	}
	kwargs["to"], kwargs["field"] = ref, field
	b.to, b.field = target, field
	return b, target, nil
}

// relationshipsTarget is the node a relationships test's to: names.
func (m *Manifest) relationshipsTarget(to string) (*Node, error) {
	var target *Node
	if sm := toRefRe.FindStringSubmatch(to); sm != nil {
		key := sm[1]
		if sm[2] != "" {
			key = versionKey(sm[1], sm[2]) // ref('dim', v=1)
		}
		if target = m.byName[key]; target == nil {
			return nil, fmt.Errorf("relationships to %s: %s", to, m.unknownRefReason(sm[1], key))
		}
	} else if sm := toSrcRe.FindStringSubmatch(to); sm != nil {
		if target = m.findSource(sm[1], sm[2], nil); target == nil {
			return nil, fmt.Errorf("relationships to %s: source is not declared", to)
		}
	} else {
		return nil, fmt.Errorf("relationships to: must be ref('model') or source('src', 'table') (got %q)", to)
	}
	if target.ResourceType == Model && target.Config.Materialized == "ephemeral" {
		return nil, fmt.Errorf("relationships to ephemeral model %s: it has no table", target.Name)
	}
	return target, nil
}

// sourceEnabled reads config.enabled of a source table, else of its
// source (true when neither sets it).
func sourceEnabled(src, table *yaml.Node) bool {
	for _, y := range []*yaml.Node{table, src} {
		if v, ok := ymap(yget(y, "config"))["enabled"]; ok {
			switch x := v.(type) {
			case bool:
				return x
			case string:
				return !strings.EqualFold(strings.TrimSpace(x), "false")
			}
		}
	}
	return true
}
