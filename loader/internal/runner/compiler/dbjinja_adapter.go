package compiler

import (
	"fmt"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// schemaAdapter adds dbt's schema and relation methods that write:
// adapter.create_schema, drop_schema, rename_relation, truncate_relation,
// check_schema_exists and list_schemas (dbt-tests-adapter's adapter
// methods). need flags a render without a connection (dbFuncs).
func (rc *renderCtx) schemaAdapter(adapter map[string]any, need func(any) (any, error)) {
	rel := func(a render.Args, i int, method string) (render.Relation, error) {
		if i >= len(a.Pos) {
			return render.Relation{}, fmt.Errorf("adapter.%s() needs a relation", method)
		}
		r, ok := relationArg(a.Pos[i])
		if !ok {
			return render.Relation{}, fmt.Errorf("adapter.%s(%v): not a relation", method, a.Pos[i])
		}
		return r, nil
	}
	exec := func(method string, f func(a render.Args) (string, error)) render.Func {
		return render.Wrap(func(a render.Args) (any, error) {
			if rc.db == nil {
				return need("")
			}
			q, err := f(a)
			if err != nil {
				return nil, err
			}
			return "", rc.db.q.Exec(rc.db.ctx, q)
		})
	}
	adapter["create_schema"] = exec("create_schema", func(a render.Args) (string, error) {
		r, err := rel(a, 0, "create_schema")
		return "create schema if not exists " + Quote(r.Schema), err
	})
	adapter["drop_schema"] = exec("drop_schema", func(a render.Args) (string, error) {
		r, err := rel(a, 0, "drop_schema")
		return "drop schema if exists " + Quote(r.Schema) + " cascade", err
	})
	adapter["truncate_relation"] = exec("truncate_relation", func(a render.Args) (string, error) {
		r, err := rel(a, 0, "truncate_relation")
		return "truncate " + Relation(r.Schema, r.Identifier), err
	})
	adapter["rename_relation"] = exec("rename_relation", func(a render.Args) (string, error) {
		from, err := rel(a, 0, "rename_relation")
		if err != nil {
			return "", err
		}
		to, err := rel(a, 1, "rename_relation")
		kind := from.Type
		if kind == "" { // api.Relation.create without a type: ask the warehouse
			_, rows, _ := rc.db.q.Query(rc.db.ctx, `select table_type from information_schema.tables
				where `+catalogIs("table_catalog")+` and table_schema = ? and table_name = ?`, from.Database, from.Schema, from.Identifier)
			if len(rows) > 0 && fmt.Sprint(rows[0][0]) == "VIEW" {
				kind = "view"
			}
		}
		if kind != "view" {
			kind = "table"
		}
		return "alter " + kind + " " + Relation(from.Schema, from.Identifier) + " rename to " + Quote(to.Identifier), err
	})
	adapter["check_schema_exists"] = render.Wrap(func(a render.Args) (any, error) {
		if rc.db == nil {
			return need(false)
		}
		if len(a.Pos) < 2 {
			return nil, fmt.Errorf("adapter.check_schema_exists() needs a database and a schema")
		}
		_, rows, err := rc.db.q.Query(rc.db.ctx, `select 1 from information_schema.schemata
			where `+catalogIs("catalog_name")+` and schema_name = ?`, fmt.Sprint(a.Pos[0]), fmt.Sprint(a.Pos[1]))
		return err == nil && len(rows) > 0, err
	})
	adapter["list_schemas"] = render.Wrap(func(a render.Args) (any, error) {
		if rc.db == nil {
			return need([]any{})
		}
		var db any
		if len(a.Pos) > 0 && a.Pos[0] != nil {
			db = fmt.Sprint(a.Pos[0])
		}
		_, rows, err := rc.db.q.Query(rc.db.ctx, `select schema_name from information_schema.schemata
			where `+catalogIs("catalog_name")+` order by 1`, db)
		out := []any{}
		for _, r := range rows {
			out = append(out, fmt.Sprint(r[0]))
		}
		return out, err
	})
}
