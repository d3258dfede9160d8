package executor

import (
	"fmt"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// constrainedTable builds a contracted model's table with its
// constraints, as dbt does: create the table from the declared columns,
// then insert the model's rows by name (a row that breaks a constraint
// fails the build).
func (x *nodeExec) constrainedTable(tmp, body string) error {
	rel := x.rel(tmp)
	cols, err := x.describeQuery(body)
	if err != nil {
		return x.sqlErr(err, body, 0)
	}
	var order []string
	for _, c := range cols {
		order = append(order, c.Name)
	}
	if _, err := x.exec("create table " + rel + " " + x.n.ContractDDL(order)); err != nil {
		return fmt.Errorf("%s: constraints: %s", x.n.Path, compiler.FirstLine(err.Error()))
	}
	prefix := "insert into " + rel + " by name\n"
	stmt := prefix + sqlBody(body)
	if _, err := x.exec(stmt); err != nil {
		x.exec("drop table if exists " + rel)
		return x.sqlErr(err, stmt, 1)
	}
	return nil
}
