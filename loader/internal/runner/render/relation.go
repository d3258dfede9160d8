package render

import (
	"fmt"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// Relation is a table reference usable as {{ this }} or {{ this.schema }}.
// Type is "table", "view" or "" (unknown), as dbt's Relation.type.
type Relation struct {
	Database, Schema, Identifier, Rendered string
	Type                                   string
	CTE                                    bool // an ephemeral model's CTE (is_cte)
}

func (r Relation) String() string { return r.Rendered }

// GetAttribute implements gonja's attribute lookup: dbt's BaseRelation
// fields and the methods dbt packages call on one.
func (r Relation) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "database":
		return exec.AsValue(r.Database), true
	case "schema":
		return exec.AsValue(r.Schema), true
	case "identifier", "name", "table":
		return exec.AsValue(r.Identifier), true
	case "type":
		if r.Type == "" {
			return exec.AsValue(nil), true
		}
		return exec.AsValue(r.Type), true
	case "is_cte":
		return exec.AsValue(r.CTE), true
	case "is_table", "is_view":
		return exec.AsValue(r.Type == strings.TrimPrefix(name, "is_")), true
	case "render":
		return exec.AsValue(func(*exec.VarArgs) (any, error) { return r.Rendered, nil }), true
	case "get":
		// a relation is a mapping to dbt packages (dbt_utils._is_relation
		// reads obj.get('metadata').get('type'))
		return exec.AsValue(Wrap(func(a Args) (any, error) {
			if len(a.Pos) > 0 && a.Pos[0] == "metadata" {
				return map[string]any{"type": "DuckDBRelation"}, nil
			}
			if len(a.Pos) > 1 {
				return a.Pos[1], nil
			}
			return nil, nil
		})), true
	case "incorporate", "include":
		// incorporate(type=...) / include(database=..., schema=...,
		// identifier=...): the same relation, its type updated; a
		// dropped part leaves the rendered name as it is otherwise
		return exec.AsValue(Wrap(func(a Args) (any, error) {
			out := r
			if t, ok := a.Kw["type"].(string); ok {
				out.Type = t
			}
			if path, ok := StringKeyed(a.Kw["path"]); ok {
				// incorporate(path={"identifier": ..., "schema": ...}): another name
				if v, ok := path["schema"].(string); ok {
					out.Schema = v
				}
				if v, ok := path["identifier"].(string); ok {
					out.Identifier = v
				}
				out.Rendered, out.CTE = relName(out.Schema, out.Identifier), false
			}
			if v, ok := a.Kw["database"].(bool); ok && !v && name == "include" {
				out.Rendered = relName(out.Schema, out.Identifier)
			}
			return out, nil
		})), true
	}
	// another attribute is Jinja2's Undefined, as dbt's relation gives it
	// (`this.x is defined` false, `this.x == none` false); it raises where
	// Jinja2's does. It was an error ("attribute 'x' not found").
	return &exec.Value{Undefined: true, UndefinedHint: fmt.Sprintf("'DuckDBRelation object' has no attribute '%s'", name)}, true
}

// relName is "schema"."name", quoted as docket quotes.
func relName(schema, ident string) string {
	return `"` + strings.ReplaceAll(schema, `"`, `""`) + `"."` + strings.ReplaceAll(ident, `"`, `""`) + `"`
}

// isMapping is Jinja's `mapping` test, true for a Relation too (dbt's
// relations are mappings).
func isMapping(ctx *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	if _, ok := in.Interface().(Relation); ok {
		return true, nil
	}
	return in.IsDict(), nil
}

// StringKeyed is v as a mapping with string keys (YAML gives
// map[string]any, a dict written in a template map[any]any).
func StringKeyed(v any) (map[string]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		return t, true
	case *Mapping:
		return t.Vals, true
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[fmt.Sprint(k)] = x
		}
		return out, true
	}
	return nil, false
}
