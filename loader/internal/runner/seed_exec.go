package runner

import (
	"fmt"
	"strings"
	"time"
)

func (x *nodeExec) seed() error {
	n := x.n
	t0 := time.Now()
	tmp := n.Alias + "__dbt_tmp"
	opts := seedCSVOptions(n)
	existing, err := x.relationType(n.Schema, n.Alias)
	if err != nil {
		return err
	}
	if x.upToDate(existing, x.full) {
		x.markUpToDate()
		return nil
	}
	x.exec("drop table if exists " + Relation(n.Schema, tmp))
	stmt := fmt.Sprintf("create table %s as select * from read_csv('%s', %s)", Relation(n.Schema, tmp),
		strings.ReplaceAll(n.seedFile, "'", "''"), opts)
	x.timing("compile", t0)
	t1 := time.Now()
	defer x.timing("execute", t1)
	if _, err := x.exec(stmt); err != nil {
		x.exec("drop table if exists " + Relation(n.Schema, tmp))
		return &diagErr{Diagnostic{Path: n.Path, Line: 1, Col: 1, Msg: "cannot load seed: " + firstLine(err.Error())}}
	}
	rows, err := x.count(Relation(n.Schema, tmp))
	if err != nil {
		return err
	}
	if err := x.swap(tmp, existing); err != nil {
		return err
	}
	x.r.Status = StatusSuccess
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", rows), RowsAffected: rows}
	x.r.Message = x.r.AdapterResponse.Message
	return nil
}

// seedCSVOptions are read_csv's options for a seed (its column_types).
func seedCSVOptions(n *Node) string {
	opts := "header = true, auto_detect = true"
	if len(n.Config.ColumnTypes) > 0 {
		var kv []string
		for _, k := range sortedKeys(n.Config.ColumnTypes) {
			kv = append(kv, fmt.Sprintf("'%s': '%s'", strings.ReplaceAll(k, "'", "''"), strings.ReplaceAll(n.Config.ColumnTypes[k], "'", "''")))
		}
		opts += ", types = {" + strings.Join(kv, ", ") + "}"
	}
	return opts
}
