package runner

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
func (m *Manifest) macroTestSQL(kind string, parent *Node, column string, args map[string]any) (sql string, refs [][]string, ok bool, err error) {
	pkg, name := "", kind
	if p, n, qualified := strings.Cut(kind, "."); qualified {
		pkg, name = p, n
	}
	if pkg != "" && !m.env.HasPackage(pkg) {
		return "", nil, false, fmt.Errorf("test %s: package %s is not installed (packages.yml lists it? docket reads dbt_packages/ and local: packages, it never downloads)", kind, pkg)
	}
	if pkg != "" {
		if _, found := m.env.PackageMacros()[pkg]["test_"+name]; !found {
			return "", nil, false, nil
		}
	} else if _, found := m.env.Lookup("", "test_"+name); !found {
		return "", nil, false, nil
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
		return "", nil, true, perr
	}
	rc := &renderCtx{m: m, n: parent, cfg: map[string]any{}, refPos: map[string]pos{}}
	ctx := rc.vars()
	for k, v := range ctxArgs {
		ctx[k] = v
	}
	ctx["__model"] = render.Relation{Database: parent.Database, Schema: parent.Schema, Identifier: parent.Alias, Rendered: parent.Relation}
	out, rerr := tpl.Render(ctx)
	if rerr != nil {
		return "", nil, true, rerr
	}
	if len(rc.diags) > 0 {
		return "", nil, true, fmt.Errorf("%s", rc.diags[0].Msg)
	}
	return out, rc.refs, true, nil
}
