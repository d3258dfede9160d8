package compiler

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// jinjaArgRe is a test argument dbt evaluates as Jinja: ref(...) or source(...).
var jinjaArgRe = regexp.MustCompile(`^\s*(ref|source)\s*\(.*\)\s*$`)

// testCall is one generic test to render with a {% test %} macro.
type testCall struct {
	kind   string // the test's name: not_negative, or dbt_utils.expression_is_true
	parent *Node  // the model, seed, snapshot or source tested
	column string // column_name ("" for a model-level test)
	args   map[string]any
	// where, when set, filters the model as dbt does: {{ model }}
	// renders as (select * from model where ...) dbt_subquery
	where string
}

// macroTest is a generic test rendered at parse by its test macro.
type macroTest struct {
	sql  string
	refs [][]string // ref() calls: the model when ephemeral, and the arguments'
	// sources are the source() calls of the arguments and the macro
	sources [][]string
	cfg     map[string]any // the test macro's own config() calls
	calls   *render.Calls  // the macros it called
	call    *testRender    // the call, to render again when compiled and at run time
	// needsDB: the macro read the database (run_query, ...)
	needsDB bool
}

// macroTestSQL renders a generic test defined by a {% test %} macro (the
// project's, tests/generic/, or a package's: dbt_utils.expression_is_true)
// as dbt parses it (execute false). It returns nil when no such macro exists.
func (m *Manifest) macroTestSQL(c testCall) (*macroTest, error) {
	local := m.macroPkg(c.parent.PackageName) // a package's YAML tests its own nodes
	call, found, err := m.testMacro(c.kind, local)
	if err != nil || !found {
		return nil, err
	}
	var params []string
	ctxArgs := map[string]any{}
	params = append(params, "model=__model")
	if c.column != "" {
		params = append(params, "column_name=__column_name")
		ctxArgs["__column_name"] = c.column
	}
	for _, k := range SortedKeys(c.args) {
		v := c.args[k]
		if s, isStr := v.(string); isStr && jinjaArgRe.MatchString(s) {
			params = append(params, k+"="+s)
			continue
		}
		params = append(params, k+"=__arg_"+k)
		ctxArgs["__arg_"+k] = v
	}
	src := "{{ " + call + "(" + strings.Join(params, ", ") + ") }}"
	tpl, perr := m.env.Parse(c.parent.Path+":test", src)
	if perr != nil {
		return nil, perr
	}
	tpl.Pkg = local
	mt := &macroTest{calls: &render.Calls{}, call: &testRender{tpl: tpl, parent: c.parent, pkg: local, args: ctxArgs, where: c.where}}
	if c.parent.ResourceType == Model && c.parent.Config.Materialized == "ephemeral" {
		// an ephemeral model is tested through its CTE, as dbt does
		mt.refs = append(mt.refs, []string{c.parent.Name})
	}
	rc := &renderCtx{m: m, n: c.parent, cfg: map[string]any{}, refPos: map[string]Position{}, lenient: true, calls: mt.calls}
	out, rerr := mt.call.render(rc)
	if rerr != nil {
		return nil, rerr
	}
	if len(rc.diags) > 0 {
		return nil, fmt.Errorf("%s", rc.diags[0].Msg)
	}
	mt.sql, mt.cfg, mt.refs, mt.needsDB = out, rc.cfg, append(mt.refs, rc.refs...), rc.needsDB
	mt.sources = rc.sources
	return mt, nil
}

// testMacro is the macro a generic test of this kind calls ("test_x" or
// "pkg.test_x"); found is false when there is none.
func (m *Manifest) testMacro(kind, local string) (call string, found bool, err error) {
	pkg, name := "", kind
	if p, n, qualified := strings.Cut(kind, "."); qualified {
		pkg, name = p, n
	}
	if pkg == "" {
		// dbt's MacroResolver.get_macro: the test's own package first
		_, found = m.env.Lookup(local, "test_"+name)
		return "test_" + name, found, nil
	}
	if !m.env.HasPackage(pkg) {
		return "", false, fmt.Errorf("test %s: package %s is not installed (packages.yml lists it? docket reads dbt_packages/ and local: packages, it never downloads)", kind, pkg)
	}
	_, found = m.env.PackageMacros()[pkg]["test_"+name]
	return pkg + ".test_" + name, found, nil
}

