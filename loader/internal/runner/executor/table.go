package executor

import (
	"fmt"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

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
	steps = append(steps, "alter table "+x.rel(tmp)+" rename to "+compiler.Quote(n.Alias), "record", "commit")
	for _, s := range steps {
		var err error
		if s == "record" {
			err = x.recordInTxn(true)
		} else {
			_, err = x.exec(s)
		}
		if err != nil {
			x.exec("rollback")
			x.exec("drop table if exists " + x.rel(tmp))
			return fmt.Errorf("swap %s into place: %s", n.Relation, compiler.FirstLine(err.Error()))
		}
	}
	return nil
}

func (x *nodeExec) table(body, existing string) error {
	n := x.n
	tmp := n.Alias + "__dbt_tmp"
	if _, err := x.exec("drop table if exists " + x.rel(tmp)); err != nil {
		return err
	}
	if n.HasConstraints() || x.contractCast {
		if err := x.constrainedTable(tmp, body); err != nil {
			return err
		}
	} else {
		prefix := "create table " + x.rel(tmp) + " as\n"
		stmt := prefix + sqlBody(body)
		if _, err := x.exec(stmt); err != nil {
			x.exec("drop table if exists " + x.rel(tmp))
			return x.sqlErr(err, stmt, 1)
		}
	}
	rows, err := x.count(x.rel(tmp))
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
