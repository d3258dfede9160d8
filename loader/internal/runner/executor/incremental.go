package executor

import (
	"fmt"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

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

// incremental writes the model's new rows (body) into its existing table:
// into a temp table first, then, in one transaction, the schema changes
// and the strategy's statements, recorded with the node's state.
func (x *nodeExec) incremental(body string) error {
	n := x.n
	tmp := compiler.Quote("__dbt_incr_" + n.Alias)
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
	alters, cols, err := schemaChange(n, src, tgt)
	if err != nil {
		return err
	}
	dml, err := incrementalDML(n, tmp, cols, x.batch)
	if err != nil {
		return err
	}
	if len(alters) == 0 && deltaKey(n) != "" && x.attachedDB() == "" { // (recorded after the commit there: the rows are gone)
		x.deltaFrom = tmp // the written rows' keys are recorded with the new data version (delta.go)
	}
	if _, err := x.exec("begin"); err != nil {
		return err
	}
	var affected, touched int64 // touched: every row any statement changed
	for i, s := range append(alters, dml...) {
		k, err := x.exec(s)
		touched += k
		if err != nil {
			x.exec("rollback")
			return fmt.Errorf("%s: incremental %s failed: %s", n.Path, n.Config.IncrementalStrategy, compiler.FirstLine(err.Error()))
		}
		if i >= len(alters) && !(deletesFirst(n) && i == len(alters)) {
			affected += k
		}
	}
	if err := x.recordInTxn(touched > 0 || len(alters) > 0); err != nil {
		x.exec("rollback")
		return err
	}
	if _, err := x.exec("commit"); err != nil {
		x.exec("rollback")
		return err
	}
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", affected), RowsAffected: affected}
	x.r.Message = x.r.AdapterResponse.Message
	return nil
}

// schemaChange compares the new rows' columns (src) with the table's
// (tgt) and applies on_schema_change: the ALTERs to run first and the
// columns to write. A unique_key column the model no longer returns, or
// any change under "fail", is an error.
func schemaChange(n *compiler.Node, src, tgt []colDef) (alters, cols []string, err error) {
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
			return nil, nil, fmt.Errorf("%s: unique_key column %q is not in the model's output", n.Path, k)
		}
	}
	switch n.Config.OnSchemaChange {
	case "fail":
		if len(added)+len(removed)+len(changed) > 0 {
			return nil, nil, fmt.Errorf("%s: the model's columns no longer match %s (added %v, removed %v, type changed %v) and on_schema_change is fail: run with --full-refresh, or set on_schema_change to append_new_columns or sync_all_columns",
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
			alters = append(alters, fmt.Sprintf("alter table %s add column %s %s", n.Relation, compiler.Quote(a), srcM[a]))
			cols = append(cols, a)
		}
	case "sync_all_columns":
		for _, a := range added {
			alters = append(alters, fmt.Sprintf("alter table %s add column %s %s", n.Relation, compiler.Quote(a), srcM[a]))
		}
		for _, r := range removed {
			alters = append(alters, fmt.Sprintf("alter table %s drop column %s", n.Relation, compiler.Quote(r)))
		}
		for _, ch := range changed {
			alters = append(alters, fmt.Sprintf("alter table %s alter column %s type %s", n.Relation, compiler.Quote(ch), srcM[ch]))
		}
		for _, c := range src {
			cols = append(cols, c.name)
		}
	}
	return alters, cols, nil
}

// The aliases of the existing table and the new rows in a merge or a
// delete+insert: dbt's, so incremental_predicates written for dbt work.
const (
	dest   = "DBT_INTERNAL_DEST"
	source = "DBT_INTERNAL_SOURCE"
)

