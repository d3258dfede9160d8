package render

import (
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unsafe"

	controlStructures "github.com/nikolalohinski/gonja/v2/builtins/control_structures"
	"github.com/nikolalohinski/gonja/v2/nodes"
)

var forType = reflect.TypeOf(&controlStructures.ForControlStructure{})

// VarReads is what the project's Jinja reads with var(), found without
// rendering (every branch counts, taken or not).
type VarReads struct {
	// Names read: var('name') written as a literal, or a literal passed
	// to a macro that hands that argument on to var() (batch_count(rel,
	// 'name') where the macro calls var(var_name)), through any number
	// of macros.
	Names map[string]bool
	// InMacros: the names read in macros (a macro reads in whatever node
	// calls it). BySource: those read in each group of sources (as given
	// to VarReads), outside macros. A var scoped to a package (vars: {pkg:
	// {name: ..}}) is seen by that package's nodes only.
	InMacros map[string]bool
	BySource map[string]map[string]bool
	// Computed: var() calls whose name is neither a literal nor a
	// parameter handed on, so what they read is unknown.
	Computed []VarSite
}

// VarSite is a place in a file.
type VarSite struct {
	File      string
	Line, Col int
}

// varParam is a macro parameter handed on to var(): its position and
// name, and whether it is a list of names (each: the macro loops over it,
// var(v) for v in it).
type varParam struct {
	pos  int
	name string
	each bool
}

