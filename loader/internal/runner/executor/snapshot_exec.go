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
	} else if err := x.historyLeftBehind(existing); err != nil {
		return err
	} else if x.upToDate(existing, false) {
		x.r.Materialized = "snapshot"
		x.markUpToDate()
		return nil
	}
	body := sqlBody(n.CompiledCode)
	x.r.CompiledCode = body
	x.r.Materialized = "snapshot"
	x.timing("compile", t0)
	t1 := time.Now()
	defer x.timing("execute", t1)
	if err := x.preHooks(false); err != nil {
		return err
	}
	if err := x.sqlHeader(); err != nil {
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
	q := snapSQL{sc: sc, nowLit: nowLit, rel: n.Relation, src: src, cols: cols}
	checkCols, err := q.checkColumns(n)
	if err != nil {
		return err
	}
	rel := n.Relation
	if existing == "" {
		stmt := fmt.Sprintf("create table %s as select %s, %s from temp.main.%s as s", rel, q.srcCols(), q.meta("s", q.stamp("s"), "'False'"), src)
		if _, err := x.exec(stmt); err != nil {
			return x.snapErr(err, "creating the snapshot table "+rel)
		}
		rows, _ := x.count(rel)
		x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", rows), RowsAffected: rows}
		x.r.Message = x.r.AdapterResponse.Message
		x.r.Status = StatusSuccess
		return x.postHooks(false)
	}
	if existing != "BASE TABLE" {
		return fmt.Errorf("snapshot %s: %s exists and is not a table (%s)", n.Name, rel, existing)
	}
	snapCols, err := x.columns(rel)
	if err != nil {
		return err
	}
	staged := compiler.Quote("__dbt_snapshot_new_" + n.Alias)
	steps := q.updateSteps(staged, snapCols, checkCols)
	var inserted int64
	for _, s := range steps {
		k, err := x.exec(s.sql)
		if err != nil {
			x.exec("rollback")
			x.exec("drop table if exists temp.main." + staged)
			return x.snapErr(err, s.what)
		}
		if strings.HasPrefix(s.sql, "insert into "+rel) {
			inserted += k
		}
	}
	x.exec("drop table if exists temp.main." + staged)
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", inserted), RowsAffected: inserted}
	x.r.Message = x.r.AdapterResponse.Message
	x.r.Status = StatusSuccess
	return x.postHooks(false)
}

// snapErr is a DuckDB error from a statement docket writes around the
// snapshot's query (the query itself ran): placed at the snapshot's
// strategy config in its own file and saying which step failed (what),
// not at a line and column of a statement the user never sees (it was
// target/compiled/<snapshot>.sql:2:90, a blank line of the compiled query).
func (x *nodeExec) snapErr(err error, what string) error {
	at := x.n.KeyPos("strategy")
	return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: x.n.Path, Line: at.Line, Col: at.Col,
		Msg: fmt.Sprintf("snapshot %s: %s: %s", x.n.Name, what, compiler.FirstLine(err.Error()))}}
}

// snapStep is one statement of a later snapshot run and what it does.
type snapStep struct{ sql, what string }

func colNames(cols []colDef) string {
	var s []string
	for _, c := range cols {
		s = append(s, c.name)
	}
	return strings.Join(s, ", ")
}

// snapSQL writes a snapshot's statements.
type snapSQL struct {
	sc     *compiler.SnapshotConfig
	nowLit string   // the snapshot clock, a timestamp literal
	rel    string   // the snapshot table
	src    string   // the temp table of the query's rows
	cols   []colDef // the query's columns
}

