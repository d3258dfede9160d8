package compiler

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// Compiling renders each node a second time, as dbt does: the parse
// render (parseNode) has execute false and its ref() records the
// dependency and returns a placeholder; once every node is placed (its
// database, schema and alias final) and the graph is built, the template
// renders again with execute true and ref()/source() return the
// relations they name. Every ref and source goes through relation.

// relation is the Relation a ref() or source() of t returns once every
// node is placed: t's database, schema and identifier, rendered as t's
// quoted name, as the relation of a previous run under Defer, and as its
// CTE name (__dbt__cte__<name>) for an ephemeral model.
func (m *Manifest) relation(t *Node) render.Relation {
	if t.ResourceType == Model && t.Config.Materialized == "ephemeral" {
		cte := "__dbt__cte__" + t.Name
		return render.Relation{Identifier: cte, Rendered: cte, Type: "cte", CTE: true}
	}
	r := render.Relation{Database: t.Database, Schema: t.Schema, Identifier: t.Alias, Rendered: t.Relation, Type: relKind(t)}
	if d, ok := m.deferred[t.UniqueID]; ok {
		r.Database, r.Schema, r.Identifier, r.Rendered = cmp.Or(d.Database, r.Database), d.Schema, d.Identifier, d.Rendered
	}
	if m.run != nil && m.run.Empty {
		// dbt 1.8's --empty: a subquery of no rows, without an alias as
		// dbt-duckdb renders it (so `{{ ref('x') }} as x` stays valid)
		r.Rendered = "(select * from " + r.Rendered + " where false limit 0)"
	}
	return r
}

// placeholder is what ref() returns at parse: t where it is placed so far.
func placeholder(t *Node) render.Relation {
	return render.Relation{Database: t.Database, Schema: t.Schema, Identifier: t.Alias, Rendered: t.Relation, Type: relKind(t)}
}

// ref is dbt's ref(['package',] name[, v=N | version=N]).
func (rc *renderCtx) ref(a render.Args) (any, error) {
	if len(a.Pos) == 0 {
		return nil, fmt.Errorf("ref() needs a model name")
	}
	m, n := rc.m, rc.n
	name := fmt.Sprint(a.Pos[len(a.Pos)-1])
	key := name
	if v, ok := refVersion(a); ok {
		key = versionKey(name, v)
	}
	pkg := ""
	if len(a.Pos) > 1 {
		pkg = fmt.Sprint(a.Pos[0])
		rc.refs = append(rc.refs, []string{pkg, key})
	} else {
		rc.refs = append(rc.refs, []string{key})
	}
	t := m.findRef(pkg, key, n)
	at, seen := rc.refPos[key]
	own := true
	if !seen && (t == nil || !rc.compiled) {
		// placed for the graph's messages at parse; when compiled, only
		// a mistake needs it (the template walk is not free)
		at, own = rc.callSite("ref", name)
		rc.refPos[key] = at
		if t != nil && own && !rc.compiled && t.DeprecationDate != "" {
			m.warnDeprecatedRef(n, t, at)
		}
	}
	if t == nil {
		msg := m.unknownRef(name, key)
		if pkg != "" {
			msg = m.packageRef(pkg, name, key)
		}
		if !own {
			// written in a macro: the render error names the macro's
			// file and line
			return nil, &render.UserError{Msg: msg}
		}
		rc.diags = append(rc.diags, Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col, Msg: msg})
		return render.Relation{Identifier: name, Rendered: Quote(name)}, nil
	}
	if !rc.compiled {
		return placeholder(t), nil
	}
	if rc.parsedRefs != nil && !rc.parsedRefs[key] {
		return nil, &render.UserError{Msg: fmt.Sprintf("ref(%q) is called only when execute or is_incremental() is true, so parsing did not see it and "+
			"the graph does not order it (as dbt: add -- depends_on: {{ ref(%q) }} to the file)", name, name)}
	}
	return rc.relationOf(t), nil
}

// refVersion is the version a ref pins (v=N or version=N).
func refVersion(a render.Args) (string, bool) {
	v, ok := a.Kw["v"]
	if !ok {
		v, ok = a.Kw["version"]
	}
	if !ok || v == nil {
		return "", false
	}
	return verStr(v), true
}

// unknownRef says why a ref key names no model or seed.
func (m *Manifest) unknownRef(name, key string) string {
	if _, v := splitRefKey(key); v != "" {
		return fmt.Sprintf("ref(%q, v=%s): %s", name, v, m.unknownRefReason(name, key))
	}
	return fmt.Sprintf("ref(%q): %s", name, m.unknownRefReason(name, key))
}

// unknownRefReason is unknownRef without the call.
func (m *Manifest) unknownRefReason(name, key string) string {
	if _, v := splitRefKey(key); v != "" {
		if vs := m.versionsOf(name); len(vs) > 0 {
			return fmt.Sprintf("model %s has no version %s (versions: %s)", name, v, strings.Join(vs, ", "))
		}
		if m.byName[name] != nil {
			return fmt.Sprintf("%s has no versions (versions: in its YAML entry)", name)
		}
	}
	msg := fmt.Sprintf("no model or seed named %q", name)
	if s := suggest(name, m.names()); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg
}

