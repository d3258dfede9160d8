// Package render is docket's Jinja layer over gonja v2: it takes macro files
// and model sources and produces parsed templates that render to SQL with a
// caller-supplied context (ref, source, config, var, this, ...). Macros from
// macros/*.sql become global functions callable from every template.
package render

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/nikolalohinski/gonja/v2"
	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/parser"
)

func init() { gonja.SetLoggerOutput(io.Discard) }

// Error is a template mistake with a 1-based position in the source.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Func is a Go function callable from templates with Python-style arguments.
type Func = func(args *exec.VarArgs) (any, error)

// Args is the Go form of a call's arguments.
type Args struct {
	Pos []any
	Kw  map[string]any
	Raw []*exec.Value // Pos as the template gave them (log and print keep a tuple's form: PyValue)
	// RawKw is Kw as the template gave them (a dict keeps its order: PyValue)
	RawKw map[string]*exec.Value
}

// EnvVar is dbt's env_var(var, default=None): lookup's value for the
// name, else the default (by position or as default=), else notSet's
// error. The models', the unit tests' and profiles.yml's env_var are this
// one function over their own lookups and messages.
func EnvVar(lookup func(name string) (any, bool), notSet func(name string) error) Func {
	return Wrap(func(a Args) (any, error) {
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("env_var() needs a variable name")
		}
		name := fmt.Sprint(a.Pos[0])
		if v, ok := lookup(name); ok {
			return v, nil
		}
		// dbt: `elif default is not None`: a None default is no default
		// (env_var('X', none) is dbt's "Env var required but not
		// provided"; it rendered "" here)
		if len(a.Pos) > 1 && a.Pos[1] != nil {
			return a.Pos[1], nil
		}
		if d, ok := a.Kw["default"]; ok && d != nil {
			return d, nil
		}
		return nil, notSet(name)
	})
}

// LookupEnv is os.LookupEnv as EnvVar's lookup.
func LookupEnv(name string) (any, bool) { return os.LookupEnv(name) }

// Wrap turns a plain Go function over Args into a template function.
func Wrap(fn func(a Args) (any, error)) Func {
	return func(va *exec.VarArgs) (any, error) {
		a := Args{Kw: map[string]any{}}
		for _, v := range va.Args {
			a.Pos = append(a.Pos, goValue(v))
		}
		a.Raw, a.RawKw = va.Args, va.KwArgs
		for k, v := range va.KwArgs {
			a.Kw[k] = goValue(v)
		}
		r, err := fn(a)
		return TemplateValue(r), err // a YAML mapping keeps its order
	}
}

// goValue is a template value as Go sees it: plain types as they are,
// objects with attributes (a Relation, a result table) unchanged.
func goValue(v *exec.Value) any {
	switch x := v.Interface().(type) {
	case exec.AttributeGetter, exec.ItemGetter:
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = goValue(exec.AsValue(e))
		}
		return out
	}
	return v.ToGoSimpleType(true)
}

// Tuple is a Python tuple (a tuple literal, agate's Column.values()) as
// PyValue gives it.
type Tuple []any

// PyValue is goValue keeping tuples, at any depth, as Tuple: for code that
// prints a value as Python does (log, print); every other Go function sees
// a tuple as the list it behaves as.
func PyValue(v *exec.Value) any {
	switch x := v.Interface().(type) {
	case exec.Tuple:
		out := make(Tuple, len(x))
		for i, e := range x {
			out[i] = PyValue(e)
		}
		return out
	case exec.ValuesList:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = PyValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = PyValue(exec.AsValue(e))
		}
		return out
	case *exec.Value:
		return PyValue(x)
	case *exec.Dict:
		if m, ok := pyMapping(x); ok {
			return m
		}
	}
	return goValue(v)
}

// pyMapping is a template dict as PyValue gives it: a *Mapping in the
// dict's order (a Go map, which goValue gives, prints sorted); false when
// a key is not a string.
func pyMapping(d *exec.Dict) (*Mapping, bool) {
	m := &Mapping{Vals: make(map[string]any, len(d.Pairs))}
	for _, p := range d.Pairs {
		k, ok := p.Key.Interface().(string)
		if !ok {
			return nil, false
		}
		m.Set(k, PyValue(p.Value))
	}
	return m, true
}

