package compiler

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// jinjaArgRe is a test argument dbt evaluates as Jinja: ref(...) or source(...).
var jinjaArgRe = regexp.MustCompile(`^\s*(ref|source)\s*\(.*\)\s*$`)

// macroTestSQL renders a generic test defined by a {% test %} macro (the
// project's, tests/generic/, or a package's: dbt_utils.expression_is_true).
// ok is false when no such macro exists.
// The macros it calls are recorded in calls. rr, when not nil, renders the test again at run time (it reads the
// Database).
// where, when set, filters the model as dbt does: {{ model }} renders as
// (select * from model where ...) dbt_subquery.
func (m *Manifest) macroTestSQL(kind string, parent *Node, column string, args map[string]any, where string, cfg *map[string]any, calls *render.Calls) (sql string, refs [][]string, ok bool, rr *testRender, err error) {
	pkg, name := "", kind
	if p, n, qualified := strings.Cut(kind, "."); qualified {
		pkg, name = p, n
	}
	if pkg != "" && !m.env.HasPackage(pkg) {
		return "", nil, false, nil, fmt.Errorf("test %s: package %s is not installed (packages.yml lists it? docket reads dbt_packages/ and local: packages, it never downloads)", kind, pkg)
	}
	if pkg != "" {
		if _, found := m.env.PackageMacros()[pkg]["test_"+name]; !found {
			return "", nil, false, nil, nil
		}
	} else if _, found := m.env.Lookup("", "test_"+name); !found {
		return "", nil, false, nil, nil
	}
	call := "test_" + name
	if pkg != "" {
		call = pkg + ".test_" + name
	}
	var params []string
	ctxArgs := map[string]any{}
	params = append(params, "model=__model")
	if column != "" {
		params = append(params, "column_name=__column_name")
		ctxArgs["__column_name"] = column
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := args[k]
		if s, isStr := v.(string); isStr && jinjaArgRe.MatchString(s) {
			params = append(params, k+"="+s)
			continue
		}
		params = append(params, k+"=__arg_"+k)
		ctxArgs["__arg_"+k] = v
	}
	src := "{{ " + call + "(" + strings.Join(params, ", ") + ") }}"
	tpl, perr := m.env.Parse(parent.Path+":test", src)
	if perr != nil {
		return "", nil, true, nil, perr
	}
	model := render.Relation{Database: parent.Database, Schema: parent.Schema, Identifier: parent.Alias, Rendered: parent.Relation, Type: relKind(parent)}
	if parent.ResourceType == Model && parent.Config.Materialized == "ephemeral" {
		// an ephemeral model is tested through its CTE, as dbt does
		model.Rendered = marker(parent.Name)
		refs = append(refs, []string{parent.Name})
	}
	if where != "" {
		model.Rendered = "(select * from " + model.Rendered + " where " + where + ") dbt_subquery"
	}
	ctxArgs["__model"] = model
	tr := &testRender{tpl: tpl, parent: parent, args: ctxArgs}
	rc := &renderCtx{m: m, n: parent, cfg: map[string]any{}, refPos: map[string]Position{}, calls: calls}
	out, rerr := tr.render(rc)
	if rc.needsDB {
		rc = &renderCtx{m: m, n: parent, cfg: map[string]any{}, refPos: map[string]Position{}, lenient: true, calls: calls}
		out, rerr = tr.render(rc)
	} else {
		tr = nil
	}
	if rerr != nil {
		return "", nil, true, nil, rerr
	}
	if len(rc.diags) > 0 {
		return "", nil, true, nil, fmt.Errorf("%s", rc.diags[0].Msg)
	}
	*cfg = rc.cfg
	return out, append(refs, rc.refs...), true, tr, nil
}

// testRender is a generic test's call, kept to render again at run time.
type testRender struct {
	tpl    *render.Template
	parent *Node
	args   map[string]any
}

func (tr *testRender) render(rc *renderCtx) (string, error) {
	ctx := rc.vars()
	for k, v := range tr.args {
		ctx[k] = v
	}
	return tr.tpl.Render(ctx)
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
