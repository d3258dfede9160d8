package executor

import (
	"encoding/json"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// volatileFuncs read state outside the tables: a model calling one always
// runs. The clock and random numbers are not inputs: a model stamping rows
// with now() is up to date when its inputs are (--force runs it).
var volatileFuncs = map[string]bool{"nextval": true, "currval": true, "getenv": true, "current_setting": true}

// clockFuncs are the clock and random numbers: a snapshot reading one
// always runs, as its every run in dbt may record new versions (a
// timestamp snapshot whose updated_at is current_timestamp records every
// row again). clockWords are those DuckDB parses as a column name
// (current_timestamp without parentheses).
var clockFuncs = map[string]bool{"now": true, "get_current_timestamp": true, "transaction_timestamp": true, "current_localtimestamp": true,
	"get_current_time": true, "today": true, "random": true, "uuid": true, "gen_random_uuid": true, "uuidv4": true, "uuidv7": true}
var clockWords = map[string]bool{"current_timestamp": true, "current_date": true, "current_time": true, "localtimestamp": true, "localtime": true}

// pureTableFuncs compute rows from their arguments only; any other table
// function (read_csv, read_parquet, glob, a table macro, ...) may read
// what the runner does not version, so its reader always runs.
var pureTableFuncs = map[string]bool{"unnest": true, "range": true, "generate_series": true, "json_each": true,
	"json_tree": true, "generate_subscripts": true, "repeat_row": true}

// namesOnlyKnown checks, with DuckDB's parser, that every schema-qualified
// table the compiled SQL reads is one of the node's inputs or a loader
// table (a table named without ref or source has no data version), that
// it reads no file through a table function and calls no function that
// reads sequences, settings or the environment (a snapshot: nor the
// clock or random numbers).
func (x *nodeExec) namesOnlyKnown() bool {
	snap := x.n.ResourceType == compiler.Snapshot
	var raw string
	if err := x.c.QueryRowContext(x.ctx, "select json_serialize_sql(?::varchar)::varchar", sqlBody(x.n.CompiledCode)).Scan(&raw); err != nil {
		return false
	}
	var tree any
	if json.Unmarshal([]byte(raw), &tree) != nil || isErrorTree(tree) {
		return false
	}
	known := map[string]bool{}
	var add func(n *compiler.Node)
	seen := map[string]bool{}
	add = func(n *compiler.Node) {
		for _, p := range n.DependsOn.Nodes {
			if seen[p] {
				continue
			}
			seen[p] = true
			pn := x.m.Node(p)
			if pn == nil {
				continue
			}
			name := pn.Alias
			if pn.ResourceType == compiler.Source && pn.Identifier != "" {
				name = pn.Identifier
			}
			known[strings.ToLower(pn.Schema+"."+name)] = true
			if pn.ResourceType == compiler.Model && pn.Config.Materialized == "ephemeral" {
				add(pn)
			}
		}
	}
	add(x.n)
	ctes := map[string]bool{}
	cteNames(tree, ctes)
	ok := true
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if t["type"] == "TABLE_FUNCTION" && !pureTableFunction(t["function"]) {
				ok = false // read_csv('...'), read_parquet, ...: files the runner does not version
			}
			if t["class"] == "FUNCTION" {
				if name, _ := t["function_name"].(string); volatileFuncs[strings.ToLower(name)] || snap && clockFuncs[strings.ToLower(name)] {
					ok = false
				}
			}
			if snap && t["class"] == "COLUMN_REF" {
				if names, _ := t["column_names"].([]any); len(names) == 1 {
					if name, _ := names[0].(string); clockWords[strings.ToLower(name)] {
						ok = false
					}
				}
			}
			if t["type"] == "BASE_TABLE" {
				catalog, _ := t["catalog_name"].(string)
				schema, _ := t["schema_name"].(string)
				table, _ := t["table_name"].(string)
				key := strings.ToLower(schema + "." + table)
				switch {
				case schema == "" && catalog == "":
					// a CTE's name, or a table of the default schema that
					// is neither ref nor source (from people_raw): no
					// data version, the node always runs (it was taken
					// for a CTE: "up to date" after the table changed)
					if !ctes[strings.ToLower(table)] {
						ok = false
					}
				case !known[key] && x.st.loaderTable(key) == "" && !tempCatalog(catalog, schema):
					ok = false
				}
			}
			for _, v := range t {
				walk(v)
			}
		case []any:
			for _, v := range t {
				walk(v)
			}
		}
	}
	walk(tree)
	return ok
}

// tempCatalog tells a table of DuckDB's temp catalog (temp.x,
// temp.main.x): scratch made on the node's connection by its own hooks
// (noteHook: no data change) from what they read, e.g. a full build's
// pre-hook computing once what every batch of the model reads.
func tempCatalog(catalog, schema string) bool {
	return strings.EqualFold(catalog, "temp") || catalog == "" && strings.EqualFold(schema, "temp")
}

// cteNames adds to out the names of the CTEs the parsed statement v
// defines (each cte_map's keys, at any depth: an ephemeral model's
// __dbt__cte__ too), lower-cased.
func cteNames(v any, out map[string]bool) {
	switch t := v.(type) {
	case map[string]any:
		if cm, ok := t["cte_map"].(map[string]any); ok {
			entries, _ := cm["map"].([]any)
			for _, e := range entries {
				if em, ok := e.(map[string]any); ok {
					if k, ok := em["key"].(string); ok {
						out[strings.ToLower(k)] = true
					}
				}
			}
		}
		for _, e := range t {
			cteNames(e, out)
		}
	case []any:
		for _, e := range t {
			cteNames(e, out)
		}
	}
}
