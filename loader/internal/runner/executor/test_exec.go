package executor

import (
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

func (x *nodeExec) test() error {
	n := x.n
	if missing, err := x.missingParents(); err != nil {
		return err
	} else if len(missing) > 0 {
		x.r.Status = StatusSkipped
		x.r.Message = fmt.Sprintf("skipped: reads %s, which this run does not build and which does not exist yet", strings.Join(missing, ", "))
		return nil
	}
	if x.upToDate("", false) {
		x.markUpToDate()
		return nil
	}
	body := sqlBody(n.CompiledCode)
	x.r.CompiledCode = n.CompiledCode
	if n.ReadsDatabase() {
		code, err := x.renderWithDB(false)
		if err != nil {
			return err
		}
		body, x.r.CompiledCode = sqlBody(code), code
	}
	if x.scope = x.scopeOf(); x.scope != nil {
		if scoped, what, ok := x.scopedSQL(x.scope); ok {
			body = sqlBody(scoped)
			x.r.CompiledCode = scoped
			x.r.Scoped = what
		}
	}
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
	if err := x.c.QueryRowContext(x.ctx, catalogInfoSchema(x.ctx, x.c, stmt)).Scan(&failures, &shouldWarn, &shouldError); err != nil {
		prefix := strings.Count(stmt[:strings.Index(stmt, inner)], "\n")
		return x.sqlErr(err, stmt, prefix)
	}
	x.r.Failures = &failures
	x.r.AdapterResponse = AdapterResponse{Message: "SELECT", RowsAffected: failures}
	stored, err := x.storeFailures(body)
	if err != nil {
		return err
	}
	defer func() {
		if stored != "" && (x.r.Status == StatusFail || x.r.Status == StatusWarn) {
			x.r.Message += "; failing rows in " + stored
		}
	}()
	switch {
	case n.Config.Severity != "warn" && shouldError:
		x.r.Status = StatusFail
	case shouldWarn && x.opts.WarnError:
		x.r.Status = StatusFail // dbt's --warn-error: a test that warns fails
	case shouldWarn:
		x.r.Status = StatusWarn
	default:
		x.r.Status = StatusPass
		x.r.Message = x.r.Scoped
		return nil
	}
	if shouldWarn && !(n.Config.Severity != "warn" && shouldError) && x.opts.WarnError {
		x.r.Message = fmt.Sprintf("Got %d result%s, configured to warn if %s; a failure under --warn-error", failures, plural(failures), warnIf)
	} else {
		x.r.Message = fmt.Sprintf("Got %d result%s, configured to %s if %s", failures, plural(failures),
			map[string]string{StatusWarn: "warn", StatusFail: "fail"}[x.r.Status], map[string]string{StatusWarn: warnIf, StatusFail: errorIf}[x.r.Status])
	}
	if x.r.Scoped != "" {
		x.r.Message += " (" + x.r.Scoped + ")"
	}
	x.r.Sample = x.sample("select * from (\n" + body + "\n) as dbt_internal_test limit 5")
	return nil
}

// build and that are not in the warehouse (a per-layer build right after
// the first load): the test cannot run yet, which is not a failure.
func (x *nodeExec) missingParents() ([]string, error) {
	var out []string
	for _, id := range x.n.DependsOn.Nodes {
		if x.built[id] || x.m.Deferred(id) != "" {
			continue
		}
		p := x.m.Node(id)
		if p == nil || (p.ResourceType == compiler.Model && p.Config.Materialized == "ephemeral") || p.ReadsFiles() {
			continue // a CTE, or files read where the test runs (no relation to look for)
		}
		if p.ResourceType == compiler.Source && !p.LoaderOwned && len(x.m.Parents[id]) == 0 {
			// a source nothing builds (neither docket load nor a seed or
			// model of the project): absent, it is missing data, and the
			// test errors on it as dbt's does; skipping it let a build
			// with no raw data say it completed successfully
			continue
		}
		var typ string
		var err error
		switch db := x.m.AttachedDB(p); {
		case p.ResourceType == compiler.Source && p.Database != "" && !strings.EqualFold(p.Database, x.m.Database()):
			// a source in an attached database (sources: database:)
			typ, err = x.queryCatalogRelationType(p.Database, p.Schema, p.Alias)
		case p.ResourceType == compiler.Source:
			typ, err = x.queryRelationType(p.Schema, p.Alias) // a seed of this run may have made it
		case db != "":
			typ, err = x.queryCatalogRelationType(db, p.Schema, p.Alias) // built in an attached database
		default:
			typ, err = x.relationType(p.Schema, p.Alias)
		}
		if err != nil {
			return nil, err
		}
		if typ == "" {
			out = append(out, strings.ReplaceAll(p.Relation, `"`, ""))
		}
	}
	return out, nil
}

// storeFailures keeps a test's failing rows as dbt's store_failures does:
// a table (or view, store_failures_as) named after the test in its audit
// schema (<target schema>_dbt_test__audit unless its schema config or
// generate_schema_name say otherwise), replaced on every run. It
// returns the relation ("" when the test does not store failures).
func (x *nodeExec) storeFailures(body string) (string, error) {
	c := x.n.Config
	as := c.StoreFailuresAs
	if as == "" && c.StoreFailures {
		as = "table"
	}
	if as == "" || as == "ephemeral" {
		return "", nil
	}
	schema := x.n.AuditSchema
	rel := compiler.Relation(schema, x.n.Alias)
	qs := []string{"create schema if not exists " + compiler.Quote(schema)}
	// the other kind left by an earlier run (store_failures_as changed) is
	// dropped; "drop view if exists" of a table is an error in DuckDB, so
	// every second run of a stored test failed when it was always written
	typ, err := x.queryRelationType(schema, x.n.Alias)
	if err != nil {
		return "", fmt.Errorf("store_failures: %s: %v", rel, err)
	}
	if (typ == "VIEW") != (as == "view") && typ != "" {
		qs = append(qs, "drop "+map[bool]string{true: "view", false: "table"}[typ == "VIEW"]+" "+rel)
	}
	for _, q := range append(qs, "create or replace "+as+" "+rel+" as\n"+body) {
		if _, err := x.exec(q); err != nil {
			return "", fmt.Errorf("store_failures: %s: %v", rel, err)
		}
	}
	return rel, nil
}
