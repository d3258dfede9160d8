// Package render is docket's Jinja layer over gonja v2: it takes macro files
// and model sources and produces parsed templates that render to SQL with a
// caller-supplied context (ref, source, config, var, this, ...). Macros from
// macros/*.sql become global functions callable from every template.
package render

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/nikolalohinski/gonja/v2"
	"github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/loaders"
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
}

// Wrap turns a plain Go function over Args into a template function.
func Wrap(fn func(a Args) (any, error)) Func {
	return func(va *exec.VarArgs) (any, error) {
		a := Args{Kw: map[string]any{}}
		for _, v := range va.Args {
			a.Pos = append(a.Pos, v.ToGoSimpleType(true))
		}
		for k, v := range va.KwArgs {
			a.Kw[k] = v.ToGoSimpleType(true)
		}
		return fn(a)
	}
}

// Env holds parsed macros; it is safe for concurrent use once built.
type Env struct {
	cfg    *config.Config
	macros map[string]macroDef
}

type macroDef struct {
	node *nodes.Macro
	tpl  *exec.Template
	file string
}

// MacroError is a mistake in a macro file.
type MacroError struct {
	File string
	Err  *Error
}

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
	return c
}

func environment() *exec.Environment {
	return &exec.Environment{
		Context:           exec.EmptyContext().Update(builtins.GlobalFunctions).Update(builtins.GlobalVariables).Update(exec.NewContext(map[string]any{"range": boundedRange})),
		Filters:           builtins.Filters,
		Tests:             builtins.Tests,
		ControlStructures: builtins.ControlStructures,
		Methods:           builtins.Methods,
	}
}

var sharedEnv = environment()

// NewEnv parses macro files (name → source). Mistakes are returned per file;
// the good macros are still usable.
func NewEnv(files map[string]string) (*Env, []MacroError) {
	e := &Env{cfg: newConfig(), macros: map[string]macroDef{}}
	var errs []MacroError
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, f := range names {
		tpl, err := e.parse(f, files[f])
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
			if prev, dup := e.macros[n]; dup {
				errs = append(errs, MacroError{File: f, Err: &Error{Line: m.Location.Line, Col: m.Location.Col,
					Msg: fmt.Sprintf("macro %q is already defined in %s", n, prev.file)}})
				continue
			}
			e.macros[n] = macroDef{node: m, tpl: tpl, file: f}
		}
	}
	return e, errs
}

// Macros lists macro names with the file defining each.
func (e *Env) Macros() map[string]string {
	out := map[string]string{}
	for n, d := range e.macros {
		out[n] = d.file
	}
	return out
}

// Template is a parsed model, test or hook source.
type Template struct {
	env *Env
	tpl *exec.Template
	src string
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
	t, err := exec.NewTemplate(name, e.cfg, &memLoader{files: map[string]string{name: src}}, sharedEnv)
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
		msg := strings.Replace(err.Error(), "failed to parse template '"+src+"': ", "", 1)
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
	data := make(map[string]any, len(ctx)+len(t.env.macros)+1)
	data[budgetKey] = &budget{}
	for n, m := range t.env.macros {
		data[n] = t.env.macroFunc(m)
	}
	for k, v := range ctx {
		data[k] = v
	}
	w := &limitWriter{}
	if err := t.tpl.Execute(w, exec.NewContext(data)); err != nil {
		return "", t.runtimeErr(err)
	}
	return string(w.buf), nil
}

func (e *Env) macroFunc(m macroDef) func(*exec.Evaluator, *exec.VarArgs) *exec.Value {
	return func(ev *exec.Evaluator, va *exec.VarArgs) *exec.Value {
		b := budgetOf(ev)
		if b.depth >= MaxMacroDepth {
			return exec.AsValue(fmt.Errorf("calls of macro %s (%s) nest deeper than docket's limit of %d (does it call itself without end?)", m.node.Name, m.file, MaxMacroDepth))
		}
		b.depth++
		defer func() { b.depth-- }()
		env := &exec.Environment{
			Context:           ev.Environment.Context.Inherit(),
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
		return fn(va)
	}
}

var (
	lineRe    = regexp.MustCompile(`at line (\d+)`)
	noiseRe   = regexp.MustCompile(`(?i)(unable to execute template|unable to execute controlStructure at line \d+|unable to render expression at line \d+|unable to evaluate function '[^']*'|unable to render condition at line \d+|failed to execute '[^']*')(: )?`)
	spacesRe  = regexp.MustCompile(`\s+`)
	reprNoise = regexp.MustCompile(`(ControlStructure|Output|Call|Name|String|GetAttribute)\([^)]*\)`)
)

func cleanMsg(s string) string {
	s = noiseRe.ReplaceAllString(s, "")
	s = spacesRe.ReplaceAllString(s, " ")
	return strings.TrimSpace(s)
}

// runtimeErr turns gonja's wrapped error chain into a positioned *Error:
// the innermost "at line N" wins; the message keeps only the root cause.
func (t *Template) runtimeErr(err error) *Error {
	msg := err.Error()
	line := 1
	for _, m := range lineRe.FindAllStringSubmatch(msg, -1) {
		if n, e := strconv.Atoi(m[1]); e == nil {
			line = n
		}
	}
	// root cause: the text after the last ": " that follows a node repr
	root := msg
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		root = msg[i+2:]
	}
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	col := 1
	lines := strings.Split(t.src, "\n")
	if line-1 < len(lines) {
		l := lines[line-1]
		if i := strings.Index(l, "{"); i >= 0 {
			col = i + 1
		} else {
			col = len(l) - len(strings.TrimLeft(l, " \t")) + 1
		}
	}
	return &Error{Line: line, Col: col, Msg: cleanMsg(root)}
}

// Relation is a table reference usable as {{ this }} or {{ this.schema }}.
type Relation struct {
	Database, Schema, Identifier, Rendered string
}

func (r Relation) String() string { return r.Rendered }

// GetAttribute implements gonja's attribute lookup.
func (r Relation) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "database":
		return exec.AsValue(r.Database), true
	case "schema":
		return exec.AsValue(r.Schema), true
	case "identifier", "name", "table":
		return exec.AsValue(r.Identifier), true
	}
	return exec.AsValue(nil), false
}
