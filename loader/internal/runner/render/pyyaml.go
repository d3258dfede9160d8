package render

import (
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// pyYAML writes a value as PyYAML's yaml.safe_dump does with its
// defaults (block style, indent 2, width 80, allow_unicode False), which
// is what dbt's toyaml calls. Hand-written, not a YAML library: yaml.v3
// (the module's YAML library) follows YAML 1.2 and its own layout (a list
// in a mapping indented, "123" and "yes" quoted differently or not at
// all), and PyYAML's output is what templates compare and write back.
// The rules are PyYAML's emitter (analyze_scalar, choose_scalar_style,
// write_plain / write_single_quoted / write_double_quoted) and resolver
// (a string that would read back as another type is quoted). Left out:
// a double-quoted scalar is not folded at the width, a key of 128
// characters or more is not written as a complex key.
type pyYAML struct {
	b        strings.Builder
	sortKeys bool
	column   int
}

// pyYAMLDump is safe_dump(v, sort_keys=sortKeys); false when safe_dump
// refuses a value (RepresenterError: a Decimal, a relation, a table).
func pyYAMLDump(v any, sortKeys bool) (string, bool) {
	e := &pyYAML{sortKeys: sortKeys}
	if !e.node(v, 0, posRoot) {
		return "", false
	}
	return e.b.String(), true
}

type yamlPos int

const (
	posRoot     yamlPos = iota
	posMapValue         // after "key:"
	posSeqItem          // after "- "
)

func (e *pyYAML) write(s string) {
	e.b.WriteString(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		e.column = len([]rune(s[i+1:]))
	} else {
		e.column += len([]rune(s))
	}
}

// node writes v at pos; indent is its container's indent (a mapping's
// keys, a sequence's dashes).
func (e *pyYAML) node(v any, indent int, pos yamlPos) bool {
	switch x := v.(type) {
	case *Mapping:
		keys := append([]string(nil), x.Keys...)
		if e.sortKeys {
			sort.Strings(keys)
		}
		return e.mapping(keys, x.Vals, indent, pos)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a Go map has no order of its own
		return e.mapping(keys, x, indent, pos)
	case []any:
		return e.sequence(x, indent, pos)
	case Tuple: // safe_dump writes a tuple as a list
		return e.sequence(x, indent, pos)
	}
	text, style, ok := yamlScalar(v)
	if !ok {
		return false
	}
	if pos == posMapValue {
		e.write(" ")
	}
	e.scalar(text, style, indent+2, false)
	e.write("\n")
	if pos == posRoot && style == "" {
		e.write("...\n") // PyYAML ends an open-ended (plain) root scalar's document
	}
	return true
}

func (e *pyYAML) mapping(keys []string, vals map[string]any, indent int, pos yamlPos) bool {
	if len(keys) == 0 {
		return e.flowEmpty("{}", pos)
	}
	inner := indent
	switch pos {
	case posMapValue:
		inner = indent + 2
		e.write("\n")
	case posSeqItem:
		inner = indent + 2
	}
	for i, k := range keys {
		if i > 0 || pos == posMapValue {
			e.write(strings.Repeat(" ", inner))
		}
		text, style := stringStyle(k, true)
		e.scalar(text, style, inner+2, true)
		e.write(":")
		if !e.node(vals[k], inner, posMapValue) {
			return false
		}
	}
	return true
}

func (e *pyYAML) sequence(items []any, indent int, pos yamlPos) bool {
	if len(items) == 0 {
		return e.flowEmpty("[]", pos)
	}
	inner := indent // a list in a mapping is written flush with its key
	switch pos {
	case posMapValue:
		e.write("\n")
	case posSeqItem:
		inner = indent + 2
	}
	for i, it := range items {
		if i > 0 || pos == posMapValue {
			e.write(strings.Repeat(" ", inner))
		}
		e.write("- ")
		if !e.node(it, inner, posSeqItem) {
			return false
		}
	}
	return true
}

func (e *pyYAML) flowEmpty(text string, pos yamlPos) bool {
	if pos == posMapValue {
		e.write(" ")
	}
	e.write(text + "\n")
	return true
}

// yamlScalar is a non-container value's text and style ("" plain, "'"
// or `"`) as SafeRepresenter writes it; false for what it refuses.
func yamlScalar(v any) (string, string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", "", true
	case bool:
		if x {
			return "true", "", true
		}
		return "false", "", true
	case int, int64, int32, uint, uint64, uint32, *big.Int:
		return fmt.Sprint(x), "", true
	case float64:
		return pyYAMLFloat(x), "", true
	case string:
		t, s := stringStyle(x, false)
		return t, s, true
	case exec.PyTypeNamer:
		switch x.PyTypeName() {
		case "datetime.date", "datetime.datetime": // PyYAML: isoformat(' '), str()'s text, plain
			return fmt.Sprint(x), "", true
		}
	}
	return "", "", false
}

// stringStyle is PyYAML's choose_scalar_style for a str: plain when the
// text reads back as the same string and nothing in it needs quoting,
// else single-quoted when it can be, else double-quoted.
func stringStyle(s string, simpleKey bool) (string, string) {
	a := analyzeScalar(s)
	if s != "" && !resolvesOther(s) && !(simpleKey && a.multiline) && a.blockPlain {
		return s, ""
	}
	if a.singleQuoted && !(simpleKey && a.multiline) {
		return s, "'"
	}
	return s, `"`
}

