package compiler

import (
	"fmt"
	"github.com/docket-dev/docket/loader/internal/runner/render"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Jinja in schema files, as dbt renders it at parse time: every value of a
// model, seed, source or source table entry, except descriptions (rendered
// with doc() by describe), tests (rendered when the test is built) and
// hooks (rendered when they run). A value that renders to true/false, a
// number or none takes that type, as dbt's native rendering gives it.

// renderYAMLEntry renders the Jinja of one schema-file entry in place; a
// rendering error is a diagnostic at the value.
func (m *Manifest) renderYAMLEntry(path string, e *yaml.Node, diags *[]Diagnostic) {
	if e == nil || e.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(e.Content); i += 2 {
		k, v := e.Content[i].Value, e.Content[i+1]
		switch k {
		case "description", "tests", "data_tests":
		case "columns":
			for _, c := range yseq(v) {
				if c.Kind != yaml.MappingNode {
					continue
				}
				for j := 0; j+1 < len(c.Content); j += 2 {
					switch c.Content[j].Value {
					case "description", "tests", "data_tests":
					default:
						m.renderYAMLValue(path, c.Content[j+1], diags)
					}
				}
			}
		case "tables", "versions":
			for _, t := range yseq(v) {
				m.renderYAMLEntry(path, t, diags) // a source's table, a model's version: their tests render when built
			}
		case "config":
			if v.Kind != yaml.MappingNode {
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				switch normKey(v.Content[j].Value) {
				case "pre_hook", "post_hook":
				default:
					m.renderYAMLValue(path, v.Content[j+1], diags)
				}
			}
		default:
			m.renderYAMLValue(path, v, diags)
		}
	}
}

// renderYAMLValue renders every scalar under v that holds Jinja.
func (m *Manifest) renderYAMLValue(path string, v *yaml.Node, diags *[]Diagnostic) {
	switch v.Kind {
	case yaml.MappingNode:
		for i := 1; i < len(v.Content); i += 2 {
			m.renderYAMLValue(path, v.Content[i], diags)
		}
	case yaml.SequenceNode:
		for _, c := range v.Content {
			m.renderYAMLValue(path, c, diags)
		}
	case yaml.ScalarNode:
		if !strings.Contains(v.Value, "{{") && !strings.Contains(v.Value, "{%") {
			return
		}
		out, err := m.renderYAMLText(path, v.Value)
		if err != nil {
			*diags = append(*diags, Diagnostic{Path: path, Line: v.Line, Col: v.Column, Msg: err.Error()})
			return
		}
		v.Style = 0
		switch x := yamlScalar(out).(type) {
		case nil:
			v.Tag, v.Value = "!!null", "null"
		case bool:
			v.Tag, v.Value = "!!bool", fmt.Sprint(x)
		case int:
			v.Tag, v.Value = "!!int", fmt.Sprint(x)
		case float64:
			v.Tag, v.Value = "!!float", out
		default:
			v.Tag, v.Value = "!!str", out
		}
	}
}

// renderYAMLText renders one YAML value with the schema-file context
// (target, var, env_var, ...).
func (m *Manifest) renderYAMLText(path, src string) (string, error) {
	tpl, err := m.env.Parse(path, src)
	if err != nil {
		return "", err
	}
	rc := &renderCtx{m: m, n: &Node{Path: path, Config: Config{Enabled: true}}, cfg: map[string]any{}, refPos: map[string]Position{}}
	out, err := tpl.Render(rc.vars())
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// renderTestArg renders the Jinja in a generic test's argument natively,
// as dbt's test builder does at parse: values: "{{ var('methods') }}"
// becomes the list the var holds (a rendered [..] or {..} is read back as
// a list or mapping, true/false/numbers/none take their type). A
// rendering error is a diagnostic at the test (t).
func (m *Manifest) renderTestArg(path string, t *yaml.Node, v any, diags *[]Diagnostic) any {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			x[i] = m.renderTestArg(path, t, e, diags)
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = m.renderTestArg(path, t, e, diags)
		}
		return x
	case string:
		if !strings.Contains(x, "{{") && !strings.Contains(x, "{%") || relJinjaRe.MatchString(x) {
			// Jinja naming a relation renders in the test's own context
			// (testRender.render), where ref() is the relation as built
			// and a dependency of the test
			return x
		}
		out, err := m.renderYAMLText(path, x)
		if err != nil {
			*diags = append(*diags, Diagnostic{Path: path, Line: t.Line, Col: t.Column, Msg: err.Error()})
			return x
		}
		return nativeArg(out)
	}
	return v
}

// relJinjaRe finds a ref() or source() call in a test argument's Jinja.
var relJinjaRe = regexp.MustCompile(`\b(ref|source)\s*\(`)

// nativeArg is a test argument's rendered text as dbt's native rendering
// gives it: a [..] or {..} read back as a list or mapping, true/false,
// numbers and none their types.
func nativeArg(out string) any {
	if strings.HasPrefix(out, "[") || strings.HasPrefix(out, "{") {
		var lit any
		if yaml.Unmarshal([]byte(out), &lit) == nil {
			return pyNative(lit)
		}
	}
	return yamlScalar(out)
}

// pyNative turns the Python words of a literal read as YAML (True, False,
// None) into their values.
func pyNative(v any) any {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			x[i] = pyNative(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = pyNative(e)
		}
	case string:
		switch x {
		case "True":
			return true
		case "False":
			return false
		case "None":
			return nil
		}
	}
	return v
}

