package compiler

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/dlclark/regexp2"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// Python's re flag values (re.IGNORECASE == 2, ...), as modules.re gives
// them to templates: re.findall(p, s, re.IGNORECASE) stopped a template at
// "attribute 'IGNORECASE' not found".
const (
	reI = 2
	reM = 8
	reS = 16
	reX = 64
	reA = 256
)

var reFlagNames = map[string]int{
	"I": reI, "IGNORECASE": reI, "M": reM, "MULTILINE": reM, "S": reS, "DOTALL": reS,
	"X": reX, "VERBOSE": reX, "A": reA, "ASCII": reA, "U": 32, "UNICODE": 32, "L": 4, "LOCALE": 4,
}

// leadFlagsRe is a pattern's leading inline flags group, Python's (?ix).
var leadFlagsRe = regexp.MustCompile(`^\(\?([aiLmsux]+)\)`)

// pyRegex is a compiled Python pattern: Go's RE2 when it takes the
// pattern, else a backtracking engine (regexp2) for what RE2 lacks and
// Python has: lookbehind, lookahead, backreferences (dbt-project-evaluator's
// hard-coded-reference patterns start with (?<!distinct\s); dbt_expectations'
// re2 flag check has (?!.*--) and (?<!-)). They were a parse error
// that printed only the pattern.
type pyRegex struct {
	re2   *regexp.Regexp
	bt    *regexp2.Regexp
	names []string // by group number: "" for an unnamed group
}

// numSubexp is the number of groups.
func (r *pyRegex) numSubexp() int { return len(r.names) - 1 }

// findAll is every match's (at most limit, all when limit < 0) byte
// offsets, as Go's FindAllStringSubmatchIndex: pairs, -1 for a group that
// took no part.
func (r *pyRegex) findAll(s string, limit int) ([][]int, error) {
	if r.re2 != nil {
		return r.re2.FindAllStringSubmatchIndex(s, limit), nil
	}
	// regexp2 counts runes; offs maps a rune index to its byte offset
	offs := make([]int, 0, len(s)+1)
	for i := range s {
		offs = append(offs, i)
	}
	offs = append(offs, len(s))
	var out [][]int
	m, err := r.bt.FindStringMatch(s)
	for ; err == nil && m != nil && (limit < 0 || len(out) < limit); m, err = r.bt.FindNextMatch(m) {
		loc := make([]int, 2*len(r.names))
		for i := range r.names {
			loc[2*i], loc[2*i+1] = -1, -1
		}
		for _, g := range m.Groups() {
			i := r.bt.GroupNumberFromName(g.Name)
			if i < 0 || i >= len(r.names) || len(g.Captures) == 0 {
				continue
			}
			loc[2*i], loc[2*i+1] = offs[g.Index], offs[g.Index+g.Length]
		}
		out = append(out, loc)
	}
	if err != nil {
		return nil, fmt.Errorf("modules.re: %v", err)
	}
	return out, nil
}

// first is the leftmost match's offsets, nil for none.
func (r *pyRegex) first(s string) ([]int, error) {
	all, err := r.findAll(s, 1)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	return all[0], nil
}

// pyCompile compiles a Python pattern with Python's flags: the flags (an
// argument or a leading (?ix) group) become inline (?ims), and VERBOSE
// drops the pattern's unescaped whitespace and # comments outside a
// character class, as Python's re.X does (RE2 has no x flag:
// dbt-project-evaluator's patterns are verbose).
func pyCompile(pattern string, flags int) (*pyRegex, error) {
	inline, body, needBT := pyPrepare(pattern, flags)
	return pyBuild(inline+body, needBT)
}

// pyPrepare is a Python pattern as Go's engines read it: inline, the
// flags as a leading (?ims) group ("" for none), and body, the pattern
// with VERBOSE applied and Python's syntax rewritten (pyRewrite); needBT
// when only the backtracking engine can run it.
func pyPrepare(pattern string, flags int) (inline, body string, needBT bool) {
	if m := leadFlagsRe.FindStringSubmatch(pattern); m != nil {
		for _, c := range m[1] {
			switch c {
			case 'i':
				flags |= reI
			case 'm':
				flags |= reM
			case 's':
				flags |= reS
			case 'x':
				flags |= reX
			case 'a':
				flags |= reA
			}
		}
		pattern = pattern[len(m[0]):]
	}
	if flags&reX != 0 {
		pattern = stripVerbose(pattern)
	}
	body, needBT = pyRewrite(pattern, flags)
	if flags&reI != 0 {
		inline += "i"
	}
	if flags&reM != 0 {
		inline += "m"
	}
	if flags&reS != 0 {
		inline += "s"
	}
	if inline != "" {
		inline = "(?" + inline + ")"
	}
	return inline, body, needBT
}

