package compiler

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	gonjaparser "github.com/nikolalohinski/gonja/v2/parser"
)

// A Python model's dbt.config(key=value, ...) is its config(...): dbt's
// Python parser reads each keyword argument with ast.literal_eval (a
// string, number, True/False/None, list, tuple or dict of those) and
// refuses anything else. docket reads the same literals; an argument that
// is not one is warned at its place and not applied.
//
// Written here rather than taken from a library: no maintained Go package
// reads Python literals alone, and a Starlark interpreter would be a new
// dependency for this one call.

var pyConfigCall = regexp.MustCompile(`\bdbt\s*\.\s*config\s*\(`)

// parsePythonConfig sets n.modelCfg from the file's dbt.config() calls (a
// later call's tags, meta and hooks add to an earlier one's, as config()
// calls in a SQL model do) and n.ConfigPos to the first call.
func (m *Manifest) parsePythonConfig(n *Node) {
	cfg := map[string]any{}
	src := n.RawCode
	for _, loc := range pyConfigCall.FindAllStringIndex(src, -1) {
		if pyInComment(src, loc[0]) {
			continue
		}
		if n.ConfigPos == (Position{}) {
			at := offsetPos(src, loc[0])
			n.ConfigPos = at
		}
		for _, a := range pyArgs(src, loc[1]) {
			start := pySkipBlank(src, a[0], a[1])
			text := strings.TrimSpace(src[start:a[1]])
			if text == "" {
				continue
			}
			at := offsetPos(src, start)
			key, val, ok := strings.Cut(text, "=")
			key = strings.TrimSpace(key)
			if !ok || !pyIdent.MatchString(key) {
				m.warn(n.Path, at, "dbt.config(%s): dbt.config takes keyword arguments (key=value) only; not applied", text)
				continue
			}
			v, err := pyLiteral(strings.TrimSpace(val))
			if err != nil {
				m.warn(n.Path, at, "dbt.config(%s): not a literal (dbt's Python parser reads only strings, numbers, True/False/None, "+
					"lists, tuples and dicts of those, and refuses the model); docket does not apply it", text)
				continue
			}
			mergeCfg(cfg, key, v)
		}
	}
	n.modelCfg = cfg
}

// pySkipBlank is the offset of the first character of src[i:end] that is
// neither white space nor in a comment.
func pySkipBlank(src string, i, end int) int {
	for i < end {
		switch src[i] {
		case ' ', '\t', '\n', '\r', '\\':
			i++
		case '#':
			for i < end && src[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

var pyIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// pyInComment reports whether offset i of src is after a # on its line
// (outside a string: the scan is by line, strings spanning lines aside).
func pyInComment(src string, i int) bool {
	start := strings.LastIndex(src[:i], "\n") + 1
	var quote byte
	for j := start; j < i; j++ {
		c := src[j]
		switch {
		case quote != 0 && c == '\\':
			j++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case quote == 0 && c == '#':
			return true
		}
	}
	return false
}

// pyArgs splits the argument list that starts at src[i] (just past the
// opening parenthesis) at its top-level commas, up to the closing
// parenthesis: [start, end) offsets of each non-empty argument.
func pyArgs(src string, i int) [][2]int {
	var args [][2]int
	depth, start := 0, i
	add := func(end int) {
		if strings.TrimSpace(src[start:end]) != "" {
			args = append(args, [2]int{start, end})
		}
	}
	for j := i; j < len(src); j++ {
		switch c := src[j]; c {
		case '\'', '"':
			j = pyStringEnd(src, j) - 1
		case '#':
			if k := strings.IndexByte(src[j:], '\n'); k >= 0 {
				j += k
			} else {
				j = len(src)
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				add(j)
				return args
			}
			depth--
		case ',':
			if depth == 0 {
				add(j)
				start = j + 1
			}
		}
	}
	add(len(src))
	return args
}

// pyStringEnd is the offset just past the string literal opening at
// src[i] (a quote; triple quotes too).
func pyStringEnd(src string, i int) int {
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], q+q+q) {
		q = q + q + q
	}
	for j := i + len(q); j < len(src); j++ {
		if src[j] == '\\' {
			j++
			continue
		}
		if strings.HasPrefix(src[j:], q) {
			return j + len(q)
		}
	}
	return len(src)
}

// pyLiteral is the value of a Python literal (all of s), as YAML would
// give it: string, int, float64, bool, nil, []any, map[string]any.
func pyLiteral(s string) (any, error) {
	p := &pyParser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if p.skip(); p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q", p.s[p.i:])
	}
	return v, nil
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) skip() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\':
			p.i++
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *pyParser) value() (any, error) {
	p.skip()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("missing value")
	}
	switch c := p.s[p.i]; {
	case c == '\'' || c == '"':
		return p.str(false)
	case strings.IndexByte("rRuU", c) >= 0 && p.i+1 < len(p.s) && (p.s[p.i+1] == '\'' || p.s[p.i+1] == '"'):
		p.i++
		return p.str(c == 'r' || c == 'R')
	case c == '[' || c == '(':
		return p.list(map[byte]byte{'[': ']', '(': ')'}[c])
	case c == '{':
		return p.dict()
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	}
	j := p.i
	for j < len(p.s) && (p.s[j] == '_' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= '0' && p.s[j] <= '9') {
		j++
	}
	word := p.s[p.i:j]
	p.i = j
	switch word {
	case "True":
		return true, nil
	case "False":
		return false, nil
	case "None":
		return nil, nil
	}
	return nil, fmt.Errorf("%q is not a literal", word)
}

