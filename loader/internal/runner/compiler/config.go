package compiler

import (
	"encoding/csv"
	"fmt"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"gopkg.in/yaml.v3"
)

// folderConfig merges dbt-style folder defaults along the folder path
// (nodePath: its last step is the node's own name, as dbt's fqn).
func (m *Manifest) folderConfig(tree map[string]any, folders []string) map[string]any {
	out := map[string]any{}
	take := func(level map[string]any) {
		for k, v := range level {
			if strings.HasPrefix(k, "+") || isConfigKey(k) {
				if _, isMap := v.(map[string]any); isMap && !strings.HasPrefix(k, "+") && k != "meta" && k != "column_types" {
					continue // a folder named like a key
				}
				mergeCfg(out, normKey(k), v)
			}
		}
	}
	level := tree
	if sub, ok := level[m.Name].(map[string]any); ok && !isConfigKey(m.Name) {
		take(level)
		level = sub
	}
	take(level)
	for _, f := range folders {
		sub, ok := level[f].(map[string]any)
		if !ok {
			break
		}
		level = sub
		take(level)
	}
	return out
}

func normKey(k string) string {
	k = strings.TrimPrefix(k, "+")
	return strings.ReplaceAll(k, "-", "_")
}

// AppliedKeys are the configs docket applies.
var AppliedKeys = map[string]bool{"materialized": true, "tags": true, "unique_key": true, "incremental_strategy": true,
	"on_schema_change": true, "pre_hook": true, "post_hook": true, "enabled": true, "severity": true, "where": true,
	"column_types": true, "meta": true, "schema": true, "alias": true, "database": true, "full_refresh": true,
	"limit": true, "warn_if": true, "error_if": true, "fail_calc": true, "scoped_to": true,
	"store_failures": true, "store_failures_as": true, "contract": true, "sql_header": true, "persist_docs": true, "delimiter": true,
	"incremental_predicates": true, "predicates": true, "merge_update_columns": true, "merge_exclude_columns": true,
	"event_time": true, "batch_size": true, "lookback": true, "begin": true, "group": true}

// NotApplied are valid dbt configs docket reads and does not apply: each
// use is a warning with the place it was written.
var NotApplied = map[string]bool{"docs": true, "grants": true,
	"quote_columns": true,
	"access":        true, "packages": true,
	"concurrent_batches": true, "docs_hidden": true, "on_configuration_change": true,
	"quoting": true, "column_name": true, "indexes": true, "labels": true, "transient": true, "copy_grants": true,
	"unlogged": true, "partition_by": true, "cluster_by": true, "location": true, "format": true, "options": true}

var knownKeys = func() map[string]bool {
	out := map[string]bool{}
	for k := range AppliedKeys {
		out[k] = true
	}
	for k := range NotApplied {
		out[k] = true
	}
	return out
}()

func isConfigKey(k string) bool { return knownKeys[normKey(k)] }

// mergeCfg sets key, accumulating tags and hooks and merging meta like
// dbt does (meta is MergeBehavior.Update: a more specific key wins).
func mergeCfg(dst map[string]any, k string, v any) {
	switch k {
	case "tags":
		prev := toStrings(dst[k])
		dst[k] = append(prev, toStrings(v)...)
	case "pre_hook", "post_hook":
		dst[k] = append(hookItems(dst[k]), hookItems(v)...)
	case "meta":
		// dbt's dict.update: the keys in the order they were first set
		// (dbt_project.yml, the YAML, config()), a later value winning
		prev, okPrev := render.AsMapping(dst[k])
		cur, okCur := render.AsMapping(v)
		if !okPrev || !okCur {
			dst[k] = v
			return
		}
		merged := &render.Mapping{Vals: make(map[string]any, prev.Len()+cur.Len())}
		merged.Update(prev)
		merged.Update(cur)
		dst[k] = merged
	default:
		dst[k] = v
	}
}

// stringKeyed is v as a mapping with string keys (render.StringKeyed).
func stringKeyed(v any) (map[string]any, bool) { return render.StringKeyed(v) }

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

