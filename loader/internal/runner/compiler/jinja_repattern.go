package compiler

import (
	"fmt"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// pyPattern is Python's re.Pattern, modules.re.compile's value: its
// methods are the module's functions without the pattern (and flags),
// pattern, flags and groups its attributes. Printed, it is Python's repr,
// re.compile('b+').
type pyPattern struct {
	src   string
	flags int
	re    *pyRegex
	full  *pyRegex // for fullmatch: the pattern anchored at both ends, made once asked
}

// newPattern compiles src; its flags are Python's, re.UNICODE (32) added
// to a pattern that is not re.ASCII, as Python does for a str pattern.
func newPattern(src string, flags int) (*pyPattern, error) {
	re, err := pyCompile(src, flags)
	if err != nil {
		return nil, err
	}
	if flags&reA == 0 {
		flags |= 32
	}
	return &pyPattern{src: src, flags: flags, re: re}, nil
}

func (p *pyPattern) String() string {
	var names []string
	for _, f := range []struct {
		bit  int
		name string
	}{{reI, "IGNORECASE"}, {reM, "MULTILINE"}, {reS, "DOTALL"}, {reX, "VERBOSE"}, {reA, "ASCII"}} {
		if p.flags&f.bit != 0 {
			names = append(names, "re."+f.name)
		}
	}
	if len(names) == 0 {
		return "re.compile(" + pyRepr(p.src) + ")"
	}
	return "re.compile(" + pyRepr(p.src) + ", " + strings.Join(names, "|") + ")"
}

// fullRe is the pattern as fullmatch runs it: \A(?:pattern)\z, so that
// backtracking finds the match spanning the whole string (the leftmost
// match may be shorter: 'a|ab' against 'ab').
func (p *pyPattern) fullRe() (*pyRegex, error) {
	if p.full == nil {
		inline, body, needBT := pyPrepare(p.src, p.flags)
		full, err := pyBuild(inline+`\A(?:`+body+`)\z`, needBT)
		if err != nil {
			return nil, err
		}
		p.full = full
	}
	return p.full, nil
}

// The operations take their arguments without the pattern: a method's as
// given, a module function's after its pattern.

func (p *pyPattern) match(a render.Args, full bool) (any, error) {
	if err := noPos(a, 1, "pos"); err != nil {
		return nil, err
	}
	re := p.re
	if full {
		var err error
		if re, err = p.fullRe(); err != nil {
			return nil, err
		}
	}
	s := posStr(a, 0)
	// anchored, as Python's match: a leftmost match exists at 0 if any does
	loc, err := re.first(s)
	if err != nil || loc == nil || loc[0] != 0 {
		return nil, err
	}
	return pyMatch{s: s, loc: loc, names: re.names}, nil
}

func (p *pyPattern) search(a render.Args) (any, error) {
	if err := noPos(a, 1, "pos"); err != nil {
		return nil, err
	}
	s := posStr(a, 0)
	loc, err := p.re.first(s)
	if err != nil || loc == nil {
		return nil, err
	}
	return pyMatch{s: s, loc: loc, names: p.re.names}, nil
}

// sub is re.sub(repl, string, count=0), or subn's (string, count) when n.
func (p *pyPattern) sub(a render.Args, n bool) (any, error) {
	count, err := intArg(a, 2, "count", 0)
	if err != nil {
		return nil, err
	}
	if count <= 0 {
		count = -1
	}
	repl, s := posStr(a, 0), posStr(a, 1)
	locs, err := p.re.findAll(s, count)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		b.WriteString(s[last:loc[0]])
		e, err := pyExpand(repl, s, loc, p.re.names)
		if err != nil {
			return nil, err
		}
		b.WriteString(e)
		last = loc[1]
	}
	b.WriteString(s[last:])
	if n {
		return exec.Tuple{exec.AsValue(b.String()), exec.AsValue(len(locs))}, nil
	}
	return b.String(), nil
}

// split is re.split(string, maxsplit=0): the pieces between the matches,
// each match's groups between them (None for a group that took no part).
func (p *pyPattern) split(a render.Args) (any, error) {
	maxsplit, err := intArg(a, 1, "maxsplit", 0)
	if err != nil {
		return nil, err
	}
	if maxsplit <= 0 {
		maxsplit = -1
	}
	s := posStr(a, 0)
	locs, err := p.re.findAll(s, maxsplit)
	if err != nil {
		return nil, err
	}
	out := []any{}
	last := 0
	for _, loc := range locs {
		out = append(out, s[last:loc[0]])
		for i := 1; i < len(loc)/2; i++ {
			if loc[2*i] < 0 {
				out = append(out, nil)
			} else {
				out = append(out, s[loc[2*i]:loc[2*i+1]])
			}
		}
		last = loc[1]
	}
	return append(out, s[last:]), nil
}

