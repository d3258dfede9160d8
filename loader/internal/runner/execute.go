package runner

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Result statuses, as in dbt's run_results.json.
const (
	StatusSuccess = "success"
	StatusError   = "error"
	StatusSkipped = "skipped"
	StatusPass    = "pass"
	StatusFail    = "fail"
	StatusWarn    = "warn"
)

// RunOptions tune Execute.
type RunOptions struct {
	Command     string   // build, run, test or seed
	Selected    []string // node ids from Select; nil = every node of the command's types
	FullRefresh bool
	Threads     int
	// OnResult, when set, is called once per node as it finishes (never
	// concurrently), with Index counting finished nodes and Total the count.
	OnResult func(Result)
}

// Timing is one phase of a node.
type Timing struct {
	Name        string    `json:"name"`
	StartedAt   time.Time `json:"started_at"`
	CompletedAt time.Time `json:"completed_at"`
}

// Sample is up to 5 failing rows of a data test.
type Sample struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// AdapterResponse mirrors dbt's.
type AdapterResponse struct {
	Message      string `json:"_message"`
	RowsAffected int64  `json:"rows_affected"`
}

// Result is the outcome of one node.
type Result struct {
	UniqueID        string          `json:"unique_id"`
	Status          string          `json:"status"`
	Timing          []Timing        `json:"timing"`
	ThreadID        string          `json:"thread_id"`
	ExecutionTime   float64         `json:"execution_time"`
	AdapterResponse AdapterResponse `json:"adapter_response"`
	Message         string          `json:"message"`
	Failures        *int64          `json:"failures"`
	CompiledCode    string          `json:"compiled_code,omitempty"`
	RelationName    string          `json:"relation_name,omitempty"`
	Sample          *Sample         `json:"sample,omitempty"`
	Diagnostic      *Diagnostic     `json:"diagnostic,omitempty"`

	ResourceType string `json:"-"`
	Name         string `json:"-"`
	Materialized string `json:"-"`
	Severity     string `json:"-"`
	Index        int    `json:"-"`
	Total        int    `json:"-"`
}

// Failed reports whether the result makes the run exit 1.
func (r Result) Failed() bool {
	return r.Status == StatusError || r.Status == StatusFail
}

// RunResults is target/run_results.json.
type RunResults struct {
	Metadata    map[string]any `json:"metadata"`
	Results     []Result       `json:"results"`
	ElapsedTime float64        `json:"elapsed_time"`
	Args        map[string]any `json:"args"`
}

// Failed reports whether any node failed (exit code 1).
func (rr *RunResults) Failed() bool {
	for _, r := range rr.Results {
		if r.Failed() {
			return true
		}
	}
	return false
}

// priority orders ready nodes: a model's tests right after it, seeds first.
var priority = map[string]int{Test: 0, Seed: 1, Model: 2}

var commandTypes = map[string][]string{
	"build":    {Model, Seed, Snapshot, Test},
	"snapshot": {Snapshot},
	"run":      {Model},
	"test":     {Test},
	"seed":     {Seed},
}