// sourceKeys and sourceTableKeys are the keys of a source and of one of its
// tables that docket reads; any other is warned as not applied.
var (
	sourceKeys = map[string]bool{"name": true, "description": true, "schema": true, "database": true, "loader": true,
		"loaded_at_field": true, "freshness": true, "tables": true, "config": true, "meta": true, "tags": true}
	sourceTableKeys = map[string]bool{"name": true, "description": true, "identifier": true, "loaded_at_field": true,
		"freshness": true, "columns": true, "tests": true, "data_tests": true, "config": true, "meta": true, "tags": true}
	sourceConfigKeys = map[string]bool{"enabled": true, "freshness": true, "loaded_at_field": true, "meta": true, "tags": true, "external_location": true,
		"event_time": true}
)

// checkSourceKeys warns about the keys of a source entry (src) or of one
// of its tables that docket does not apply (quoting, overrides, external,
// ...).
func (m *Manifest) checkSourceKeys(path, what string, e *yaml.Node, known map[string]bool) {
	if e == nil || e.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(e.Content); i += 2 {
		k := e.Content[i]
		if k.Value == "quoting" {
			m.checkSourceQuoting(path, what, k, e.Content[i+1])
			continue
		}
		if !known[k.Value] {
			if k.Value == "external_location" {
				// dbt-duckdb reads it from meta: or config: only
				m.warn(path, ypos(k), "%s: key \"external_location\" here is read neither by dbt-duckdb nor by docket: put it under meta: or config: (dbt-duckdb's external source); as written, the source is a table of the database", what)
				continue
			}
			m.warn(path, ypos(k), "%s: key %q is read but not applied by docket", what, k.Value)
			continue
		}
		if c := e.Content[i+1]; k.Value == "config" && c.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(c.Content); j += 2 {
				if ck := c.Content[j]; !sourceConfigKeys[ck.Value] {
					m.warn(path, ypos(ck), "%s: config %q is read but not applied by docket", what, ck.Value)
				}
			}
		}
	}
}

// checkSourceQuoting: a source's (or table's) quoting: column is applied
// (sourceQuoteColumns: its columns' tests get quoted names, as dbt's);
// database, schema and identifier are not: warned at their keys.
func (m *Manifest) checkSourceQuoting(path, what string, k, v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		m.warn(path, ypos(k), "%s: quoting must be a mapping (column: true, ...); it is not applied", what)
		return
	}
	for j := 0; j+1 < len(v.Content); j += 2 {
		qk := v.Content[j]
		if _, ok := yany(v.Content[j+1]).(bool); ok && qk.Value == "column" {
			continue
		}
		m.warn(path, ypos(qk), "%s: quoting %q is read but not applied by docket", what, qk.Value)
	}
}

// levelMeta is the meta a source or a source table sets itself (meta:,
// then config: meta:, as dict.update): dbt keeps the two apart, a source
// node's meta the table's and its source_meta the source's.
func levelMeta(level *yaml.Node) *render.Mapping {
	meta := &render.Mapping{Vals: map[string]any{}}
	for _, n := range []*yaml.Node{level, yget(level, "config")} {
		if n == nil {
			continue
		}
		if mm := ymeta(yget(n, "meta")); mm.Len() > 0 {
			meta.Update(mm)
		}
	}
	return meta
}

// sourceTagsMeta are a source table's tags and meta: its source's, then its
// own (dbt's source tags add up; a table's meta keys win).
func sourceTagsMeta(src, tbl *yaml.Node) ([]string, *render.Mapping) {
	tags := []string{}
	var meta *render.Mapping
	seen := map[string]bool{}
	for _, level := range []*yaml.Node{src, yget(src, "config"), tbl, yget(tbl, "config")} {
		if level == nil {
			continue
		}
		switch v := yany(yget(level, "tags")).(type) {
		case string:
			if !seen[v] {
				seen[v] = true
				tags = append(tags, v)
			}
		case []any:
			for _, t := range v {
				if s := fmt.Sprint(t); !seen[s] {
					seen[s] = true
					tags = append(tags, s)
				}
			}
		}
		if mm := ymeta(yget(level, "meta")); mm.Len() > 0 {
			if meta == nil {
				meta = &render.Mapping{Vals: map[string]any{}}
			}
			meta.Update(mm) // dict.update: the source's keys first
		}
	}
	return tags, meta
}

// externalLocation is dbt-duckdb's external source: meta.external_location
// (or config.meta.external_location, where dbt 1.10 moved meta, or
// config.external_location) of the table, else of its source, with
// {name}, {identifier}, {schema} and {source_name} filled in. A location
// that is a call (read_csv('...', header = true)) is used as written; a
// path becomes a quoted file name DuckDB reads by its extension, a
// relative one taken from the project folder dir (dbt-duckdb takes it from
// where dbt runs, which is the project folder as dbt is used). "" when the
// source is a table.
func externalLocation(src, tbl *yaml.Node, n *Node, dir string) string {
	loc := ""
	for _, level := range []*yaml.Node{src, tbl} {
		for _, holder := range []*yaml.Node{yget(level, "meta"), yget(yget(level, "config"), "meta"), yget(level, "config")} {
			if v := ystr(holder, "external_location"); v != "" {
				loc = v
			}
		}
	}
	if loc == "" {
		return ""
	}
	loc = strings.NewReplacer("{name}", n.Name, "{identifier}", n.Identifier, "{schema}", n.Schema,
		"{source_name}", n.SourceName).Replace(loc)
	if strings.Contains(loc, "(") {
		return loc
	}
	if !strings.Contains(loc, "://") && !filepath.IsAbs(loc) && dir != "" {
		loc = filepath.Join(dir, loc)
	}
	return "'" + strings.ReplaceAll(loc, "'", "''") + "'"
}
