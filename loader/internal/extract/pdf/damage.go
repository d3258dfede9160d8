package pdf

import (
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// What MuPDF's messages while it opens a file or reads a page say about
// the text: one table of the message classes that mean text may be
// missing or wrong, each with what it means in plain words. The classes
// come from MuPDF 1.24's own messages (fz_warn and the errors it reports
// and reads past: pdf-repair.c, pdf-xref.c, pdf-stream.c, filter-flate.c,
// filter-basic.c, filter-lzw.c, pdf-font.c, pdf-interpret.c,
// pdf-op-run.c). A message in no class stays a warning: most change
// nothing in the text (an ICC profile ignored, a CMap range outside its
// code space, a link without a destination, a non-embedded font mapped
// through its identity encoding). The document-wide repairs (the index of
// objects rebuilt, objects left out, the page tree) are docRepairs'.

// damageClass is one class of MuPDF's messages.
type damageClass struct {
	keys []string // lower-case parts of MuPDF's message, any of which puts it in the class
	not  string   // a lower-case part that takes it out again ("" for none)
	code string   // the review code on a page: document.ReviewRepaired or ReviewFontUnreadable
	page string   // what it means on a page (after "page N is damaged and MuPDF read past the damage: ")
	open string   // what it means read while opening the file (after "it "); "" when only pages give it
	// quote: the message is quoted after the class's words ("(MuPDF: ...)").
	quote bool
	// fallback: said only when no other class of the same code is (a
	// read error is how MuPDF ends a stream another class explains).
	fallback bool
}

// whileOpening is what a class's open-time words say of a stream read
// while MuPDF opened the file.
const whileOpening = " while opening the file (one holding the file's own structure, such as its page tree or other objects packed in an object stream)"

var damageClasses = []damageClass{
	{keys: []string{"ignoring rest of page"}, code: document.ReviewRepaired,
		page: "its content has so many syntax errors that MuPDF stopped reading it part-way: the rest of the page is missing"},
	{keys: []string{"page may not be correct"}, code: document.ReviewRepaired,
		page: "its content has syntax errors that MuPDF skipped: text may be missing or out of place"},
	{keys: []string{"premature end of data", "premature end in lzw decode", "premature end in aes filter"}, code: document.ReviewRepaired,
		page: "a compressed stream on it ends early: whatever it held after that point is missing",
		open: "read past the early end of a compressed stream" + whileOpening + ": whatever the stream held after that point is missing"},
	// zlib's "incorrect data check" comes after the whole stream
	// inflated: the text is complete unless the bytes changed without
	// breaking the deflate structure (a flipped literal), which only the
	// checksum shows; some producers write a wrong checksum over good
	// data. Still a review (docket cannot tell which), in milder words.
	{keys: []string{"incorrect data check"}, code: document.ReviewRepaired, quote: true,
		page: "a compressed stream on it decoded to its end but its checksum does not match: the stream may hold text that differs from what was written, or only the checksum is wrong",
		open: "decoded a compressed stream" + whileOpening + " whose checksum does not match: what it held may differ from what was written"},
	{keys: []string{"zlib error", "bad data in a85d", "bad data in ahxd", "out of range code encountered in lzw decode"}, not: "inflateend", code: document.ReviewRepaired, quote: true,
		page: "a compressed stream on it is corrupt, and what MuPDF could decode of it may be cut short or differ from what was written: text it held may be missing or wrong",
		open: "read past corrupt data in a compressed stream" + whileOpening + ": what the stream held may be missing or wrong"},
	{keys: []string{"read error; treating as end of file"}, code: document.ReviewRepaired, fallback: true,
		page: "a stream on it could not be read to its end: whatever it held after that point is missing",
		open: "could not read a stream to its end" + whileOpening + ": whatever it held after that point is missing"},
	{keys: []string{"cannot load content stream part"}, code: document.ReviewRepaired, quote: true,
		page: "one of the streams its content is split into could not be loaded: the text it held is missing"},
	{keys: []string{"ignoring broken object stream", "corrupt object stream"}, code: document.ReviewRepaired, quote: true,
		page: "a damaged object stream (a stream packing objects such as fonts or the page's content) was left out: what it held is missing",
		open: "left out a damaged object stream (a stream packing objects such as pages, fonts or text)"},
	{keys: []string{"ignoring rest of file"}, code: document.ReviewRepaired, quote: true,
		page: "MuPDF stopped reading the file at an object it could not parse: whatever follows that object in the file is missing",
		open: "stopped reading the file at an object it could not parse: whatever follows that object in the file is missing"},
	{keys: []string{"cannot draw text since font and size not set"}, code: document.ReviewRepaired,
		page: "some of its text is shown before any font is chosen, which MuPDF does not draw: that text is missing"},
	// A font MuPDF cannot load is replaced by a stand-in (pdf-interpret.c
	// pdf_try_load_font): codes read through the stand-in's encoding
	// come out as other characters, or as U+FFFD.
	{keys: []string{"cannot find builtin cjk font", "cannot find builtin font", "cannot find substitute font", "font missing encoding",
		"missing font descriptor", "cid font is missing descendant fonts", "unknown cid font type", "recursive type3 font", "no unicode cmap when emulating cid font"},
		code: document.ReviewFontUnreadable, quote: true,
		page: "a font it uses could not be loaded (not embedded in the file and not one MuPDF has, or damaged), and MuPDF read the text set in it with a stand-in font: those words may be garbled or missing"},
	{keys: []string{"ignored error when loading embedded font"}, code: document.ReviewFontUnreadable,
		page: "a font embedded in the file is damaged and MuPDF used a font of its own in its place: characters set in it may be wrong"},
	{keys: []string{"cannot load tounicode cmap"}, code: document.ReviewFontUnreadable,
		page: "the table that maps a font's glyphs to characters (its ToUnicode CMap) is damaged: characters set in that font may be wrong"},
}

// droppedLine ends docket's own line counting the messages past the log's
// cap (Doc.Warnings), lower case.
const droppedLine = " more mupdf messages dropped"

// damageOf is the class of one of MuPDF's messages (nil for none).
func damageOf(w string) *damageClass {
	l := strings.ToLower(w)
	if strings.Contains(l, droppedLine) {
		return nil // docket's own count, naming the classes (Doc.Warnings)
	}
	for i := range damageClasses {
		c := &damageClasses[i]
		if c.not != "" && strings.Contains(l, c.not) {
			continue
		}
		for _, k := range c.keys {
			if strings.Contains(l, k) {
				return c
			}
		}
	}
	return nil
}

// kindName names class c by the part of its keys that the first of the
// messages ws in it holds ("zlib error").
func kindName(ws []string, c *damageClass) string {
	for _, w := range ws {
		if damageOf(w) != c {
			continue
		}
		l := strings.ToLower(w)
		for _, k := range c.keys {
			if strings.Contains(l, k) {
				return k
			}
		}
	}
	return c.keys[0]
}

// pageHarm is what MuPDF's messages while reading one page say, by
// review code: "" for nothing a person should look at.
type pageHarm struct {
	damage string // document.ReviewRepaired
	fonts  string // document.ReviewFontUnreadable
}

// pageDamage reads MuPDF's messages while reading one page.
func pageDamage(ws []string) pageHarm {
	var h pageHarm
	for code, said := range said(ws, func(c *damageClass) string { return c.page }) {
		switch code {
		case document.ReviewRepaired:
			h.damage = strings.Join(said, "; ")
		case document.ReviewFontUnreadable:
			h.fonts = strings.Join(said, "; ")
		}
	}
	return h
}

// openingDamage is what MuPDF's messages while it opened the file (before
// any page was read: the index of objects, the page tree, the object
// streams holding them) say it read past; "" for nothing. The other
// repairs there (the index rebuilt, objects left out) are docRepairs'.
func openingDamage(ws []string) string {
	return strings.Join(said(ws, func(c *damageClass) string { return c.open })[document.ReviewRepaired], "; it ")
}

// said is the words of each class MuPDF's messages ws are in, by review
// code, in the order first met, each once (its first message quoted when
// the class quotes); words gives a class's words for the context, ""
// where the class says nothing.
func said(ws []string, words func(*damageClass) string) map[string][]string {
	out := map[string][]string{}
	seen := map[*damageClass]bool{}
	var fallbacks []*damageClass
	var quoted []string
	for _, w := range ws {
		c := damageOf(w)
		if c == nil || seen[c] || words(c) == "" {
			continue
		}
		seen[c] = true
		s := words(c)
		if c.quote {
			s += " (MuPDF: " + mupdfMessage(w) + ")"
		}
		if c.fallback {
			fallbacks = append(fallbacks, c)
			quoted = append(quoted, s)
			continue
		}
		out[c.code] = append(out[c.code], s)
	}
	for i, c := range fallbacks {
		if len(out[c.code]) == 0 {
			out[c.code] = append(out[c.code], quoted[i])
		}
	}
	return out
}

// mupdfMessage is one of MuPDF's messages without its kind ("error:
// syntax error: ").
func mupdfMessage(w string) string {
	w = strings.TrimPrefix(w, "error: ")
	for _, k := range []string{"format error: ", "syntax error: ", "library error: ", "generic error: "} {
		w = strings.TrimPrefix(w, k)
	}
	return w
}

// DamageMark is one class of MuPDF's messages as lower-case parts: a
// message holding any of Keys and not Not ("" for none) is in the class.
type DamageMark struct {
	Keys []string
	Not  string
}

// DamageMarks is the message classes that give the review code (document.
// ReviewRepaired or ReviewFontUnreadable), from the table pageDamage
// reads: what eval-load counts as messages that must have given that
// review, so the check follows the table instead of a copy of it.
func DamageMarks(code string) []DamageMark {
	var out []DamageMark
	for _, c := range damageClasses {
		if c.code == code {
			out = append(out, DamageMark{Keys: c.keys, Not: c.not})
		}
	}
	return out
}
