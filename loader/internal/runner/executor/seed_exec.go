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