// incrementalDML is the statements that write the rows of the temp table
// tmp into the model's relation by its incremental_strategy, with its
// incremental_predicates (merge: in the ON clause, as dbt-duckdb;
// delete+insert: on the rows deleted, as dbt's default, where a
// predicate's bare column is the table's) and, for merge, the columns
// merge_update_columns / merge_exclude_columns leave to update.
func incrementalDML(n *compiler.Node, tmp string, cols []string, b *compiler.Batch) ([]string, error) {
	var q []string
	for _, c := range cols {
		q = append(q, compiler.Quote(c))
	}
	colList := strings.Join(q, ", ")
	var match []string
	for _, k := range n.Config.UniqueKey {
		match = append(match, fmt.Sprintf("%s.%s is not distinct from %s.%s", dest, compiler.Quote(k), source, compiler.Quote(k)))
	}
	on := strings.Join(match, " and ")
	preds := ""
	for _, p := range n.Config.IncrementalPredicates {
		preds += " and (" + p + ")"
	}
	insert := fmt.Sprintf("insert into %s (%s) select %s from %s", n.Relation, colList, colList, tmp)
	switch n.Config.IncrementalStrategy {
	case "append":
		return []string{insert}, nil
	case "microbatch":
		// dbt-duckdb's: the batch's window of the table is replaced
		if b == nil {
			return nil, fmt.Errorf("%s: a microbatch write without its batch", n.Path)
		}
		col := compiler.Quote(n.Config.EventTime)
		del := fmt.Sprintf("delete from %s as %s where %s.%s >= '%s' and %s.%s < '%s'%s", n.Relation, dest, dest, col,
			compiler.EventTimeLiteral(b.Start), dest, col, compiler.EventTimeLiteral(b.End), preds)
		return []string{del, insert}, nil
	case "delete+insert":
		del := fmt.Sprintf("delete from %s as %s using %s as %s where %s", n.Relation, dest, tmp, source, on)
		if preds != "" { // a predicate's bare column must be the table's: the new rows only in a subquery
			del = fmt.Sprintf("delete from %s as %s where exists (select 1 from %s as %s where %s)%s", n.Relation, dest, tmp, source, on, preds)
		}
		return []string{del, insert}, nil
	case "merge":
		update, err := mergeUpdateColumns(n, cols)
		if err != nil {
			return nil, err
		}
		var sets, vals []string
		for _, c := range update {
			sets = append(sets, fmt.Sprintf("%s = %s.%s", compiler.Quote(c), source, compiler.Quote(c)))
		}
		for _, c := range cols {
			vals = append(vals, source+"."+compiler.Quote(c))
		}
		m := fmt.Sprintf("merge into %s as %s using %s as %s on (%s)%s", n.Relation, dest, tmp, source, on, preds)
		if len(sets) > 0 {
			m += " when matched then update set " + strings.Join(sets, ", ")
		}
		m += fmt.Sprintf(" when not matched then insert (%s) values (%s)", colList, strings.Join(vals, ", "))
		return []string{m}, nil
	}
	return nil, nil
}

// deletesFirst: the strategy's first statement deletes the rows the
// insert after it replaces (not counted as written).
func deletesFirst(n *compiler.Node) bool {
	return n.Config.IncrementalStrategy == "delete+insert" || n.Config.IncrementalStrategy == "microbatch"
}

// mergeUpdateColumns is the columns a merge updates: merge_update_columns
// when set (each must be one of the written columns), else every written
// column but the unique key and merge_exclude_columns (compared without
// case, as dbt does and as DuckDB's names are).
func mergeUpdateColumns(n *compiler.Node, cols []string) ([]string, error) {
	byName := map[string]string{}
	for _, c := range cols {
		byName[strings.ToLower(c)] = c
	}
	if len(n.Config.MergeUpdateColumns) > 0 {
		var out []string
		for _, c := range n.Config.MergeUpdateColumns {
			col, ok := byName[strings.ToLower(c)]
			if !ok {
				return nil, fmt.Errorf("%s: merge_update_columns column %q is not a column the model writes (%s)", n.Path, c, strings.Join(cols, ", "))
			}
			out = append(out, col)
		}
		return out, nil
	}
	skip := map[string]bool{}
	for _, k := range n.Config.UniqueKey {
		skip[strings.ToLower(k)] = true
	}
	for _, k := range n.Config.MergeExcludeColumns {
		skip[strings.ToLower(k)] = true
	}
	var out []string
	for _, c := range cols {
		if !skip[strings.ToLower(c)] {
			out = append(out, c)
		}
	}
	return out, nil
}
