package render

import (
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/nikolalohinski/gonja/v2/nodes"
)

// VarReads is what the project's Jinja reads with var(), found without
// rendering (every branch counts, taken or not).
type VarReads struct {
	// Names read: var('name') written as a literal, or a literal passed
	// to a macro that hands that argument on to var() (batch_count(rel,
	// 'name') where the macro calls var(var_name)), through any number
	// of macros.
	Names map[string]bool
	// Computed: var() calls whose name is neither a literal nor a
	// parameter handed on, so what they read is unknown.
	Computed []VarSite
}

// VarSite is a place in a file.
type VarSite struct {
	File      string
	Line, Col int
}

// varParam is a macro parameter handed on to var(): its position and name.
type varParam struct {
	pos  int
	name string
}

// VarReads finds what var() reads in the environment's macros (the root
// project's and the packages') and in the sources given (file → text:
// models, snapshots, tests, YAML; a Jinja string inside them, such as a
// hook in config(), is read as a template too). A source that does not
// parse as a template is searched for var('name') as text.
func (e *Env) VarReads(sources map[string]string) VarReads {
	r := VarReads{Names: map[string]bool{}}
	type macro struct {
		def    macroDef
		params []string
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
			macros = append(macros, macro{d, params})
		}
	}
	// The macros handing a parameter on to var(), to a fixpoint: var
	// itself takes the name first. A macro is called by its name or
	// through its package's namespace (dbt_utils.x(...)).
	sc := varScan{through: map[string][]varParam{"var": {{0, "name"}}}, spaces: map[string]bool{e.Root: true}}
	for p := range e.packages {
		sc.spaces[p] = true
	}
	through := sc.through
	for changed := true; changed; {
		changed = false
		for _, m := range macros {
			for _, c := range sc.calls(m.def.node) {
				for _, a := range c.handed {
					if a.name == "" {
						continue
					}
					if i := indexOf(m.params, a.name); i >= 0 && !hasParam(through[m.def.node.Name], i) {
						through[m.def.node.Name] = append(through[m.def.node.Name], varParam{i, a.name})
						changed = true
					}
				}
			}
		}
	}
	for _, m := range macros {
		for _, c := range sc.calls(m.def.node) {
			r.add(c, m.params, m.def.file)
		}
		r.addDefaults(m.def.node, through[m.def.node.Name])
	}
	for _, f := range slices.Sorted(maps.Keys(sources)) {
		r.addSource(e, f, sources[f], sc, 0)
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

// varLiteralRe finds var('name') written as text.
var varLiteralRe = regexp.MustCompile(`\bvar\(\s*['"]([^'"]+)['"]`)

// addSource reads one source; depth bounds Jinja strings in strings.
func (r *VarReads) addSource(e *Env, file, src string, sc varScan, depth int) {
	if depth > 3 || !strings.Contains(src, "{{") && !strings.Contains(src, "{%") {
		return
	}
	t, err := e.parse(file, src)
	if err != nil {
		for _, m := range varLiteralRe.FindAllStringSubmatch(src, -1) {
			r.Names[m[1]] = true
		}
		return
	}
	for _, c := range sc.calls(t.Root()) {
		r.add(c, nil, file)
	}
	for _, s := range stringsIn(t.Root()) {
		r.addSource(e, file, s, sc, depth+1)
	}
}

// addDefaults records the string defaults of the macro's parameters that
// it hands on to var() (ps): what a call leaving one out reads.
func (r *VarReads) addDefaults(m *nodes.Macro, ps []varParam) {
	for _, p := range ps {
		if p.pos < len(m.Kwargs) {
			if s, ok := m.Kwargs[p.pos].Value.(*nodes.String); ok && s != nil {
				r.Names[s.Val] = true
			}
		}
	}
}

// add records a call's literal names, and its other arguments unless
// they are parameters of the macro it is in (params).
func (r *VarReads) add(c varCall, params []string, file string) {
	for _, a := range c.handed {
		switch {
		case a.literal != "":
			r.Names[a.literal] = true
		case a.name != "" && indexOf(params, a.name) >= 0:
		case a.given:
			r.Computed = append(r.Computed, VarSite{file, c.line, c.col})
		}
	}
}

// varCall is a call of var() or of a macro handing an argument on to it.
type varCall struct {
	line, col int
	handed    []handedArg
}

// handedArg is an argument at a handed-on position: a string literal, a
// plain name, or something else (given: written at all).
type handedArg struct {
	literal, name string
	given         bool
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

// calls lists the calls in the tree of the names in sc.through, with the
// arguments at their handed-on positions (positional or by keyword).
func (sc varScan) calls(root any) []varCall {
	var out []varCall
	walkNodes(root, func(c *nodes.Call) {
		name, line, col := sc.callee(c)
		ps, ok := sc.through[name]
		if name == "" || !ok {
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
			a := handedArg{given: x != nil}
			switch v := x.(type) {
			case *nodes.String:
				a.literal = v.Val
			case *nodes.Name:
				if v != nil && v.Name != nil {
					a.name = v.Name.Val
				}
			}
			vc.handed = append(vc.handed, a)
		}
		out = append(out, vc)
	})
	return out
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
