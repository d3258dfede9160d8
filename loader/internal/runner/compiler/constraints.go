package compiler

import (
	"encoding/json"
	"strings"

	"gopkg.in/yaml.v3"
)

// constraint is one dbt model or column constraint as written in YAML.
type constraint struct {
	typ     string   // not_null, unique, primary_key, check, foreign_key, custom
	name    string   // optional constraint name
	expr    string   // check: the boolean expression
	columns []string // the column (column-level) or columns (model-level)
	column  bool     // written under a column (its columns are that one)
	path    string
	at      Position
}

// appliedConstraints are the constraint types docket builds into a
// contracted table, as DuckDB enforces them; custom is its expression as
// written, after the column's type (column level) or as a table
// constraint, as dbt-adapters renders it for dbt-duckdb. foreign_key is
// left out: a table another table's foreign key references cannot be
// dropped in DuckDB, which every rebuild (a new table swapped in) does.
var appliedConstraints = map[string]bool{"not_null": true, "unique": true, "primary_key": true, "check": true, "custom": true}

// applicable: a check or custom constraint needs its expression; the others
// need columns.
func (c constraint) applicable() bool {
	switch c.typ {
	case "check", "custom":
		return strings.TrimSpace(c.expr) != ""
	}
	return len(c.columns) > 0
}

// readConstraints reads a `constraints:` list; column is "" at model level.
func (m *Manifest) readConstraints(path string, n *Node, column string, list *yaml.Node) {
	for _, c := range yseq(list) {
		k := constraint{typ: ystr(c, "type"), name: ystr(c, "name"), expr: ystr(c, "expression"), path: path, at: ypos(c)}
		if column != "" {
			k.columns, k.column = []string{column}, true
		} else {
			k.columns = strList(yany(yget(c, "columns")))
		}
		n.constraints = append(n.constraints, k)
	}
}

// checkConstraints warns, with file:line, about every constraint that a
// model's build will not apply: one of a type DuckDB does not enforce
// here, on a model without an enforced contract (as dbt, constraints go
// with the contract) or that is not built as a table.
func (m *Manifest) checkConstraints(n *Node) {
	if len(n.constraints) == 0 {
		return
	}
	enforced, _ := n.Contract["enforced"].(bool)
	for _, c := range n.constraints {
		if n.ResourceType != Model {
			m.warn(c.path, c.at, "%s %s: constraint %s is not applied (constraints apply to models)", n.ResourceType, n.Name, c.typ)
			continue
		}
		what := "constraint " + c.typ
		if len(c.columns) > 0 {
			what += " on " + strings.Join(c.columns, ", ")
		}
		switch {
		case !appliedConstraints[c.typ]:
			why := "docket applies not_null, unique, primary_key, check and custom"
			if c.typ == "foreign_key" {
				why = "DuckDB cannot drop a table a foreign key references, which every rebuild does"
			}
			m.warn(c.path, c.at, "model %s: %s is not applied (%s)", n.Name, what, why)
		case !enforced:
			m.warn(c.path, c.at, "model %s: %s is not applied: constraints apply with an enforced contract (config contract: {enforced: true}), as in dbt", n.Name, what)
		case n.Config.Materialized != "table" && n.Config.Materialized != "incremental":
			m.warn(c.path, c.at, "model %s: %s is not applied: a %s has no constraints (only tables do)", n.Name, what, n.Config.Materialized)
		case (c.typ == "check" || c.typ == "custom") && strings.TrimSpace(c.expr) == "":
			m.warn(c.path, c.at, "model %s: %s constraint without an expression is not applied", n.Name, c.typ)
		case !c.applicable():
			m.warn(c.path, c.at, "model %s: %s names no columns: not applied", n.Name, what)
		}
	}
}

// HasConstraints: the model's build applies constraints (an enforced
// Contract with at least one constraint).
func (n *Node) HasConstraints() bool {
	enforced, _ := n.Contract["enforced"].(bool)
	return enforced && len(n.constraints) > 0 && n.ResourceType == Model
}

// ContractDDL is the column list of `create table` for a contracted
// model: each declared column (in order, the order the SQL returns them)
// with its data_type and column-level constraints, then the model-level
// ones.
func (n *Node) ContractDDL(order []string) string {
	colCons := map[string][]string{}
	var tableCons []string
	named := func(c constraint, s string) string {
		if c.name != "" {
			return "constraint " + Quote(c.name) + " " + s
		}
		return s
	}
	for _, c := range n.constraints {
		if !appliedConstraints[c.typ] || !c.applicable() {
			continue
		}
		var cols []string
		for _, col := range c.columns {
			cols = append(cols, Quote(col))
		}
		switch {
		case c.typ == "not_null":
			for _, col := range c.columns {
				colCons[strings.ToLower(col)] = append(colCons[strings.ToLower(col)], "not null")
			}
		case c.typ == "check":
			tableCons = append(tableCons, named(c, "check ("+c.expr+")"))
		case c.typ == "custom" && c.column:
			col := strings.ToLower(c.columns[0])
			colCons[col] = append(colCons[col], strings.TrimSpace(c.expr))
		case c.typ == "custom":
			tableCons = append(tableCons, named(c, strings.TrimSpace(c.expr)))
		default: // unique, primary_key
			tableCons = append(tableCons, named(c, strings.ReplaceAll(c.typ, "_", " ")+" ("+strings.Join(cols, ", ")+")"))
		}
	}
	byLower := map[string]Column{}
	for _, c := range n.Columns {
		byLower[strings.ToLower(c.Name)] = c
	}
	var parts []string
	for _, name := range order {
		c, ok := byLower[strings.ToLower(name)]
		if !ok {
			continue // the contract check has refused the model already
		}
		parts = append(parts, strings.TrimSpace(Quote(c.Name)+" "+c.DataType+" "+strings.Join(colCons[strings.ToLower(c.Name)], " ")))
	}
	parts = append(parts, tableCons...)
	return "(\n  " + strings.Join(parts, ",\n  ") + "\n)"
}

// ContractDigest is what n's contract builds with: the contract config as
// written, each declared column's data type and the constraints docket
// applies. The build fingerprint includes it, so that editing a contract
// in YAML rebuilds the model (it was "up to date": the contract, the
// columns and the constraints were not in the fingerprint, and the table
// kept the old constraints in silence). "" when n has none.
func (n *Node) ContractDigest() string {
	if len(n.Contract) == 0 && len(n.constraints) == 0 {
		return ""
	}
	c, _ := json.Marshal(n.Contract)
	return string(c) + n.ContractDDL(SortedKeys(n.Columns))
}
