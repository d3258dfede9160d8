package compiler

import (
	"fmt"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// pyMatch is Python's re.Match as dbt's modules.re.match/search give it
// to a template: group() / group(n) / group('name') / group(a, b),
// groups(), groupdict(), start(n), end(n), span(n); a group that did not
// take part is None. It is truthy even when it matched nothing ('a*'
// against 'b'). Printed, it is the matched text, as docket printed what
// match() and search() gave before (Python prints a repr no template
// wants). They gave that text, so match.group(1) stopped a project.
type pyMatch struct {
	s     string
	loc   []int    // FindStringSubmatchIndex: pairs of offsets, -1 for a group not taken
	names []string // SubexpNames: "" for an unnamed group
}

func (m pyMatch) String() string { return m.s[m.loc[0]:m.loc[1]] }

// index is the number of group g (a number or a name).
func (m pyMatch) index(g any) (int, error) {
	switch v := g.(type) {
	case int:
		if v >= 0 && v < len(m.loc)/2 {
			return v, nil
		}
	case int64:
		return m.index(int(v))
	case string:
		for i, n := range m.names {
			if n != "" && n == v {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("no such group: %v", g)
}

// group is the text of group i, nil when it did not take part.
func (m pyMatch) group(i int) any {
	if m.loc[2*i] < 0 {
		return nil
	}
	return m.s[m.loc[2*i]:m.loc[2*i+1]]
}

// runes is byte offset b as Python counts it, in characters (-1 stays).
func (m pyMatch) runes(b int) int {
	if b < 0 {
		return b
	}
	return utf8.RuneCountInString(m.s[:b])
}

// arg is the group an optional first argument names (0 without one).
func (m pyMatch) arg(a render.Args) (int, error) {
	if len(a.Pos) == 0 {
		return 0, nil
	}
	return m.index(a.Pos[0])
}

func (m pyMatch) GetAttribute(name string) (*exec.Value, bool) {
	var fn func(a render.Args) (any, error)
	switch name {
	case "group":
		fn = func(a render.Args) (any, error) {
			if len(a.Pos) <= 1 {
				i, err := m.arg(a)
				if err != nil {
					return nil, err
				}
				return m.group(i), nil
			}
			out := exec.Tuple{}
			for _, g := range a.Pos {
				i, err := m.index(g)
				if err != nil {
					return nil, err
				}
				out = append(out, exec.AsValue(m.group(i)))
			}
			return out, nil
		}
	case "groups":
		fn = func(render.Args) (any, error) {
			out := exec.Tuple{}
			for i := 1; i < len(m.loc)/2; i++ {
				out = append(out, exec.AsValue(m.group(i)))
			}
			return out, nil
		}
	case "groupdict":
		fn = func(render.Args) (any, error) {
			out := map[string]any{}
			for i, n := range m.names {
				if n != "" {
					out[n] = m.group(i)
				}
			}
			return out, nil
		}
	case "start", "end", "span":
		fn = func(a render.Args) (any, error) {
			i, err := m.arg(a)
			if err != nil {
				return nil, err
			}
			start, end := m.runes(m.loc[2*i]), m.runes(m.loc[2*i+1])
			switch name {
			case "start":
				return start, nil
			case "end":
				return end, nil
			}
			return exec.Tuple{exec.AsValue(start), exec.AsValue(end)}, nil
		}
	default:
		return nil, false
	}
	return exec.AsValue(render.Wrap(fn)), true
}