// pyBuild compiles a prepared pattern: Go's RE2 when it takes it and the
// pattern cannot match the empty string, else regexp2, whose iteration
// over matches is Python's (3.7+): an empty match right after a non-empty
// one counts (re.sub('x*', '-', 'axxb') is '-a--b-'; Go's FindAll skips
// it: '-a-b-').
func pyBuild(pattern string, needBT bool) (*pyRegex, error) {
	if !needBT {
		if r, err := regexp.Compile(pattern); err == nil && !canMatchEmpty(pattern) {
			return &pyRegex{re2: r, names: r.SubexpNames()}, nil
		}
	}
	bt, err2 := regexp2.Compile(pattern, regexp2.RE2)
	if err2 != nil {
		// whole, as a user's error (it printed only the text after the
		// last colon: the pattern)
		return nil, &render.UserError{Msg: "modules.re: " + strings.TrimPrefix(err2.Error(), "error parsing regexp: ")}
	}
	names := make([]string, len(bt.GetGroupNumbers()))
	for _, n := range bt.GetGroupNumbers() {
		if n >= 0 && n < len(names) {
			if name := bt.GroupNameFromNumber(n); name != strconv.Itoa(n) {
				names[n] = name
			}
		}
	}
	return &pyRegex{bt: bt, names: names}, nil
}

// canMatchEmpty says whether an RE2 pattern can match the empty string
// somewhere (its shortest match is empty: x*, a|, \b, ^).
func canMatchEmpty(pattern string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return true
	}
	return minLen(re.Simplify()) == 0
}

// minLen is the fewest characters re matches.
func minLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLen(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLen(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minLen(sub)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, sub := range re.Sub {
			if m := minLen(sub); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0 // empty match, anchors, word boundaries, star, quest, no match
}

// pyExpand is Python's re.sub replacement for one match: \1, \g<1> and
// \g<name> are the group's text (none for a group that took no part), \n,
// \t, \r and \\ their characters, any other text as it is (a $ too: Go's
// template read it as a group).
func pyExpand(repl, s string, loc []int, names []string) (string, error) {
	var b strings.Builder
	group := func(ref string) error {
		i, err := strconv.Atoi(ref)
		if err != nil {
			i = -1
			for j, n := range names {
				if n != "" && n == ref {
					i = j
				}
			}
		}
		if i < 0 || 2*i+1 >= len(loc) {
			return fmt.Errorf("modules.re.sub: invalid group reference %s", ref)
		}
		if loc[2*i] >= 0 {
			b.WriteString(s[loc[2*i]:loc[2*i+1]])
		}
		return nil
	}
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 == len(repl) {
			b.WriteByte(c)
			continue
		}
		i++
		switch d := repl[i]; {
		case d >= '0' && d <= '9':
			j := i + 1
			if j < len(repl) && repl[j] >= '0' && repl[j] <= '9' {
				j++
			}
			if err := group(repl[i:j]); err != nil {
				return "", err
			}
			i = j - 1
		case d == 'g' && i+1 < len(repl) && repl[i+1] == '<':
			end := strings.IndexByte(repl[i:], '>')
			if end < 0 {
				return "", fmt.Errorf("modules.re.sub: missing > in %q", repl)
			}
			if err := group(repl[i+2 : i+end]); err != nil {
				return "", err
			}
			i += end
		case d == 'n':
			b.WriteByte('\n')
		case d == 't':
			b.WriteByte('\t')
		case d == 'r':
			b.WriteByte('\r')
		case d == '\\':
			b.WriteByte('\\')
		default:
			b.WriteByte('\\')
			b.WriteByte(d)
		}
	}
	return b.String(), nil
}

// stripVerbose is Python's re.VERBOSE reading of a pattern: whitespace and
// a # up to the line's end are dropped unless escaped or in a class.
func stripVerbose(p string) string {
	var b strings.Builder
	inClass := false
	rs := []rune(p)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\\' && i+1 < len(rs):
			b.WriteRune(c)
			i++
			b.WriteRune(rs[i])
			continue
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			b.WriteRune(c)
			// a ] (after an optional ^) first in a class is a literal
			if i+1 < len(rs) && rs[i+1] == '^' {
				i++
				b.WriteRune('^')
			}
			if i+1 < len(rs) && rs[i+1] == ']' {
				i++
				b.WriteRune(']')
			}
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			continue
		case c == '#':
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// intArg is argument i by position, else keyword name, else def.
func intArg(a render.Args, i int, name string, def int) (int, error) {
	var v any
	if len(a.Pos) > i {
		v = a.Pos[i]
	} else if kv, ok := a.Kw[name]; ok {
		v = kv
	} else {
		return def, nil
	}
	switch n := v.(type) {
	case int:
		return n, nil
	case int64:
		return int(n), nil
	case float64:
		if n == float64(int(n)) {
			return int(n), nil
		}
	case nil:
		return def, nil
	}
	return 0, fmt.Errorf("modules.re: %s must be an integer, got %v", name, v)
}
