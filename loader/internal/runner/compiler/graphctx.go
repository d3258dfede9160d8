package compiler

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// RunContext is what one invocation adds to the templates a run renders:
// selected_resources, and --empty (dbt 1.8: every ref and source reads
// no rows).
type RunContext struct {
	Selected []string // unique_ids the invocation runs (selected_resources)
	Empty    bool
	// Args are the invocation's flags as run_results.json's args and dbt's
	// invocation_args_dict have them (which, full_refresh, select, ...)
	Args map[string]any
}

// invocationArgs is dbt's invocation_args_dict of a run: its Args (which
// "compile" when a command gives none), full_refresh false unless set,
// and the --vars as a dict. It was an undefined name.
func (m *Manifest) invocationArgs() map[string]any {
	out := map[string]any{"which": "compile", "full_refresh": false, "vars": map[string]any{}}
	for k, v := range m.run.Args {
		out[k] = v
	}
	if len(m.cliVars) > 0 {
		out["vars"] = m.cliVars
	}
	return out
}

// ForRun is m as one run renders it (Execute calls it): templates that
// read graph or selected_resources see this run's (they render again at
// run time, as those that read the database); with Empty every model,
// snapshot and test compiles again, each ref and source a subquery of no
// rows. m is left as it is; a node that no longer compiles is an error.
func (m *Manifest) ForRun(r RunContext) (*Manifest, error) {
	c := *m
	c.run = &r
	if !r.Empty {
		return &c, nil
	}
	code, diags := c.compileAll()
	if len(diags) > 0 {
		return nil, &DiagnosticError{D: diags[0]}
	}
	return c.withCode(code), nil
}

// flatGraph is dbt's `graph` (Manifest.build_flat_graph: exposures,
// groups, metrics, nodes, sources, semantic_models, saved_queries), built
// once per manifest on first use.
type flatGraph struct {
	once sync.Once
	v    map[string]any
}

// FlatGraph is the Jinja `graph` at run time: every node, source,
// exposure, ... by unique_id, each as manifest.json has it (resource_type,
// name, package_name, config, depends_on, fqn, original_file_path,
// columns, ...), as plain maps and lists.
func (m *Manifest) FlatGraph() map[string]any {
	m.flat.once.Do(func() {
		doc := m.ManifestDoc()
		parts := map[string]any{"exposures": doc.Exposures, "groups": doc.Groups, "metrics": doc.Metrics, "nodes": doc.Nodes,
			"sources": doc.Sources, "semantic_models": doc.SemanticModels, "saved_queries": doc.SavedQueries}
		v, err := templateDoc(parts)
		if m.flat.v, _ = v.(map[string]any); err != nil || m.flat.v == nil {
			m.flat.v = map[string]any{}
		}
		graphNulls(m.flat.v)
	})
	return m.flat.v
}

// templateDoc is an artifact document (maps, lists, strings, numbers) as
// templates see it, by a JSON round trip: each map a plain map (a meta an
// ordered dict, graphValues), a whole number an int (meta: {n: 1} was
// 1.0), a float a float (2.0 is written "2.0", not "2"), a big int exact,
// a date or datetime (a YAML date in meta) itself (it crosses the round
// trip as a marker: it was its text).
func templateDoc(doc any) (any, error) {
	var times []any
	b, err := json.Marshal(timesMarked(floatsKept(reflect.ValueOf(doc)), &times))
	if err != nil {
		return nil, err
	}
	v, err := render.DecodeJSON(b)
	if err != nil {
		return nil, err
	}
	return graphValues(timesBack(v, times), false), nil
}

// graphValues is the graph's decoded JSON as templates see it: each
// object a plain map, as before, except a meta and what it holds, which
// keep dbt's order (an ordered dict: meta.keys(), meta.items(), tojson).
func graphValues(v any, inMeta bool) any {
	switch x := v.(type) {
	case *render.Mapping:
		if inMeta {
			return render.TemplateValue(x)
		}
		out := make(map[string]any, len(x.Vals))
		for k, e := range x.Vals {
			out[k] = graphValues(e, k == "meta" || k == "source_meta")
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = graphValues(e, inMeta)
		}
	}
	return v
}

// floatsKept is v for FlatGraph's JSON round trip: each float in its
// maps and lists a pyJSONFloat, which JSON writes with its point; other
// values unchanged (the maps and lists copied, v is not touched).
// json.Marshal writes float64(2) as 2, which read back as the int 2.
func floatsKept(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Kind() == reflect.Interface {
		return floatsKept(v.Elem())
	}
	if m, ok := v.Interface().(*render.Mapping); ok && m != nil {
		vals := make(map[string]any, len(m.Vals))
		for k, e := range m.Vals {
			vals[k] = floatsKept(reflect.ValueOf(e))
		}
		return render.OrderedJSON(m.Keys, vals) // Python's dict order
	}
	if _, ok := v.Interface().(json.Marshaler); ok {
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return pyJSONFloat(v.Float())
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return v.Interface()
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			out[it.Key().String()] = floatsKept(it.Value())
		}
		return out
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Interface()
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = floatsKept(v.Index(i))
		}
		return out
	}
	return v.Interface()
}