// Env holds parsed macros; it is safe for concurrent use once built.
// Macros belong to a package: the root project (""), an installed package
// (dbt_utils, ...) or "dbt" (docket's built-in dbt.* macros).
type Env struct {
	cfg      *config.Config
	macros   map[string]macroDef            // root project's macros
	packages map[string]map[string]macroDef // package → name → macro
	// Dispatch maps a macro namespace to its search order (dbt_project.yml
	// dispatch:); Adapter is the adapter type ("duckdb").
	Dispatch map[string][]string
	Root     string // the root project's name
	// Adapter extras (quote, get_relation, ...) merged into `adapter`.
	AdapterExtra map[string]any

	mu     sync.Mutex
	shared map[string]map[string]any // package → its globals, built once (globals)
}

type macroDef struct {
	node *nodes.Macro
	tpl  *exec.Template
	file string
	pkg  string // "" for the root project
}

// MacroError is a mistake in a macro file.
type MacroError struct {
	File string
	Err  *Error
}

// NewEnv parses macro files (name → source). Mistakes are returned per file;
// the good macros are still usable.
func NewEnv(files map[string]string) (*Env, []MacroError) {
	e := &Env{cfg: newConfig(), macros: map[string]macroDef{}, packages: map[string]map[string]macroDef{}}
	errs := e.AddPackage("", files)
	return e, errs
}