// VarReads finds what var() reads in the environment's macros (the root
// project's and the packages') and in the sources given (package, "" the
// group → file → text: models, snapshots, tests, YAML; a Jinja string
// inside them, such as a hook in config(), is read as a template too). A
// source that does not parse as a template is searched for var('name')
// as text.
func (e *Env) VarReads(sources map[string]map[string]string) VarReads {
	r := VarReads{Names: map[string]bool{}, InMacros: map[string]bool{}, BySource: map[string]map[string]bool{}}
	type macro struct {
		def    macroDef
		params []string
		loops  map[string][]loopVar // its for loops' variables (loopVars)
	}
	var macros []macro
	pkgs := []map[string]macroDef{e.macros}
	for _, p := range slices.Sorted(maps.Keys(e.packages)) {
		pkgs = append(pkgs, e.packages[p])
	}
	for _, ms := range pkgs {
		for _, n := range slices.Sorted(maps.Keys(ms)) {
			d := ms[n]
			var params []string
			for _, kw := range d.node.Kwargs {
				s, _ := kw.Key.(*nodes.String)
				if s != nil {
					params = append(params, s.Val)
				} else {
					params = append(params, "")
				}
			}
			macros = append(macros, macro{d, params, loopVars(d.node)})
		}
	}
	// The macros handing a parameter on to var(), to a fixpoint: var
	// itself takes the name first. A macro is called by its name or
	// through its package's namespace (dbt_utils.x(...)).
	sc := varScan{through: map[string][]varParam{"var": {{0, "name", false}}}, spaces: map[string]bool{e.Root: true}}
	for p := range e.packages {
		sc.spaces[p] = true
	}
	through := sc.through
	for changed := true; changed; {
		changed = false
		for _, m := range macros {
			for _, c := range sc.calls(m.def.node) {
				for _, a := range c.handed {
					for _, p := range handedParams(a, m.params, m.loops) {
						if !hasParam(through[m.def.node.Name], p.pos) {
							through[m.def.node.Name] = append(through[m.def.node.Name], p)
							changed = true
						}
					}
				}
			}
		}
	}
	for _, m := range macros {
		in := readIn{file: m.def.file, macro: true}
		for _, c := range sc.calls(m.def.node) {
			r.add(c, m.params, m.loops, in)
		}
		r.addDefaults(m.def.node, through[m.def.node.Name])
	}
	for _, g := range slices.Sorted(maps.Keys(sources)) {
		for _, f := range slices.Sorted(maps.Keys(sources[g])) {
			r.addSource(e, readIn{file: f, group: g}, sources[g][f], sc, 0)
		}
	}
	sort.Slice(r.Computed, func(i, j int) bool {
		a, b := r.Computed[i], r.Computed[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return r
}

// readIn is where a read is: its file, and a macro or a source's group.
type readIn struct {
	file, group string
	macro       bool
}

// read records that the name is read in.
func (r *VarReads) read(in readIn, name string) {
	r.Names[name] = true
	if in.macro {
		r.InMacros[name] = true
		return
	}
	if r.BySource[in.group] == nil {
		r.BySource[in.group] = map[string]bool{}
	}
	r.BySource[in.group][name] = true
}

// varLiteralRe finds var('name') written as text.
var varLiteralRe = regexp.MustCompile(`\bvar\(\s*['"]([^'"]+)['"]`)

// addSource reads one source; depth bounds Jinja strings in strings.
func (r *VarReads) addSource(e *Env, in readIn, src string, sc varScan, depth int) {
	if depth > 3 || !strings.Contains(src, "{{") && !strings.Contains(src, "{%") {
		return
	}
	t, err := e.parse(in.file, src)
	if err != nil {
		for _, m := range varLiteralRe.FindAllStringSubmatch(src, -1) {
			r.read(in, m[1])
		}
		return
	}
	loops := loopVars(t.Root())
	for _, c := range sc.calls(t.Root()) {
		r.add(c, nil, loops, in)
	}
	for _, s := range stringsIn(t.Root()) {
		r.addSource(e, in, s, sc, depth+1)
	}
}

// addDefaults records the string defaults of the macro's parameters that
// it hands on to var() (ps): what a call leaving one out reads.
func (r *VarReads) addDefaults(m *nodes.Macro, ps []varParam) {
	for _, p := range ps {
		if p.pos < len(m.Kwargs) {
			if s, ok := m.Kwargs[p.pos].Value.(*nodes.String); ok && s != nil {
				r.read(readIn{macro: true}, s.Val)
			}
		}
	}
}

// add records a call's literal names (given, or those a loop variable
// takes), and its other arguments unless they are parameters of the macro
// it is in (params) or loop over one; in is where the call is.
func (r *VarReads) add(c varCall, params []string, loops map[string][]loopVar, in readIn) {
	for _, a := range c.handed {
		for _, l := range a.literals {
			r.read(in, l)
		}
		known := !a.unknown
		if a.name != "" && indexOf(params, a.name) < 0 {
			ls, ok := loops[a.name]
			known = ok && !a.each
			for _, l := range ls {
				for _, n := range l.lits {
					r.read(in, n)
				}
				known = known && (l.over == "" || indexOf(params, l.over) >= 0)
			}
		}
		if !known {
			r.Computed = append(r.Computed, VarSite{in.file, c.line, c.col})
		}
	}
}

// handedParams are the macro's parameters (params) an argument hands on:
// a parameter given as it is, or one a loop variable given where a single
// name goes loops over (a list of names).
func handedParams(a handedArg, params []string, loops map[string][]loopVar) []varParam {
	if a.name == "" {
		return nil
	}
	if i := indexOf(params, a.name); i >= 0 {
		return []varParam{{i, a.name, a.each}}
	}
	var out []varParam
	for _, l := range loops[a.name] {
		if i := indexOf(params, l.over); i >= 0 && l.over != "" && !a.each {
			out = append(out, varParam{i, l.over, true})
		}
	}
	return out
}

// loopVar is what a for loop's variable takes: the items of a name (over:
// a macro parameter, say) or of a list of string literals (lits).
type loopVar struct {
	over string
	lits []string
}

// loopVars maps the variables of the tree's for loops (for v in x) to
// what they take; a loop over anything else takes an empty loopVar with
// over "?" (unknown).
func loopVars(root any) map[string][]loopVar {
	out := map[string][]loopVar{}
	walkAll(reflect.ValueOf(root), map[uintptr]bool{}, func(v reflect.Value) {
		if v.Type() != forType {
			return
		}
		f := (*controlStructures.ForControlStructure)(unsafe.Pointer(v.Pointer()))
		if f.Value != "" {
			out[f.Key] = append(out[f.Key], loopVar{over: "?"})
			return
		}
		lits, ok := stringList(f.ObjectEvaluator)
		switch n, isName := f.ObjectEvaluator.(*nodes.Name); {
		case ok:
			out[f.Key] = append(out[f.Key], loopVar{lits: lits})
		case isName && n != nil && n.Name != nil:
			out[f.Key] = append(out[f.Key], loopVar{over: n.Name.Val})
		default:
			out[f.Key] = append(out[f.Key], loopVar{over: "?"})
		}
	})
	return out
}

// stringList is the values of a list (or tuple) of string literals.
func stringList(x nodes.Expression) ([]string, bool) {
	var items []nodes.Expression
	switch l := x.(type) {
	case *nodes.List:
		if l == nil {
			return nil, false
		}
		items = l.Val
	case *nodes.Tuple:
		if l == nil {
			return nil, false
		}
		items = l.Val
	default:
		return nil, false
	}
	var out []string
	for _, it := range items {
		s, ok := it.(*nodes.String)
		if !ok || s == nil {
			return nil, false
		}
		out = append(out, s.Val)
	}
	return out, true
}

// varCall is a call of var() or of a macro handing an argument on to it.
type varCall struct {
	line, col int
	handed    []handedArg
}

// handedArg is an argument at a handed-on position (each: a position
// taking a list of names): string literals (one, or a list's), a plain
// name, or something else (unknown).
type handedArg struct {
	literals []string
	name     string
	each     bool
	unknown  bool
}

// varScan finds the calls of var() and of the macros handing an argument
// on to it: through (macro name → the parameters handed on), called by
// name or as space.name, space one of spaces (the project and packages).
type varScan struct {
	through map[string][]varParam
	spaces  map[string]bool
}

// callee is the name a call calls and its place, when it is a name or
// a name in one of the spaces ("" otherwise).
func (sc varScan) callee(c *nodes.Call) (name string, line, col int) {
	switch fn := c.Func.(type) {
	case *nodes.Name:
		if fn != nil && fn.Name != nil {
			return fn.Name.Val, fn.Name.Line, fn.Name.Col
		}
	case *nodes.GetAttribute:
		if ns, ok := fn.Node.(*nodes.Name); ok && ns != nil && ns.Name != nil && sc.spaces[ns.Name.Val] && fn.Attribute != "" {
			return fn.Attribute, ns.Name.Line, ns.Name.Col
		}
	}
	return "", 0, 0
}

// dispatched reads a call of adapter.dispatch('name', ...)(args): the
// parameters its implementations (prefix__name: default__name, ...) hand
// on to var(), and the place of the call.
func (sc varScan) dispatched(c *nodes.Call) (ps []varParam, line, col int, ok bool) {
	inner, _ := c.Func.(*nodes.Call)
	if inner == nil {
		return nil, 0, 0, false
	}
	fn, _ := inner.Func.(*nodes.GetAttribute)
	if fn == nil || fn.Attribute != "dispatch" {
		return nil, 0, 0, false
	}
	ns, _ := fn.Node.(*nodes.Name)
	if ns == nil || ns.Name == nil || ns.Name.Val != "adapter" {
		return nil, 0, 0, false
	}
	nameArg := inner.Kwargs["macro_name"]
	if len(inner.Args) > 0 {
		nameArg = inner.Args[0]
	}
	name, _ := nameArg.(*nodes.String)
	if name == nil {
		return nil, 0, 0, false
	}
	for _, k := range slices.Sorted(maps.Keys(sc.through)) {
		if strings.HasSuffix(k, "__"+name.Val) {
			for _, p := range sc.through[k] {
				if !hasParam(ps, p.pos) {
					ps = append(ps, p)
				}
			}
		}
	}
	return ps, ns.Name.Line, ns.Name.Col, len(ps) > 0
}

// calls lists the calls in the tree of the names in sc.through, with the
// arguments at their handed-on positions (positional or by keyword).
func (sc varScan) calls(root any) []varCall {
	var out []varCall
	walkNodes(root, func(c *nodes.Call) {
		name, line, col := sc.callee(c)
		ps, ok := sc.through[name]
		if name == "" {
			ps, line, col, ok = sc.dispatched(c)
		}
		if !ok {
			return
		}
		vc := varCall{line: line, col: col}
		for _, p := range ps {
			var x nodes.Expression
			if p.pos < len(c.Args) {
				x = c.Args[p.pos]
			} else if k, ok := c.Kwargs[p.name]; ok {
				x = k
			}
			vc.handed = append(vc.handed, handed(x, p.each))
		}
		out = append(out, vc)
	})
	return out
}

// handed reads the argument x at a handed-on position (nil: not given).
func handed(x nodes.Expression, each bool) handedArg {
	a := handedArg{each: each}
	if x == nil {
		return a
	}
	if v, ok := x.(*nodes.Name); ok && v != nil && v.Name != nil {
		a.name = v.Name.Val
		return a
	}
	if v, ok := x.(*nodes.String); ok && v != nil && !each {
		a.literals = []string{v.Val}
		return a
	}
	if l, ok := stringList(x); ok && each {
		a.literals = l
		return a
	}
	a.unknown = true
	return a
}

// stringsIn lists the string literals in the tree that hold Jinja.
func stringsIn(root any) []string {
	var out []string
	walkAll(reflect.ValueOf(root), map[uintptr]bool{}, func(v reflect.Value) {
		if v.Type() == stringType {
			if s := v.Elem().FieldByName("Val").String(); strings.Contains(s, "{{") || strings.Contains(s, "{%") {
				out = append(out, s)
			}
		}
	})
	return out
}

// walkNodes calls f on every nodes.Call in the tree (see CallSites).
func walkNodes(root any, f func(*nodes.Call)) {
	walkAll(reflect.ValueOf(root), map[uintptr]bool{}, func(v reflect.Value) {
		if v.Type() == callType {
			// reached through unexported fields too: Interface() refuses those
			f((*nodes.Call)(unsafe.Pointer(v.Pointer())))
		}
	})
}

// walkAll visits every non-nil pointer the value reaches once.
func walkAll(v reflect.Value, seen map[uintptr]bool, visit func(reflect.Value)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == tokenType || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		visit(v)
		walkAll(v.Elem(), seen, visit)
	case reflect.Interface:
		if !v.IsNil() {
			walkAll(v.Elem(), seen, visit)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			walkAll(v.Field(i), seen, visit)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkAll(v.Index(i), seen, visit)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			walkAll(it.Value(), seen, visit)
		}
	}
}

func indexOf(l []string, s string) int {
	for i, x := range l {
		if x == s {
			return i
		}
	}
	return -1
}

func hasParam(ps []varParam, i int) bool {
	for _, p := range ps {
		if p.pos == i {
			return true
		}
	}
	return false
}