// scalar writes text in style; continuation lines (a fold at the width,
// a line break in a quoted scalar) are indented to indent.
func (e *pyYAML) scalar(text, style string, indent int, key bool) {
	switch style {
	case "":
		e.plain(text, indent, !key)
	case "'":
		e.singleQuoted(text, indent, !key)
	default:
		e.write(doubleQuoted(text))
	}
}

// plain is PyYAML's write_plain: a single space past column 80 becomes
// a line break.
func (e *pyYAML) plain(text string, indent int, split bool) {
	words := strings.Split(text, " ")
	for i, w := range words {
		if i > 0 {
			if w != "" && words[i-1] != "" && e.column > 80 && split {
				e.write("\n" + strings.Repeat(" ", indent))
			} else {
				e.write(" ")
			}
		}
		e.write(w)
	}
}

// singleQuoted is PyYAML's write_single_quoted: ' doubled, a line break
// written as two, a single inner space past column 80 a fold.
func (e *pyYAML) singleQuoted(text string, indent int, split bool) {
	e.write("'")
	r := []rune(text)
	for i := 0; i < len(r); {
		switch {
		case r[i] == ' ':
			j := i
			for j < len(r) && r[j] == ' ' {
				j++
			}
			if j-i == 1 && e.column > 80 && split && i != 0 && j != len(r) {
				e.write("\n" + strings.Repeat(" ", indent))
			} else {
				e.write(string(r[i:j]))
			}
			i = j
		case r[i] == '\n':
			j := i
			for j < len(r) && r[j] == '\n' {
				j++
			}
			e.write(strings.Repeat("\n", j-i+1) + strings.Repeat(" ", indent))
			i = j
		case r[i] == '\'':
			e.write("''")
			i++
		default:
			j := i
			for j < len(r) && r[j] != ' ' && r[j] != '\n' && r[j] != '\'' {
				j++
			}
			e.write(string(r[i:j]))
			i = j
		}
	}
	e.write("'")
}

// doubleQuoted is PyYAML's write_double_quoted without its folding:
// its escapes, \xXX / \uXXXX / \UXXXXXXXX past printable ASCII.
func doubleQuoted(s string) string {
	esc := map[rune]string{0: "0", 7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r", 27: "e", '"': `"`, '\\': `\`,
		0x85: "N", 0xA0: "_", 0x2028: "L", 0x2029: "P"}
	var b strings.Builder
	b.WriteByte('"')
	for _, ch := range s {
		switch e, ok := esc[ch]; {
		case ok:
			b.WriteString(`\` + e)
		case ch >= 0x20 && ch <= 0x7E:
			b.WriteRune(ch)
		case ch <= 0xFF:
			fmt.Fprintf(&b, `\x%02X`, ch)
		case ch <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04X`, ch)
		default:
			fmt.Fprintf(&b, `\U%08X`, ch)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// scalarAnalysis is what PyYAML's analyze_scalar allows for a text.
type scalarAnalysis struct {
	multiline, blockPlain, singleQuoted bool
}

func analyzeScalar(s string) scalarAnalysis {
	if s == "" {
		return scalarAnalysis{blockPlain: true, singleQuoted: true}
	}
	isSpace := func(r rune) bool { return strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029", r) }
	isBreak := func(r rune) bool { return strings.ContainsRune("\n\u0085\u2028\u2029", r) }
	r := []rune(s)
	var blockInd, lineBreaks, special, leadSpace, leadBreak, trailSpace, trailBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockInd = true
	}
	preceded, followed := true, len(r) == 1 || isSpace(r[1])
	prevSpace, prevBreak := false, false
	for i, ch := range r {
		if i == 0 {
			if strings.ContainsRune("#,[]{}&*!|>'\"%@`", ch) || ch == '-' && followed || strings.ContainsRune("?:", ch) && followed {
				blockInd = true
			}
		} else if ch == ':' && followed || ch == '#' && preceded {
			blockInd = true
		}
		if isBreak(ch) {
			lineBreaks = true
		}
		if !(ch == '\n' || ch >= 0x20 && ch <= 0x7E) {
			special = true // a non-ASCII character too: safe_dump's allow_unicode is False
		}
		switch {
		case ch == ' ':
			leadSpace = leadSpace || i == 0
			trailSpace = trailSpace || i == len(r)-1
			breakSpace = breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case isBreak(ch):
			leadBreak = leadBreak || i == 0
			trailBreak = trailBreak || i == len(r)-1
			spaceBreak = spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		preceded = isSpace(ch)
		followed = i+2 >= len(r) || isSpace(r[i+2])
	}
	a := scalarAnalysis{multiline: lineBreaks, blockPlain: true, singleQuoted: true}
	if leadSpace || leadBreak || trailSpace || trailBreak || lineBreaks || blockInd {
		a.blockPlain = false
	}
	if breakSpace || spaceBreak || special {
		a.blockPlain, a.singleQuoted = false, false
	}
	return a
}

// PyYAML's implicit resolvers (YAML 1.1): a plain text matching one
// reads back as a bool, int, float, null, timestamp, merge or value key.
var yamlImplicit = regexp.MustCompile(`^(?:` +
	`yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF` +
	`|[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)` +
	`|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+` +
	`|~|null|Null|NULL` +
	`|[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]` +
	`|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?` +
	`|<<|=)$`)

// resolvesOther is whether a plain s would read back as something
// other than that string (so PyYAML quotes it).
func resolvesOther(s string) bool { return yamlImplicit.MatchString(strings.TrimSuffix(s, "\n")) }
