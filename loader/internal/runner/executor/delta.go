package executor

import (
	"fmt"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

const deltaDDL = `create table if not exists ops.build_deltas (
	unique_id varchar not null,
	data_version varchar not null,  -- the version this build made
	prev_version varchar not null,  -- the version it changed
	key_column varchar not null,    -- the model's unique_key
	keys varchar[] not null,        -- keys of the rows it wrote (delete+insert, append, merge)
	built_at timestamp not null
)`

// maxDeltaLinks per model are kept; a test that has not passed for longer
// is checked whole.
const maxDeltaLinks = 64

// deltaLink is one recorded link.
type deltaLink struct{ prev, key string }

// scopableGeneric are the built-in generic tests whose failures can only
// involve rows the model wrote since the last pass.
var scopableGeneric = map[string]bool{"unique": true, "not_null": true, "accepted_values": true, "relationships": true}

// growOnlyParents are relations whose keys are never removed (docket load
// tombstones documents; it never deletes a raw.documents row), so a
// relationships test to them need not look at unchanged child rows when
// they change.
var growOnlyParents = map[string]bool{"raw.documents": true}

// deltaKey is the model's key column when its incremental builds can
// record links, "" otherwise.
func deltaKey(n *compiler.Node) string {
	if n == nil || n.ResourceType != compiler.Model || n.Config.Materialized != "incremental" || len(n.Config.UniqueKey) != 1 {
		return ""
	}
	return n.Config.UniqueKey[0]
}

// recordDelta writes the link prev → version of x's model with the keys
// of the rows in table tmp (inside the build's transaction), and trims
// the model's oldest links.
func (x *nodeExec) recordDelta(prev, version string) error {
	if x.deltaFrom == "" || prev == "" || prev == version {
		return nil
	}
	key := deltaKey(x.n)
	if _, err := x.c.ExecContext(x.ctx, "insert into "+compiler.DeltaTable+
		" select ?, ?, ?, ?, coalesce(list(distinct "+compiler.Quote(key)+"::varchar) filter (where "+compiler.Quote(key)+" is not null), []), now() from temp.main."+x.deltaFrom,
		x.n.UniqueID, version, prev, key); err != nil {
		return fmt.Errorf("record build delta: %w", err)
	}
	if _, err := x.c.ExecContext(x.ctx, "delete from "+compiler.DeltaTable+` where unique_id = ? and data_version not in (
		select data_version from `+compiler.DeltaTable+` where unique_id = ? order by built_at desc limit `+fmt.Sprint(maxDeltaLinks)+")",
		x.n.UniqueID, x.n.UniqueID); err != nil {
		return fmt.Errorf("record build delta: %w", err)
	}
	x.st.mu.Lock()
	if x.st.deltas[x.n.UniqueID] == nil {
		x.st.deltas[x.n.UniqueID] = map[string]deltaLink{}
	}
	x.st.deltas[x.n.UniqueID][version] = deltaLink{prev: prev, key: key}
	x.st.mu.Unlock()
	return nil
}

// chain lists the data versions of model id from (exclusive) to to
// (inclusive) through recorded links; ok is false when they are not
// linked.
func (st *buildState) chain(id, from, to string) (versions []string, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for cur := to; cur != from; {
		l, found := st.deltas[id][cur]
		if !found || len(versions) >= maxDeltaLinks {
			return nil, false
		}
		versions = append(versions, cur)
		cur = l.prev
	}
	return versions, true
}

// testScope is how a test may be checked on only the written rows.
type testScope struct {
	model *compiler.Node // the model whose written rows are checked
	fp    string         // the test's fingerprint without the versions scoping leaves out
}

// scopeOf returns the test's scope, nil when it is always checked whole.
func (x *nodeExec) scopeOf() *testScope {
	st, n, m := x.st, x.n, x.m
	if st == nil || n.ResourceType != compiler.Test {
		return nil
	}
	var model *compiler.Node
	free := map[string]bool{} // inputs whose version the scoped check does not depend on
	switch {
	case n.TestMetadata != nil && scopableGeneric[n.TestMetadata.Name]:
		model = m.Nodes[n.AttachedNode]
		if model == nil || n.TestFrom == "" {
			return nil
		}
		free[model.UniqueID] = true
		if n.TestMetadata.Name == "relationships" {
			for _, p := range n.DependsOn.Nodes {
				if src := m.Sources[p]; src != nil && growOnlyParents[strings.ToLower(src.Schema+"."+src.Identifier)] {
					free[p] = true
				}
			}
		}
	case n.TestMetadata == nil && n.Config.ScopedTo != "":
		model = m.ByName(n.Config.ScopedTo)
		if model == nil {
			return nil
		}
		for _, p := range n.DependsOn.Nodes {
			free[p] = true
		}
	default:
		return nil
	}
	if deltaKey(model) == "" {
		return nil
	}
	fp := st.fingerprintFree(m, n, free)
	if fp == "" {
		return nil
	}
	return &testScope{model: model, fp: fp}
}

// scopedSQL returns the test's SQL checking only the rows of the scope's
// model written in versions, and a description; ok false when the test
// must be checked whole (its last pass is not a base for this run).
func (x *nodeExec) scopedSQL(sc *testScope) (body, what string, ok bool) {
	st, n := x.st, x.n
	if x.force || st.command != "build" {
		return "", "", false
	}
	st.mu.Lock()
	prev, had := st.prev[n.UniqueID]
	st.mu.Unlock()
	if !had || prev.status != StatusPass || prev.scopeFP != sc.fp || prev.scopeVersion == "" {
		return "", "", false
	}
	cur := st.version(x.m, sc.model.UniqueID)
	versions, ok := st.chain(sc.model.UniqueID, prev.scopeVersion, cur)
	if !ok {
		return "", "", false
	}
	key := deltaKey(sc.model)
	sort.Strings(versions)
	lits := "''"
	if len(versions) > 0 {
		q := make([]string, len(versions))
		for i, v := range versions {
			q[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
		}
		lits = strings.Join(q, ", ")
	}
	written := fmt.Sprintf("(select * from %s where %s::varchar in (select unnest(keys) from %s where unique_id = '%s' and data_version in (%s)))",
		sc.model.Relation, compiler.Quote(key), compiler.DeltaTable, strings.ReplaceAll(sc.model.UniqueID, "'", "''"), lits)
	what = fmt.Sprintf("scoped: rows of %s written by %d build%s since the last pass", strings.ReplaceAll(sc.model.Relation, `"`, ""), len(versions), plural(int64(len(versions))))
	if n.TestMetadata == nil {
		return strings.ReplaceAll(n.CompiledCode, sc.model.Relation, written), what, true
	}
	col := n.ColumnName
	if n.TestMetadata.Name == "unique" {
		// every written key counted over the whole (filtered) table
		return fmt.Sprintf("select %s as unique_field, count(*) as n_records\nfrom %s as model\nwhere %s is not null and %s in (select %s from %s as written)\ngroup by %s\nhaving count(*) > 1\n",
			col, n.TestFrom, col, col, col, written, col), what, true
	}
	from := written
	if n.Config.Where != "" {
		from = "(select * from " + written + " as written where " + n.Config.Where + ")"
	}
	body = strings.Replace(n.CompiledCode, "from "+n.TestFrom+" as ", "from "+from+" as ", 1)
	if body == n.CompiledCode {
		return "", "", false
	}
	return body, what, true
}