// checkColumns checks that the unique key and updated_at are columns of
// the query and returns the columns the check strategy compares.
func (q snapSQL) checkColumns(n *compiler.Node) ([]string, error) {
	sc, cols := q.sc, q.cols
	have := map[string]bool{}
	for _, c := range cols {
		have[strings.ToLower(c.name)] = true
	}
	for i, k := range append(append([]string{}, sc.UniqueKey...), sc.UpdatedAt) {
		key := "unique_key"
		if i == len(sc.UniqueKey) {
			key = "updated_at"
		}
		if at := n.KeyPos(key); k != "" && !have[strings.ToLower(k)] {
			return nil, &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col,
				Msg: fmt.Sprintf("snapshot %s: column %q is not in the snapshot's query (columns: %s)", n.Name, k, colNames(cols))}}
		}
	}
	for _, c := range cols {
		if (snapSQL{sc: sc}).isMeta(c.name) {
			at := n.KeyPos("snapshot_meta_column_names")
			return nil, &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col,
				Msg: fmt.Sprintf("snapshot %s: the query has a column %q, the name of a meta column the snapshot writes: rename it in the query or in snapshot_meta_column_names", n.Name, c.name)}}
		}
	}
	var checkCols []string
	if sc.Strategy != "check" {
		return nil, nil
	}
	if len(sc.CheckCols) == 1 && strings.EqualFold(sc.CheckCols[0], "all") {
		// every column of the query, the unique key's too, as dbt's
		// snapshot_check_all_get_existing_columns: a key column compares
		// equal on the join, and a key of every column still compares
		for _, c := range cols {
			checkCols = append(checkCols, c.name)
		}
		return checkCols, nil
	}
	for _, c := range sc.CheckCols {
		if !have[strings.ToLower(c)] {
			at := n.KeyPos("check_cols")
			return nil, &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col,
				Msg: fmt.Sprintf("snapshot %s: check_cols names %q, which is not in the query (columns: %s)", n.Name, c, colNames(cols))}}
		}
		checkCols = append(checkCols, c)
	}
	return checkCols, nil
}

// stamp is the version's time: updated_at as the query has it, a DATE
// staying a DATE (dbt's build_snapshot_table selects it as dbt_updated_at
// and dbt_valid_from), or, for a check snapshot that names none, the
// snapshot clock (dbt's snapshot_check_strategy: updated_at =
// config.get('updated_at', snapshot_get_time())).
func (q snapSQL) stamp(alias string) string {
	if q.stampIsColumn() {
		return alias + "." + compiler.Quote(q.sc.UpdatedAt)
	}
	return q.nowLit
}

// stampIsColumn: the versions' time is the query's updated_at column.
func (q snapSQL) stampIsColumn() bool {
	return q.sc.Strategy == "timestamp" || q.sc.UpdatedAt != ""
}

func (q snapSQL) keyExpr(alias string) string {
	var parts []string
	for _, k := range q.sc.UniqueKey {
		parts = append(parts, "coalesce(cast("+alias+"."+compiler.Quote(k)+" as varchar), '')")
	}
	return strings.Join(parts, " || '|' || ")
}

func (q snapSQL) scdID(alias, at string) string {
	return "md5(" + q.keyExpr(alias) + " || '|' || coalesce(cast(" + at + " as varchar), ''))"
}

func (q snapSQL) keyJoin(a, b string) string {
	var parts []string
	for _, k := range q.sc.UniqueKey {
		parts = append(parts, a+"."+compiler.Quote(k)+" = "+b+"."+compiler.Quote(k))
	}
	return strings.Join(parts, " and ")
}

// srcCols lists the query's columns from alias s.
func (q snapSQL) srcCols() string {
	var srcCols []string
	for _, c := range q.cols {
		srcCols = append(srcCols, "s."+compiler.Quote(c.name))
	}
	return strings.Join(srcCols, ", ")
}

// validTo is what a current version read from alias holds in
// dbt_valid_to, as dbt's get_dbt_valid_to_current writes it:
// coalesce(nullif(updated_at, updated_at), dbt_valid_to_current), a null
// of the stamp's type (updated_at's, or a timestamp for check) or the
// expression (its type and the stamp's common one).
func (q snapSQL) validTo(alias string) string {
	null := "null::timestamp"
	if q.stampIsColumn() {
		null = "nullif(" + q.stamp(alias) + ", " + q.stamp(alias) + ")"
	}
	if q.sc.ValidToCurrent == "" {
		return null
	}
	return "coalesce(" + null + ", (" + q.sc.ValidToCurrent + "))"
}

