package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

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
	refPos      map[string]Position
	// Database-reading Jinja (dbjinja.go): db is the run's connection
	// (nil at parse); lenient renders with execute=false; needsDB is
	// set when the template called one of those functions
	db      *dbConn
	lenient bool
	needsDB bool
	calls   *render.Calls     // macros the render called, when recorded (macros.go)
	sites   []render.CallSite // the node's own ref/source/config calls (callPos)
	// compiled: every node is placed, so ref() and source() return the
	// relations they name (compile and run time, compile.go) and execute
	// is true unless lenient; false at parse, where ref() records the
	// dependency and returns a placeholder, as dbt parses.
	compiled bool
	// logs, when set, collects what log(info=True) and print() show
	// instead of showing it now (compilePass: a node's compiled render
	// shows them when the node runs, ShowCompileLogs)
	logs *[]string
	// varDepth counts var() values being rendered inside one another
	// (renderVar), so a var that names itself is an error, not a loop
	varDepth int
	// parsedRefs are the names the node's parse render ref'd: a compiled
	// render may ref no other (dbt's "unable to infer all dependencies");
	// nil when not checked.
	parsedRefs map[string]bool
	ctes       *cteSet // ephemeral models the compiled render ref'd (compile.go)
	// noRefs: ref() and source() are errors with this reason (a test's
	// where config, which dbt renders with var, env_var and target only)
	noRefs string
	// batch: the microbatch window this render is of (nil: none); refs
	// and sources with an event_time read only it (microbatch.go)
	batch *Batch
}

// banned is f, or an error naming rc.noRefs when it is set.
func (rc *renderCtx) banned(name string, f func(render.Args) (any, error)) func(render.Args) (any, error) {
	if rc.noRefs == "" {
		return f
	}
	return func(render.Args) (any, error) {
		return nil, &render.UserError{Msg: name + "() is not available in " + rc.noRefs}
	}
}

func (rc *renderCtx) vars() map[string]any {
	m, n := rc.m, rc.n
	p := m.Project
	ctx := map[string]any{
		"ref":    render.Wrap(rc.banned("ref", rc.ref)),
		"source": render.Wrap(rc.banned("source", rc.source)),
		"config": render.ConfigFunc(render.Wrap(func(a render.Args) (any, error) {
			if method, ok := a.Kw[render.ConfigMethod].(string); ok {
				return rc.configMethod(method, a)
			}
			for k, v := range a.Kw {
				if normKey(k) == "meta" {
					v = render.PyValue(a.RawKw[k]) // a dict keeps its order
				}
				mergeCfg(rc.cfg, normKey(k), v)
			}
			if len(a.Pos) == 1 {
				if mp, ok := a.Pos[0].(map[string]any); ok {
					ordered, _ := render.PyValue(a.Raw[0]).(*render.Mapping)
					for k, v := range mp {
						if normKey(k) == "meta" && ordered != nil {
							v = ordered.Vals[k] // a dict keeps its order
						}
						mergeCfg(rc.cfg, normKey(k), v)
					}
				}
			}
			return "", nil
		})),
		"var": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("var() needs a name")
			}
			name := fmt.Sprint(a.Pos[0])
			vars := m.Vars
			if n != nil {
				vars = m.varsFor(n.PackageName)
			}
			if v, ok := vars[name]; ok {
				return rc.renderVar(name, v)
			}
			if len(a.Pos) > 1 {
				return a.Raw[1].Interface(), nil // the default as written: a dict literal stays one (ordered)
			}
			return nil, fmt.Errorf("required var %q is not set in project.yaml vars or --vars", name)
		}),
		"env_var": render.EnvVar(render.LookupEnv, envVarNotSet),
		"is_incremental": render.DbtMacro("is_incremental", render.Wrap(func(render.Args) (any, error) {
			rc.usedIncr = true
			return rc.incremental, nil
		})),
		"log": render.Wrap(func(a render.Args) (any, error) {
			// dbt's log(msg, info=False): info=True shows msg to the user
			info := a.Kw["info"]
			if len(a.Pos) > 1 {
				info = a.Pos[1]
			}
			if b, _ := info.(bool); b && len(a.Pos) > 0 {
				rc.say(pyStrOf(a.Raw[0])) // dbt's str(msg)
			}
			return "", nil
		}),
		"this": render.Relation{Database: m.Database(), Schema: n.Schema, Identifier: n.Alias, Rendered: Relation(n.Schema, n.Alias)},
		// dbt.string_literal's: a relation as dbt-duckdb prints it
		"docket_dbt_name": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, nil
			}
			return m.dbtName(a.Pos[0]), nil
		}),
		"target": map[string]any{"name": m.Target().Name, "schema": m.Target().Schema, "type": "duckdb", "path": p.Warehouse,
			"database": m.Database(), "threads": p.Threads, "profile_name": m.Target().Profile, "target_name": m.Target().Name},
		"project_name": m.Name,
		"execute":      rc.compiled && !rc.lenient,
	}
	if _, own := m.env.Lookup("", "print"); !own {
		// dbt's print(msg) writes msg to stdout: here it is a message, as
		// log(msg, info=True), never dropped (a project's own print macro wins)
		ctx["print"] = render.Wrap(func(a render.Args) (any, error) {
			parts := make([]string, len(a.Pos))
			for i, v := range a.Raw {
				parts[i] = pyStrOf(v) // Python's print: str() of each
			}
			rc.say(strings.Join(parts, " "))
			return "", nil
		})
	}
	rc.dbFuncs(ctx)
	rc.contextModules(ctx)
	rc.nodeContext(ctx)
	if rc.calls != nil {
		ctx[render.CallsKey] = rc.calls
	}
	return ctx
}

