package compiler

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// UnactedItem is one YAML resource docket keeps but does not act on, with
// the file it was read from.
type UnactedItem struct {
	Path string
	Item map[string]any
	at   Position // where the entry is written
}

// placedUnacted are the YAML keys whose entries manifest.json holds in
// their dbt places (the other unacted keys are read and reported only).
var placedUnacted = map[string]bool{"semantic_models": true, "metrics": true, "saved_queries": true,
	"exposures": true, "groups": true, "unit_tests": true, "macros": true}

// unactedDocs places the YAML resources docket keeps but does not act on
// (exposures, metrics, groups, semantic models, saved queries, unit
// tests) in their dbt places, in dbt's parsed shapes (a metric's
// `measure: x` becomes {name: x, ...}, a filter string a where_filters
// list). Fields whose YAML shape docket does not know are left out.
func (m *Manifest) unactedDocs(doc *ManifestJSON) {
	// semantic models first: metrics depend on the ones defining their measures
	kinds := sortedIDs(m.Unacted)
	sort.SliceStable(kinds, func(i, j int) bool { return kinds[i] == "semantic_models" && kinds[j] != "semantic_models" })
	for _, kind := range kinds {
		for _, it := range m.Unacted[kind] {
			name := ystrAny(it.Item["name"])
			if name == "" {
				continue
			}
			base := map[string]any{"name": name, "package_name": m.Name, "path": yamlResourcePath(it.Path),
				"original_file_path": it.Path}
			switch kind {
			case "exposures":
				m.exposureDoc(doc, base, it.Item)
			case "groups":
				id := "group." + m.Name + "." + name
				base["unique_id"], base["resource_type"] = id, "group"
				base["owner"], base["description"] = ownerDoc(it.Item["owner"]), strOrNilAny(it.Item["description"])
				base["config"] = map[string]any{"meta": mapAny(it.Item["meta"])}
				doc.Groups[id] = base
				doc.GroupMap[name] = []string{}
			case "unit_tests":
				m.unitTestDoc(doc, base, it.Item)
			case "semantic_models":
				m.semanticModelDoc(doc, base, it.Item)
			case "metrics":
				m.metricDoc(doc, base, it.Item)
			case "saved_queries":
				m.savedQueryDoc(doc, base, it.Item)
			}
		}
	}
}

// yamlResourcePath is dbt's `path` of a YAML resource: relative to its
// resource folder.
func yamlResourcePath(p string) string {
	if i := strings.Index(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

func ystrAny(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	default:
		return fmt.Sprint(x)
	}
}

func strOrNilAny(v any) any { return StrOrNil(ystrAny(v)) }

func mapAny(v any) map[string]any {
	if x, ok := v.(map[string]any); ok {
		return x
	}
	return map[string]any{}
}

func listAny(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	default:
		return []any{x}
	}
}