// meta is the meta columns of a version valid from at.
func (q snapSQL) meta(alias, at, deleted string) string {
	nm := q.names()
	s := fmt.Sprintf("%s as %s, %s as %s, %s as %s, %s as %s", q.scdID(alias, at), nm.ScdID, at, nm.UpdatedAt, at, nm.ValidFrom, q.validTo(alias), nm.ValidTo)
	if q.sc.HardDeletes == "new_record" {
		s += ", " + deleted + " as " + nm.IsDeleted
	}
	return s
}

// names is the meta columns' names (snapshot_meta_column_names), quoted.
func (q snapSQL) names() compiler.SnapshotNames {
	nm := q.sc.MetaNames()
	return compiler.SnapshotNames{ScdID: compiler.Quote(nm.ScdID), UpdatedAt: compiler.Quote(nm.UpdatedAt), ValidFrom: compiler.Quote(nm.ValidFrom),
		ValidTo: compiler.Quote(nm.ValidTo), IsDeleted: compiler.Quote(nm.IsDeleted)}
}

// isMeta: column c is one of the meta columns (not the query's).
func (q snapSQL) isMeta(c string) bool {
	nm := q.sc.MetaNames()
	for _, m := range []string{nm.ScdID, nm.UpdatedAt, nm.ValidFrom, nm.ValidTo, nm.IsDeleted} {
		if strings.EqualFold(c, m) {
			return true
		}
	}
	return false
}