// Execute builds the selected nodes in DAG order with a pool of threads,
// each with its own warehouse connection (Go UDFs registered). A node
// whose upstream failed is skipped; in build, an error-severity test
// failure skips the tested node's downstream.
func (m *Manifest) Execute(ctx context.Context, db *warehouse.DB, opts RunOptions) (*RunResults, error) {
	types, ok := commandTypes[opts.Command]
	if !ok {
		return nil, fmt.Errorf("runner: unknown command %q", opts.Command)
	}
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	sel := opts.Selected
	if sel == nil {
		for id := range m.Nodes {
			sel = append(sel, id)
		}
	}
	exec := map[string]bool{}
	for _, id := range sel {
		n := m.Nodes[id]
		if n == nil || !want[n.ResourceType] || (n.ResourceType == Model && n.Config.Materialized == "ephemeral") {
			continue
		}
		exec[id] = true
	}
	// dependencies: executed ancestors
	deps := map[string]map[string]bool{}
	for id := range exec {
		deps[id] = map[string]bool{}
		if m.Nodes[id].ResourceType == Test && opts.Command == "test" {
			continue
		}
		for a := range m.Ancestors(id) {
			if exec[a] {
				deps[id][a] = true
			}
		}
	}
	if opts.Command == "build" {
		// a model's children wait for the model's tests, unless that would
		// make a cycle (a test that also reads a descendant)
		reaches := func(from, to string) bool { // does from depend on to?
			seen := map[string]bool{}
			todo := []string{from}
			for len(todo) > 0 {
				cur := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				if cur == to {
					return true
				}
				for d := range deps[cur] {
					if !seen[d] {
						seen[d] = true
						todo = append(todo, d)
					}
				}
			}
			return false
		}
		for _, id := range sortedKeys(exec) {
			t := m.Nodes[id]
			if t.ResourceType != Test {
				continue
			}
			// A test guards the descendants of every node it reads (a
			// singular test that refs several models guards all of them).
			parents := t.DependsOn.Nodes
			if t.AttachedNode != "" {
				parents = []string{t.AttachedNode}
			}
			for _, attached := range parents {
				for _, c := range sortedKeys(m.Descendants(attached)) {
					if !exec[c] || c == id || m.Nodes[c].ResourceType == Test || reaches(id, c) {
						continue
					}
					deps[c][id] = true
				}
			}
		}
	}
	rank := map[string]int{}
	for i, id := range m.Order {
		rank[id] = i
	}
	dependents := map[string][]string{}
	for id, ds := range deps {
		for d := range ds {
			dependents[d] = append(dependents[d], id)
		}
	}

	threads := opts.Threads
	if threads <= 0 {
		threads = 1
	}
	if threads > len(exec) && len(exec) > 0 {
		threads = len(exec)
	}
	start := time.Now()
	rr := &RunResults{Metadata: map[string]any{
		"dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json",
		"generated_at":       start.UTC().Format(time.RFC3339), "invocation_id": fmt.Sprintf("%x", start.UnixNano()),
		"docket_command": opts.Command},
		Args:    map[string]any{"which": opts.Command, "full_refresh": opts.FullRefresh, "threads": threads, "select": opts.Selected},
		Results: []Result{}}
	if len(exec) == 0 {
		return rr, nil
	}

	// schemas first, serially (concurrent CREATE SCHEMA conflicts)
	conn0, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	schemas := map[string]bool{}
	for id := range exec {
		if n := m.Nodes[id]; n.ResourceType != Test {
			schemas[n.Schema] = true
		}
	}
	for _, s := range sortedKeys(schemas) {
		if _, err := conn0.ExecContext(ctx, "create schema if not exists "+Quote(s)); err != nil {
			conn0.Close()
			return nil, fmt.Errorf("runner: create schema %s: %w", s, err)
		}
	}
	conns := []*sql.Conn{conn0}
	for len(conns) < threads {
		c, err := db.Conn(ctx)
		if err != nil {
			for _, c := range conns {
				c.Close()
			}
			return nil, fmt.Errorf("runner: %w", err)
		}
		conns = append(conns, c)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()

	jobs := make(chan string)
	results := make(chan Result)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func(i int, c *sql.Conn) {
			defer wg.Done()
			for id := range jobs {
				r := m.runNode(ctx, c, m.Nodes[id], opts, exec)
				r.ThreadID = fmt.Sprintf("Thread-%d", i+1)
				results <- r
			}
		}(i, c)
	}

	failed := map[string]string{} // id → why downstream is skipped
	var ready []string
	for id := range exec {
		if len(deps[id]) == 0 {
			ready = append(ready, id)
		}
	}
	pending, running, done := len(exec), 0, 0
	emit := func(r Result) {
		done++
		r.Index, r.Total = done, len(exec)
		rr.Results = append(rr.Results, r)
		if opts.OnResult != nil {
			opts.OnResult(r)
		}
	}
	var finish func(r Result)
	finish = func(r Result) {
		pending--
		emit(r)
		blocking := r.Status == StatusError || r.Status == StatusSkipped ||
			(r.Status == StatusFail && r.Severity != "warn")
		for _, d := range dependents[r.UniqueID] {
			if blocking && failed[d] == "" {
				why := failed[r.UniqueID]
				if why == "" {
					why = fmt.Sprintf("%s %s %s", r.ResourceType, r.Name, map[string]string{StatusError: "errored", StatusFail: "failed"}[r.Status])
				}
				failed[d] = why
			}
			delete(deps[d], r.UniqueID)
			if len(deps[d]) == 0 {
				ready = append(ready, d)
			}
		}
	}
	for pending > 0 {
		// skipped nodes resolve at once
		sort.Slice(ready, func(i, j int) bool {
			a, b := m.Nodes[ready[i]], m.Nodes[ready[j]]
			if pa, pb := priority[a.ResourceType], priority[b.ResourceType]; pa != pb {
				return pa < pb
			}
			if rank[a.UniqueID] != rank[b.UniqueID] {
				return rank[a.UniqueID] < rank[b.UniqueID]
			}
			return a.UniqueID < b.UniqueID
		})
		progressed := false
		for i := 0; i < len(ready); i++ {
			id := ready[i]
			if why := failed[id]; why != "" {
				ready = append(ready[:i], ready[i+1:]...)
				n := m.Nodes[id]
				finish(Result{UniqueID: id, Status: StatusSkipped, Message: "skipped: upstream " + why,
					ResourceType: n.ResourceType, Name: n.Name, Materialized: n.Config.Materialized, Severity: n.Config.Severity,
					RelationName: n.Relation, Timing: []Timing{}})
				progressed = true
				break
			}
		}
		if progressed {
			continue
		}
		if len(ready) > 0 && running < len(conns) {
			select {
			case jobs <- ready[0]:
				ready = ready[1:]
				running++
			case r := <-results:
				running--
				finish(r)
			}
			continue
		}
		if running == 0 {
			// nothing runnable: cannot happen with an acyclic graph
			for _, id := range sortedKeys(deps) {
				if len(deps[id]) > 0 {
					n := m.Nodes[id]
					emit(Result{UniqueID: id, Status: StatusError, Message: "internal error: dependencies never finished",
						ResourceType: n.ResourceType, Name: n.Name, Timing: []Timing{}})
				}
			}
			break
		}
		r := <-results
		running--
		finish(r)
	}
	close(jobs)
	wg.Wait()
	rr.ElapsedTime = time.Since(start).Seconds()
	return rr, nil
}

