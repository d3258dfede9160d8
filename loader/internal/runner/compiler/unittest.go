package compiler

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/docket-dev/docket/loader/internal/runner/render"
	"regexp"
	"sort"
	"strings"
)

// UnitTest is the resource type of a dbt 1.8 unit test: a model's SQL run
// on fixture rows (given) in place of its inputs, its output compared with
// expected rows (unittest_exec.go).
const UnitTest = "unit_test"

// UnitSpec is one `unit_tests:` entry as read from YAML.
type UnitSpec struct {
	model     string
	given     []Fixture
	Expect    Fixture
	macros    map[string]any // overrides
	vars      map[string]any
	envVars   map[string]any
	ModelNode *Node
	Raw       string // the entry as JSON (part of its fingerprint, state.go)
}

// Fixture is one given input (or the expected output).
type Fixture struct {
	input  string       // as written: ref('x'), source('s', 't'), this
	kind   string       // ref, source, this ("" for expect)
	name   string       // ref: the model or seed; source: "s.t"
	Format string       // dict, csv, sql
	Rows   []FixtureRow // dict and csv
	SQL    string       // sql
	cols   []string     // csv: the header's order
	at     Position     // where it is written
	node   *Node        // the input's node (nil for expect)
	parsed [2]string    // source: source name, table
}

// FixtureRow is one row: column (lower case) → value (nil is null).
type FixtureRow map[string]any

var (
	refInputRe    = regexp.MustCompile(`^\s*ref\(\s*(?:['"][^'"]*['"]\s*,\s*)?['"]([^'"]+)['"]\s*(?:,\s*v(?:ersion)?\s*=\s*['"]?([^'"\s)]*)['"]?\s*)?\)\s*$`)
	sourceInputRe = regexp.MustCompile(`^\s*source\(\s*['"]([^'"]+)['"]\s*,\s*['"]([^'"]+)['"]\s*\)\s*$`)
)

// buildUnitTests turns the `unit_tests:` entries kept while reading YAML
// into nodes that depend on the model they test. Mistakes (an unknown
// model or input, a bad format) are diagnostics at the entry's line.
func (m *Manifest) buildUnitTests() []Diagnostic {
	var diags []Diagnostic
	for _, it := range m.Unacted["unit_tests"] {
		name := ystrAny(it.Item["name"])
		if name == "" {
			continue
		}
		bad := func(at Position, format string, a ...any) {
			if at == (Position{}) {
				at = it.at
			}
			diags = append(diags, Diagnostic{Path: it.Path, Line: at.Line, Col: at.Col,
				Msg: fmt.Sprintf("unit test %s: ", name) + fmt.Sprintf(format, a...)})
		}
		m.unitTestKeys(it, name)
		model := ystrAny(it.Item["model"])
		cfg := m.unitTestConfig(it.Path, model, name, mapAny(it.Item["config"]))
		m.unitPaths = append(m.unitPaths, append(nodePath(m.partsUnder(it.Path, "models"), model), name))
		if b, ok := cfg["enabled"].(bool); ok && !b {
			continue
		}
		if strings.TrimSpace(model) == "" {
			bad(Position{}, "no model: a unit test names the model it tests (model: name)")
			continue
		}
		mn, disabled, why := m.unitTestModel(model)
		if disabled {
			continue // as dbt: a disabled model's unit tests are disabled too
		}
		if mn == nil {
			bad(Position{}, "%s", why)
			continue
		}
		raw, _ := json.Marshal(it.Item)
		u := &UnitSpec{model: model, ModelNode: mn, macros: map[string]any{}, vars: map[string]any{}, envVars: map[string]any{}, Raw: string(raw)}
		if o := mapAny(it.Item["overrides"]); len(o) > 0 {
			u.macros, u.vars, u.envVars = mapAny(o["macros"]), mapAny(o["vars"]), mapAny(o["env_vars"])
		}
		ok := m.readGiven(it, u, bad)
		exp, err := m.readFixture(it.Path, mapAny(it.Item["expect"]), false)
		if err != nil {
			bad(Position{}, "expect %s", err)
			ok = false
		}
		u.Expect = exp
		if !ok {
			continue
		}
		m.addUnitTests(it, name, u, cfg, bad)
	}
	return diags
}

