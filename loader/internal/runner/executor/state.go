package executor

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

const stateDDL = `create table if not exists ops.build_state (
	unique_id varchar primary key,
	fingerprint varchar not null,  -- digest of what the last successful build read
	data_version varchar not null, -- changes when a build changed the node's rows
	status varchar,                -- tests: pass | warn | fail; models: success
	relation varchar,
	built_at timestamp not null
)`

// UpToDateMessage is a skipped node's message (status success for models
// and seeds, pass for tests, as dbt has no status for it).
const UpToDateMessage = "up to date: inputs unchanged"

type nodeState struct {
	fingerprint, version, status string
	scopeFP, scopeVersion        string // tests: the base of a scoped check (delta.go)
	content                      string // seeds: digest of the rows as loaded (seed_edits.go)
}

// buildState is one run's view of StateTable.
type buildState struct {
	mu       sync.Mutex
	prev     map[string]nodeState            // as recorded before this run
	versions map[string]string               // current data version per node id
	global   string                          // digest of vars, macros, UDFs
	loader   string                          // data version of the loader's ops.* tables; "" unknown
	landed   string                          // ... of raw.* and staging.*
	run      string                          // random per run, for new data versions
	rels     map[[2]string]string            // schema, name → table type at the run's start
	deltas   map[string]map[string]deltaLink // model id → data version → link (delta.go)
	command  string
	owned    map[string]bool // Manifest.owned
	edited   map[string]bool // seeds whose table was edited since their load (seed_edits.go)
	// viewMemo is version's answer for a view, valid until a version of
	// the view or of one of its ancestors is recorded (recordState drops
	// those entries and bumps viewGen). Without it each lookup walked
	// every view below: quadratic in a view chain, exponential in a DAG
	// of views that each read two others (robust31: 24 levels took 28 s).
	viewMemo map[string]string
	viewGen  int
	fps      atomic.Int64 // fingerprints worked out (TestViewVersionMemo)
}

// openState creates StateTable if needed and reads it. On any error the
// run goes on without skipping (nil state).
func openState(ctx context.Context, m *compiler.Manifest, c *sql.Conn, command string) *buildState {
	for _, q := range []string{"create schema if not exists ops", stateDDL, deltaDDL,
		"alter table " + compiler.StateTable + " add column if not exists scope_fp varchar",
		"alter table " + compiler.StateTable + " add column if not exists scope_version varchar",
		"alter table " + compiler.StateTable + " add column if not exists content varchar"} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			return nil
		}
	}
	st := &buildState{prev: map[string]nodeState{}, versions: map[string]string{}, command: command, deltas: map[string]map[string]deltaLink{},
		owned: m.Owned}
	rows, err := c.QueryContext(ctx, "select unique_id, fingerprint, data_version, coalesce(status, ''), coalesce(scope_fp, ''), coalesce(scope_version, ''), coalesce(content, '') from "+compiler.StateTable)
	if err != nil {
		return nil
	}
	for rows.Next() {
		var id string
		var s nodeState
		if err := rows.Scan(&id, &s.fingerprint, &s.version, &s.status, &s.scopeFP, &s.scopeVersion, &s.content); err != nil {
			rows.Close()
			return nil
		}
		st.prev[id] = s
		st.versions[id] = s.version
	}
	rows.Close()
	if rows.Err() != nil {
		return nil
	}
	if rows, err = c.QueryContext(ctx, "select unique_id, data_version, prev_version, key_column from "+compiler.DeltaTable); err != nil {
		return nil
	}
	for rows.Next() {
		var id, v string
		var l deltaLink
		if err := rows.Scan(&id, &v, &l.prev, &l.key); err != nil {
			rows.Close()
			return nil
		}
		if st.deltas[id] == nil {
			st.deltas[id] = map[string]deltaLink{}
		}
		st.deltas[id][v] = l
	}
	rows.Close()
	if rows.Err() != nil {
		return nil
	}
	st.loader, st.landed = loaderVersions(ctx, c)
	st.rels = relationTypes(ctx, c)
	st.noteSeedEdits(ctx, c, m)
	st.global = m.GlobalDigest()
	b := make([]byte, 12)
	rand.Read(b)
	st.run = hex.EncodeToString(b)
	return st
}