// source is dbt's source(source_name, table_name).
func (rc *renderCtx) source(a render.Args) (any, error) {
	if len(a.Pos) != 2 {
		return nil, fmt.Errorf("source() needs a source name and a table name")
	}
	m := rc.m
	src, tbl := fmt.Sprint(a.Pos[0]), fmt.Sprint(a.Pos[1])
	rc.sources = append(rc.sources, []string{src, tbl})
	s := m.findSource(src, tbl, rc.n)
	if s == nil {
		at, _ := rc.callSite("source", src, tbl)
		if !m.sourcesRead { // a snapshot, parsed before the schema files
			m.laterSources = append(m.laterSources, laterSource{rc.n, src, tbl, at})
			return render.Relation{Schema: src, Identifier: tbl, Rendered: Relation(src, tbl)}, nil
		}
		rc.diags = append(rc.diags, Diagnostic{Path: rc.n.Path, Line: at.Line, Col: at.Col, Msg: m.unknownSource(src, tbl)})
		return render.Relation{Schema: src, Identifier: tbl, Rendered: Relation(src, tbl)}, nil
	}
	if !rc.compiled {
		return placeholder(s), nil
	}
	return rc.relationOf(s), nil
}

// unknownSource says why source(src, tbl) names no source.
func (m *Manifest) unknownSource(src, tbl string) string {
	if d := m.Disabled[Source+"."+m.Name+"."+src+"."+tbl]; d != nil {
		return fmt.Sprintf("source(%q, %q) points to a disabled source (enabled: false in %s)", src, tbl, d.Path)
	}
	return fmt.Sprintf("source(%q, %q) is not declared: no sources: list in the project's YAML names it", src, tbl)
}

// relationOf is m.relation(t), noting an ephemeral model to inject.
func (rc *renderCtx) relationOf(t *Node) render.Relation {
	r := batchFilter(rc.m.relation(t), t, rc.batch)
	if r.CTE && rc.ctes != nil {
		rc.ctes.add(t)
	}
	return r
}

// cteSet is the ephemeral models a compiled render ref'd, in order, and
// where their SQL comes from.
type cteSet struct {
	nodes []*Node
	seen  map[string]bool
	body  func(t *Node) string // t's compiled SQL (its own CTEs injected)
}

func (c *cteSet) add(t *Node) {
	if !c.seen[t.UniqueID] {
		c.seen[t.UniqueID] = true
		c.nodes = append(c.nodes, t)
	}
}

// inject puts the ephemeral models that sql names first, as CTEs.
func (c *cteSet) inject(sql string) string {
	if c == nil {
		return sql
	}
	var ctes []string
	for _, t := range c.nodes {
		name := "__dbt__cte__" + t.Name
		if strings.Contains(sql, name) {
			ctes = append(ctes, name+" as (\n"+trimSQL(c.body(t))+"\n)")
		}
	}
	if len(ctes) == 0 {
		return sql
	}
	return InjectCTEs(sql, ctes)
}

// runCTEs is the cteSet of a render at run time: an ephemeral model's
// SQL is its CompiledCode in m.
func (m *Manifest) runCTEs() *cteSet {
	return &cteSet{seen: map[string]bool{}, body: func(t *Node) string {
		if x := m.Nodes[t.UniqueID]; x != nil {
			return x.CompiledCode
		}
		return t.CompiledCode
	}}
}

// compileCtx is the context of a compile or run-time render of n.
func (m *Manifest) compileCtx(n *Node, ctes *cteSet) *renderCtx {
	return &renderCtx{m: m, n: n, cfg: copyCfg(n.modelCfg), refPos: map[string]Position{}, compiled: true, ctes: ctes}
}

// checkRefs makes a ref the parse render did not make an error (dbt's
// "unable to infer all dependencies"): one made only when execute or
// is_incremental() is true is not in the node's depends_on, so the DAG
// does not order it. Generic tests are left out (their refs come from
// their arguments).
func (rc *renderCtx) checkRefs() {
	if rc.n.test != nil {
		return
	}
	rc.parsedRefs = map[string]bool{}
	for _, r := range rc.n.Refs {
		rc.parsedRefs[r[len(r)-1]] = true
	}
}

func copyCfg(c map[string]any) map[string]any {
	out := make(map[string]any, len(c))
	for k, v := range c {
		out[k] = v
	}
	return out
}

// renderTemplate renders n's template (a generic test's call of its test
// macro for its parent) with rc.
func renderTemplate(n *Node, rc *renderCtx) (string, error) {
	if n.test != nil {
		rc.n = n.test.parent
		return n.test.render(rc)
	}
	return n.tpl.Render(rc.vars())
}

// compilePass compiles the manifest's models, snapshots and tests once,
// an ephemeral model before the nodes that inline it.
type compilePass struct {
	m     *Manifest
	done  map[string]string // unique_id → compiled SQL
	stack map[string]bool
	diags []Diagnostic
	// record: the renders add the macros they call to the nodes' calls
	// (the parse's compile; later passes share nodes with running renders)
	record bool
}

