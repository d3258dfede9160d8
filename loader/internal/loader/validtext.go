package loader

import (
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// hidePrivatePath names the document where an extractor's message names
// the private copy it read (a path under the temporary folder that means
// nothing to a person and is gone after the load).
func hidePrivatePath(o *outcome, private, name string) {
	if private == "" {
		return
	}
	if o.err != nil {
		e := *o.err
		e.Msg = strings.ReplaceAll(e.Msg, private, name)
		o.err = &e
	}
	if o.res != nil {
		for i, w := range o.res.Warnings {
			o.res.Warnings[i] = strings.ReplaceAll(w, private, name)
		}
	}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, s)
}

// validUTF8 makes the strings of a result that land in the warehouse
// valid UTF-8 (DuckDB refuses anything else, and one bad byte in a
// document's metadata cost the whole document): metadata and warnings
// show stray bytes as \xNN, texts as U+FFFD (as the decoders do).
func validUTF8(r *document.Result) {
	if r == nil {
		return
	}
	m := &r.Metadata
	for _, f := range []*string{&m.Title, &m.Author, &m.Created, &m.Modified, &m.Language} {
		*f = EscapePath(*f)
	}
	for k, v := range m.Extra {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			delete(m.Extra, k)
			m.Extra[EscapePath(k)] = EscapePath(v)
		}
	}
	for i := range r.Warnings {
		r.Warnings[i] = EscapePath(r.Warnings[i])
	}
	for i := range r.Pages {
		r.Pages[i].Text = validText(r.Pages[i].Text)
	}
	for i := range r.Elements {
		e := &r.Elements[i]
		e.Text, e.Section = validText(e.Text), validText(e.Section)
	}
}

// validText replaces each byte that is not UTF-8 with U+FFFD, one for
// one, so code point offsets into the text stay right.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