// str reads a quoted string (one or three quotes) with Python's escapes
// (none when raw); adjacent literals join, as Python joins them.
func (p *pyParser) str(raw bool) (any, error) {
	var b strings.Builder
	for {
		end := pyStringEnd(p.s, p.i)
		q := 1
		if strings.HasPrefix(p.s[p.i:], strings.Repeat(p.s[p.i:p.i+1], 3)) && end-p.i >= 6 {
			q = 3
		}
		if end-p.i < 2*q || !strings.HasSuffix(p.s[:end], p.s[p.i:p.i+q]) {
			return nil, fmt.Errorf("unterminated string")
		}
		body := p.s[p.i+q : end-q]
		if !raw {
			// Python's escapes, decoded by the same code as a Jinja string
			// literal's (the gonja fork's parser.PyUnescape)
			body = gonjaparser.PyUnescape(body)
		}
		b.WriteString(body)
		p.i = end
		save := p.i
		p.skip()
		if p.i < len(p.s) && (p.s[p.i] == '\'' || p.s[p.i] == '"') {
			raw = false
			continue
		}
		p.i = save
		return b.String(), nil
	}
}

func (p *pyParser) list(close byte) (any, error) {
	p.i++
	out := []any{}
	for {
		p.skip()
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			return out, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.skip()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		} else if p.i >= len(p.s) || p.s[p.i] != close {
			return nil, fmt.Errorf("missing %c", close)
		}
	}
}

func (p *pyParser) dict() (any, error) {
	p.i++
	out := map[string]any{}
	for {
		p.skip()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return out, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		p.skip()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, fmt.Errorf("missing :")
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out[fmt.Sprint(k)] = v
		p.skip()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		} else if p.i >= len(p.s) || p.s[p.i] != '}' {
			return nil, fmt.Errorf("missing }")
		}
	}
}

func (p *pyParser) number() (any, error) {
	j := p.i
	for j < len(p.s) && strings.IndexByte("+-.0123456789eE_xXoObBabcdefABCDEF", p.s[j]) >= 0 {
		j++
	}
	text := strings.ReplaceAll(p.s[p.i:j], "_", "")
	p.i = j
	if v, err := strconv.ParseInt(text, 0, 64); err == nil {
		return int(v), nil
	}
	if v, err := strconv.ParseFloat(text, 64); err == nil {
		return v, nil
	}
	return nil, fmt.Errorf("%q is not a number", text)
}
