package compiler

import (
	"crypto/md5"
	"fmt"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// nodeContext adds dbt's per-node and per-invocation context members:
// database and schema (where the node builds), model (the node as a
// mapping), invocation_id, run_started_at and dbt_version.
func (rc *renderCtx) nodeContext(ctx map[string]any) {
	m, n := rc.m, rc.n
	db, schema := n.Database, n.Schema
	if db == "" {
		db = m.Database()
	}
	if schema == "" || n.ResourceType == Snapshot {
		// a snapshot's config (target_schema=schema) is read from this
		schema = m.Target().Schema
	}
	ctx["database"], ctx["schema"] = db, schema
	ctx["run_started_at"] = render.Datetime{T: m.started}
	ctx["invocation_id"] = m.InvocationID()
	ctx["dbt_version"] = DbtVersion
	// invocation_args_dict: as the graph, a render at parse renders again
	// at run time, with the run's
	ctx["graph"], ctx["selected_resources"], ctx["invocation_args_dict"] = &graphValue{rc}, &selectedResources{rc}, &graphValue{rc}
	if m.run != nil {
		ctx["graph"], ctx["invocation_args_dict"] = m.FlatGraph(), m.invocationArgs()
	}
	alias := n.Alias
	if alias == "" {
		alias = n.Name
	}
	// built when a template first reads it (most never do)
	ctx["model"] = &deferredModel{build: func() map[string]any {
		model := rc.modelValue(db, schema, alias)
		if rc.batch != nil {
			model["batch"] = batchValue(rc.batch)
		} else {
			// outside a batch dbt has None: its members read as none here
			model["batch"] = map[string]any{"id": nil, "event_time_start": nil, "event_time_end": nil}
		}
		return model
	}}
}

// DbtVersion is the dbt-core version whose behaviour and artifacts
// (manifest v12, run_results v6) docket follows: templates read it as
// dbt_version, and manifest.json's metadata carries it.
const DbtVersion = "1.8.0"

// InvocationID is the invocation_id templates see: run_results.json and
// manifest.json carry it so tools join what a template wrote with them.
func (m *Manifest) InvocationID() string { return invocationID(m.started) }

// StartedAt is run_started_at of this invocation (when Parse began).
func (m *Manifest) StartedAt() time.Time { return m.started }

// invocationID is a UUID-shaped id of one docket invocation, from its
// start time (dbt's invocation_id is a UUID4).
func invocationID(t time.Time) string {
	x := fmt.Sprintf("%x", md5.Sum([]byte(t.Format(time.RFC3339Nano))))
	return x[:8] + "-" + x[8:12] + "-4" + x[13:16] + "-8" + x[17:20] + "-" + x[20:32]
}

// configMethod is config.get / require / set / meta_get / meta_require:
// a key is looked up in the node's config() calls so far, then its YAML,
// then its dbt_project.yml folders (dbt's order); set merges like config().
func (rc *renderCtx) configMethod(method string, a render.Args) (any, error) {
	arg := func(i int, kw string) any {
		if i < len(a.Pos) {
			return a.Pos[i]
		}
		return a.Kw[kw]
	}
	key := normKey(fmt.Sprint(arg(0, "name")))
	lookup := func(key string) (any, bool) {
		for _, src := range []map[string]any{rc.cfg, rc.n.ymlCfg, rc.n.folderCfg} {
			if v, ok := src[key]; ok {
				return v, true
			}
		}
		if key == "materialized" && rc.n.ResourceType == Model {
			return "view", true // dbt's default
		}
		return nil, false
	}
	switch method {
	case "set":
		mergeCfg(rc.cfg, key, arg(1, "value"))
		return "", nil
	case "get", "require":
		if v, ok := lookup(key); ok {
			return v, nil
		}
		if method == "require" {
			return nil, fmt.Errorf("config %q is required but not set for %s", key, rc.n.Name)
		}
		return arg(1, "default"), nil
	case "meta_get", "meta_require":
		meta, _ := lookup("meta")
		name := fmt.Sprint(arg(0, "name"))
		if mm, ok := render.StringKeyed(meta); ok {
			if v, ok := mm[name]; ok {
				return v, nil
			}
		}
		if method == "meta_require" {
			return nil, fmt.Errorf("meta %q is required but not set for %s", arg(0, "name"), rc.n.Name)
		}
		return arg(1, "default"), nil
	case "persist_relation_docs", "persist_column_docs":
		v, _ := lookup("persist_docs")
		if pd := persistDocs(v, func() {}); pd != nil {
			return (method == "persist_relation_docs" && pd.Relation) || (method == "persist_column_docs" && pd.Columns), nil
		}
	}
	return false, nil
}