// runNode compiles and executes one node on conn.
func (m *Manifest) runNode(ctx context.Context, c *sql.Conn, n *Node, opts RunOptions, built map[string]bool) (r Result) {
	r = Result{UniqueID: n.UniqueID, ResourceType: n.ResourceType, Name: n.Name, Materialized: n.Config.Materialized,
		Severity: n.Config.Severity, RelationName: n.Relation}
	t0 := time.Now()
	defer func() {
		if p := recover(); p != nil {
			r.Status, r.Message = StatusError, fmt.Sprintf("internal error: %v", p)
		}
		r.ExecutionTime = time.Since(t0).Seconds()
		if r.Timing == nil {
			r.Timing = []Timing{}
		}
	}()
	if err := ctx.Err(); err != nil {
		r.Status, r.Message = StatusError, err.Error()
		return r
	}
	x := &nodeExec{m: m, c: c, n: n, ctx: ctx, r: &r, full: opts.FullRefresh, built: built}
	var err error
	switch n.ResourceType {
	case Model:
		err = x.model()
	case Seed:
		err = x.seed()
	case Test:
		err = x.test()
	case Snapshot:
		err = x.snapshot()
	}
	if err != nil {
		r.Status = StatusError
		r.Message = err.Error()
		var de *diagErr
		if errors.As(err, &de) {
			d := de.d
			r.Diagnostic = &d
		}
	}
	return r
}

