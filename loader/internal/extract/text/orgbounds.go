package text

import (
	"regexp"
	"sort"
	"strings"
)

// go-org reads a #+BEGIN_ line by parsing what follows up to its #+END_
// line; with none, it parses the rest of the file, gives up, takes the
// line as text and goes on from the next line: each unterminated block
// costs the rest of the file (its raw text built by appending line after
// line, quadratic), and one inside another more (review45: 4,000
// unterminated "#+BEGIN_QUOTE" lines, 64 KB, 8.5 s; one unterminated
// "#+BEGIN_SRC" before 160 KB of text 1.5 s; 20 of them 30 s). A begin line
// no end line closes is found here first (ends counted back from the
// file's end, as nested blocks take them) and written so that go-org
// takes it as the text it would have fallen back to: orgOpenMark after its
// first sign ("#\uE002+BEGIN_QUOTE"), taken out of the text read, after a
// blank line (the begin line ended the paragraph before it).
const orgOpenMark = "\uE002"

var (
	orgBeginAnyRe = regexp.MustCompile(`(?i)^\s*(?:#\+BEGIN_(\w+)|\\begin{([^}]+)}\s*$)`)
	orgEndAnyRe   = regexp.MustCompile(`(?i)^\s*(?:#\+END_(\w+)|\\end{([^}]+)}\s*$)`)
)

// orgEnds indexes a document's end lines by kind and name ("raw SRC",
// "latex equation"), their line numbers in order.
type orgEnds map[string][]int

func orgEndLines(lines []string) orgEnds {
	ends := orgEnds{}
	for i, l := range lines {
		if m := orgEndRawRe.FindStringSubmatch(l); m != nil {
			k := "raw " + strings.ToUpper(m[1])
			ends[k] = append(ends[k], i)
		} else if m := orgEndLatexRe.FindStringSubmatch(l); m != nil {
			k := "latex " + strings.ToUpper(m[1])
			ends[k] = append(ends[k], i)
		}
	}
	return ends
}

// next is the first end line of key after line i (-1 when none).
func (e orgEnds) next(key string, i int) int {
	l := e[key]
	k := sort.SearchInts(l, i+1)
	if k == len(l) {
		return -1
	}
	return l[k]
}

// orgOpenBlocks marks s's begin lines no end line closes (see
// orgOpenMark) and says how many; s is left as it is when it holds the
// mark already.
func orgOpenBlocks(s string) (string, int) {
	if !strings.Contains(s, "#+") && !strings.Contains(s, `\begin{`) || strings.Contains(s, orgOpenMark) {
		return s, 0
	}
	lines := strings.Split(s, "\n")
	pending := map[string]int{}
	n := 0
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if m := orgEndAnyRe.FindStringSubmatch(l); m != nil {
			pending[orgBlockKey(m)]++
			continue
		}
		m := orgBeginAnyRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if k := orgBlockKey(m); pending[k] > 0 {
			pending[k]--
			continue
		}
		at := len(l) - len(strings.TrimLeft(l, " \t")) + 1
		lines[i] = l[:at] + orgOpenMark + l[at:]
		if i > 0 && strings.TrimSpace(lines[i-1]) != "" {
			// go-org's begin line ended the paragraph before it, as
			// its fallback to text still does
			lines[i] = "\n" + lines[i]
		}
		n++
	}
	if n == 0 {
		return s, 0
	}
	return strings.Join(lines, "\n"), n
}

func orgBlockKey(m []string) string {
	if m[1] != "" {
		return "#" + strings.ToUpper(m[1])
	}
	return `\` + m[2]
}