// compileAll compiles every model, snapshot and test that has a template
// or is a built-in generic test (unique_id → SQL); a node that fails
// keeps no entry, its mistake in the diagnostics.
func (m *Manifest) compileAll() (map[string]string, []Diagnostic) {
	return m.compilePass(false)
}

func (m *Manifest) compilePass(record bool) (map[string]string, []Diagnostic) {
	p := &compilePass{m: m, done: map[string]string{}, stack: map[string]bool{}, record: record}
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		switch {
		case n.builtin != nil:
			p.done[id], _ = m.builtinSQL(n)
		case n.tpl != nil && (n.ResourceType == Model || n.ResourceType == Test || n.ResourceType == Snapshot || n.ResourceType == Analysis):
			p.compile(n)
		}
	}
	return p.done, SortDiagnostics(p.diags)
}

// compile renders n with every node placed: execute is true unless the
// template reads the database (then it renders as parsed, execute false,
// and again at run time with a connection).
func (p *compilePass) compile(n *Node) string {
	if sql, ok := p.done[n.UniqueID]; ok || p.stack[n.UniqueID] {
		return sql
	}
	p.stack[n.UniqueID] = true
	defer delete(p.stack, n.UniqueID)
	ctes := &cteSet{seen: map[string]bool{}, body: p.compile}
	rc := p.m.compileCtx(n, ctes)
	if p.record {
		rc.calls = n.calls // macros called only when execute is true count too
	}
	rc.checkRefs()
	var logs []string // shown when the node runs (ShowCompileLogs), not while parsing
	rc.logs = &logs
	out, err := renderTemplate(n, rc)
	if rc.needsDB {
		// rendered again with a connection when it runs, which shows its
		// logs then; this render's, as the lenient one's, are the parse's
		n.needsDB = true
		calls := rc.calls
		rc = p.m.compileCtx(n, ctes)
		rc.lenient, rc.calls, rc.logs = true, calls, new([]string)
		out, err = renderTemplate(n, rc)
		logs = nil
	}
	compileLogsMu.Lock()
	n.compileLogs = logs
	compileLogsMu.Unlock()
	n.usesIncr = n.usesIncr || rc.usedIncr
	if err != nil {
		p.diags = append(p.diags, n.renderDiag(err))
		return ""
	}
	if len(rc.diags) > 0 {
		p.diags = append(p.diags, rc.diags...)
		return ""
	}
	out = ctes.inject(out)
	p.done[n.UniqueID] = out
	return out
}

// renderDiag places a render error of n: at its position in n's file, at
// the test's YAML line for a generic test.
func (n *Node) renderDiag(err error) Diagnostic {
	var re *render.Error
	if !errors.As(err, &re) {
		return Diagnostic{Path: n.Path, Line: 1, Col: 1, Msg: err.Error()}
	}
	if n.test != nil {
		return Diagnostic{Path: n.Path, Line: n.Pos.Line, Col: n.Pos.Col, Msg: re.Msg}
	}
	return Diagnostic{Path: n.Path, Line: re.Line, Col: re.Col, Msg: re.Msg}
}

var withRe = regexp.MustCompile(`(?is)^(\s*(?:--[^\n]*\n\s*|/\*.*?\*/\s*)*)with\s+(recursive\s+)?`)

// InjectCTEs puts ctes ("name as (...)") first in sql's with clause.
func InjectCTEs(sql string, ctes []string) string {
	joined := strings.Join(ctes, ", ")
	if loc := withRe.FindStringSubmatchIndex(sql); loc != nil {
		head := sql[:loc[1]]
		return head + joined + ",\n" + sql[loc[1]:]
	}
	lead := len(sql) - len(strings.TrimLeft(sql, " \t\r\n"))
	return sql[:lead] + "with " + joined + "\n" + sql[lead:]
}

// trimSQL drops surrounding blanks and trailing semicolons.
func trimSQL(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasSuffix(s, ";") {
		s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	}
	return s
}

// compileLogsMu guards Node.compileLogs: nodes run on the run's threads.
var compileLogsMu sync.Mutex

// ShowCompileLogs shows, once, what n's compiled render logged
// (log(info=True), print()) and what the ephemeral models it reads
// logged: when n runs, as dbt shows a node's execute-time logs when it
// compiles the node, not while parsing. The compiled render of every
// node happens at parse, so they showed there, after the parse's own
// (execute=false) ones: twice in a parse, for nodes no command ran
// (docket ls).
func (m *Manifest) ShowCompileLogs(n *Node) {
	if m.log == nil {
		return
	}
	var out []string
	compileLogsMu.Lock()
	seen := map[string]bool{}
	var take func(n *Node)
	take = func(n *Node) {
		for _, p := range n.DependsOn.Nodes {
			if e := m.Nodes[p]; e != nil && !seen[p] && e.ResourceType == Model && e.Config.Materialized == "ephemeral" {
				seen[p] = true
				take(e)
			}
		}
		out, n.compileLogs = append(out, n.compileLogs...), nil
	}
	take(n)
	compileLogsMu.Unlock()
	for _, s := range out {
		m.log(s)
	}
}