// relationTypes lists the warehouse's relations once (nil on error: then
// each node asks).
func relationTypes(ctx context.Context, c *sql.Conn) map[[2]string]string {
	rows, err := c.QueryContext(ctx, `select table_schema, table_name, table_type from information_schema.tables
		where table_catalog = current_database()`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	out := map[[2]string]string{}
	for rows.Next() {
		var s, n, t string
		if err := rows.Scan(&s, &n, &t); err != nil {
			return nil
		}
		out[[2]string{s, n}] = t
	}
	if rows.Err() != nil {
		return nil
	}
	return out
}

// loaderVersions digests ops.load_runs and ops.meta: ops is every run,
// landed the runs that wrote raw.* or staging.* (see above) and the stats
// a load refreshes. Both "" when the tables are not there (a warehouse
// docket never loaded); landed is ops when the counts or stats cannot be
// read (an older warehouse).
func loaderVersions(ctx context.Context, c *sql.Conn) (ops, landed string) {
	var runs, meta sql.NullString
	err := c.QueryRowContext(ctx, `select
		(select string_agg(run_id || '|' || status || '|' || coalesce(finished_at::varchar, '-'), ',' order by run_id, status) from ops.load_runs),
		(select string_agg(key || '=' || coalesce(value, ''), ',' order by key) from ops.meta)`).Scan(&runs, &meta)
	if err != nil {
		return "", ""
	}
	ops = compiler.Digest("loader", runs.String, meta.String)
	var writes, stats sql.NullString
	err = c.QueryRowContext(ctx, `select
		(select string_agg(run_id || '|' || status || '|' || coalesce(landed, -1) || '|' || coalesce(quarantined, -1) || '|' || coalesce(deleted, -1), ',' order by run_id, status)
			from ops.load_runs where not (status = 'completed' and coalesce(landed, 1) = 0 and coalesce(quarantined, 1) = 0
				and coalesce(deleted, 1) = 0 and coalesce(new, 1) = 0 and coalesce(changed, 1) = 0)),
		(select coalesce(max(stat_taken_ns), 0)::varchar || '/' || count(*) from raw.documents)`).Scan(&writes, &stats)
	if err != nil {
		return ops, ops
	}
	return ops, compiler.Digest("landed", writes.String, stats.String, meta.String)
}

// version is the current data version of a model, seed, snapshot or
// source; "" when unknown.
func (st *buildState) version(m *compiler.Manifest, id string) string {
	if src, ok := m.Sources[id]; ok {
		// a source the project's own seed, model or snapshot builds
		// (jaffle-shop's raw_* sources are its seeds) has that node's
		if ps := m.Parents[id]; len(ps) == 1 && m.Nodes[ps[0]] != nil {
			st.mu.Lock()
			defer st.mu.Unlock()
			return st.versions[ps[0]]
		}
		return st.relationVersion(m, src.Database, src.Schema, src.Identifier, src.Alias)
	}
	st.mu.Lock()
	v := st.versions[id]
	st.mu.Unlock()
	if n := m.Nodes[id]; n != nil && v != "" && n.ResourceType == compiler.Model && n.Config.Materialized == "view" {
		// a view's rows are its inputs' rows now: the version recorded at
		// its last build (Digest("view", fingerprint), recordState) holds
		// only while its inputs are the ones it was built on. A command
		// that does not rebuild it (`docket snapshot`, `run -s` of a
		// table under it) after an input changed sees no version, so
		// what reads the view runs instead of being skipped as up to date.
		st.mu.Lock()
		memo, ok := st.viewMemo[id]
		gen := st.viewGen
		st.mu.Unlock()
		if ok {
			return memo
		}
		if fp := st.fingerprint(m, n); fp == "" || compiler.Digest("view", fp) != v {
			v = ""
		}
		st.mu.Lock()
		if gen == st.viewGen { // no version recorded meanwhile
			if st.viewMemo == nil {
				st.viewMemo = map[string]string{}
			}
			st.viewMemo[id] = v
		}
		st.mu.Unlock()
	}
	return v
}

// relationVersion is the version of a relation named directly: the
// loader's tables have one; anything else is unknown.
func (st *buildState) relationVersion(m *compiler.Manifest, database, schema, identifier, alias string) string {
	name := identifier
	if name == "" {
		name = alias
	}
	if database != "" && database != m.Database() {
		return ""
	}
	return st.loaderTable(strings.ToLower(schema + "." + name))
}

// loaderTable is the version of a loader table ("raw.documents"); "" when
// key is not one.
func (st *buildState) loaderTable(key string) string {
	if !st.owned[key] {
		return ""
	}
	if strings.HasPrefix(key, "ops.") {
		return st.loader
	}
	return st.landed
}

// inputs lists the node's upstream relations for the fingerprint,
// looking through ephemeral models (their SQL is inlined). ok is false
// when one has no known version.
func (st *buildState) inputs(m *compiler.Manifest, n *compiler.Node, free map[string]bool) (parts []string, ok bool) {
	seen := map[string]bool{}
	var walk func(n *compiler.Node) bool
	walk = func(n *compiler.Node) bool {
		for _, p := range n.DependsOn.Nodes {
			if seen[p] {
				continue
			}
			seen[p] = true
			if pn := m.Nodes[p]; pn != nil && pn.ResourceType == compiler.Model && pn.Config.Materialized == "ephemeral" {
				parts = append(parts, p, "ephemeral", pn.RawCode)
				if !walk(pn) {
					return false
				}
				continue
			}
			if free[p] {
				parts = append(parts, p, "*")
				continue
			}
			v := st.version(m, p)
			if v == "" || m.Deferred(p) != "" {
				return false
			}
			parts = append(parts, p, v)
		}
		return true
	}
	if !walk(n) {
		return nil, false
	}
	return parts, true
}

// fingerprint of node n for this run; "" when it cannot be skipped.
func (st *buildState) fingerprint(m *compiler.Manifest, n *compiler.Node, extra ...string) string {
	return st.fingerprintFree(m, n, nil, extra...)
}

// fingerprintFree is the fingerprint with the versions of the free inputs
// left out (delta.go: a scoped test's base).
func (st *buildState) fingerprintFree(m *compiler.Manifest, n *compiler.Node, free map[string]bool, extra ...string) string {
	st.fps.Add(1)
	if n.ReadsDatabase() {
		// its SQL is rendered at run time (run_query, graph,
		// selected_resources, ...): CompiledCode, the parse's render,
		// does not say what it builds, so it is never up to date
		return ""
	}
	in, ok := st.inputs(m, n, free)
	if !ok {
		return ""
	}
	cfg, _ := json.Marshal(n.Config)
	parts := append([]string{st.global, n.UniqueID, n.ResourceType, n.Relation, string(cfg), n.RawCode, n.CompiledCode}, extra...)
	if d := n.ContractDigest(); d != "" {
		parts = append(parts, d) // a fingerprint without a contract stays as before
	}
	if n.Config.PersistDocs != nil {
		// the descriptions it writes as comments: a new one builds again
		docs, _ := json.Marshal(n.Columns)
		parts = append(parts, n.Description, string(docs))
	}
	return compiler.Digest(append(parts, in...)...)
}

// newVersion is a data version no earlier build used.
func (st *buildState) newVersion(id string) string { return compiler.Digest(st.run, id) }

// upToDate decides whether x's node can be skipped, and remembers the
// fingerprint to record after a build. existing is the relation's type
// in the warehouse ("" absent).
func (x *nodeExec) upToDate(existing string, forced bool) bool {
	st, n := x.st, x.n
	if st == nil {
		return false
	}
	forced = forced || x.force
	var extra []string
	if n.ResourceType == compiler.Seed {
		b, err := os.ReadFile(n.SeedFile)
		if err != nil {
			return false
		}
		extra = append(extra, compiler.Digest(string(b)), seedIntegersRule)
	}
	x.fp = st.fingerprint(x.m, n, extra...)
	if x.fp == "" || forced {
		return false
	}
	if (n.ResourceType == compiler.Model || n.ResourceType == compiler.Snapshot) && !x.namesOnlyKnown() {
		x.fp = ""
		return false
	}
	st.mu.Lock()
	prev, ok := st.prev[n.UniqueID]
	st.mu.Unlock()
	if !ok || prev.fingerprint != x.fp {
		return false
	}
	if n.ResourceType == compiler.Test {
		// a test is skipped only when it last passed: a failure or warning
		// runs again to show its rows
		return prev.status == StatusPass && st.command == "build"
	}
	want := "BASE TABLE"
	if n.ResourceType == compiler.Model && n.Config.Materialized == "view" {
		want = "VIEW"
	}
	return existing == want
}

// recordState writes the node's fingerprint and data version on x's
// connection (inside the caller's transaction when it has one). changed
// says the build changed the node's rows. A node without a fingerprint
// (not skippable) has its record removed, so a later run cannot match it.
func (x *nodeExec) recordState(changed bool) error {
	st, n := x.st, x.n
	if st == nil || x.stateDone {
		return nil
	}
	if (n.ResourceType == compiler.Test || n.ResourceType == compiler.UnitTest) && st.command != "build" {
		return nil // only build skips tests; `docket test` leaves the warehouse as it is
	}
	x.stateDone = true
	st.mu.Lock()
	prev, had := st.prev[n.UniqueID]
	st.mu.Unlock()
	version := prev.version
	switch {
	case n.ResourceType == compiler.Model && n.Config.Materialized == "view" && x.fp != "":
		version = compiler.Digest("view", x.fp) // a view's rows are its inputs'
	case changed || !had || x.fp == "" || x.hookRows > 0 || x.hookOpaque || len(n.Config.PostHook) > 0:
		version = st.newVersion(n.UniqueID)
	}
	status := x.r.Status
	if status == "" {
		status = StatusSuccess
	}
	var scopeFP, scopeVersion any // NULL: no base for a scoped check
	if x.scope != nil && status == StatusPass {
		scopeFP, scopeVersion = x.scope.fp, st.version(x.m, x.scope.model.UniqueID)
	}
	_, err := x.c.ExecContext(x.ctx, "insert or replace into "+compiler.StateTable+
		" (unique_id, fingerprint, data_version, status, relation, built_at, scope_fp, scope_version, content) values (?, ?, ?, ?, ?, now(), ?, ?, ?)",
		n.UniqueID, x.fp, version, status, n.Relation, scopeFP, scopeVersion, nullIfEmpty(x.content))
	if err != nil {
		return fmt.Errorf("record build state: %w", err)
	}
	if version != prev.version && had && !x.hookOpaque && !x.hookWrites && len(n.Config.PostHook) == 0 {
		if err := x.recordDelta(prev.version, version); err != nil {
			return err
		}
	}
	st.mu.Lock()
	st.versions[n.UniqueID] = version
	st.viewGen++
	if len(st.viewMemo) > 0 { // what the view versions below it were worked out from changed
		delete(st.viewMemo, n.UniqueID)
		for d := range x.m.Descendants(n.UniqueID) {
			delete(st.viewMemo, d)
		}
	}
	st.mu.Unlock()
	return nil
}

// noteHook accounts for one hook statement that changed k rows: a single
// delete, update, insert or merge counts its rows (a pre-hook retracting
// nothing leaves the data version alone); creating a temporary table or
// view is scratch on the node's connection (e.g. a set of keys computed
// once and read by a later hook and the model), no data change; any
// other statement (DDL, a CTE, several statements) may change data
// uncounted.
// createTemp matches a statement creating a temporary table or view (in
// DuckDB's temp catalog, dropped with the connection).
var createTemp = regexp.MustCompile(`(?is)^create\s+(or\s+replace\s+)?temp(orary)?\s+(table|view)\s`)

func (x *nodeExec) noteHook(q string, k int64) {
	s := strings.TrimSpace(q)
	for {
		switch {
		case strings.HasPrefix(s, "--"):
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = strings.TrimSpace(s[i+1:])
				continue
			}
			return // only a comment
		case strings.HasPrefix(s, "/*"):
			if i := strings.Index(s, "*/"); i >= 0 {
				s = strings.TrimSpace(s[i+2:])
				continue
			}
			x.hookOpaque = true
			return
		}
		break
	}
	word := ""
	if f := strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); len(f) > 0 {
		word = strings.ToLower(f[0])
	}
	switch {
	case word == "":
	case strings.Contains(sqlBody(s), ";"):
		x.hookOpaque = true
	case word == "delete" || word == "update" || word == "insert" || word == "merge":
		x.hookRows += k
		if word != "delete" && k > 0 {
			x.hookWrites = true
		}
	case word == "select" || word == "set" || word == "analyze" || word == "checkpoint":
	case word == "create" && createTemp.MatchString(s):
	default:
		x.hookOpaque = true
	}
}