// resolveConfig merges folder < yml < model config and validates it.
func (m *Manifest) resolveConfig(n *Node) []Diagnostic {
	var diags []Diagnostic
	bad := func(p Position, format string, a ...any) {
		diags = append(diags, Diagnostic{Path: n.Path, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, a...)})
	}
	raw := map[string]any{}
	for _, src := range []map[string]any{n.folderCfg, n.ymlCfg, n.modelCfg} {
		for k, v := range src {
			if k == "tags" || k == "pre_hook" || k == "post_hook" || k == "meta" {
				mergeCfg(raw, k, v)
			} else {
				raw[k] = v
			}
		}
	}
	at := n.ConfigPos
	if at == (Position{}) {
		at = Position{1, 1}
	}
	for k, v := range raw {
		// dbt renders Jinja in dbt_project.yml and YAML config values
		if str, ok := v.(string); ok && (strings.Contains(str, "{{") || strings.Contains(str, "{%")) && k != "pre_hook" && k != "post_hook" {
			out, err := m.renderValue(n, k, str)
			if err != nil {
				from, fat := m.configSourcePos(k)
				if n.ResourceType == Test {
					from, fat = m.configWhere(n, k, at) // the test's YAML entry
				}
				diags = append(diags, Diagnostic{Path: from, Line: fat.Line, Col: fat.Col, Msg: fmt.Sprintf("config %s: %v", k, err)})
				continue
			}
			raw[k] = yamlScalar(out)
		}
	}
	c := Config{Enabled: true, Tags: []string{}, PreHook: []Hook{}, PostHook: []Hook{}}
	n.Contract = contractConfig(raw["contract"])
	m.duckdbMaterialization(&c, n, raw, at, bad)
	for _, k := range SortedKeys(raw) {
		m.setConfig(&c, n, k, raw[k], at, bad)
	}
	m.validateConfig(&c, n, at, bad)
	n.Config = c
	n.Tags = c.Tags
	return diags
}

// setConfig applies one resolved config key to c; a key docket does not
// apply is a warning at the place it was written.
func (m *Manifest) setConfig(c *Config, n *Node, k string, v any, at Position, bad func(Position, string, ...any)) {
	str := func() string {
		s, ok := v.(string)
		if !ok {
			bad(at, "config %s must be a string (got %v)", k, v)
		}
		return s
	}
	if setTestConfig(c, k, v, str, func(format string, a ...any) { bad(at, format, a...) }) {
		if k == "where" && c.Where != "" && n.ResourceType == Test && n.TestMetadata == nil {
			from, fat := m.configWhere(n, k, at)
			m.warn(from, fat, "config where is not applied to singular test %s (dbt filters only a generic test's model, through get_where_subquery): filter in its SQL", n.Name)
		}
		return
	}
	if setBuildConfig(c, k, v, str, func(format string, a ...any) { bad(at, format, a...) }) {
		return
	}
	if m.setRelationConfig(c, n, k, v, at, str, func(format string, a ...any) { bad(at, format, a...) }) {
		return
	}
	if setMicrobatchConfig(c, k, v, func(format string, a ...any) { bad(at, format, a...) }) {
		return
	}
	m.warnConfigKey(n, k, v, at)
}

// setBuildConfig applies a key of how a node builds (materialized, tags,
// unique_key, incremental_strategy, on_schema_change, hooks, enabled,
// full_refresh, schema, alias, database, group); false for any other key.
func setBuildConfig(c *Config, k string, v any, str func() string, bad func(string, ...any)) bool {
	switch k {
	case "materialized":
		c.Materialized = str()
	case "tags":
		c.Tags = dedupe(toStrings(v))
	case "unique_key":
		// dbt tests `{% if unique_key %}`: '' (or []) is no key, so append;
		// a list holding a blank is a key (dbt's build then fails on it)
		if s, ok := v.(string); ok && strings.TrimSpace(s) == "" {
			c.UniqueKey = nil
		} else {
			c.UniqueKey = toStrings(v)
		}
	case "incremental_strategy":
		c.IncrementalStrategy = str()
	case "group":
		c.Group = str()
	case "on_schema_change":
		c.OnSchemaChange = str()
	case "incremental_predicates":
		// predicates (dbt's older name) wins when not empty, as dbt's
		// config.get('predicates') or config.get('incremental_predicates'):
		// setConfig takes the keys sorted, so this runs first today; the
		// nil test keeps it so if that order ever changes
		if c.IncrementalPredicates == nil {
			c.IncrementalPredicates = toStrings(v)
		}
	case "predicates":
		if p := toStrings(v); len(p) > 0 {
			c.IncrementalPredicates = p
		}
	case "merge_update_columns":
		c.MergeUpdateColumns = toStrings(v)
	case "merge_exclude_columns":
		c.MergeExcludeColumns = toStrings(v)
	case "pre_hook":
		c.PreHook = toHooks(v)
	case "post_hook":
		c.PostHook = toHooks(v)
	case "enabled":
		b, ok := v.(bool)
		if !ok {
			bad("config enabled must be true or false (got %v)", v)
		}
		c.Enabled = b
	case "full_refresh":
		b, ok := v.(bool)
		if !ok {
			bad("config full_refresh must be true or false (got %v)", v)
		}
		c.FullRefresh = &b
	case "schema":
		c.Schema = str()
	case "alias":
		c.Alias = str()
	case "database":
		c.Database = str()
	default:
		return false
	}
	return true
}

