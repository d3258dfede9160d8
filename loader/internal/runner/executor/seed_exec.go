package executor

import (
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

func (x *nodeExec) seed() error {
	n := x.n
	t0 := time.Now()
	tmp := n.Alias + "__dbt_tmp"
	opts := compiler.SeedCSVOptions(n)
	existing, err := x.relationType(n.Schema, n.Alias)
	if err != nil {
		return err
	}
	if x.upToDate(existing, x.full || x.st.seedEdited(n.UniqueID)) {
		x.markUpToDate()
		return nil
	}
	x.exec("drop table if exists " + x.rel(tmp))
	stmt := fmt.Sprintf("create table %s as select * from read_csv('%s', %s)", x.rel(tmp),
		strings.ReplaceAll(n.SeedFile, "'", "''"), opts)
	x.timing("compile", t0)
	t1 := time.Now()
	defer x.timing("execute", t1)
	if _, err := x.exec(stmt); err != nil {
		x.exec("drop table if exists " + x.rel(tmp))
		return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: 1, Col: 1, Msg: "cannot load seed: " + compiler.FirstLine(err.Error())}}
	}
	if err := x.seedIntegers(x.rel(tmp)); err != nil {
		x.exec("drop table if exists " + x.rel(tmp))
		return err
	}
	rows, err := x.count(x.rel(tmp))
	if err != nil {
		return err
	}
	x.content = seedContent(x.ctx, x.c, x.rel(tmp))
	if err := x.swap(tmp, existing); err != nil {
		return err
	}
	x.r.Status = StatusSuccess
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", rows), RowsAffected: rows}
	x.r.Message = x.r.AdapterResponse.Message
	return nil
}

// seedIntegersRule names the typing of seedIntegers in a seed's
// fingerprint: a warehouse seeded before it (BIGINT columns) seeds again
// once.
const seedIntegersRule = "seed whole numbers: INTEGER where every value fits"

// seedIntegers types a seed's whole-number columns as dbt-duckdb does:
// dbt reads a seed with agate, which calls a column of whole numbers
// Integer, and the adapter creates it `integer`; DuckDB's CSV sniffer
// says BIGINT. A column column_types names keeps its type, and one with a
// value past INTEGER's range stays BIGINT (dbt-duckdb's insert would
// fail there).
func (x *nodeExec) seedIntegers(rel string) error {
	all, err := x.columns(rel)
	if err != nil {
		return err
	}
	typed := map[string]bool{}
	for k := range x.n.Config.ColumnTypes {
		typed[strings.ToLower(k)] = true
	}
	var cols []string
	for _, c := range all {
		if c.typ == "BIGINT" && !typed[strings.ToLower(c.name)] {
			cols = append(cols, c.name)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	var fits []string
	for _, c := range cols {
		q := compiler.Quote(c)
		fits = append(fits, fmt.Sprintf("coalesce(min(%s) >= -2147483648 and max(%s) <= 2147483647, true)", q, q))
	}
	ok := make([]any, len(cols))
	vals := make([]bool, len(cols))
	for i := range ok {
		ok[i] = &vals[i]
	}
	if err := x.c.QueryRowContext(x.ctx, "select "+strings.Join(fits, ", ")+" from "+rel).Scan(ok...); err != nil {
		return err
	}
	for i, c := range cols {
		if !vals[i] {
			continue
		}
		if _, err := x.exec("alter table " + rel + " alter column " + compiler.Quote(c) + " type integer"); err != nil {
			return err
		}
	}
	return nil
}