// unitTestModel is the model a unit test's `model:` names: "dim", or
// "dim 1" for one version (dbt's find_tested_model_node splits on blanks
// and looks the second part up as the version, so "dim v1" names none).
// A versioned model's test still runs against every version its
// versions: keeps (dbt's process_models_for_unit_test).
func (m *Manifest) unitTestModel(model string) (mn *Node, disabled bool, why string) {
	f := strings.Fields(model)
	key := f[0]
	if len(f) == 2 {
		key = versionKey(f[0], f[1])
	}
	if mn = m.byName[key]; mn != nil && mn.ResourceType == Model && len(f) <= 2 {
		return mn, false, ""
	}
	if m.Disabled[Model+"."+m.Name+"."+f[0]] != nil {
		return nil, true, ""
	}
	why = fmt.Sprintf("model %q does not exist", model)
	switch {
	case len(f) == 2 && strings.HasPrefix(f[1], "v") && m.byName[versionKey(f[0], f[1][1:])] != nil:
		why += fmt.Sprintf(" (a version is written as its value, as dbt reads it: %q)", f[0]+" "+f[1][1:])
	case len(f) == 2 && m.byName[f[0]] != nil:
		why = fmt.Sprintf("model %s has no version %s", f[0], f[1])
		if vs := m.versionsOf(f[0]); len(vs) > 0 {
			why += " (versions: " + strings.Join(vs, ", ") + ")"
		}
	default:
		if s := suggest(f[0], m.names()); s != "" {
			why += fmt.Sprintf(" (did you mean %q?)", s)
		}
	}
	return nil, false, why
}

// readGiven reads a unit test's given inputs into u; false on a mistake.
func (m *Manifest) readGiven(it UnactedItem, u *UnitSpec, bad func(Position, string, ...any)) bool {
	ok := true
	seen := map[string]bool{}
	for _, g := range listAny(it.Item["given"]) {
		f, err := m.readFixture(it.Path, mapAny(g), true)
		if err != nil {
			bad(Position{}, "given %s", err)
			ok = false
			continue
		}
		switch f.kind {
		case "ref":
			f.node = m.byName[f.name]
			if f.node == nil {
				name, _ := splitRefKey(f.name)
				bad(Position{}, "given input %s: %s", f.input, m.unknownRefReason(name, f.name))
				ok = false
				continue
			}
			f.name = f.node.refKey() // ref('dim') and ref('dim', v=<latest>) are one input
		case "source":
			f.node = m.Sources[Source+"."+m.Name+"."+f.name]
			if f.node == nil {
				bad(Position{}, "given input %s is not a declared source", f.input)
				ok = false
				continue
			}
		case "this":
			f.node = u.ModelNode
		}
		if seen[f.kind+":"+f.name] {
			bad(Position{}, "input %s is given twice", f.input)
			ok = false
		}
		seen[f.kind+":"+f.name] = true
		u.given = append(u.given, f)
	}
	return ok
}

// addUnitTests adds the nodes of one unit test u: one per model it runs
// against (unitTestTargets).
func (m *Manifest) addUnitTests(it UnactedItem, name string, u *UnitSpec, cfg map[string]any, bad func(Position, string, ...any)) {
	model, mn := u.model, u.ModelNode
	for _, t := range m.unitTestTargets(it.Item, mn, bad) {
		id := UnitTest + "." + m.Name + "." + model + "." + name
		if t.Version != "" {
			id += "_v" + t.Version // dbt's id of the test of one version
		}
		if m.Nodes[id] != nil {
			bad(Position{}, "model %s has two unit tests named %s", model, name)
			continue
		}
		tu := *u
		tu.ModelNode, tu.given = t, append([]Fixture(nil), u.given...)
		for i := range tu.given {
			if tu.given[i].kind == "this" {
				tu.given[i].node = t
			}
		}
		tags := append([]string{}, toStrings(cfg["tags"])...)
		m.Nodes[id] = &Node{UniqueID: id, ResourceType: UnitTest, PackageName: m.Name, Name: name, Schema: t.Schema,
			Alias: name, Database: m.Database(), Path: it.Path, FQN: append(append([]string{}, t.FQN...), name),
			Description: ystrAny(it.Item["description"]), Columns: map[string]Column{}, Tags: tags,
			Refs: [][]string{{t.refKey()}}, Pos: it.at, Unit: &tu, Version: t.Version,
			Config: Config{Enabled: true, Tags: tags, PreHook: []Hook{}, PostHook: []Hook{}, Meta: unitMeta(cfg["meta"])}}
	}
}