type diagErr struct{ d Diagnostic }

func (e *diagErr) Error() string { return e.d.String() }

type nodeExec struct {
	m     *Manifest
	c     *sql.Conn
	n     *Node
	ctx   context.Context
	r     *Result
	full  bool
	built map[string]bool // nodes this run builds
}

func (x *nodeExec) exec(q string) (int64, error) {
	res, err := x.c.ExecContext(x.ctx, q)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return n, nil
}

func (x *nodeExec) count(rel string) (int64, error) {
	var n int64
	err := x.c.QueryRowContext(x.ctx, "select count(*) from "+rel).Scan(&n)
	return n, err
}

// relationType returns "BASE TABLE", "VIEW" or "" when absent.
func (x *nodeExec) relationType(schema, name string) (string, error) {
	var t string
	err := x.c.QueryRowContext(x.ctx, `select table_type from information_schema.tables
		where table_catalog = current_database() and table_schema = ? and table_name = ?`, schema, name).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return t, err
}

func (x *nodeExec) compiledPath() string { return x.m.TargetRel + "/" + compiledRel(x.n) }

// sqlErr positions a DuckDB error in the compiled SQL (stmt = prefix lines
// followed by the compiled body).
func (x *nodeExec) sqlErr(err error, stmt string, prefixLines int) error {
	d := sqlDiagnostic(err.Error(), stmt, prefixLines)
	d.Path = x.compiledPath()
	return &diagErr{d}
}

func (x *nodeExec) timing(name string, t0 time.Time) {
	x.r.Timing = append(x.r.Timing, Timing{Name: name, StartedAt: t0.UTC(), CompletedAt: time.Now().UTC()})
}

// compile renders the node for this run (is_incremental() may be true).
func (x *nodeExec) compile(incremental bool) (string, error) {
	n := x.n
	if !incremental || !n.usesIncr || n.tpl == nil {
		return n.CompiledCode, nil
	}
	rc := &renderCtx{m: x.m, n: n, incremental: true, cfg: map[string]any{}, refPos: map[string]pos{}}
	out, err := n.tpl.Render(rc.vars())
	if err != nil {
		re := err.(*render.Error)
		return "", &diagErr{Diagnostic{Path: n.Path, Line: re.Line, Col: re.Col, Msg: re.Msg}}
	}
	if len(rc.diags) > 0 {
		return "", &diagErr{rc.diags[0]}
	}
	return x.m.finish(n, out, map[string]bool{}), nil
}