// findall gives, as Python's, the whole matches of a pattern without
// groups, the one group's text of a pattern with one, and a tuple of the
// groups' texts otherwise.
func (p *pyPattern) findall(a render.Args) (any, error) {
	s, locs, err := p.every(a)
	if err != nil {
		return nil, err
	}
	text := func(loc []int, i int) string {
		if loc[2*i] < 0 {
			return ""
		}
		return s[loc[2*i]:loc[2*i+1]]
	}
	out := []any{}
	for _, loc := range locs {
		switch n := p.re.numSubexp(); n {
		case 0:
			out = append(out, text(loc, 0))
		case 1:
			out = append(out, text(loc, 1))
		default:
			t := make(exec.Tuple, n)
			for i := range t {
				t[i] = exec.AsValue(text(loc, i+1))
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// finditer is every match as a Match object (a list: a template only
// loops over it).
func (p *pyPattern) finditer(a render.Args) (any, error) {
	s, locs, err := p.every(a)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, loc := range locs {
		out = append(out, pyMatch{s: s, loc: loc, names: p.re.names})
	}
	return out, nil
}

// every is the string findall and finditer search (their first
// argument) and its every match.
func (p *pyPattern) every(a render.Args) (string, [][]int, error) {
	if err := noPos(a, 1, "pos"); err != nil {
		return "", nil, err
	}
	s := posStr(a, 0)
	locs, err := p.re.findAll(s, -1)
	return s, locs, err
}

// noPos refuses a positional argument from i on (Pattern.match's pos and
// endpos), which docket does not apply, rather than ignore it.
func noPos(a render.Args, i int, name string) error {
	_, kw := a.Kw[name]
	if len(a.Pos) > i || kw {
		return &render.UserError{Msg: "modules.re: the " + name + "/endpos arguments are not supported by docket: slice the string instead"}
	}
	return nil
}

func (p *pyPattern) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "pattern":
		return exec.AsValue(p.src), true
	case "flags":
		return exec.AsValue(p.flags), true
	case "groups":
		return exec.AsValue(p.re.numSubexp()), true
	case "groupindex":
		out := map[string]any{}
		for i, n := range p.re.names {
			if n != "" {
				out[n] = i
			}
		}
		return exec.AsValue(out), true
	}
	if op := p.op(name); op != nil {
		return exec.AsValue(render.Wrap(op)), true
	}
	return nil, false
}

// op is the operation name as a function of its arguments (nil: none).
func (p *pyPattern) op(name string) func(render.Args) (any, error) {
	switch name {
	case "match", "fullmatch":
		return func(a render.Args) (any, error) { return p.match(a, name == "fullmatch") }
	case "search":
		return p.search
	case "sub", "subn":
		return func(a render.Args) (any, error) { return p.sub(a, name == "subn") }
	case "split":
		return p.split
	case "findall":
		return p.findall
	case "finditer":
		return p.finditer
	}
	return nil
}

// reFlagsAt is where each module function takes its flags, counted after
// the pattern: re.sub(pattern, repl, string, count, flags).
var reFlagsAt = map[string]int{"match": 1, "fullmatch": 1, "search": 1, "findall": 1, "finditer": 1, "split": 2, "sub": 3, "subn": 3}

// reModule is Python's `re` as dbt's modules.re: compile, match,
// fullmatch, search, sub, subn, split, findall, finditer, escape and the
// flag constants, over Go's RE2 (regexp2 where RE2 cannot run a pattern or
// it can match the empty string). search and match give a pyMatch (or
// None); flags are an argument after the function's own, or flags=.
// split, fullmatch, compile, subn and finditer stopped a template ("split()
// is not a method docket provides"): real projects split a model's SQL on
// a pattern, check a var with fullmatch, compile a pattern once.
func reModule() map[string]any {
	m := map[string]any{
		"compile": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("modules.re.compile needs a pattern")
			}
			flags, err := intArg(a, 1, "flags", 0)
			if err != nil {
				return nil, err
			}
			if p, ok := a.Pos[0].(*pyPattern); ok {
				return p, nil
			}
			return newPattern(fmt.Sprint(a.Pos[0]), flags)
		}),
		"escape": render.Wrap(func(a render.Args) (any, error) { return pyEscape(posStr(a, 0)), nil }),
	}
	for name, at := range reFlagsAt {
		m[name] = render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("modules.re.%s needs a pattern", name)
			}
			rest := render.Args{Pos: a.Pos[1:], Kw: a.Kw}
			flags, err := intArg(rest, at, "flags", 0)
			if err != nil {
				return nil, err
			}
			if len(rest.Pos) > at {
				rest.Pos = rest.Pos[:at] // the flags are the pattern's
			}
			delete(rest.Kw, "flags")
			p, ok := a.Pos[0].(*pyPattern)
			if !ok {
				if p, err = newPattern(fmt.Sprint(a.Pos[0]), flags); err != nil {
					return nil, err
				}
			}
			return p.op(name)(rest)
		})
	}
	for name, v := range reFlagNames {
		m[name] = v
	}
	return m
}

// pyEscape is Python 3.7+'s re.escape: a backslash before each of
// ()[]{}?*+-|^$\.&~# and whitespace (Go's QuoteMeta leaves space, -, #,
// &, ~ and the control whitespace: re.escape('c d') was 'c d').
func pyEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