// unitTestTargets are the models a unit test of mn runs against: mn, or
// for a versioned model every version that the test's versions: include
// / exclude keeps, as dbt's process_models_for_unit_test.
func (m *Manifest) unitTestTargets(item map[string]any, mn *Node, bad func(Position, string, ...any)) []*Node {
	vs := mapAny(item["versions"])
	if mn.Version == "" {
		if len(vs) > 0 {
			bad(Position{}, "versions: include/exclude, but model %s has no versions", mn.Name)
			return nil
		}
		return []*Node{mn}
	}
	set := func(v any) map[string]bool {
		if v == nil {
			return nil
		}
		out := map[string]bool{}
		for _, x := range listAny(v) {
			out[verStr(x)] = true
		}
		return out
	}
	include, exclude := set(vs["include"]), set(vs["exclude"])
	var out []*Node
	for _, v := range m.versionsOf(mn.Name) {
		if t := m.byName[versionKey(mn.Name, v)]; t != nil && (include == nil || include[v]) && !exclude[v] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		bad(Position{}, "no version of model %s to test (versions: include/exclude)", mn.Name)
	}
	return out
}

// readFixture reads a given (input + rows) or an expect (rows) entry:
// Rows as a list of dicts (format dict), CSV text (format csv) or SQL
// (format sql), inline or from a `fixture:` file under tests/fixtures/.
func (m *Manifest) readFixture(path string, y map[string]any, given bool) (Fixture, error) {
	f := Fixture{Format: ystrAny(y["format"]), input: ystrAny(y["input"])}
	label := f.input
	if !given {
		label = "rows"
	}
	if f.Format == "" {
		f.Format = "dict"
	}
	if given {
		if sm := refInputRe.FindStringSubmatch(f.input); sm != nil {
			f.kind, f.name = "ref", sm[1]
			if sm[2] != "" {
				f.name = versionKey(sm[1], sm[2]) // ref('dim', v=1): that version
			}
		} else if sm := sourceInputRe.FindStringSubmatch(f.input); sm != nil {
			f.kind, f.name, f.parsed = "source", sm[1]+"."+sm[2], [2]string{sm[1], sm[2]}
		} else if strings.TrimSpace(f.input) == "this" {
			f.kind = "this"
		} else {
			return f, fmt.Errorf("input %q: docket reads ref('name'), source('name', 'table') or this", f.input)
		}
	}
	rows := y["rows"]
	if name := ystrAny(y["fixture"]); name != "" {
		if rows != nil {
			return f, fmt.Errorf("%s: both rows and fixture are set", label)
		}
		ext := map[string]string{"csv": ".csv", "sql": ".sql"}[f.Format]
		if ext == "" {
			return f, fmt.Errorf("fixture %q: a fixture file needs format csv or sql", name)
		}
		var tried []string
		for _, dir := range m.dirs("tests") {
			p := dir + "/fixtures/" + name + ext
			tried = append(tried, p)
			if b, err := m.readFile(p); err == nil {
				rows = string(b)
				break
			}
		}
		if rows == nil {
			return f, fmt.Errorf("fixture %q: no file %s", name, strings.Join(tried, " or "))
		}
	}
	switch f.Format {
	case "dict":
		var err error
		f.Rows, err = dictRows(label, rows)
		return f, err
	case "csv":
		text, ok := rows.(string)
		if !ok {
			return f, fmt.Errorf("%s: format csv takes rows as CSV text", label)
		}
		var err error
		f.cols, f.Rows, err = csvRows(label, text)
		return f, err
	case "sql":
		text, ok := rows.(string)
		if !ok || strings.TrimSpace(text) == "" {
			return f, fmt.Errorf("%s: format sql takes rows as a SQL query", label)
		}
		f.SQL = trimSQL(text)
	default:
		return f, fmt.Errorf("%s: format %q (docket reads dict, csv and sql)", label, f.Format)
	}
	return f, nil
}