// updateSteps are a later run's statements, one transaction: new columns
// of the query join the history (older versions get null), the new
// versions are staged in the temp table staged, the current versions
// they replace are closed, deletions handled per hard_deletes, and the
// new versions inserted.
func (q snapSQL) updateSteps(staged string, snapCols []colDef, checkCols []string) []snapStep {
	sc, rel, src, nowLit := q.sc, q.rel, q.src, q.nowLit
	inSnap := map[string]bool{}
	for _, c := range snapCols {
		inSnap[strings.ToLower(c.name)] = true
	}
	var steps []snapStep
	for _, c := range q.cols {
		if !inSnap[strings.ToLower(c.name)] {
			steps = append(steps, snapStep{fmt.Sprintf("alter table %s add column %s %s", rel, compiler.Quote(c.name), c.typ),
				fmt.Sprintf("adding the query's new column %s (%s) to %s", c.name, c.typ, rel)})
		}
	}
	nm := q.names()
	current := "t." + nm.ValidTo + " is null"
	if sc.ValidToCurrent != "" {
		current = "(t." + nm.ValidTo + " is null or t." + nm.ValidTo + " = (" + sc.ValidToCurrent + "))"
	}
	notDeleted := ""
	if sc.HardDeletes == "new_record" {
		notDeleted = " and t." + nm.IsDeleted + " = 'False'"
	}
	var changed string
	if sc.Strategy == "timestamp" {
		changed = fmt.Sprintf("%s > t.%s", q.stamp("s"), nm.UpdatedAt)
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
		or exists (select 1 from %[1]s as t where %[2]s and %[3]s%[4]s and %[5]s)`, rel, current, q.keyJoin("t", "s"), notDeleted, changed)
	steps = append(steps, snapStep{"begin", "starting the update's transaction"},
		snapStep{fmt.Sprintf("create or replace temp table %s as select %s, %s from temp.main.%s as s where %s", staged, q.srcCols(), q.meta("s", q.stamp("s"), "'False'"), src, insertWhere),
			"comparing the query's rows with the current versions in " + rel},
		// Close the current versions of the keys that get a new one: those
		// older than it (dbt's updates pair each source row with each current
		// version it changed; a query that repeats a key with an older and a
		// newer row leaves the newer version current), or a deletion record.
		snapStep{fmt.Sprintf("update %s as t set %s = s.%s from temp.main.%s as s where %s and %s and %s", rel, nm.ValidTo, nm.ValidFrom, staged, current, q.keyJoin("t", "s"), q.older(nm)),
			"closing the versions that changed in " + rel})
	if sc.HardDeletes != "ignore" {
		gone := fmt.Sprintf("%s%s and not exists (select 1 from temp.main.%s as s where %s)", current, notDeleted, src, q.keyJoin("t", "s"))
		if sc.HardDeletes == "new_record" {
			// A deletion record repeats the last version's columns.
			var tcols []string
			for _, c := range snapCols {
				if !q.isMeta(c.name) {
					tcols = append(tcols, "t."+compiler.Quote(c.name))
				}
			}
			steps = append(steps, snapStep{fmt.Sprintf("insert into %s by name select %s, %s from %s as t where %s", rel, strings.Join(tcols, ", "), q.meta("t", nowLit, "'True'"), rel, gone),
				"recording the deleted rows in " + rel})
			// The insert above added current rows for the deleted keys; close
			// the version they replace (the one that is not a deletion record).
			steps = append(steps, snapStep{fmt.Sprintf("update %s as t set %s = %s where %s and t.%s = 'False' and not exists (select 1 from temp.main.%s as s where %s)",
				rel, nm.ValidTo, nowLit, current, nm.IsDeleted, src, q.keyJoin("t", "s")), "closing the deleted rows' versions in " + rel})
		} else {
			steps = append(steps, snapStep{fmt.Sprintf("update %s as t set %s = %s where %s", rel, nm.ValidTo, nowLit, gone),
				"closing the deleted rows' versions in " + rel})
		}
	}
	// A version that is current already (the same key and stamp: its
	// dbt_scd_id) is not inserted twice, as dbt's merge on dbt_scd_id
	// inserts only what it does not match.
	steps = append(steps, snapStep{fmt.Sprintf("insert into %[1]s by name select * from temp.main.%[2]s as s where not exists (select 1 from %[1]s as t where %[3]s and t.%[4]s = s.%[4]s)", rel, staged, current, nm.ScdID), "inserting the new versions into " + rel},
		snapStep{"commit", "committing the update"})
	return steps
}

// older: current version t is older than staged version s, or t is a
// deletion record (hard_deletes: new_record). A check snapshot closes
// every current version of a key that changed (its stamp, the run's clock
// or an updated_at that need not move, says nothing of order).
func (q snapSQL) older(nm compiler.SnapshotNames) string {
	if q.sc.Strategy != "timestamp" {
		return "true"
	}
	c := fmt.Sprintf("t.%[1]s < s.%[1]s", nm.UpdatedAt)
	if q.sc.HardDeletes == "new_record" {
		c = fmt.Sprintf("(%s or t.%s = 'True')", c, nm.IsDeleted)
	}
	return c
}

// historyLeftBehind stops a snapshot about to start a new history (its
// relation does not exist) while a snapshot table of its name is where
// docket built it before following dbt 1.9's schema rules (1fb1376: a
// dbt project's snapshot went to snapshots, or its schema as written):
// starting afresh would leave that history behind in silence.
func (x *nodeExec) historyLeftBehind(existing string) error {
	n := x.n
	old := n.SnapshotCfg.LegacySchema
	if existing != "" || old == "" || strings.EqualFold(old, n.Schema) {
		return nil
	}
	var k int
	err := x.c.QueryRowContext(x.ctx, "select count(*) from information_schema.columns where table_catalog = current_database() and table_schema = ? and table_name = ? and lower(column_name) = lower(?)", old, n.Alias, n.SnapshotCfg.MetaNames().ScdID).Scan(&k)
	if err != nil || k == 0 {
		return err
	}
	was := compiler.Relation(old, n.Alias)
	return fmt.Errorf("snapshot %s: its history is in %s, where docket built it before following dbt 1.9's schema rules; it now goes to %s. "+
		"Move it there (create table %s as select * from %s, then drop table %s) or set target_schema: %s; a new snapshot would start without that history",
		n.Name, was, n.Relation, n.Relation, was, was, old)
}