// callPos is where the node's template calls fn with these trailing
// string arguments (callSite), 1:1 when it does not.
func (rc *renderCtx) callPos(fn string, args ...string) Position {
	at, _ := rc.callSite(fn, args...)
	return at
}

// callSite is where the node's template calls fn with these trailing
// string arguments (ref('pkg', 'a') matches "a"), from the template
// parser's nodes. own is false when the node has a template that does not
// write this call: it is inside a macro (or its arguments are not string
// literals), and the position is 1:1.
func (rc *renderCtx) callSite(fn string, args ...string) (at Position, own bool) {
	if rc.sites == nil {
		rc.sites = []render.CallSite{}
		if rc.n.tpl != nil {
			rc.sites = rc.n.tpl.CallSites("ref", "source", "config")
		}
	}
	for _, cs := range rc.sites {
		if cs.Name == fn && len(cs.Args) >= len(args) && slices.Equal(cs.Args[len(cs.Args)-len(args):], args) {
			return Position{cs.Line, cs.Col}, true
		}
	}
	return Position{1, 1}, rc.n.tpl == nil
}

func OffsetPos(src string, off int) Position {
	line := 1 + strings.Count(src[:off], "\n")
	col := off - strings.LastIndex(src[:off], "\n")
	return Position{line, col}
}

// parseNode parses a model, snapshot or singular test's template and
// renders it as dbt parses: execute is false, ref() and source() record
// the dependencies and return placeholders, config() is read. The SQL is
// rendered again once every node is placed (compileNode).
func (m *Manifest) parseNode(n *Node) []Diagnostic {
	tpl, err := m.env.Parse(n.Path, n.RawCode)
	if err != nil {
		re := err.(*render.Error)
		return []Diagnostic{{Path: n.Path, Line: re.Line, Col: re.Col, Msg: re.Msg}}
	}
	n.tpl = tpl
	tpl.Pkg = m.macroPkg(n.PackageName)
	n.calls = &render.Calls{}
	rc := &renderCtx{m: m, n: n, cfg: map[string]any{}, refPos: map[string]Position{}, lenient: true, calls: n.calls}
	if _, err := tpl.Render(rc.vars()); err != nil {
		re := err.(*render.Error)
		return append(rc.diags, Diagnostic{Path: n.Path, Line: re.Line, Col: re.Col, Msg: re.Msg})
	}
	n.needsDB = rc.needsDB
	n.modelCfg = rc.cfg
	n.usesIncr = rc.usedIncr
	n.refPos = rc.refPos
	n.ConfigPos = rc.callPos("config")
	seen := map[string]bool{}
	for _, r := range rc.refs {
		if k := "r" + strings.Join(r, "\x00"); !seen[k] {
			seen[k] = true
			n.Refs = append(n.Refs, r)
		}
	}
	for _, s := range rc.sources {
		if k := "s" + s[0] + "." + s[1]; !seen[k] {
			seen[k] = true
			n.Sources = append(n.Sources, s)
		}
	}
	m.warnSpacedJinja(n)
	return rc.diags
}