// dictRows reads format dict rows: a list of mappings (nil: no rows).
func dictRows(label string, rows any) ([]FixtureRow, error) {
	if rows == nil {
		return nil, nil // no rows: an empty input
	}
	list, ok := rows.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: format dict takes rows as a list of mappings", label)
	}
	var out []FixtureRow
	for _, r := range list {
		mp, ok := r.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: format dict takes rows as a list of mappings", label)
		}
		row := FixtureRow{}
		for k, v := range mp {
			row[strings.ToLower(k)] = v
		}
		out = append(out, row)
	}
	return out, nil
}

// csvRows reads format csv rows: the header's columns, then the rows.
func csvRows(label, text string) (cols []string, rows []FixtureRow, err error) {
	r := csv.NewReader(strings.NewReader(strings.TrimSpace(text)))
	r.TrimLeadingSpace = true
	recs, err := r.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: CSV rows: %v", label, err)
	}
	if len(recs) == 0 {
		return nil, nil, nil
	}
	for _, c := range recs[0] {
		cols = append(cols, strings.ToLower(strings.TrimSpace(c)))
	}
	for _, rec := range recs[1:] {
		row := FixtureRow{}
		for i, v := range rec {
			if i >= len(cols) {
				break
			}
			// as dbt reads CSV fixtures (agate): empty and "null" are null
			if v == "" || strings.EqualFold(v, "null") {
				row[cols[i]] = nil
			} else {
				row[cols[i]] = v
			}
		}
		rows = append(rows, row)
	}
	return cols, rows, nil
}

// Columns lists the columns the rows name, in CSV order or sorted.
func (f Fixture) Columns() []string {
	if len(f.cols) > 0 {
		return f.cols
	}
	set := map[string]bool{}
	for _, r := range f.Rows {
		for k := range r {
			set[k] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cteName is the CTE a given input becomes in the model's SQL, as dbt
// names them.
func (f Fixture) cteName() string {
	switch f.kind {
	case "source":
		return "__dbt__cte__" + f.parsed[0] + "__" + f.parsed[1]
	case "this":
		return "__dbt__cte__this"
	}
	return "__dbt__cte__" + f.name
}

// unitTestKeys warns, at the entry's line, about each key of a unit test
// that docket does not act on (a misspelt `expected:` would otherwise
// pass in silence).
func (m *Manifest) unitTestKeys(it UnactedItem, name string) {
	check := func(where string, mp map[string]any, known ...string) {
		ok := map[string]bool{}
		for _, k := range known {
			ok[k] = true
		}
		for _, k := range SortedKeys(mp) {
			if !ok[k] {
				m.warn(it.Path, it.at, "unit test %s: %skey %q is read but not applied by docket", name, where, k)
			}
		}
	}
	check("", it.Item, "name", "model", "description", "given", "expect", "overrides", "config", "versions")
	for _, g := range listAny(it.Item["given"]) {
		check("given: ", mapAny(g), "input", "rows", "format", "fixture")
	}
	check("expect: ", mapAny(it.Item["expect"]), "rows", "format", "fixture")
	check("overrides: ", mapAny(it.Item["overrides"]), "macros", "vars", "env_vars")
	check("config: ", mapAny(it.Item["config"]), "tags", "meta", "enabled")
}

// unitMeta is a unit test's config meta (nil when there is none).
func unitMeta(v any) *render.Mapping {
	if m, ok := render.AsMapping(v); ok && m.Len() > 0 {
		return m
	}
	return nil
}