func (x *nodeExec) hooks(list []string, incremental bool) error {
	for i, h := range list {
		tpl, err := x.m.env.Parse(x.n.Path+":hook", h)
		if err != nil {
			return fmt.Errorf("%s: hook %d: %v", x.n.Path, i+1, err)
		}
		rc := &renderCtx{m: x.m, n: x.n, incremental: incremental, cfg: map[string]any{}, refPos: map[string]pos{}}
		out, err := tpl.Render(rc.vars())
		if err != nil {
			return fmt.Errorf("%s: hook %d: %v", x.n.Path, i+1, err)
		}
		q := trimSQL(x.m.finish(x.n, out, map[string]bool{}))
		if q == "" {
			continue
		}
		if _, err := x.exec(q); err != nil {
			return fmt.Errorf("%s: hook %d failed: %s", x.n.Path, i+1, firstLine(err.Error()))
		}
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (x *nodeExec) model() error {
	n := x.n
	t0 := time.Now()
	existing, err := x.relationType(n.Schema, n.Alias)
	if err != nil {
		return err
	}
	full := x.full && (n.Config.FullRefresh == nil || *n.Config.FullRefresh) // full_refresh: false wins over --full-refresh
	incremental := n.Config.Materialized == "incremental" && existing == "BASE TABLE" && !full
	body, err := x.compile(incremental)
	x.timing("compile", t0)
	if err != nil {
		return err
	}
	x.r.CompiledCode = body
	t1 := time.Now()
	defer x.timing("execute", t1)
	if err := x.hooks(n.Config.PreHook, incremental); err != nil {
		return err
	}
	switch n.Config.Materialized {
	case "view":
		if err := x.view(body, existing); err != nil {
			return err
		}
	case "table":
		if err := x.table(body, existing); err != nil {
			return err
		}
	case "incremental":
		if incremental {
			err = x.incremental(body)
		} else {
			err = x.table(body, existing)
		}
		if err != nil {
			return err
		}
	default:
		return fmt.Errorf("materialization %q cannot be run", n.Config.Materialized)
	}
	if err := x.hooks(n.Config.PostHook, incremental); err != nil {
		return err
	}
	x.r.Status = StatusSuccess
	return nil
}

func (x *nodeExec) view(body, existing string) error {
	n := x.n
	if call := x.m.udfCalledParsed(x.ctx, x.c, body); call.name != "" {
		d := Diagnostic{Path: n.Path, Line: 1, Col: 1}
		if call.offset >= 0 {
			// the position is in the compiled SQL
			p := offsetPos(body, call.offset)
			d.Path, d.Line, d.Col = x.compiledPath(), p.line, p.col
		}
		d.Msg = fmt.Sprintf("view %s calls Go UDF %s(), which only exists inside docket: a view must work in any DuckDB client; materialize this model as a table (config(materialized='table')) or compute it in an upstream table",
			n.Relation, call.name)
		return &diagErr{d}
	}
	prefix := "create or replace view " + n.Relation + " as\n"
	stmt := prefix + sqlBody(body)
	if existing == "BASE TABLE" {
		if _, err := x.exec("begin"); err != nil {
			return err
		}
		if _, err := x.exec("drop table " + n.Relation); err != nil {
			x.exec("rollback")
			return err
		}
		if _, err := x.exec(stmt); err != nil {
			x.exec("rollback")
			return x.sqlErr(err, stmt, 1)
		}
		if _, err := x.exec("commit"); err != nil {
			return err
		}
	} else if _, err := x.exec(stmt); err != nil {
		return x.sqlErr(err, stmt, 1)
	}
	x.r.AdapterResponse = AdapterResponse{Message: "CREATE VIEW"}
	x.r.Message = "CREATE VIEW"
	return nil
}

// swap renames tmp to the node's name in one transaction, dropping the
// previous relation.
func (x *nodeExec) swap(tmp, existing string) error {
	n := x.n
	steps := []string{"begin"}
	switch existing {
	case "BASE TABLE":
		steps = append(steps, "drop table "+n.Relation)
	case "VIEW":
		steps = append(steps, "drop view "+n.Relation)
	}
	steps = append(steps, "alter table "+Relation(n.Schema, tmp)+" rename to "+Quote(n.Alias), "commit")
	for _, s := range steps {
		if _, err := x.exec(s); err != nil {
			x.exec("rollback")
			x.exec("drop table if exists " + Relation(n.Schema, tmp))
			return fmt.Errorf("swap %s into place: %s", n.Relation, firstLine(err.Error()))
		}
	}
	return nil
}

func (x *nodeExec) table(body, existing string) error {
	n := x.n
	tmp := n.Alias + "__dbt_tmp"
	if _, err := x.exec("drop table if exists " + Relation(n.Schema, tmp)); err != nil {
		return err
	}
	prefix := "create table " + Relation(n.Schema, tmp) + " as\n"
	stmt := prefix + sqlBody(body)
	if _, err := x.exec(stmt); err != nil {
		x.exec("drop table if exists " + Relation(n.Schema, tmp))
		return x.sqlErr(err, stmt, 1)
	}
	rows, err := x.count(Relation(n.Schema, tmp))
	if err != nil {
		return err
	}
	if err := x.swap(tmp, existing); err != nil {
		return err
	}
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("CREATE TABLE %d", rows), RowsAffected: rows}
	x.r.Message = x.r.AdapterResponse.Message
	return nil
}

type colDef struct{ name, typ string }

func (x *nodeExec) columns(rel string) ([]colDef, error) {
	rows, err := x.c.QueryContext(x.ctx, "select column_name, column_type from (describe "+rel+")")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []colDef
	for rows.Next() {
		var c colDef
		if err := rows.Scan(&c.name, &c.typ); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (x *nodeExec) incremental(body string) error {
	n := x.n
	tmp := Quote("__dbt_incr_" + n.Alias)
	x.exec("drop table if exists temp.main." + tmp)
	prefix := "create temp table " + tmp + " as\n"
	stmt := prefix + sqlBody(body)
	if _, err := x.exec(stmt); err != nil {
		return x.sqlErr(err, stmt, 1)
	}
	defer x.exec("drop table if exists temp.main." + tmp)
	src, err := x.columns(tmp)
	if err != nil {
		return err
	}
	tgt, err := x.columns(n.Relation)
	if err != nil {
		return err
	}
	srcM, tgtM := map[string]string{}, map[string]string{}
	for _, c := range src {
		srcM[c.name] = c.typ
	}
	for _, c := range tgt {
		tgtM[c.name] = c.typ
	}
	var added, removed, changed []string
	for _, c := range src {
		if t, ok := tgtM[c.name]; !ok {
			added = append(added, c.name)
		} else if t != c.typ {
			changed = append(changed, c.name)
		}
	}
	for _, c := range tgt {
		if _, ok := srcM[c.name]; !ok {
			removed = append(removed, c.name)
		}
	}
	for _, k := range n.Config.UniqueKey {
		if _, ok := srcM[k]; !ok {
			return fmt.Errorf("%s: unique_key column %q is not in the model's output", n.Path, k)
		}
	}
	var alters []string
	var cols []string
	switch n.Config.OnSchemaChange {
	case "fail":
		if len(added)+len(removed)+len(changed) > 0 {
			return fmt.Errorf("%s: the model's columns no longer match %s (added %v, removed %v, type changed %v) and on_schema_change is fail: run with --full-refresh, or set on_schema_change to append_new_columns or sync_all_columns",
				n.Path, n.Relation, added, removed, changed)
		}
		for _, c := range tgt {
			cols = append(cols, c.name)
		}
	case "ignore":
		for _, c := range tgt {
			if _, ok := srcM[c.name]; ok {
				cols = append(cols, c.name)
			}
		}
	case "append_new_columns":
		for _, c := range tgt {
			if _, ok := srcM[c.name]; ok {
				cols = append(cols, c.name)
			}
		}
		for _, a := range added {
			alters = append(alters, fmt.Sprintf("alter table %s add column %s %s", n.Relation, Quote(a), srcM[a]))
			cols = append(cols, a)
		}
	case "sync_all_columns":
		for _, a := range added {
			alters = append(alters, fmt.Sprintf("alter table %s add column %s %s", n.Relation, Quote(a), srcM[a]))
		}
		for _, r := range removed {
			alters = append(alters, fmt.Sprintf("alter table %s drop column %s", n.Relation, Quote(r)))
		}
		for _, ch := range changed {
			alters = append(alters, fmt.Sprintf("alter table %s alter column %s type %s", n.Relation, Quote(ch), srcM[ch]))
		}
		for _, c := range src {
			cols = append(cols, c.name)
		}
	}
	var q []string
	for _, c := range cols {
		q = append(q, Quote(c))
	}
	colList := strings.Join(q, ", ")
	var match []string
	for _, k := range n.Config.UniqueKey {
		match = append(match, fmt.Sprintf("tgt.%s is not distinct from src.%s", Quote(k), Quote(k)))
	}
	on := strings.Join(match, " and ")
	var dml []string
	switch n.Config.IncrementalStrategy {
	case "append":
		dml = []string{fmt.Sprintf("insert into %s (%s) select %s from %s", n.Relation, colList, colList, tmp)}
	case "delete+insert":
		dml = []string{
			fmt.Sprintf("delete from %s as tgt using %s as src where %s", n.Relation, tmp, on),
			fmt.Sprintf("insert into %s (%s) select %s from %s", n.Relation, colList, colList, tmp)}
	case "merge":
		key := map[string]bool{}
		for _, k := range n.Config.UniqueKey {
			key[k] = true
		}
		var sets, vals []string
		for _, c := range cols {
			vals = append(vals, "src."+Quote(c))
			if !key[c] {
				sets = append(sets, fmt.Sprintf("%s = src.%s", Quote(c), Quote(c)))
			}
		}
		m := fmt.Sprintf("merge into %s as tgt using %s as src on (%s)", n.Relation, tmp, on)
		if len(sets) > 0 {
			m += " when matched then update set " + strings.Join(sets, ", ")
		}
		m += fmt.Sprintf(" when not matched then insert (%s) values (%s)", colList, strings.Join(vals, ", "))
		dml = []string{m}
	}
	if _, err := x.exec("begin"); err != nil {
		return err
	}
	var affected int64
	for i, s := range append(alters, dml...) {
		k, err := x.exec(s)
		if err != nil {
			x.exec("rollback")
			return fmt.Errorf("%s: incremental %s failed: %s", n.Path, n.Config.IncrementalStrategy, firstLine(err.Error()))
		}
		if i >= len(alters) && !(n.Config.IncrementalStrategy == "delete+insert" && i == len(alters)) {
			affected += k
		}
	}
	if _, err := x.exec("commit"); err != nil {
		x.exec("rollback")
		return err
	}
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", affected), RowsAffected: affected}
	x.r.Message = x.r.AdapterResponse.Message
	return nil
}

func (x *nodeExec) seed() error {
	n := x.n
	t0 := time.Now()
	tmp := n.Alias + "__dbt_tmp"
	opts := "header = true, auto_detect = true"
	if len(n.Config.ColumnTypes) > 0 {
		var kv []string
		for _, k := range sortedKeys(n.Config.ColumnTypes) {
			kv = append(kv, fmt.Sprintf("'%s': '%s'", strings.ReplaceAll(k, "'", "''"), strings.ReplaceAll(n.Config.ColumnTypes[k], "'", "''")))
		}
		opts += ", types = {" + strings.Join(kv, ", ") + "}"
	}
	existing, err := x.relationType(n.Schema, n.Alias)
	if err != nil {
		return err
	}
	x.exec("drop table if exists " + Relation(n.Schema, tmp))
	stmt := fmt.Sprintf("create table %s as select * from read_csv('%s', %s)", Relation(n.Schema, tmp),
		strings.ReplaceAll(n.seedFile, "'", "''"), opts)
	x.timing("compile", t0)
	t1 := time.Now()
	defer x.timing("execute", t1)
	if _, err := x.exec(stmt); err != nil {
		x.exec("drop table if exists " + Relation(n.Schema, tmp))
		return &diagErr{Diagnostic{Path: n.Path, Line: 1, Col: 1, Msg: "cannot load seed: " + firstLine(err.Error())}}
	}
	rows, err := x.count(Relation(n.Schema, tmp))
	if err != nil {
		return err
	}
	if err := x.swap(tmp, existing); err != nil {
		return err
	}
	x.r.Status = StatusSuccess
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", rows), RowsAffected: rows}
	x.r.Message = x.r.AdapterResponse.Message
	return nil
}

func (x *nodeExec) test() error {
	n := x.n
	if missing, err := x.missingParents(); err != nil {
		return err
	} else if len(missing) > 0 {
		x.r.Status = StatusSkipped
		x.r.Message = fmt.Sprintf("skipped: reads %s, which this run does not build and which does not exist yet", strings.Join(missing, ", "))
		return nil
	}
	body := sqlBody(n.CompiledCode)
	x.r.CompiledCode = n.CompiledCode
	t1 := time.Now()
	defer x.timing("execute", t1)
	// dbt's get_test_sql: fail_calc over the failing rows, compared with
	// warn_if and error_if
	calc, warnIf, errorIf := n.Config.FailCalc, n.Config.WarnIf, n.Config.ErrorIf
	if calc == "" {
		calc = "count(*)"
	}
	if warnIf == "" {
		warnIf = "!= 0"
	}
	if errorIf == "" {
		errorIf = "!= 0"
	}
	inner := body
	if n.Config.Limit > 0 {
		inner = "select * from (\n" + body + "\n) as dbt_limit limit " + fmt.Sprint(n.Config.Limit)
	}
	stmt := fmt.Sprintf("select coalesce(%s, 0) as failures, coalesce(%s, 0) %s as should_warn, coalesce(%s, 0) %s as should_error from (\n%s\n) as dbt_internal_test",
		calc, calc, warnIf, calc, errorIf, inner)
	var failures int64
	var shouldWarn, shouldError bool
	if err := x.c.QueryRowContext(x.ctx, stmt).Scan(&failures, &shouldWarn, &shouldError); err != nil {
		prefix := strings.Count(stmt[:strings.Index(stmt, inner)], "\n")
		return x.sqlErr(err, stmt, prefix)
	}
	x.r.Failures = &failures
	x.r.AdapterResponse = AdapterResponse{Message: "SELECT", RowsAffected: failures}
	switch {
	case n.Config.Severity != "warn" && shouldError:
		x.r.Status = StatusFail
	case shouldWarn:
		x.r.Status = StatusWarn
	default:
		x.r.Status = StatusPass
		return nil
	}
	x.r.Message = fmt.Sprintf("Got %d result%s, configured to %s if %s", failures, plural(failures),
		map[string]string{StatusWarn: "warn", StatusFail: "fail"}[x.r.Status], map[string]string{StatusWarn: warnIf, StatusFail: errorIf}[x.r.Status])
	rows, err := x.c.QueryContext(x.ctx, "select * from (\n"+body+"\n) as dbt_internal_test limit 5")
	if err != nil {
		return nil
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	s := &Sample{Columns: cols, Rows: [][]string{}}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if rows.Scan(ptrs...) != nil {
			break
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if v == nil {
				row[i] = "NULL"
			} else if b, ok := v.([]byte); ok {
				row[i] = string(b)
			} else {
				row[i] = fmt.Sprint(v)
			}
		}
		s.Rows = append(s.Rows, row)
	}
	x.r.Sample = s
	return nil
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// sqlBody drops trailing blanks and semicolons but keeps leading lines so
// DuckDB's line numbers match the compiled file.
func sqlBody(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	for strings.HasSuffix(s, ";") {
		s = strings.TrimRight(strings.TrimSuffix(s, ";"), " \t\r\n")
	}
	return s
}

// missingParents lists the relations a test reads that this run does not
// build and that are not in the warehouse (a per-layer build right after
// the first load): the test cannot run yet, which is not a failure.
func (x *nodeExec) missingParents() ([]string, error) {
	var out []string
	for _, id := range x.n.DependsOn.Nodes {
		if x.built[id] {
			continue
		}
		p := x.m.Node(id)
		if p == nil || (p.ResourceType == Model && p.Config.Materialized == "ephemeral") {
			continue
		}
		typ, err := x.relationType(p.Schema, p.Alias)
		if err != nil {
			return nil, err
		}
		if typ == "" {
			out = append(out, strings.ReplaceAll(p.Relation, `"`, ""))
		}
	}
	return out, nil
}