func strList(v any) []string {
	out := []string{}
	for _, x := range listAny(v) {
		if s := ystrAny(x); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func oneOf(v any, allowed []string, def any) any {
	s := ystrAny(v)
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	return def
}

func boolAny(v any) bool { b, _ := v.(bool); return b }

func intOrNil(v any) any {
	if i, ok := v.(int); ok {
		return i
	}
	return nil
}

var (
	refCallRe    = regexp.MustCompile(`^\s*ref\(\s*['"]([^'"]+)['"]\s*(?:,\s*['"]([^'"]+)['"]\s*)?\)\s*$`)
	sourceCallRe = regexp.MustCompile(`^\s*source\(\s*['"]([^'"]+)['"]\s*,\s*['"]([^'"]+)['"]\s*\)\s*$`)
)

// refDeps resolves "ref('x')" / "source('s', 't')" strings (or bare
// names) to refs, sources and node ids.
func (m *Manifest) refDeps(exprs []string) (refs []any, sources [][]string, nodes []string) {
	refs, sources, nodes = []any{}, [][]string{}, []string{}
	for _, e := range exprs {
		if g := sourceCallRe.FindStringSubmatch(e); g != nil {
			sources = append(sources, []string{g[1], g[2]})
			for id, s := range m.Sources {
				if s.SourceName == g[1] && s.Name == g[2] {
					nodes = append(nodes, id)
				}
			}
			continue
		}
		name, pkg := strings.TrimSpace(e), any(nil)
		if g := refCallRe.FindStringSubmatch(e); g != nil {
			name = g[1]
			if g[2] != "" {
				name, pkg = g[2], g[1]
			}
		}
		refs = append(refs, map[string]any{"name": name, "package": pkg, "version": nil})
		if n := m.byName[name]; n != nil {
			nodes = append(nodes, n.UniqueID)
		}
	}
	return refs, sources, nodes
}

func ownerDoc(v any) map[string]any {
	o := map[string]any{"name": nil, "email": nil}
	for k, x := range mapAny(v) {
		switch k {
		case "name":
			o["name"] = strOrNilAny(x)
		case "email":
			if l, ok := x.([]any); ok {
				o["email"] = strList(l)
			} else {
				o["email"] = strOrNilAny(x)
			}
		default:
			o[k] = x
		}
	}
	return o
}

func (m *Manifest) exposureDoc(doc *ManifestJSON, d map[string]any, y map[string]any) {
	id := "exposure." + m.Name + "." + d["name"].(string)
	refs, sources, nodes := m.refDeps(strList(y["depends_on"]))
	tags := strList(y["tags"])
	d["unique_id"], d["resource_type"], d["fqn"] = id, "exposure", []string{m.Name, d["name"].(string)}
	d["type"] = oneOf(y["type"], []string{"dashboard", "notebook", "analysis", "ml", "application"}, "application")
	d["owner"], d["description"], d["label"] = ownerDoc(y["owner"]), ystrAny(y["description"]), strOrNilAny(y["label"])
	d["maturity"] = oneOf(y["maturity"], []string{"low", "medium", "high"}, nil)
	d["meta"], d["tags"], d["url"] = mapAny(y["meta"]), tags, strOrNilAny(y["url"])
	d["config"] = map[string]any{"enabled": true, "tags": tags, "meta": mapAny(y["meta"])}
	d["unrendered_config"] = map[string]any{}
	d["depends_on"] = map[string]any{"macros": []string{}, "nodes": nodes}
	d["refs"], d["sources"], d["metrics"] = refs, sources, [][]string{}
	doc.Exposures[id] = d
}

// fixtureDoc is a unit test's given/expect entry.
func fixtureDoc(y map[string]any, input bool) map[string]any {
	f := map[string]any{"format": oneOf(y["format"], []string{"csv", "dict", "sql"}, "dict"), "fixture": strOrNilAny(y["fixture"])}
	switch r := y["rows"].(type) {
	case string:
		f["rows"] = r
	case []any:
		rows := []any{}
		for _, x := range r {
			rows = append(rows, mapAny(x))
		}
		f["rows"] = rows
	default:
		f["rows"] = nil
	}
	if input {
		f["input"] = ystrAny(y["input"])
	}
	return f
}

func (m *Manifest) unitTestDoc(doc *ManifestJSON, d map[string]any, y map[string]any) {
	model := ystrAny(y["model"])
	name := d["name"].(string)
	id := "unit_test." + m.Name + "." + model + "." + name
	given := []any{}
	for _, g := range listAny(y["given"]) {
		given = append(given, fixtureDoc(mapAny(g), true))
	}
	nodes := []string{}
	fqn := []string{m.Name, model, name}
	if n := m.byName[model]; n != nil {
		nodes = append(nodes, n.UniqueID)
		fqn = append(append([]string{}, n.FQN...), name)
	}
	d["unique_id"], d["resource_type"], d["fqn"], d["model"] = id, "unit_test", fqn, model
	d["given"], d["expect"] = given, fixtureDoc(mapAny(y["expect"]), false)
	d["description"] = ystrAny(y["description"])
	d["depends_on"] = map[string]any{"macros": []string{}, "nodes": nodes}
	cfg := mapAny(y["config"])
	d["config"] = map[string]any{"enabled": true, "tags": strList(cfg["tags"]), "meta": mapAny(cfg["meta"])}
	d["checksum"], d["schema"], d["versions"], d["version"] = nil, nil, nil, nil
	if o, ok := y["overrides"].(map[string]any); ok {
		d["overrides"] = map[string]any{"macros": mapAny(o["macros"]), "vars": mapAny(o["vars"]), "env_vars": mapAny(o["env_vars"])}
	}
	doc.UnitTests[id] = d
}

var granularities = []string{"nanosecond", "microsecond", "millisecond", "second", "minute", "hour", "day", "week", "month", "quarter", "year"}

var aggs = []string{"sum", "min", "max", "count_distinct", "sum_boolean", "average", "percentile", "median", "count"}

func (m *Manifest) semanticModelDoc(doc *ManifestJSON, d map[string]any, y map[string]any) {
	name := d["name"].(string)
	id := "semantic_model." + m.Name + "." + name
	model := ystrAny(y["model"])
	refs, _, nodes := m.refDeps([]string{model})
	d["unique_id"], d["resource_type"], d["fqn"], d["model"] = id, "semantic_model", []string{m.Name, name}, model
	d["node_relation"] = nil
	if len(nodes) == 1 {
		if n := m.Nodes[nodes[0]]; n != nil {
			d["node_relation"] = map[string]any{"alias": n.Alias, "schema_name": n.Schema, "database": StrOrNil(n.Database),
				"relation_name": StrOrNil(n.Relation)}
		}
	}
	d["description"], d["label"] = strOrNilAny(y["description"]), strOrNilAny(y["label"])
	d["defaults"] = nil
	if df, ok := y["defaults"].(map[string]any); ok {
		d["defaults"] = map[string]any{"agg_time_dimension": strOrNilAny(df["agg_time_dimension"])}
	}
	entities := []any{}
	for _, x := range listAny(y["entities"]) {
		e := mapAny(x)
		entities = append(entities, map[string]any{"name": ystrAny(e["name"]),
			"type":        oneOf(e["type"], []string{"foreign", "natural", "primary", "unique"}, "natural"),
			"description": strOrNilAny(e["description"]), "label": strOrNilAny(e["label"]), "role": strOrNilAny(e["role"]),
			"expr": strOrNilAny(e["expr"]), "config": nil})
	}
	measures := []any{}
	for _, x := range listAny(y["measures"]) {
		e := mapAny(x)
		ms := map[string]any{"name": ystrAny(e["name"]), "agg": oneOf(e["agg"], aggs, "sum"),
			"description": strOrNilAny(e["description"]), "label": strOrNilAny(e["label"]),
			"create_metric": boolAny(e["create_metric"]), "expr": strOrNilAny(e["expr"]), "agg_params": nil,
			"non_additive_dimension": nil, "agg_time_dimension": strOrNilAny(e["agg_time_dimension"]), "config": nil}
		if p, ok := e["agg_params"].(map[string]any); ok {
			ap := map[string]any{"percentile": nil, "use_discrete_percentile": boolAny(p["use_discrete_percentile"]),
				"use_approximate_percentile": boolAny(p["use_approximate_percentile"])}
			switch v := p["percentile"].(type) {
			case float64, int:
				ap["percentile"] = v
			}
			ms["agg_params"] = ap
		}
		if p, ok := e["non_additive_dimension"].(map[string]any); ok {
			ms["non_additive_dimension"] = map[string]any{"name": ystrAny(p["name"]),
				"window_choice": oneOf(p["window_choice"], aggs, "min"), "window_groupings": strList(p["window_groupings"])}
		}
		measures = append(measures, ms)
	}
	dims := []any{}
	for _, x := range listAny(y["dimensions"]) {
		e := mapAny(x)
		dm := map[string]any{"name": ystrAny(e["name"]), "type": oneOf(e["type"], []string{"categorical", "time"}, "categorical"),
			"description": strOrNilAny(e["description"]), "label": strOrNilAny(e["label"]),
			"is_partition": boolAny(e["is_partition"]), "type_params": nil, "expr": strOrNilAny(e["expr"]),
			"metadata": nil, "config": nil}
		if tp, ok := e["type_params"].(map[string]any); ok {
			if g := oneOf(tp["time_granularity"], granularities, nil); g != nil {
				p := map[string]any{"time_granularity": g, "validity_params": nil}
				if vp, ok := tp["validity_params"].(map[string]any); ok {
					p["validity_params"] = map[string]any{"is_start": boolAny(vp["is_start"]), "is_end": boolAny(vp["is_end"])}
				}
				dm["type_params"] = p
			}
		}
		dims = append(dims, dm)
	}
	d["entities"], d["measures"], d["dimensions"], d["metadata"] = entities, measures, dims, nil
	d["depends_on"] = map[string]any{"macros": []string{}, "nodes": nodes}
	d["refs"], d["primary_entity"], d["group"] = refs, strOrNilAny(y["primary_entity"]), strOrNilAny(y["group"])
	d["config"] = map[string]any{"enabled": true, "group": strOrNilAny(y["group"]), "meta": mapAny(y["meta"])}
	d["unrendered_config"] = map[string]any{}
	doc.SemanticModels[id] = d
}

// whereDoc turns a filter (a string or a list of them) into dbt's
// WhereFilterIntersection.
func whereDoc(v any) any {
	fs := strList(v)
	if len(fs) == 0 {
		return nil
	}
	out := []any{}
	for _, f := range fs {
		out = append(out, map[string]any{"where_sql_template": f})
	}
	return map[string]any{"where_filters": out}
}

var windowRe = regexp.MustCompile(`^\s*(\d+)\s+([a-z_]+?)s?\s*$`)

// windowDoc parses "7 days" into {count: 7, granularity: day}.
func windowDoc(v any) any {
	g := windowRe.FindStringSubmatch(ystrAny(v))
	if g == nil {
		return nil
	}
	n, _ := strconv.Atoi(g[1])
	return map[string]any{"count": n, "granularity": g[2]}
}

func measureInput(v any) any {
	if v == nil {
		return nil
	}
	e, ok := v.(map[string]any)
	if !ok {
		return map[string]any{"name": ystrAny(v), "filter": nil, "alias": nil, "join_to_timespine": false, "fill_nulls_with": nil}
	}
	return map[string]any{"name": ystrAny(e["name"]), "filter": whereDoc(e["filter"]), "alias": strOrNilAny(e["alias"]),
		"join_to_timespine": boolAny(e["join_to_timespine"]), "fill_nulls_with": intOrNil(e["fill_nulls_with"])}
}

func metricInput(v any) any {
	if v == nil {
		return nil
	}
	e, ok := v.(map[string]any)
	if !ok {
		return map[string]any{"name": ystrAny(v), "filter": nil, "alias": nil, "offset_window": nil, "offset_to_grain": nil}
	}
	return map[string]any{"name": ystrAny(e["name"]), "filter": whereDoc(e["filter"]), "alias": strOrNilAny(e["alias"]),
		"offset_window": windowDoc(e["offset_window"]), "offset_to_grain": strOrNilAny(e["offset_to_grain"])}
}

func (m *Manifest) metricDoc(doc *ManifestJSON, d map[string]any, y map[string]any) {
	name := d["name"].(string)
	id := "metric." + m.Name + "." + name
	tp := mapAny(y["type_params"])
	p := map[string]any{"measure": measureInput(tp["measure"]), "input_measures": []any{},
		"numerator": metricInput(tp["numerator"]), "denominator": metricInput(tp["denominator"]),
		"expr": strOrNilAny(tp["expr"]), "window": windowDoc(tp["window"]),
		"grain_to_date": oneOf(tp["grain_to_date"], granularities, nil), "metrics": nil,
		"conversion_type_params": nil, "cumulative_type_params": nil, "join_to_timespine": boolAny(tp["join_to_timespine"]),
		"fill_nulls_with": intOrNil(tp["fill_nulls_with"])}
	if mi := p["measure"]; mi != nil {
		p["input_measures"] = []any{mi}
	}
	if ms, ok := tp["metrics"].([]any); ok {
		l := []any{}
		for _, x := range ms {
			l = append(l, metricInput(x))
		}
		p["metrics"] = l
	}
	if c, ok := tp["conversion_type_params"].(map[string]any); ok {
		p["conversion_type_params"] = map[string]any{"entity": ystrAny(c["entity"]),
			"base_measure": measureInput(c["base_measure"]), "conversion_measure": measureInput(c["conversion_measure"]),
			"calculation": oneOf(c["calculation"], []string{"conversions", "conversion_rate"}, "conversion_rate"),
			"window":      windowDoc(c["window"])}
	}
	if c, ok := tp["cumulative_type_params"].(map[string]any); ok {
		p["cumulative_type_params"] = map[string]any{"window": windowDoc(c["window"]),
			"grain_to_date": strOrNilAny(c["grain_to_date"]),
			"period_agg":    oneOf(c["period_agg"], []string{"first", "last", "average"}, "first")}
	}
	label := ystrAny(y["label"])
	if label == "" {
		label = name
	}
	d["unique_id"], d["resource_type"], d["fqn"] = id, "metric", []string{m.Name, name}
	d["description"], d["label"] = ystrAny(y["description"]), label
	d["type"] = oneOf(y["type"], []string{"simple", "ratio", "cumulative", "derived", "conversion"}, "simple")
	d["type_params"], d["filter"], d["metadata"] = p, whereDoc(y["filter"]), nil
	d["time_granularity"] = strOrNilAny(y["time_granularity"])
	d["config"] = map[string]any{"enabled": true, "group": strOrNilAny(y["group"]), "meta": mapAny(y["meta"])}
	// depends on the semantic models defining its measures and on its input metrics
	nodes, metrics := []string{}, [][]string{}
	seen := map[string]bool{}
	addNode := func(id string) {
		if !seen[id] {
			seen[id] = true
			nodes = append(nodes, id)
		}
	}
	measures := []any{p["measure"]}
	if c, ok := p["conversion_type_params"].(map[string]any); ok {
		measures = append(measures, c["base_measure"], c["conversion_measure"])
	}
	for _, x := range measures {
		if mi, ok := x.(map[string]any); ok {
			for _, smID := range sortedIDs(doc.SemanticModels) {
				for _, ms := range doc.SemanticModels[smID]["measures"].([]any) {
					if ms.(map[string]any)["name"] == mi["name"] {
						addNode(smID)
					}
				}
			}
		}
	}
	inputs := []any{p["numerator"], p["denominator"]}
	if l, ok := p["metrics"].([]any); ok {
		inputs = append(inputs, l...)
	}
	for _, x := range inputs {
		if mi, ok := x.(map[string]any); ok {
			metrics = append(metrics, []string{mi["name"].(string)})
			addNode("metric." + m.Name + "." + mi["name"].(string))
		}
	}
	d["unrendered_config"], d["sources"], d["refs"], d["metrics"] = map[string]any{}, [][]string{}, []any{}, metrics
	d["depends_on"] = map[string]any{"macros": []string{}, "nodes": nodes}
	d["group"], d["meta"], d["tags"] = strOrNilAny(y["group"]), mapAny(y["meta"]), strList(y["tags"])
	doc.Metrics[id] = d
}

func (m *Manifest) savedQueryDoc(doc *ManifestJSON, d map[string]any, y map[string]any) {
	name := d["name"].(string)
	id := "saved_query." + m.Name + "." + name
	qp := mapAny(y["query_params"])
	exports := []any{}
	for _, x := range listAny(y["exports"]) {
		e := mapAny(x)
		c := mapAny(e["config"])
		schema := c["schema_name"]
		if schema == nil {
			schema = c["schema"]
		}
		exports = append(exports, map[string]any{"name": ystrAny(e["name"]),
			"config": map[string]any{"export_as": oneOf(c["export_as"], []string{"table", "view"}, "table"),
				"schema_name": strOrNilAny(schema), "alias": strOrNilAny(c["alias"]), "database": strOrNilAny(c["database"])},
			"unrendered_config": map[string]any{}})
	}
	metrics := strList(qp["metrics"])
	nodes := []string{}
	for _, mt := range metrics {
		nodes = append(nodes, "metric."+m.Name+"."+mt)
	}
	d["unique_id"], d["resource_type"], d["fqn"] = id, "saved_query", []string{m.Name, name}
	d["query_params"] = map[string]any{"metrics": metrics, "group_by": strList(qp["group_by"]),
		"where": whereDoc(qp["where"]), "order_by": strList(qp["order_by"]), "limit": intOrNil(qp["limit"])}
	d["exports"], d["description"], d["label"] = exports, strOrNilAny(y["description"]), strOrNilAny(y["label"])
	d["metadata"], d["unrendered_config"], d["group"] = nil, map[string]any{}, strOrNilAny(y["group"])
	d["config"] = map[string]any{"enabled": true, "group": strOrNilAny(y["group"]), "meta": mapAny(y["meta"])}
	d["depends_on"] = map[string]any{"macros": []string{}, "nodes": nodes}
	d["refs"], d["tags"] = []any{}, strList(y["tags"])
	doc.SavedQueries[id] = d
}