// setRelationConfig applies a key about the relation's content and
// metadata (delimiter, column_types, meta, contract, sql_header,
// persist_docs), warning where it does not apply to n's kind; false for
// any other key.
func (m *Manifest) setRelationConfig(c *Config, n *Node, k string, v any, at Position, str func() string, bad func(string, ...any)) bool {
	switch k {
	case "delimiter":
		c.Delimiter = str()
		if n.ResourceType != Seed {
			from, fat := m.configWhere(n, k, at)
			m.warn(from, fat, "config delimiter is not applied to a %s (it is a seed's CSV field separator)", n.ResourceType)
		}
	case "column_types":
		mp, ok := v.(map[string]any)
		if !ok {
			bad("config column_types must be a mapping of column to type")
			return true
		}
		c.ColumnTypes = map[string]string{}
		for ck, cv := range mp {
			c.ColumnTypes[ck] = fmt.Sprint(cv)
		}
	case "meta":
		mp, ok := render.AsMapping(v)
		if !ok && v != nil {
			bad("config meta must be a mapping (got %v)", v)
		}
		if mp.Len() > 0 {
			c.Meta = mp // nil when empty: a node's digest is as before
		}
	case "contract":
		// read into n.contract above; enforced when the model builds (contract.go)
	case "sql_header":
		c.SQLHeader = str()
		if n.ResourceType == Seed || n.ResourceType == Test {
			from, fat := m.configWhere(n, k, at)
			m.warn(from, fat, "config sql_header is not applied to a %s (dbt-duckdb runs it before a model's or snapshot's create)", n.ResourceType)
		}
	case "persist_docs":
		c.PersistDocs = persistDocs(v, func() {
			bad("config persist_docs must be a mapping of relation and columns to true or false (got %v)", v)
		})
	default:
		return false
	}
	return true
}

// warnConfigKey: a key docket reads but does not apply, or does not know
// (with a did-you-mean), is a warning at every place it is written for
// n: its config() or YAML, and each level of its folders' tree (a deeper
// level, or the node's own config, overrides the value but applies none
// of them either).
func (m *Manifest) warnConfigKey(n *Node, k string, v any, at Position) {
	msg := fmt.Sprintf("config %s is read but not applied by docket", k)
	if k == "concurrent_batches" {
		msg = fmt.Sprintf("config concurrent_batches=%s is not applied: the batches run one after another, as under dbt-duckdb "+
			"(dbt runs them at once only on adapters that declare MicrobatchConcurrency, which dbt-duckdb does not; DuckDB has one writer)",
			configValue(v))
	}
	switch {
	case k == "description":
		// dbt-core never took a description from config() (dbt-core#1922):
		// the key stays a custom one (config.get('description') reads it,
		// as here; dbt 1.10+ warns of it, CustomKeyInConfigDeprecation) and
		// the node is documented from its YAML description: only
		msg = "config description is not the node's description: dbt keeps it as a custom config key (config.get reads it) " +
			"and documents the node from the YAML description: only, as docket does; write it there"
	case !NotApplied[k]:
		msg = fmt.Sprintf("unknown config key %q", k)
		if s := suggest(k, SortedKeys(knownKeys)); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		msg += ": not applied"
	}
	for _, p := range m.configPlaces(n, k, at) {
		m.warn(p.path, p.at, "%s", msg)
	}
}

// configPlaces is every place n's config key k is written: its config()
// call or YAML (at), and each level of its folders' tree that sets it.
func (m *Manifest) configPlaces(n *Node, k string, at Position) []place {
	var out []place
	_, own := n.modelCfg[k]
	_, yml := n.ymlCfg[k]
	ymlAt, ymlKnown := n.ymlAt[k]
	if own || yml && !ymlKnown {
		out = append(out, place{n.Path, at})
	}
	if yml && ymlKnown {
		out = append(out, ymlAt)
	}
	if _, folder := n.folderCfg[k]; folder || len(out) == 0 {
		if ps := m.folderPlaces(n, k); len(ps) > 0 {
			out = append(out, ps...)
		} else {
			from, fat := m.configSourcePos(k)
			out = append(out, place{from, fat})
		}
	}
	return out
}

