package text

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/docket-dev/docket/loader/internal/document"
)

// LaTeX becomes its text: commands, environments' markers, comments and the
// preamble are dropped; sectioning commands become Title elements (Level by
// depth), \item becomes ListItem, \title/\author fill the metadata, and
// \input/\include are followed into files of the same source folder (never
// above it). (The Go LaTeX parsers found are renderers or unmaintained;
// what is needed here is text, not typesetting.)

// latexDoc is the converted document.
type latexDoc struct {
	blocks   []block
	title    string
	author   string
	warnings []string
}

type block struct {
	cat   document.Category
	text  string
	level int
	table *document.Table // for a Table block: its cells (Seq set by assembleBlocks)
}

var (
	blankLine        = regexp.MustCompile(`\n[ \t]*\n`)
	manyNewlines     = regexp.MustCompile(`\n+`)
	spaceBeforePunct = regexp.MustCompile(` +([.,;:!?)\]])`) // left where a \cite or \ref was dropped
	inputRe          = regexp.MustCompile(`\\(input|include|subfile)\s*\{([^}]*)\}`)
	sectionLv        = map[string]int{"part": 1, "chapter": 1, "section": 1, "subsection": 2, "subsubsection": 3, "paragraph": 4, "subparagraph": 5}
	// dropArgs are commands whose brace arguments are not text.
	dropArgs = map[string]bool{
		"label": true, "ref": true, "eqref": true, "pageref": true, "cite": true, "citep": true, "citet": true, "nocite": true,
		"includegraphics": true, "usepackage": true, "documentclass": true, "bibliographystyle": true, "bibliography": true,
		"vspace": true, "hspace": true, "setlength": true, "addtolength": true, "newcommand": true, "renewcommand": true,
		"providecommand": true, "newenvironment": true, "renewenvironment": true, "pagestyle": true, "thispagestyle": true,
		"setcounter": true, "addtocounter": true, "input": true, "include": true, "graphicspath": true, "hypersetup": true,
		"newtheorem": true, "def": true, "let": true, "color": true, "definecolor": true, "geometry": true, "linespread": true,
		"date": true, "title": true, "author": true, "thanks": true, "index": true, "glossary": true, "bibitem": true,
	}
	// skipEnvs are environments whose content is not prose.
	skipEnvs = map[string]bool{"comment": true, "tikzpicture": true, "thebibliography": false, "figure": false}
	accents  = map[byte]rune{'\'': '\u0301', '`': '\u0300', '^': '\u0302', '"': '\u0308', '~': '\u0303', '=': '\u0304', '.': '\u0307', 'c': '\u0327', 'v': '\u030C', 'u': '\u0306', 'H': '\u030B', 'k': '\u0328', 'r': '\u030A'}
	symbols  = map[string]string{"ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "l": "ł", "L": "Ł",
		"i": "ı", "LaTeX": "LaTeX", "TeX": "TeX", "ldots": "…", "dots": "…", "textendash": "–", "textemdash": "—", "S": "§", "P": "¶",
		"copyright": "©", "euro": "€", "pounds": "£", "textbackslash": "\\", "quad": " ", "qquad": " ", "newline": "\n", "par": "\n\n",
		"noindent": "", "and": ",", "centering": "", "maketitle": "\x03", "item": "\x00I", "hline": "", "toprule": "", "midrule": "", "bottomrule": "",
		"today": "", "tableofcontents": "", "clearpage": "", "newpage": "", "small": "", "large": "", "Large": "", "footnotesize": "",
		"bfseries": "", "itshape": "", "ttfamily": "", "normalsize": "", "appendix": "", "frontmatter": "", "mainmatter": "", "backmatter": ""}
)

// includes is where LaTeX \input/\include files are read: the document's
// folder ("": nowhere) and whether a symbolic link is followed
// (loader.symlinks: follow).
type includes struct {
	dir         string
	followLinks bool
	// tried collects every file an \input/\include named inside dir
	// (read, refused or not found), as slash paths relative to dir, with
	// the sha256 of the bytes read ("" when none were): the load decides
	// by them whether the document changed (document.ExtraLaTeXIncludes)
	// and keys the document's content by them with its main file's bytes
	// (document.ExtraLaTeXSources). nil: not collected.
	tried map[string]string
}

