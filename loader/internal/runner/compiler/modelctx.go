package compiler

import (
	"strings"
	"sync"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// deferredModel is the context's `model`, built on its first read
// (exec.Deferred): a generic test's render, or a model's that does not
// read it, does not build it.
type deferredModel struct {
	once  sync.Once
	build func() map[string]any
	v     map[string]any
}

func (d *deferredModel) Value() any {
	d.once.Do(func() { d.v = d.build() })
	return d.v
}

// modelValue is dbt's `model` in a node's context (ModelContext's
// model: the node's to_dict(omit_none=True)): the node as the graph has
// it (NodeDoc: its config with meta, docs, contract, ...; columns,
// depends_on, refs, sources, meta, checksum) without its null keys, so
// an unset one is undefined as in dbt (” printed, `is defined` false);
// the config's custom keys (config(), schema YAML, dbt_project.yml) are
// in its config, as dbt's config extras. database, schema and alias are
// where the node builds. It was a cut-down map: model.config.meta,
// model.columns, model.depends_on, ... failed ("Can't use Getitem on
// None") even when the YAML set them.
func (rc *renderCtx) modelValue(db, schema, alias string) map[string]any {
	m, n := rc.m, rc.n
	var d map[string]any
	if n.ResourceType == Source {
		d = m.sourceDoc(n)
	} else {
		d = m.NodeDoc(n)
	}
	// the code is a string as it is: it need not cross the round trip
	raw, compiled := d["raw_code"], d["compiled_code"]
	delete(d, "raw_code")
	delete(d, "compiled_code")
	v, err := templateDoc(d)
	out, _ := v.(map[string]any)
	if err != nil || out == nil {
		out = map[string]any{"name": n.Name, "unique_id": n.UniqueID, "resource_type": n.ResourceType,
			"package_name": n.PackageName, "config": map[string]any{}}
	}
	omitNone(out)
	if raw != nil {
		out["raw_code"] = raw
	}
	if compiled != nil {
		out["compiled_code"] = compiled
	}
	out["database"], out["schema"], out["alias"], out["identifier"] = db, schema, alias, alias
	if cfg, ok := out["config"].(map[string]any); ok {
		if !rc.compiled {
			// the parse render's node has no config yet (it is resolved
			// after): its meta is the one set so far, which a render
			// may read deeper (model.config.meta.a.b, as dbt's parse)
			meta := map[string]any{}
			for _, src := range []map[string]any{rc.n.folderCfg, rc.n.ymlCfg, rc.cfg} {
				if v, ok := src["meta"]; ok {
					mergeCfg(meta, "meta", v)
				}
			}
			if v, ok := meta["meta"]; ok {
				cfg["meta"], out["meta"] = render.TemplateValue(v), render.TemplateValue(v)
			}
		}
		rc.configExtras(cfg)
	}
	return out
}

// configExtras adds to cfg (a node's config as the graph has it) the
// config keys it does not have, as set for the node: its dbt_project.yml
// folders, then its YAML, then its config() calls so far.
func (rc *renderCtx) configExtras(cfg map[string]any) {
	for _, src := range []map[string]any{rc.n.folderCfg, rc.n.ymlCfg, rc.cfg} {
		for k, v := range src {
			if _, ok := cfg[k]; ok || k == "pre_hook" || k == "post_hook" {
				continue
			}
			if _, ok := cfg[strings.ReplaceAll(k, "_", "-")]; ok || v == nil {
				continue
			}
			cfg[k] = render.TemplateValue(v)
		}
	}
}

// omitNone removes the null keys of d and of the maps and lists in it, as
// dbt's to_dict(omit_none=True) leaves out a None field; a meta or a
// test's kwargs, which are dicts, not fields, keep theirs.
func omitNone(d any) {
	switch x := d.(type) {
	case map[string]any:
		for k, v := range x {
			switch {
			case v == nil:
				delete(x, k)
			case k != "meta" && k != "source_meta" && k != "kwargs":
				omitNone(v)
			}
		}
	case []any:
		for _, e := range x {
			omitNone(e)
		}
	}
}
