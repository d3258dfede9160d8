package executor

import (
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// snapshot runs one snapshot: the first run creates the history table from
// the query; later runs close the current rows that changed (or vanished,
// per hard_deletes) and insert their new versions, in one transaction.
func (x *nodeExec) snapshot() error {
	n, sc := x.n, x.n.SnapshotCfg
	t0 := time.Now()
	if existing, err := x.relationType(n.Schema, n.Alias); err != nil {
		return err
	} else if x.upToDate(existing, false) {
		x.r.Materialized = "snapshot"
		x.markUpToDate()
		return nil
	}
	body := sqlBody(x.m.Finish(n, n.CompiledCode, map[string]bool{}))
	x.r.CompiledCode = body
	x.r.Materialized = "snapshot"
	x.timing("compile", t0)
	t1 := time.Now()
	defer x.timing("execute", t1)
	if err := x.hooks(n.Config.PreHook, false); err != nil {
		return err
	}
	now := compiler.SnapshotNow().UTC().Format("2006-01-02 15:04:05.000000")
	nowLit := "'" + now + "'::timestamp"
	existing, err := x.relationType(n.Schema, n.Alias)
	if err != nil {
		return err
	}
	src := compiler.Quote("__dbt_snapshot_src_" + n.Alias)
	x.exec("drop table if exists temp.main." + src)
	stmt := "create temp table " + src + " as\n" + body
	if _, err := x.exec(stmt); err != nil {
		return x.sqlErr(err, stmt, 1)
	}
	defer x.exec("drop table if exists temp.main." + src)
	cols, err := x.columns("temp.main." + src)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, c := range cols {
		have[strings.ToLower(c.name)] = true
	}
	for _, k := range append(append([]string{}, sc.UniqueKey...), sc.UpdatedAt) {
		if k != "" && !have[strings.ToLower(k)] {
			return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: n.ConfigPos.Line, Col: n.ConfigPos.Col,
				Msg: fmt.Sprintf("snapshot %s: column %q is not in the snapshot's query (columns: %s)", n.Name, k, colNames(cols))}}
		}
	}
	var checkCols []string
	if sc.Strategy == "check" {
		if len(sc.CheckCols) == 1 && strings.EqualFold(sc.CheckCols[0], "all") {
			key := map[string]bool{}
			for _, k := range sc.UniqueKey {
				key[strings.ToLower(k)] = true
			}
			for _, c := range cols {
				if !key[strings.ToLower(c.name)] {
					checkCols = append(checkCols, c.name)
				}
			}
		} else {
			for _, c := range sc.CheckCols {
				if !have[strings.ToLower(c)] {
					return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: n.ConfigPos.Line, Col: n.ConfigPos.Col,
						Msg: fmt.Sprintf("snapshot %s: check_cols names %q, which is not in the query (columns: %s)", n.Name, c, colNames(cols))}}
				}
				checkCols = append(checkCols, c)
			}
		}
	}
	// The version's time: updated_at (timestamp) or the snapshot clock (check).
	stamp := func(alias string) string {
		if sc.Strategy == "timestamp" {
			return alias + "." + compiler.Quote(sc.UpdatedAt) + "::timestamp"
		}
		return nowLit
	}
	keyExpr := func(alias string) string {
		var parts []string
		for _, k := range sc.UniqueKey {
			parts = append(parts, "coalesce(cast("+alias+"."+compiler.Quote(k)+" as varchar), '')")
		}
		return strings.Join(parts, " || '|' || ")
	}
	scdID := func(alias, at string) string {
		return "md5(" + keyExpr(alias) + " || '|' || coalesce(cast(" + at + " as varchar), ''))"
	}
	keyJoin := func(a, b string) string {
		var parts []string
		for _, k := range sc.UniqueKey {
			parts = append(parts, a+"."+compiler.Quote(k)+" = "+b+"."+compiler.Quote(k))
		}
		return strings.Join(parts, " and ")
	}
	var srcCols []string
	for _, c := range cols {
		srcCols = append(srcCols, "s."+compiler.Quote(c.name))
	}
	meta := func(alias, at, deleted string) string {
		s := fmt.Sprintf("%s as dbt_scd_id, %s as dbt_updated_at, %s as dbt_valid_from, null::timestamp as dbt_valid_to", scdID(alias, at), at, at)
		if sc.HardDeletes == "new_record" {
			s += ", " + deleted + " as dbt_is_deleted"
		}
		return s
	}
	rel := n.Relation
	if existing == "" {
		stmt := fmt.Sprintf("create table %s as select %s, %s from temp.main.%s as s", rel, strings.Join(srcCols, ", "), meta("s", stamp("s"), "'False'"), src)
		if _, err := x.exec(stmt); err != nil {
			return x.sqlErr(err, stmt, 0)
		}
		rows, _ := x.count(rel)
		x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", rows), RowsAffected: rows}
		x.r.Message = x.r.AdapterResponse.Message
		x.r.Status = StatusSuccess
		return x.hooks(n.Config.PostHook, false)
	}
	if existing != "BASE TABLE" {
		return fmt.Errorf("snapshot %s: %s exists and is not a table (%s)", n.Name, rel, existing)
	}
	// New columns in the query join the history (older versions get null).
	snapCols, err := x.columns(rel)
	if err != nil {
		return err
	}
	inSnap := map[string]bool{}
	for _, c := range snapCols {
		inSnap[strings.ToLower(c.name)] = true
	}
	var steps []string
	for _, c := range cols {
		if !inSnap[strings.ToLower(c.name)] {
			steps = append(steps, fmt.Sprintf("alter table %s add column %s %s", rel, compiler.Quote(c.name), c.typ))
		}
	}
	current := "t.dbt_valid_to is null"
	notDeleted := ""
	if sc.HardDeletes == "new_record" {
		notDeleted = " and t.dbt_is_deleted = 'False'"
	}
	var changed string
	if sc.Strategy == "timestamp" {
		changed = fmt.Sprintf("%s > t.dbt_updated_at", stamp("s"))
	} else {
		var ds []string
		for _, c := range checkCols {
			ds = append(ds, "s."+compiler.Quote(c)+" is distinct from t."+compiler.Quote(c))
		}
		changed = "(" + strings.Join(ds, " or ") + ")"
	}
	// Rows to insert: new keys, changed keys, and (new_record) keys whose
	// current version is a deletion record and that came back.
	insertWhere := fmt.Sprintf(`not exists (select 1 from %[1]s as t where %[2]s and %[3]s%[4]s)
		or exists (select 1 from %[1]s as t where %[2]s and %[3]s%[4]s and %[5]s)`, rel, current, keyJoin("t", "s"), notDeleted, changed)
	staged := compiler.Quote("__dbt_snapshot_new_" + n.Alias)
	steps = append(steps, "begin",
		fmt.Sprintf("create or replace temp table %s as select %s, %s from temp.main.%s as s where %s", staged, strings.Join(srcCols, ", "), meta("s", stamp("s"), "'False'"), src, insertWhere),
		// Close the current versions of the keys that get a new one.
		fmt.Sprintf("update %s as t set dbt_valid_to = s.dbt_valid_from from temp.main.%s as s where %s and %s", rel, staged, current, keyJoin("t", "s")))
	if sc.HardDeletes != "ignore" {
		gone := fmt.Sprintf("%s%s and not exists (select 1 from temp.main.%s as s where %s)", current, notDeleted, src, keyJoin("t", "s"))
		if sc.HardDeletes == "new_record" {
			// A deletion record repeats the last version's columns.
			var tcols []string
			for _, c := range snapCols {
				if !strings.HasPrefix(strings.ToLower(c.name), "dbt_") {
					tcols = append(tcols, "t."+compiler.Quote(c.name))
				}
			}
			steps = append(steps, fmt.Sprintf("insert into %s by name select %s, %s from %s as t where %s", rel, strings.Join(tcols, ", "), meta("t", nowLit, "'True'"), rel, gone))
			// The insert above added current rows for the deleted keys; close
			// the version they replace (the one that is not a deletion record).
			steps = append(steps, fmt.Sprintf("update %s as t set dbt_valid_to = %s where %s and t.dbt_is_deleted = 'False' and not exists (select 1 from temp.main.%s as s where %s)",
				rel, nowLit, current, src, keyJoin("t", "s")))
		} else {
			steps = append(steps, fmt.Sprintf("update %s as t set dbt_valid_to = %s where %s", rel, nowLit, gone))
		}
	}
	steps = append(steps, fmt.Sprintf("insert into %s by name select * from temp.main.%s", rel, staged), "commit")
	var inserted int64
	for _, s := range steps {
		k, err := x.exec(s)
		if err != nil {
			x.exec("rollback")
			x.exec("drop table if exists temp.main." + staged)
			return x.sqlErr(err, s, 0)
		}
		if strings.HasPrefix(s, "insert into "+rel) {
			inserted += k
		}
	}
	x.exec("drop table if exists temp.main." + staged)
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", inserted), RowsAffected: inserted}
	x.r.Message = x.r.AdapterResponse.Message
	x.r.Status = StatusSuccess
	return x.hooks(n.Config.PostHook, false)
}

func colNames(cols []colDef) string {
	var s []string
	for _, c := range cols {
		s = append(s, c.name)
	}
	return strings.Join(s, ", ")
}