// testRender is a generic test's call of its test macro, kept to render
// again when compiled and at run time.
type testRender struct {
	tpl    *render.Template
	parent *Node
	pkg    string // the package whose macros the test's Jinja sees
	args   map[string]any
	where  string
}

func (tr *testRender) render(rc *renderCtx) (string, error) {
	ctx := rc.vars()
	for k, v := range tr.args {
		a, err := tr.renderArg(rc, v)
		if err != nil {
			return "", err
		}
		ctx[k] = a
	}
	model := placeholder(tr.parent)
	if rc.compiled {
		model = rc.relationOf(tr.parent)
	}
	if tr.where != "" {
		model.Rendered = "(select * from " + model.Rendered + " where " + tr.where + ") dbt_subquery"
	}
	ctx["__model"] = model
	return tr.tpl.Render(ctx)
}

// renderArg is a test argument with the Jinja that names a relation
// rendered in the test's context, at any depth (a list item, a mapping's
// value), as dbt's add_rendered_test_kwargs (deep_map_refs) does: at
// parse its refs are the test's dependencies, when compiled the
// relations as built. v itself is left as written (the manifest's kwargs).
func (tr *testRender) renderArg(rc *renderCtx, v any) (any, error) {
	switch x := v.(type) {
	case string:
		if !relJinjaRe.MatchString(x) || !strings.Contains(x, "{{") && !strings.Contains(x, "{%") {
			return x, nil
		}
		t, err := rc.m.env.Parse(tr.parent.Path+":test", x)
		if err != nil {
			return nil, err
		}
		t.Pkg = tr.pkg
		out, err := t.Render(rc.vars())
		if err != nil {
			return nil, err
		}
		return nativeArg(strings.TrimSpace(out)), nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := tr.renderArg(rc, e)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := tr.renderArg(rc, e)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	return v, nil
}

// relKind is a node's relation type as dbt names it ("" unknown).
func relKind(n *Node) string {
	switch {
	case n.ResourceType == Seed || n.ResourceType == Snapshot:
		return "table"
	case n.ResourceType == Model && n.Config.Materialized == "view":
		return "view"
	case n.ResourceType == Model && n.Config.Materialized != "ephemeral":
		return "table"
	}
	return ""
}

// builtinTest is a built-in generic test (unique, not_null,
// accepted_values, relationships). Its SQL is written again when
// compiled with its model's and to:'s relations from relation, as dbt's
// test macros render {{ model }} and the ref() of to: at compile, so
// --defer and --empty apply to them.
type builtinTest struct {
	kind, col string
	where     string // config where: the model is read filtered
	parent    *Node
	values    string // accepted_values: the values as SQL literals
	to        *Node  // relationships: the other parent, and its field
	field     string
}

// sql is the test's SQL, each relation named by rel; from is the
// relation it reads its model from (with the where filter).
func (b *builtinTest) sql(rel func(*Node) string) (sql, from string) {
	col := b.col
	from = rel(b.parent)
	if b.where != "" {
		from = "(select * from " + from + " where " + b.where + ")"
	}
	switch b.kind {
	case "unique":
		return fmt.Sprintf("select %s as unique_field, count(*) as n_records\nfrom %s as model\nwhere %s is not null\ngroup by %s\nhaving count(*) > 1\n", col, from, col, col), from
	case "not_null":
		return fmt.Sprintf("select %s\nfrom %s as model\nwhere %s is null\n", col, from, col), from
	case "accepted_values":
		return fmt.Sprintf("select %s as value_field, count(*) as n_records\nfrom %s as model\nwhere %s not in (%s)\ngroup by %s\n", col, from, col, b.values, col), from
	}
	return fmt.Sprintf("select child.%s as from_field\nfrom %s as child\nleft join %s as parent on child.%s = parent.%s\nwhere child.%s is not null and parent.%s is null\n",
		col, from, rel(b.to), col, b.field, col, b.field), from
}

// builtinSQL is n's SQL when compiled (n a built-in generic test) and
// the relation it reads its model from.
func (m *Manifest) builtinSQL(n *Node) (sql, from string) {
	return n.builtin.sql(func(t *Node) string { return m.relation(t).Rendered })
}