// testTagRe finds {% test name(...) %} ... {% endtest %}: dbt's generic
// test definitions are macros named test_<name>.
var (
	testTagRe    = regexp.MustCompile(`\{%(-?)\s*test\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
	endTestTagRe = regexp.MustCompile(`\{%(-?)\s*endtest\s*(-?)%\}`)
)

// matTagRe finds {% materialization name, adapter='duckdb' %} (or
// ", default") ... {% endmaterialization %}: dbt keeps it as the macro
// materialization_<name>_<adapter>. docket parses it as that macro, so the
// file's other macros stay usable; it does not run custom materializations
// (a model that names one is an error at its config).
var (
	matTagRe    = regexp.MustCompile(`\{%(-?)\s*materialization\s+([A-Za-z_][A-Za-z0-9_]*)\s*,\s*(?:adapter\s*=\s*['"]([A-Za-z0-9_]+)['"]|(default))[^%]*?(-?)%\}`)
	endMatTagRe = regexp.MustCompile(`\{%(-?)\s*endmaterialization\s*(-?)%\}`)
)

func rewriteTests(src string) string {
	src = testTagRe.ReplaceAllString(src, "{%$1 macro test_$2(")
	src = endTestTagRe.ReplaceAllString(src, "{%$1 endmacro $2%}")
	src = matTagRe.ReplaceAllString(src, "{%$1 macro materialization_${2}_$3$4() $5%}")
	return endMatTagRe.ReplaceAllString(src, "{%$1 endmacro $2%}")
}

// AddPackage parses a package's macro files (pkg "" = the root project).
func (e *Env) AddPackage(pkg string, files map[string]string) []MacroError {
	var errs []MacroError
	e.mu.Lock()
	e.shared = nil // the macros change: globals are built again
	e.mu.Unlock()
	dst := e.macros
	if pkg != "" {
		if e.packages[pkg] == nil {
			e.packages[pkg] = map[string]macroDef{}
		}
		dst = e.packages[pkg]
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, f := range names {
		tpl, err := e.parse(f, rewriteTests(files[f]))
		if err != nil {
			errs = append(errs, MacroError{File: f, Err: err})
			continue
		}
		mnames := make([]string, 0, len(tpl.Macros()))
		for n := range tpl.Macros() {
			mnames = append(mnames, n)
		}
		sort.Strings(mnames)
		for _, n := range mnames {
			m := tpl.Macros()[n]
			if prev, dup := dst[n]; dup {
				errs = append(errs, MacroError{File: f, Err: &Error{Line: m.Location.Line, Col: m.Location.Col,
					Msg: fmt.Sprintf("macro %q is already defined in %s", n, prev.file)}})
				continue
			}
			dst[n] = macroDef{node: m, tpl: tpl, file: f, pkg: pkg}
		}
	}
	return errs
}

// HasPackage reports whether a package's macros are loaded.
func (e *Env) HasPackage(pkg string) bool { return e.packages[pkg] != nil }

// Lookup finds a macro as an unqualified call from package pkg sees it:
// pkg's own, then the root project's, then dbt's built-ins.
func (e *Env) Lookup(pkg, name string) (macroDef, bool) {
	if pkg != "" {
		if m, ok := e.packages[pkg][name]; ok {
			return m, true
		}
	}
	if m, ok := e.macros[name]; ok {
		return m, true
	}
	m, ok := e.packages["dbt"][name]
	return m, ok
}

// Has reports whether package pkg itself defines macro name.
func (e *Env) Has(pkg, name string) bool {
	_, ok := e.packages[pkg][name]
	return ok
}

// MacroFile returns the file defining a macro (package "" = root).
func (e *Env) MacroFile(pkg, name string) (string, bool) {
	m, ok := e.Lookup(pkg, name)
	return m.file, ok
}

// Macros lists the root project's macro names with the file defining each.
func (e *Env) Macros() map[string]string {
	out := map[string]string{}
	for n, d := range e.macros {
		out[n] = d.file
	}
	return out
}

// PackageMacros lists every package's macros: package → name → file.
func (e *Env) PackageMacros() map[string]map[string]string {
	out := map[string]map[string]string{}
	for p, ms := range e.packages {
		out[p] = map[string]string{}
		for n, d := range ms {
			out[p][n] = d.file
		}
	}
	return out
}

// Template is a parsed model, test or hook source.
type Template struct {
	env *Env
	tpl *exec.Template
	src string
	// Pkg is the installed package the template belongs to ("" = the
	// root project): its unqualified macro calls see that package's
	// macros first, then the root's, then dbt's (dbt's MacroNamespace).
	Pkg string
}

// Parse parses src; a syntax mistake comes back as *Error.
func (e *Env) Parse(name, src string) (*Template, error) {
	t, err := e.parse(name, src)
	if err != nil {
		return nil, err
	}
	return &Template{env: e, tpl: t, src: src}, nil
}

func (e *Env) parse(name, src string) (t *exec.Template, rerr *Error) {
	defer func() {
		if r := recover(); r != nil {
			rerr = &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("template error: %v", r)}
		}
	}()
	t, err := exec.NewTemplate(name, e.cfg, &memLoader{files: map[string]string{name: shareLists(src)}}, sharedEnv)
	if err != nil {
		var se *parser.SyntaxError
		if errors.As(err, &se) {
			l, c := se.Line, se.Column
			if l == 0 {
				l, c = 1, 1
			}
			msg := se.Message
			if se.Raw != "" {
				msg += fmt.Sprintf(" (near %q)", se.Raw)
			}
			return nil, &Error{Line: l, Col: c, Msg: "Jinja syntax error: " + msg}
		}
		msg := strings.Replace(err.Error(), "failed to parse template '"+shareLists(src)+"': ", "", 1) // the text gonja parsed
		return nil, &Error{Line: 1, Col: 1, Msg: "Jinja syntax error: " + cleanMsg(msg)}
	}
	return t, nil
}

// Render executes the template with the given context values. Functions in
// ctx should have the Func signature. A mistake comes back as *Error.
func (t *Template) Render(ctx map[string]any) (out string, rerr error) {
	defer func() {
		if r := recover(); r != nil {
			out, rerr = "", &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("template error: %v", r)}
		}
	}()
	data := t.env.globals(t.Pkg)
	b := &budget{}
	data[budgetKey] = b
	for k, v := range ctx {
		if c, ok := v.(*Calls); ok && k == CallsKey {
			b.calls = c
			continue
		}
		if pkg, name, dotted := strings.Cut(k, "."); dotted {
			// "pkg.macro": replaces one macro of a package namespace
			// (a unit test's overrides.macros), the rest kept
			if ns, ok := data[pkg].(map[string]any); ok {
				cp := make(map[string]any, len(ns))
				for nk, nv := range ns {
					cp[nk] = nv
				}
				cp[name] = v
				data[pkg] = cp
			}
			continue
		}
		if extra, ok := v.(map[string]any); ok && k == "adapter" {
			// the caller's adapter methods join dispatch and type
			ad := data["adapter"].(map[string]any)
			for ak, av := range extra {
				ad[ak] = av
			}
			continue
		}
		data[k] = v
	}
	w := &limitWriter{}
	if err := t.tpl.Execute(w, exec.NewContext(data)); err != nil {
		return "", t.runtimeErr(err)
	}
	return string(w.buf), nil
}
