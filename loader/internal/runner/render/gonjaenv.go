package render

import (
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"

	"github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/loaders"
)

// memLoader serves in-memory sources to gonja (no file system access).
type memLoader struct{ files map[string]string }

func (m *memLoader) Read(p string) (io.Reader, error) {
	s, ok := m.files[p]
	if !ok {
		return nil, fmt.Errorf("template %q not found (include/import are not supported; use macros/)", p)
	}
	return strings.NewReader(s), nil
}
func (m *memLoader) Resolve(p string) (string, error)       { return p, nil }
func (m *memLoader) Inherit(string) (loaders.Loader, error) { return m, nil }

func newConfig() *config.Config {
	c := config.New()
	c.KeepTrailingNewline = true
	c.StrictUndefined = true // as dbt: an unknown name is an error, not ""
	return c
}

func environment() *exec.Environment {
	methods := builtins.Methods
	methods.List = listMethods()
	ctx := exec.EmptyContext().Update(builtins.GlobalFunctions).Update(builtins.GlobalVariables).Update(exec.NewContext(map[string]any{"range": boundedRange}))
	ctx.Set("__mlist", func(va *exec.VarArgs) *[]any {
		l := []any{}
		if len(va.Args) > 0 {
			va.Args[0].Iterate(func(_, _ int, k, _ *exec.Value) bool {
				l = append(l, k.Interface())
				return true
			}, func() {})
		}
		return &l
	})
	// docket_dbt_name outside a node's render (the compiler's gives
	// dbt-duckdb's three-part name): the value as it is
	ctx.Set("docket_dbt_name", func(va *exec.VarArgs) *exec.Value {
		if len(va.Args) == 0 {
			return exec.AsValue(nil)
		}
		return va.Args[0]
	})
	tests := exec.NewTestSet(map[string]exec.TestFunction{}).Update(builtins.Tests)
	if err := tests.Replace("mapping", isMapping); err != nil {
		panic(err)
	}
	// dbt's TEXT_FILTERS: as_bool, as_number, as_native and as_text hand
	// their value on as it is in SQL and macro text (dbt's native
	// rendering of YAML values is what then reads it as a bool, a number)
	filters := exec.NewFilterSet(map[string]exec.FilterFunction{}).Update(builtins.Filters)
	for _, name := range []string{"as_bool", "as_number", "as_native", "as_text"} {
		if err := filters.Register(name, func(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value { return in }); err != nil {
			panic(err)
		}
	}
	return &exec.Environment{
		Context:           ctx,
		Filters:           filters,
		Tests:             tests,
		ControlStructures: boundedControlStructures(),
		Methods:           methods,
	}
}

// listSetRe finds "{% set name = [...] %}": such lists become shared
// (*[]any) so that {% do name.append(x) %} inside a for loop or an if
// changes the list the outer scope sees, as in Jinja (gonja rebinds the
// name in the inner scope only).
var listSetRe = regexp.MustCompile(`(\{%-?\s*set\s+[A-Za-z_][A-Za-z0-9_]*\s*=\s*)(\[[^%]*?\])(\s*-?%\})`)

func shareLists(src string) string {
	return listSetRe.ReplaceAllString(quotedRelations(src), "${1}"+mlistOpen+"${2}"+mlistClose+"${3}")
}

// dbtNameOpen and dbtNameClose are what quotedRelations inserts around a
// quoted relation (Template.place takes them out again).
const dbtNameOpen, dbtNameClose = "docket_dbt_name(", ")"

const mlistOpen, mlistClose = "__mlist(", ")"

// listMethods are gonja's list methods with append/extend/pop/insert/
// remove mutating a shared list in place.
func listMethods() *exec.MethodSet[[]any] {
	m := map[string]exec.Method[[]any]{}
	for _, name := range []string{"append", "extend", "reverse", "copy", "index", "count", "pop", "insert", "remove", "sort", "clear"} {
		if f, ok := builtins.Methods.List.Get(name); ok {
			m[name] = f
		}
	}
	inPlace := listInPlace
	orig := m["append"]
	m["append"] = func(self []any, selfValue *exec.Value, a *exec.VarArgs) (any, error) {
		if len(a.Args) == 1 && inPlace(selfValue, func(l []any) []any { return append(l, a.Args[0].Interface()) }) {
			return nil, nil
		}
		return orig(self, selfValue, a)
	}
	// gonja's list methods have no extend: a list a name holds is
	// extended in place, one no name holds (a literal) in a copy, as
	// Python extends a temporary (a missing method here was a nil
	// function: a Go nil-pointer panic as the error)
	m["extend"] = func(self []any, selfValue *exec.Value, a *exec.VarArgs) (any, error) {
		extend := func(l []any) []any {
			a.Args[0].Iterate(func(_, _ int, k, _ *exec.Value) bool {
				l = append(l, k.Interface())
				return true
			}, func() {})
			return l
		}
		if len(a.Args) == 1 && inPlace(selfValue, extend) {
			return nil, nil
		}
		if len(a.Args) != 1 || len(a.KwArgs) > 0 {
			return nil, fmt.Errorf("TypeError: list.extend() takes exactly one argument (%d given)", len(a.Args)+len(a.KwArgs))
		}
		if !a.Args[0].IsIterable() {
			return nil, fmt.Errorf("TypeError: '%s' object is not iterable", exec.PyTypeName(a.Args[0]))
		}
		*selfValue = *exec.AsValue(extend(append([]any(nil), self...)))
		return nil, nil
	}
	pyListMethods(m)
	return exec.NewMethodSet(m)
}

// listInPlace applies fn to the list selfValue holds, when a name holds it
// (a shared *[]any); false for a literal, which Python changes as a
// temporary nobody sees.
func listInPlace(selfValue *exec.Value, fn func(l []any) []any) bool {
	v := selfValue.Val
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if v.Kind() != reflect.Pointer {
		return false
	}
	p, ok := v.Interface().(*[]any)
	if !ok {
		return false
	}
	*p = fn(*p)
	return true
}

var sharedEnv = environment()
