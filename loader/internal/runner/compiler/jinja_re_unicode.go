package compiler

import "strings"

// Python 3's \w, \d and \s in a str pattern are Unicode (re.findall('\w+',
// 'café') is ['café']); Go's RE2 and regexp2's RE2 mode read them as
// ASCII. These are the classes both engines take for Python's: \w a letter,
// a number or _ (str.isalnum), \d a decimal digit (Nd), \s str.isspace.
const (
	uWord  = `\p{L}\p{N}_`
	uDigit = `\p{Nd}`
	uSpace = `\t\n\v\f\r \x1c-\x1f\x85\p{Z}`
)

// pyUnicode rewrites a Python pattern's \w \W \d \D \s \S, outside and
// inside character classes, into Unicode classes, \Z (Python's end of the
// string) into \z, $ (no MULTILINE) into Python's end, (?P=name) into
// regexp2's \k<name>, {,n} into {0,n}, and a [ inside a class into \[ (Python reads
// [[:alpha:]] as a class of [ : a l p h and a ], RE2 as POSIX's). bt says
// the result needs regexp2: a \b or \B (Unicode word boundaries, which RE2
// lacks), or a negated class holding \W or \S ([^\W\d_], letters),
// written with regexp2's class subtraction.
func pyUnicode(p string, multiline, ascii bool) (string, bool) {
	var out strings.Builder
	bt := false
	for i := 0; i < len(p); {
		switch c := p[i]; {
		case c == '$' && !multiline:
			// Python's $: the end, or before a newline that ends the
			// string; RE2's is the end only (re.findall('a$', 'a\n') is
			// ['a'])
			out.WriteString(`(?=\n?\z)`)
			bt = true
			i++
		case c == '\\' && i+1 < len(p) && ascii && p[i+1] != 'Z':
			out.WriteString(p[i : i+2]) // re.ASCII: RE2's classes and \b are Python's
			i += 2
		case c == '\\' && i+1 < len(p):
			switch e := p[i+1]; e {
			case 'w':
				out.WriteString("[" + uWord + "]")
			case 'W':
				out.WriteString("[^" + uWord + "]")
			case 'd':
				out.WriteString(uDigit)
			case 'D':
				out.WriteString(`\P{Nd}`)
			case 's':
				out.WriteString("[" + uSpace + "]")
			case 'S':
				out.WriteString("[^" + uSpace + "]")
			case 'Z':
				out.WriteString(`\z`)
			case 'b', 'B':
				bt = true
				out.WriteString(p[i : i+2])
			default:
				out.WriteString(p[i : i+2])
			}
			i += 2
		case strings.HasPrefix(p[i:], "(?P="):
			// Python's backreference by name: regexp2's \k<name>
			if j := strings.IndexByte(p[i:], ')'); j > 0 {
				out.WriteString(`\k<` + p[i+4:i+j] + ">")
				bt = true
				i += j + 1
				continue
			}
			out.WriteByte(c)
			i++
		case c == '{' && strings.HasPrefix(p[i:], "{,") && quantTail(p[i+2:]):
			out.WriteString("{0,") // Python's {,n} is {0,n}; RE2 reads it as text
			i += 2
		case c == '[':
			cls, n, needBT := pyClass(p[i:], ascii)
			out.WriteString(cls)
			bt = bt || needBT
			i += n
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String(), bt
}

// pyClass rewrites the character class p starts with ([...], Python's
// reading: a ] first is literal) and returns it with the bytes it took
// (ascii: its escapes as written).
// A class holding \W or \S cannot be one RE2 class: not negated, it is an
// alternation of its other members and the complement; negated, the
// positive class less its other members (regexp2's [a-[b]], bt).
func pyClass(p string, ascii bool) (string, int, bool) {
	i := 1
	neg := i < len(p) && p[i] == '^'
	if neg {
		i++
	}
	var items strings.Builder
	hasW, hasS := false, false
	first := true
	for ; i < len(p); i++ {
		c := p[i]
		if c == ']' && !first {
			break
		}
		first = false
		switch {
		case c == '\\' && i+1 < len(p) && ascii:
			items.WriteString(p[i : i+2])
			i++
		case c == '\\' && i+1 < len(p):
			switch e := p[i+1]; e {
			case 'w':
				items.WriteString(uWord)
			case 'd':
				items.WriteString(uDigit)
			case 's':
				items.WriteString(uSpace)
			case 'D':
				items.WriteString(`\P{Nd}`)
			case 'W':
				hasW = true
			case 'S':
				hasS = true
			default:
				items.WriteString(p[i : i+2])
			}
			i++
		case c == '[' || c == ']':
			items.WriteString(`\` + string(c))
		default:
			items.WriteByte(c)
		}
	}
	if i >= len(p) {
		return p, len(p), false // unterminated: the engine says so
	}
	n := i + 1
	rest := items.String()
	if strings.HasPrefix(rest, "^") {
		rest = `\` + rest
	}
	switch {
	case !hasW && !hasS:
		if neg {
			return "[^" + rest + "]", n, false
		}
		return "[" + rest + "]", n, false
	case neg && hasW && hasS:
		return `[^\x00-\x{10FFFF}]`, n, false // a word character is never a space: nothing
	case neg:
		base := uWord
		if hasS {
			base = uSpace
		}
		if rest == "" {
			return "[" + base + "]", n, false
		}
		return "[" + base + "-[" + rest + "]]", n, true
	}
	var alts []string
	if rest != "" {
		alts = append(alts, "["+rest+"]")
	}
	if hasW {
		alts = append(alts, "[^"+uWord+"]")
	}
	if hasS {
		alts = append(alts, "[^"+uSpace+"]")
	}
	return "(?:" + strings.Join(alts, "|") + ")", n, false
}

// quantTail: p starts with the digits and } that end a {,n} quantifier.
func quantTail(p string) bool {
	j := 0
	for j < len(p) && p[j] >= '0' && p[j] <= '9' {
		j++
	}
	return j > 0 && j < len(p) && p[j] == '}'
}

// pyRewrite is pyUnicode under a pattern's flags: MULTILINE's $ is RE2's,
// re.ASCII keeps the classes and \b as RE2 reads them.
func pyRewrite(p string, flags int) (string, bool) {
	return pyUnicode(p, flags&reM != 0, flags&reA != 0)
}