// setTestConfig applies one of the data tests' config keys (severity,
// where, limit, scoped_to, store_failures, store_failures_as, warn_if,
// error_if, fail_calc) to c; false for any other key.
func setTestConfig(c *Config, k string, v any, str func() string, bad func(string, ...any)) bool {
	switch k {
	case "severity":
		c.Severity = strings.ToLower(str())
	case "where":
		c.Where = str()
	case "limit":
		c.Limit = toInt(v)
	case "scoped_to":
		c.ScopedTo = str()
	case "store_failures":
		b, ok := v.(bool)
		if sv, isStr := v.(string); isStr {
			b, ok = strings.EqualFold(strings.TrimSpace(sv), "true"), true
		}
		if !ok {
			bad("config store_failures must be true or false (got %v)", v)
		}
		c.StoreFailures = b
	case "store_failures_as":
		switch sv := strings.ToLower(str()); sv {
		case "table", "view", "ephemeral":
			c.StoreFailuresAs = sv
		default:
			bad("config store_failures_as must be table, view or ephemeral (got %v)", v)
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
		return false
	}
	return true
}

// ConfigWhere is the file and line where n's config key k in effect is
// written (its config() call, its YAML entry, or its folder level).
func (m *Manifest) ConfigWhere(n *Node, k string) (string, int) {
	path, at := m.configWhere(n, k, n.KeyPos(k))
	return path, at.Line
}

// configWhere is where n's config key k in effect was written: its
// config() call (at), its YAML, or the deepest level of its folders'
// tree in dbt_project.yml or project.yaml that sets it.
func (m *Manifest) configWhere(n *Node, k string, at Position) (string, Position) {
	if _, own := n.modelCfg[k]; own {
		return n.Path, at
	}
	if _, yml := n.ymlCfg[k]; yml {
		if p, ok := n.ymlAt[k]; ok {
			return p.path, p.at
		}
		return n.Path, at
	}
	if ps := m.folderPlaces(n, k); len(ps) > 0 {
		return ps[len(ps)-1].path, ps[len(ps)-1].at
	}
	return m.configSourcePos(k)
}

// persistDocs reads persist_docs: {relation: bool, columns: bool}; nil
// when neither is true.
func persistDocs(v any, bad func()) *PersistDocs {
	mp := map[string]any{}
	switch t := v.(type) {
	case map[string]any:
		mp = t
	case map[any]any: // a dict written in a template
		for k, x := range t {
			mp[fmt.Sprint(k)] = x
		}
	case nil:
		return nil
	default:
		bad()
		return nil
	}
	pd := &PersistDocs{}
	for k, x := range mp {
		b, isBool := x.(bool)
		if !isBool {
			bad()
			return nil
		}
		switch k {
		case "relation":
			pd.Relation = b
		case "columns":
			pd.Columns = b
		default:
			bad()
			return nil
		}
	}
	if !pd.Relation && !pd.Columns {
		return nil
	}
	return pd
}

// validateConfig fills the resource type's defaults and checks the
// materialization, incremental strategy and severity.
func (m *Manifest) validateConfig(c *Config, n *Node, at Position, bad func(Position, string, ...any)) {
	switch n.ResourceType {
	case Model:
		if c.Materialized == "" {
			c.Materialized = "view"
			if n.Language == "python" {
				c.Materialized = "table" // dbt's default for a Python model
			}
		}
		switch c.Materialized {
		case "view", "table", "incremental", "ephemeral":
		case "external", "table_function": // dbt-duckdb's, built natively unless the project has its own block
			if _, ok, _ := m.env.FindMaterialization(c.Materialized); ok {
				m.customMaterialization(n, c.Materialized, at, bad)
			}
		default:
			m.customMaterialization(n, c.Materialized, at, bad)
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
			case "microbatch":
				m.checkMicrobatch(c, n, at, bad)
			case "delete+insert", "merge":
				if len(c.UniqueKey) == 0 {
					bad(at, "incremental_strategy %q needs a unique_key", c.IncrementalStrategy)
				}
			default:
				// as dbt: the model errors when it runs, the rest of the
				// project builds (a parse error stopped every node)
				n.RunError = fmt.Sprintf("incremental_strategy %q is not one docket builds (append, delete+insert, merge, microbatch)", c.IncrementalStrategy)
				from, fat := m.configWhere(n, "incremental_strategy", at)
				m.warn(from, fat, "%s: model %s errors when run; the rest of the project builds", n.RunError, n.Name)
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
	}
	m.checkMergeConfig(c, n, at, bad)
	m.warnBatchConfig(c, n, at)
	switch n.ResourceType {
	case Seed:
		c.Materialized = "seed"
		m.seedColumnTypes(c, n, at)
	case Analysis:
		c.Materialized = "view" // dbt's analysis config
	case Test:
		c.Materialized = "test"
		if c.Severity == "" {
			c.Severity = "error"
		}
		if c.Severity != "error" && c.Severity != "warn" {
			bad(n.Pos, "severity must be warn or error (got %q)", c.Severity)
		}
	}
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

// renderValue renders a Jinja string from YAML (config value k) for node
// n. A test's where is rendered as dbt's test builder does, with var,
// env_var and target: a ref() or source() in it is an error (dbt: "'ref'
// is undefined"), never text pasted into the SQL.
func (m *Manifest) renderValue(n *Node, k, src string) (string, error) {
	tpl, err := m.env.Parse(n.Path+":config", src)
	if err != nil {
		return "", err
	}
	rc := &renderCtx{m: m, n: n, cfg: map[string]any{}, refPos: map[string]Position{}}
	if k == "where" && n.ResourceType == Test {
		rc.noRefs = "a test's where config (dbt renders it with var, env_var and target only; filter in the test's SQL, or a custom get_where_subquery)"
	}
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

// checkMergeConfig: merge_update_columns and merge_exclude_columns
// together are an error (dbt raises it); merge columns on a strategy
// other than merge, predicates on append, and any of them on a node that
// is no incremental model are warned where they are written (dbt ignores
// them there).
func (m *Manifest) checkMergeConfig(c *Config, n *Node, at Position, bad func(Position, string, ...any)) {
	incremental := n.ResourceType == Model && c.Materialized == "incremental"
	if incremental && len(c.MergeUpdateColumns) > 0 && len(c.MergeExcludeColumns) > 0 {
		bad(at, "model %s cannot set both merge_update_columns and merge_exclude_columns: use one", n.Name)
	}
	for _, k := range []string{"incremental_predicates", "merge_exclude_columns", "merge_update_columns", "predicates"} {
		_, own := n.modelCfg[k]
		_, yml := n.ymlCfg[k]
		_, folder := n.folderCfg[k]
		preds := strings.HasSuffix(k, "predicates")
		if !(own || yml || folder) || incremental && (c.IncrementalStrategy == "merge" || preds && c.IncrementalStrategy == "delete+insert") {
			continue
		}
		uses := "merge"
		if preds {
			uses = "merge and delete+insert"
		}
		msg := fmt.Sprintf("config %s is not applied by incremental_strategy %q (%s uses it)", k, c.IncrementalStrategy, uses)
		if !incremental {
			what := c.Materialized + " model"
			if n.ResourceType != Model {
				what = n.ResourceType
			}
			msg = fmt.Sprintf("config %s is not applied to a %s (an incremental model's %s uses it)", k, what, uses)
		}
		for _, p := range m.configPlaces(n, k, at) {
			m.warn(p.path, p.at, "%s", msg)
		}
	}
}

// seedColumnTypes leaves out, with a warning where it is written, each
// column_types entry naming a column the seed's CSV header lacks (dbt
// ignores it; DuckDB's read_csv refuses the whole seed).
func (m *Manifest) seedColumnTypes(c *Config, n *Node, at Position) {
	if len(c.ColumnTypes) == 0 {
		return
	}
	data, err := m.readFile(n.Path)
	if err != nil {
		return // the load reports it
	}
	first, _, _ := strings.Cut(string(data), "\n")
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(first, "\ufeff")))
	if d := []rune(c.Delimiter); len(d) == 1 {
		r.Comma = d[0]
	}
	header, err := r.Read()
	if err != nil {
		return
	}
	have := map[string]bool{}
	for _, h := range header {
		have[strings.ToLower(strings.TrimSpace(h))] = true
	}
	for _, k := range SortedKeys(c.ColumnTypes) {
		if !have[strings.ToLower(k)] {
			delete(c.ColumnTypes, k)
			from, fat := m.configWhere(n, "column_types", at)
			m.warn(from, fat, "config column_types names %s, which seed %s does not have (columns: %s): not applied", k, n.Name, strings.Join(header, ", "))
		}
	}
}

// configValue is a config's value as written (a string quoted).
func configValue(v any) string {
	if str, isStr := v.(string); isStr {
		return fmt.Sprintf("%q", str)
	}
	return fmt.Sprint(v)
}