// dbtName is v as dbt-duckdb prints a relation, "database"."schema"."identifier",
// when v is a relation of this project's models, seeds, snapshots or sources
// (a Relation, or the name relation.render() gave): what dbt.string_literal
// writes into data, as dbt_utils.union_relations' source column, which dbt
// projects parse (split_part(_src, '.', 3)). docket's SQL names stay
// two-part (a view must open under any catalog name); anything else, an
// ephemeral model's CTE or an external location among them, is v unchanged.
// Known limit: render() gives a string, so a string written as text that
// equals a relation's two-part name ('m.a') is rewritten too, where dbt
// would print it as written.
func (m *Manifest) dbtName(v any) any {
	var schema, ident string
	switch r := v.(type) {
	case render.Relation:
		if r.CTE || r.Rendered != Relation(r.Schema, r.Identifier) {
			return r.Rendered
		}
		schema, ident = r.Schema, r.Identifier
	case string:
		n := m.nodeByRelation(r)
		if n == nil {
			return r
		}
		schema, ident = n.Schema, n.Alias
	default:
		return v
	}
	if schema == "" || ident == "" {
		return v
	}
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	return q(m.Database()) + "." + q(schema) + "." + q(ident)
}

// nodeByRelation is the model, seed, snapshot or source whose relation
// renders as rel, or nil.
func (m *Manifest) nodeByRelation(rel string) *Node {
	for _, set := range []map[string]*Node{m.Nodes, m.Sources} {
		for _, n := range set {
			if n.Relation == rel && n.Alias != "" && rel == Relation(n.Schema, n.Alias) {
				return n
			}
		}
	}
	return nil
}

// envVarNotSet is env_var's error for an unset variable without a default
// (models, macros and unit tests).
func envVarNotSet(name string) error { return fmt.Errorf("environment variable %q is not set", name) }

// say shows msg (log(info=True), print()) now, or keeps it for when the
// node runs (rc.logs).
func (rc *renderCtx) say(msg string) {
	switch {
	case rc.logs != nil:
		*rc.logs = append(*rc.logs, msg)
	case rc.m.log != nil:
		rc.m.log(msg)
	}
}

// renderVar is var(name)'s value v: a string holding Jinja is rendered
// with the caller's context, as dbt's Var.get_rendered_var does (vars:
// root: "{{ env_var('ROOT', 'data') }}" reads data); the result is text,
// as dbt's ('True', not a boolean). docket returned the Jinja as written.
func (rc *renderCtx) renderVar(name string, v any) (any, error) {
	s, ok := v.(string)
	if !ok || !strings.Contains(s, "{{") && !strings.Contains(s, "{%") {
		return v, nil
	}
	if rc.varDepth >= 8 {
		return nil, fmt.Errorf("var %q reads var() 8 deep in its Jinja (a var whose value names itself?)", name)
	}
	tpl, err := rc.m.env.Parse("var "+name, s)
	if err != nil {
		return nil, fmt.Errorf("var %q: %v", name, err)
	}
	// a context of its own (the caller's node, target, env_var, var): the
	// caller's would record this render's calls as the node's
	sub := &renderCtx{m: rc.m, n: rc.n, cfg: map[string]any{}, refPos: map[string]Position{}, compiled: rc.compiled,
		lenient: rc.lenient, db: rc.db, varDepth: rc.varDepth + 1}
	out, err := tpl.Render(sub.vars())
	if err != nil {
		return nil, fmt.Errorf("var %q: %v", name, err)
	}
	return out, nil
}
