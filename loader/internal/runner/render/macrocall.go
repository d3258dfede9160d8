package render

import (
	"fmt"
	"io"
	"maps"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// globals are the names a template of package pkg sees: macros
// (unqualified as dbt resolves them), package namespaces and adapter. They
// are built once per package (a template renders twice and macros call
// each other often) and shared: the caller gets its own top level and
// adapter mapping to add to; the namespaces are read only.
func (e *Env) globals(pkg string) map[string]any {
	g := e.sharedGlobals(pkg)
	data := maps.Clone(g)
	adapter := maps.Clone(g["adapter"].(map[string]any))
	for k, v := range e.AdapterExtra {
		adapter[k] = v
	}
	data["adapter"] = adapter
	return data
}

// sharedGlobals is pkg's globals as built once (read only).
func (e *Env) sharedGlobals(pkg string) map[string]any {
	e.mu.Lock()
	defer e.mu.Unlock()
	g := e.shared[pkg]
	if g == nil {
		if e.shared == nil {
			e.shared = map[string]map[string]any{}
		}
		g = e.buildGlobals(pkg)
		e.shared[pkg] = g
	}
	return g
}

func (e *Env) buildGlobals(pkg string) map[string]any {
	data := baseContext()
	for n, m := range e.packages["dbt"] {
		data[n] = e.macroFunc(m)
	}
	for n, m := range e.macros {
		data[n] = e.macroFunc(m)
	}
	if pkg != "" {
		for n, m := range e.packages[pkg] {
			data[n] = e.macroFunc(m)
		}
	}
	for p, ms := range e.packages {
		ns := map[string]any{}
		for n, m := range ms {
			ns[n] = e.macroFunc(m)
		}
		data[p] = ns
	}
	if e.Root != "" {
		root := map[string]any{}
		for n, m := range e.macros {
			root[n] = e.macroFunc(m)
		}
		data[e.Root] = root
	}
	adapter := map[string]any{"dispatch": e.dispatchFunc(pkg), "type": func() string { return "duckdb" }}
	// adapter methods that read the database while rendering: a clear
	// error rather than the template engine's "not callable"
	for _, k := range []string{"get_columns_in_relation", "get_relation", "get_missing_columns",
		"list_relations_without_caching", "get_relations_by_pattern", "execute"} {
		name := k
		adapter[k] = Wrap(func(Args) (any, error) {
			return nil, fmt.Errorf("adapter.%s reads the database while rendering, which docket does not support yet", name)
		})
	}
	adapter["behavior"] = behaviorFlags{}
	data["adapter"] = adapter
	return data
}

// namespace is a package's macros as the template functions globals
// holds (shared, read only).
func (e *Env) namespace(pkg string) map[string]any {
	ns, _ := e.sharedGlobals("")[pkg].(map[string]any)
	return ns
}

// dispatchFunc is adapter.dispatch(name, macro_namespace): the first of
// duckdb__name, default__name (then name) in the namespace's search order
// (dbt_project.yml dispatch:, else the root project then the namespace).
func (e *Env) dispatchFunc(pkg string) Func {
	return Wrap(func(a Args) (any, error) {
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("adapter.dispatch() needs a macro name")
		}
		name := fmt.Sprint(a.Pos[0])
		ns := ""
		if len(a.Pos) > 1 && a.Pos[1] != nil {
			ns = fmt.Sprint(a.Pos[1])
		}
		if v, ok := a.Kw["macro_namespace"]; ok && v != nil {
			ns = fmt.Sprint(v)
		}
		var order []string
		switch {
		case ns == "":
			order = []string{"", pkg, "dbt"}
		case len(e.Dispatch[ns]) > 0:
			for _, p := range e.Dispatch[ns] {
				if p == e.Root {
					p = ""
				}
				order = append(order, p)
			}
		default:
			order = []string{"", ns}
		}
		if ns == "dbt" {
			order = append(order, "dbt")
		}
		for _, p := range order {
			ms := e.macros
			if p != "" {
				ms = e.packages[p]
			}
			for _, cand := range []string{"duckdb__" + name, "default__" + name} {
				if m, ok := ms[cand]; ok {
					return e.macroFunc(m), nil
				}
			}
		}
		if ns != "" && e.packages[ns] == nil && ns != "dbt" {
			return nil, fmt.Errorf("adapter.dispatch(%q, %q): package %s is not installed (packages.yml and dbt_packages/)", name, ns, ns)
		}
		return nil, fmt.Errorf("adapter.dispatch: no duckdb__%s or default__%s macro in %v", name, name, order)
	})
}

// returnSignal carries return(value) out of a macro body.
type returnSignal struct{ v any }

func (r *returnSignal) Error() string { return "return() used outside a macro" }

func (e *Env) macroFunc(m macroDef) func(*exec.Evaluator, *exec.VarArgs) *exec.Value {
	return func(ev *exec.Evaluator, va *exec.VarArgs) *exec.Value {
		b := budgetOf(ev)
		if b.depth >= MaxMacroDepth {
			return exec.AsValue(fmt.Errorf("calls of macro %s (%s) nest deeper than docket's limit of %d (does it call itself without end?)", m.node.Name, m.file, MaxMacroDepth))
		}
		b.depth++
		defer func() { b.depth-- }()
		if b.calls != nil {
			id := e.macroID(m)
			b.calls.add(b.stack, id)
			b.stack = append(b.stack, id)
			defer func() { b.stack = b.stack[:len(b.stack)-1] }()
		}
		ctx := ev.Environment.Context.Inherit()
		if m.pkg != "" && m.pkg != "dbt" {
			// a package's macros call each other unqualified
			for n, f := range e.namespace(m.pkg) {
				ctx.Set(n, f)
			}
			if a, ok := ctx.Get("adapter"); ok {
				if am, ok := a.(map[string]any); ok {
					cp := map[string]any{}
					for k, v := range am {
						cp[k] = v
					}
					cp["dispatch"] = e.dispatchFunc(m.pkg)
					ctx.Set("adapter", cp)
				}
			}
		}
		var ret *returnSignal
		ctx.Set("return", func(va *exec.VarArgs) (any, error) {
			// the value as is (a list stays a list); the error ends the body
			ret = &returnSignal{}
			if len(va.Args) > 0 {
				ret.v = va.Args[0].Interface()
			}
			return nil, ret
		})
		env := &exec.Environment{
			Context:           ctx,
			Filters:           ev.Environment.Filters,
			Tests:             ev.Environment.Tests,
			ControlStructures: ev.Environment.ControlStructures,
			Methods:           ev.Environment.Methods,
		}
		r := exec.NewRenderer(env, io.Discard, e.cfg, &memLoader{}, m.tpl)
		fn, err := exec.MacroNodeToFunc(m.node, r)
		if err != nil {
			return exec.AsValue(err)
		}
		out := fn(va)
		if ret != nil {
			return exec.AsValue(ret.v)
		}
		if out.IsError() {
			err, _ := out.Val.Interface().(error)
			if err == nil || macroErrRe.MatchString(err.Error()) {
				return out // already names the innermost macro
			}
			return exec.AsValue(&MacroRuntimeError{File: m.file, Macro: m.node.Name, Line: macroLine(err), Err: err})
		}
		return out
	}
}

func (e *Env) macroID(m macroDef) string {
	pkg := m.pkg
	if pkg == "" {
		pkg = e.Root
	}
	return "macro." + pkg + "." + m.node.Name
}
