package render

import (
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// CallSite is a call of a plain name written in a template, as the
// template parser read it: `ref('a')` at line 3, column 8.
type CallSite struct {
	Name      string
	Args      []string // each positional argument's text when it is a string literal, else ""
	Line, Col int      // where the called name starts (column in bytes, from 1)
}

// CallSites lists the template's own calls of the given names (not those
// inside the macros it calls, which live in other files), in source
// order. The runner places ref/source/config mistakes with them.
//
// Hand-written over reflection: gonja's nodes.Walk only descends into
// templates and wrappers, and its control structures (if, for, set, call,
// filter blocks, …) keep their expressions in their own, partly unexported,
// fields. Reading every pointer, slice, map and interface the parse tree
// holds reaches each nodes.Call whatever holds it.
func (t *Template) CallSites(names ...string) []CallSite {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []CallSite
	if root := t.tpl.Root(); root != nil {
		walkAll(reflect.ValueOf(root), map[uintptr]bool{}, func(v reflect.Value) {
			if v.Type() == callType {
				if cs, off, ok := callSite(v.Elem(), want); ok {
					cs.Line, cs.Col = t.place(off)
					out = append(out, cs)
				}
			}
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Col < out[j].Col
	})
	return out
}

var (
	callType   = reflect.TypeOf(&nodes.Call{})
	nameType   = reflect.TypeOf(&nodes.Name{})
	stringType = reflect.TypeOf(&nodes.String{})
	tokenType  = reflect.TypeOf(&tokens.Token{})
)

// callSite reads a nodes.Call (a struct value, possibly reached through
// unexported fields, so read field by field) when it calls a wanted name.
// off is the name's byte offset in the parsed text.
func callSite(call reflect.Value, want map[string]bool) (cs CallSite, off int, ok bool) {
	fn := call.FieldByName("Func")
	if fn.IsNil() || fn.Elem().Type() != nameType || fn.Elem().IsNil() {
		return cs, 0, false
	}
	tok := fn.Elem().Elem().FieldByName("Name")
	if tok.IsNil() {
		return cs, 0, false
	}
	name := tok.Elem().FieldByName("Val").String()
	if !want[name] {
		return cs, 0, false
	}
	cs = CallSite{Name: name}
	args := call.FieldByName("Args")
	for i := 0; i < args.Len(); i++ {
		a, s := args.Index(i), ""
		if !a.IsNil() && a.Elem().Type() == stringType && !a.Elem().IsNil() {
			s = a.Elem().Elem().FieldByName("Val").String()
		}
		cs.Args = append(cs.Args, s)
	}
	return cs, int(tok.Elem().FieldByName("Pos").Int()), true
}

// place turns a byte offset of the parsed text into the line and column
// of the source as written: the parsed text is shareLists(src), which
// first prints each quoted relation through docket_dbt_name
// (quotedRelations) and then wraps each `{% set x = [...] %}` list in
// "__mlist(" and ")"; the two are undone in turn.
func (t *Template) place(off int) (line, col int) {
	q := quotedRelations(t.src)
	o := unwrap(off, regexpSpans(q, listSetRe), len(mlistOpen), len(mlistClose))
	o = unwrap(o, quotedRelSpans(t.src), len(dbtNameOpen), len(dbtNameClose))
	if o > len(t.src) {
		return 1, 1
	}
	return 1 + strings.Count(t.src[:o], "\n"), o - strings.LastIndex(t.src[:o], "\n")
}

// unwrap maps an offset of a rewrite of a text (each span of the text
// wrapped in openLen and closeLen bytes) back to an offset of the text;
// an offset inside an insert is the wrapped span's start or end.
func unwrap(off int, spans [][2]int, openLen, closeLen int) int {
	o, shift := -1, 0
	for _, m := range spans {
		open, close := m[0]+shift, m[1]+shift+openLen // the inserts' places in the rewritten text
		switch {
		case off < open:
			o = off - shift
		case off < close:
			o = max(off-shift-openLen, m[0])
		case off < close+closeLen:
			o = m[1]
		}
		if o >= 0 {
			break
		}
		shift += openLen + closeLen
	}
	if o < 0 {
		o = off - shift
	}
	return o
}

// regexpSpans are the spans of group 2 of re's matches in text.
func regexpSpans(text string, re *regexp.Regexp) [][2]int {
	var out [][2]int
	for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, [2]int{m[4], m[5]})
	}
	return out
}