// recordInTxn records the state inside the materialization's
// transaction, unless post-hooks still have to run (then model() records
// after them).
func (x *nodeExec) recordInTxn(changed bool) error {
	// a model built in an attached database is recorded after its
	// commit: a DuckDB transaction writes to one database only
	if len(x.n.Config.PostHook) > 0 || x.attachedDB() != "" {
		return nil
	}
	return x.recordState(changed)
}

// markUpToDate fills a skipped node's result.
func (x *nodeExec) markUpToDate() {
	x.r.UpToDate = true
	x.r.Message = UpToDateMessage
	x.r.AdapterResponse = AdapterResponse{Message: "SKIP (" + UpToDateMessage + ")"}
	if x.n.ResourceType == compiler.Test || x.n.ResourceType == compiler.UnitTest {
		x.r.Status = StatusPass
		zero := int64(0)
		x.r.Failures = &zero
		x.r.CompiledCode = x.n.CompiledCode
		return
	}
	x.r.Status = StatusSuccess
}

// pureTableFunction reports whether a TABLE_FUNCTION's call (its
// "function" member in DuckDB's serialized tree) is one of pureTableFuncs.
func pureTableFunction(call any) bool {
	f, _ := call.(map[string]any)
	name, _ := f["function_name"].(string)
	schema, _ := f["schema"].(string)
	return schema == "" && pureTableFuncs[strings.ToLower(name)]
}