// flagNoFolder flags a LaTeX document read without its folder (an
// attachment, see document.Options.NoFolder) whose main file s includes
// others: their text is missing.
func flagNoFolder(res *document.Result, s string) {
	var names []string
	for _, m := range inputRe.FindAllStringSubmatch(stripComments(s), -1) {
		if n := strings.TrimSpace(m[2]); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return
	}
	list := strings.Join(names, ", ")
	if len(names) > 5 {
		list = strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	res.Flag(0, document.ReviewIncludesMissing, "the LaTeX document includes other files (\\input/\\include: %s) but came without its folder (an attachment, or a copy of a file that changed while the load read it), so they could not be read: their text is missing", list)
}

// latexSource reads the main file's text with \input/\include files
// spliced in (depth-limited, cycle-safe, inside inc.dir only) and comments
// removed.
func latexSource(s string, inc includes, seen map[string]bool, depth int, warn func(string)) string {
	s = stripComments(s)
	if inc.dir == "" {
		return s
	}
	return inputRe.ReplaceAllStringFunc(s, func(m string) string {
		sm := inputRe.FindStringSubmatch(m)
		cmd, name := sm[1], strings.TrimSpace(sm[2])
		rel := filepath.Clean(filepath.FromSlash(name))
		if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			warn(fmt.Sprintf("\\%s{%s} not followed: outside the document's folder", cmd, name))
			return ""
		}
		if filepath.Ext(rel) == "" {
			rel += ".tex"
		}
		p := filepath.Join(inc.dir, rel)
		if inc.tried != nil {
			if _, ok := inc.tried[filepath.ToSlash(rel)]; !ok {
				inc.tried[filepath.ToSlash(rel)] = ""
			}
		}
		if seen[p] || depth >= 16 {
			warn(fmt.Sprintf("\\%s{%s} not followed: included in itself", cmd, name))
			return ""
		}
		if why := inc.refused(rel); why != "" {
			warn(fmt.Sprintf("\\%s{%s} not followed: %s", cmd, name, why))
			return ""
		}
		data, err := os.ReadFile(p)
		if err != nil {
			warn(fmt.Sprintf("\\%s{%s} not found in the document's folder", cmd, name))
			return ""
		}
		if inc.tried != nil {
			inc.tried[filepath.ToSlash(rel)] = document.SHA256(data)
		}
		seen[p] = true
		defer delete(seen, p)
		sub, _, _, err := Decode(data, "")
		if err != nil {
			warn(fmt.Sprintf("\\%s{%s}: %v", cmd, name, err))
			return ""
		}
		return "\n" + latexSource(sub, inc, seen, depth+1, warn) + "\n"
	})
}

// refused says why the included file rel (under inc.dir) is not read by
// the rules of loader.symlinks for a listed file, "" when it may be: a
// symbolic link is read only under follow, and then only a link to a
// regular file inside the document's folder (a link to a folder on the
// way is not followed). os.ReadFile followed any link, also under skip
// and to files outside the source.
func (inc includes) refused(rel string) string {
	parts := strings.Split(rel, string(filepath.Separator))
	p := inc.dir
	for i, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil {
			return "" // not found: said when it is read
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		switch {
		case !inc.followLinks:
			return "a symbolic link (loader.symlinks: skip)"
		case i < len(parts)-1:
			return "links to folders are not followed"
		}
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "the link's target cannot be resolved"
		}
		root, err := filepath.EvalSymlinks(inc.dir)
		if r, rerr := filepath.Rel(root, target); err != nil || rerr != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "the link points outside the document's folder"
		}
		if st, err := os.Stat(target); err != nil || !st.Mode().IsRegular() {
			return "the link does not point to a regular file"
		}
	}
	return ""
}

// stripComments removes % comments (not \%) and the line break after them.
func stripComments(s string) string {
	var sb strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		cut := -1
		for i := 0; i < len(l); i++ {
			if l[i] == '\\' {
				i++
				continue
			}
			if l[i] == '%' {
				cut = i
				break
			}
		}
		if cut >= 0 {
			rest := strings.TrimLeft(l[:cut], " \t")
			if rest == "" {
				continue // a whole comment line is not a paragraph break
			}
			l = l[:cut]
		}
		sb.WriteString(l)
	}
	return sb.String()
}