// pyJSONFloat is a float JSON writes as Python's repr would, with its
// point (2.0) or exponent; NaN and the infinities, which JSON cannot
// hold (they failed the whole graph), as null.
type pyJSONFloat float64

func (f pyJSONFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return []byte(s), nil
}

// graphValue is the Jinja `graph` of a render without a run (at parse):
// what dbt's parse sees, nothing (parseEmpty), and the node is marked to
// render again at run time with the flat graph (n.needsDB, as a node
// that reads the database). A run's render has FlatGraph itself.
type graphValue struct{ rc *renderCtx }

func (g *graphValue) mark() *parseEmpty {
	g.rc.needsDB = true
	return &parseEmpty{}
}

func (g *graphValue) GetAttribute(name string) (*exec.Value, bool) {
	return g.mark().GetAttribute(name)
}
func (g *graphValue) GetItem(key any) (*exec.Value, bool) { return g.mark().GetItem(key) }
func (g *graphValue) JinjaList() []any                    { return g.mark().JinjaList() }
func (g *graphValue) String() string                      { return g.mark().String() }

// parseEmpty is a value read at parse that dbt's parse leaves undefined
// and lenient: empty when iterated, counted, tested or printed; itself
// for any attribute or item; values(), items(), keys() give nothing and
// get(key, default) the default.
type parseEmpty struct{}

func (*parseEmpty) JinjaList() []any { return []any{} }
func (*parseEmpty) String() string   { return "" }

func (p *parseEmpty) GetItem(any) (*exec.Value, bool) { return exec.AsValue(p), true }

func (p *parseEmpty) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "values", "items", "keys":
		return exec.AsValue(render.Wrap(func(render.Args) (any, error) { return []any{}, nil })), true
	case "get":
		return exec.AsValue(render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) > 1 {
				return a.Pos[1], nil
			}
			return p, nil
		})), true
	}
	return exec.AsValue(p), true
}

// selectedResources is the Jinja selected_resources: the run's selected
// unique_ids; at parse an empty list that makes the node render again at
// run time.
type selectedResources struct{ rc *renderCtx }

func (s *selectedResources) JinjaList() []any {
	out := []any{}
	if s.rc.m.run == nil {
		s.rc.needsDB = true
		return out
	}
	for _, id := range s.rc.m.run.Selected {
		out = append(out, id)
	}
	return out
}

// timeMark is the key of the marker a date or datetime crosses
// FlatGraph's JSON round trip as: {"\x00docket_time": its index}.
const timeMark = "\x00docket_time"

// timesMarked is v (floatsKept's result) with each date and datetime a
// marker, the values appended to times.
func timesMarked(v any, times *[]any) any {
	switch x := v.(type) {
	case render.Date, render.Datetime, pyDatetime:
		*times = append(*times, x)
		return map[string]any{timeMark: len(*times) - 1}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = timesMarked(e, times)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = timesMarked(e, times)
		}
		return out
	}
	if o, ok := render.MapOrderedJSON(v, func(e any) any { return timesMarked(e, times) }); ok {
		return o
	}
	return v
}

// timesBack is the decoded graph with each marker its date or datetime
// again.
func timesBack(v any, times []any) any {
	switch x := v.(type) {
	case *render.Mapping:
		if len(x.Keys) == 1 && x.Keys[0] == timeMark {
			if i, err := strconv.Atoi(fmt.Sprint(x.Vals[timeMark])); err == nil && i >= 0 && i < len(times) {
				return times[i]
			}
		}
		for k, e := range x.Vals {
			x.Vals[k] = timesBack(e, times)
		}
	case []any:
		for i, e := range x {
			x[i] = timesBack(e, times)
		}
	}
	return v
}

// graphNulls gives the graph's nodes and sources the keys dbt's flat
// graph has as None when unset (to_dict(omit_none=False)) that docket's
// documents leave out: a node config's microbatch keys (event_time,
// batch_size, begin, concurrent_batches; lookback 1, dbt's default), a
// model's time_spine, a model's, seed's or snapshot's defer_relation, a
// source's external and loaded_at_query. `x == none` of one was False and
// `x is none` False, where dbt's are True.
func graphNulls(g map[string]any) {
	setNull := func(d map[string]any, keys ...string) {
		for _, k := range keys {
			if _, ok := d[k]; !ok {
				d[k] = nil
			}
		}
	}
	nodes, _ := g["nodes"].(map[string]any)
	for _, v := range nodes {
		d, _ := v.(map[string]any)
		if d == nil {
			continue
		}
		rt, _ := d["resource_type"].(string)
		if cfg, ok := d["config"].(map[string]any); ok && rt != Test {
			setNull(cfg, "event_time", "batch_size", "begin", "concurrent_batches")
			if _, ok := cfg["lookback"]; !ok {
				cfg["lookback"] = 1
			}
		}
		switch rt {
		case Model:
			setNull(d, "time_spine", "defer_relation")
		case Seed, Snapshot:
			setNull(d, "defer_relation")
		}
	}
	sources, _ := g["sources"].(map[string]any)
	for _, v := range sources {
		if d, ok := v.(map[string]any); ok {
			setNull(d, "external", "loaded_at_query")
		}
	}
}