// parseLaTeX converts LaTeX source (comments and inputs resolved) to blocks.
func parseLaTeX(src string) *latexDoc {
	d := &latexDoc{}
	body := src
	if i := strings.Index(src, `\begin{document}`); i >= 0 {
		pre := src[:i]
		body = src[i+len(`\begin{document}`):]
		if j := strings.Index(body, `\end{document}`); j >= 0 {
			body = body[:j]
		}
		d.title = plainArg(pre, "title")
		d.author = plainArg(pre, "author")
	}
	c := &latexConv{}
	out := c.conv(body)
	out = strings.ReplaceAll(out, "\x03", "\n\n\x00H1\x00"+d.title+"\n\n")
	for _, para := range blankLine.Split(out, -1) {
		cat, level := document.NarrativeText, 0
		if p := strings.TrimSpace(para); len(p) >= 3 && p[0] == 0 && (p[1] == 'H' || p[1] == 'I') {
			cat, level = document.Title, int(p[2]-'0')
			if p[1] == 'I' {
				cat = document.ListItem
			}
			para = strings.TrimPrefix(p[3:], "\x00")
		}
		lines := strings.Split(para, "\x01")
		for i := range lines {
			lines[i] = strings.Join(strings.Fields(lines[i]), " ")
		}
		t := strings.Trim(strings.Join(lines, "\n"), "\n ")
		t = manyNewlines.ReplaceAllString(t, "\n")
		t = strings.ReplaceAll(spaceBeforePunct.ReplaceAllString(t, "$1"), "\x02", "\t")
		t = strings.ReplaceAll(strings.ReplaceAll(t, " \t", "\t"), "\t ", "\t")
		if strings.TrimSpace(t) != "" {
			d.blocks = append(d.blocks, block{cat: cat, text: norm.NFC.String(t), level: level})
		}
	}
	return d
}

// plainArg is the text of the first \cmd{...} in s.
func plainArg(s, cmd string) string {
	i := strings.Index(s, `\`+cmd+`{`)
	if i < 0 {
		return ""
	}
	arg, _ := braced(s, i+len(cmd)+1)
	c := &latexConv{}
	return spaceBeforePunct.ReplaceAllString(strings.Join(strings.Fields(strings.NewReplacer("\x01", " ").Replace(c.conv(arg))), " "), "$1")
}

// braced returns the content of the brace group at s[i] == '{' and the
// index after it.
func braced(s string, i int) (string, int) {
	if i >= len(s) || s[i] != '{' {
		return "", i
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[i+1 : j], j + 1
			}
		}
	}
	return s[i+1:], len(s)
}

// skipOpt skips white space and one [...] optional argument.
func skipOpt(s string, i int) int {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '*') {
		j++
	}
	if j < len(s) && s[j] == '[' {
		if k := strings.IndexByte(s[j:], ']'); k >= 0 {
			return j + k + 1
		}
	}
	if j > i && strings.Contains(s[i:j], "*") {
		return j
	}
	return i
}

type latexConv struct{ list int }

// conv turns LaTeX into text with markers: "\x00H<n>\x00" opens a heading
// block, "\x00I<n>\x00" a list item, "\x01" is a forced line break,
// "\x02" a table cell boundary, "\x03" where \maketitle puts the title.
func (c *latexConv) conv(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); {
		ch := s[i]
		switch ch {
		case '\\':
			i = c.command(s, i, &sb)
			continue
		case '{', '}', '$':
			i++
			continue
		case '~':
			sb.WriteByte(' ')
		case '&':
			sb.WriteByte('\x02') // a table cell boundary: a tab once spaces are collapsed
		case '-':
			switch {
			case strings.HasPrefix(s[i:], "---"):
				sb.WriteString("—")
				i += 3
				continue
			case strings.HasPrefix(s[i:], "--"):
				sb.WriteString("–")
				i += 2
				continue
			}
			sb.WriteByte('-')
		case '`', '\'':
			if i+1 < len(s) && s[i+1] == ch {
				sb.WriteString(map[byte]string{'`': "“", '\'': "”"}[ch])
				i += 2
				continue
			}
			sb.WriteByte(map[byte]byte{'`': '\'', '\'': '\''}[ch])
		default:
			sb.WriteByte(ch)
		}
		i++
	}
	return sb.String()
}

// command handles the control sequence at s[i] == '\\' and returns the
// index after it.
func (c *latexConv) command(s string, i int, sb *strings.Builder) int {
	j := i + 1
	if j >= len(s) {
		return j
	}
	if !isLetter(s[j]) {
		switch s[j] {
		case '\\':
			sb.WriteByte('\x01')
			return skipOpt(s, j+1)
		case '%', '&', '$', '#', '_', '{', '}':
			sb.WriteByte(s[j])
			return j + 1
		case ',', ';', ' ', ':', '!', '/':
			sb.WriteByte(' ')
			return j + 1
		case '[', ']', '(', ')':
			return j + 1 // display/inline math delimiters
		}
		if mark, ok := accents[s[j]]; ok {
			return c.accent(s, j+1, mark, sb)
		}
		return j + 1
	}
	k := j
	for k < len(s) && isLetter(s[k]) {
		k++
	}
	name := s[j:k]
	if mark, ok := accents[name[0]]; ok && len(name) == 1 && k < len(s) && (s[k] == '{' || s[k] == ' ') {
		return c.accent(s, k, mark, sb)
	}
	if sym, ok := symbols[name]; !ok || sym == "" || sym[0] == 0 || strings.Contains(sym, "\n") {
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++ // TeX eats the spaces after a control word
		}
	}
	switch {
	case name == "begin" || name == "end":
		env, after := braced(s, k)
		env = strings.TrimSuffix(env, "*")
		switch env {
		case "itemize", "enumerate", "description":
			if name == "begin" {
				c.list++
			} else if c.list > 0 {
				c.list--
			}
			sb.WriteString("\n\n")
		case "verbatim", "lstlisting", "minted":
			if name == "begin" {
				end := `\end{` + env + `}`
				if e := strings.Index(s[after:], end); e >= 0 {
					sb.WriteString("\n\n" + strings.ReplaceAll(strings.Trim(s[after:after+e], "\n"), "\n", "\x01") + "\n\n")
					return after + e + len(end)
				}
			}
		default:
			if name == "begin" && skipEnvs[env] {
				if e := strings.Index(s[after:], `\end{`+env+`}`); e >= 0 {
					return after + e + len(`\end{`+env+`}`)
				}
			}
			if env == "tabular" || env == "tabularx" || env == "longtable" {
				if name == "begin" { // column spec
					_, after = braced(s, skipOpt(s, after))
				}
			}
			sb.WriteString("\n\n")
		}
		return after
	case sectionLv[name] > 0:
		k = skipOpt(s, k)
		arg, after := braced(s, k)
		fmt.Fprintf(sb, "\n\n\x00H%d\x00%s\n\n", sectionLv[name], strings.ReplaceAll(c.conv(arg), "\n", " "))
		return after
	case name == "item":
		fmt.Fprintf(sb, "\n\n\x00I%d\x00", max(c.list, 1))
		if k < len(s) && s[k] == '[' { // description label
			if e := strings.IndexByte(s[k:], ']'); e >= 0 {
				sb.WriteString(c.conv(s[k+1:k+e]) + " ")
				return k + e + 1
			}
		}
		return k
	case dropArgs[name]:
		k = skipOpt(s, k)
		for k < len(s) && s[k] == '{' {
			_, k = braced(s, k)
			k = skipOpt(s, k)
		}
		return k
	case name == "href":
		_, k = braced(s, k)
		return k // the link text follows as a group
	case name == "footnote" || name == "marginpar":
		// In parentheses where it stands: as a bare group it was glued
		// to the word before it ("everCounted at the gate").
		arg, after := braced(s, skipOpt(s, k))
		sb.WriteString(" (" + strings.TrimSpace(c.conv(arg)) + ")")
		return after
	}
	if sym, ok := symbols[name]; ok {
		sb.WriteString(sym)
		return k
	}
	return skipOpt(s, k) // unknown command: its brace groups are text
}

// accent combines the letter after an accent command with its mark.
func (c *latexConv) accent(s string, k int, mark rune, sb *strings.Builder) int {
	for k < len(s) && s[k] == ' ' {
		k++
	}
	var base string
	if k < len(s) && s[k] == '{' {
		base, k = braced(s, k)
		base = strings.TrimPrefix(base, `\`) // \'{\i}
	} else if k < len(s) {
		base, k = s[k:k+1], k+1
	}
	if base == "" {
		return k
	}
	sb.WriteString(norm.NFC.String(base + string(mark)))
	return k
}

func isLetter(b byte) bool { return b < 0x80 && unicode.IsLetter(rune(b)) }
