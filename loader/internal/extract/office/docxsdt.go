package office

import (
	"encoding/xml"
	"io"
	"strings"
	"sync"
)

// fieldStack is the complex fields open in a WordprocessingML part
// (fldChar begin .. end), each true while in its code (before its
// separate): a field nested in another's code (an IF around a
// MERGEFIELD) shows its result only through the outer field's, and text
// typed into a code is code. It has no depth limit (one byte per field,
// and a field's begin takes some 40 bytes of XML): before office/25 the
// begins past 64 were not pushed and their separates and ends closed the
// fields around them (70 nested IFs landed 7 results).
type fieldStack struct {
	open []bool
	code int // how many of open are true
}

func (f *fieldStack) begin() {
	f.open = append(f.open, true)
	f.code++
}

func (f *fieldStack) separate() {
	if n := len(f.open); n > 0 && f.open[n-1] {
		f.open[n-1] = false
		f.code--
	}
}

func (f *fieldStack) end() {
	if n := len(f.open); n > 0 {
		if f.open[n-1] {
			f.code--
		}
		f.open = f.open[:n-1]
	}
}

// endCodes closes the innermost fields still in their code (at a body
// paragraph's end: a field without a separate must not hide the rest of
// the document).
func (f *fieldStack) endCodes() {
	for len(f.open) > 0 && f.open[len(f.open)-1] {
		f.end()
	}
}

func (f *fieldStack) inCode() bool { return f.code > 0 }

// sdtState is one content control (w:sdt) open.
type sdtState struct {
	showing bool   // its sdtPr says it shows its placeholder (showingPlcHdr)
	docPart string // its placeholder's building block (w:placeholder/w:docPart)
	muted   bool   // its content is its placeholder's prompt: no text lands
}

// onOff reads an OOXML on/off attribute (ST_OnOff): absent is on.
func onOff(t xml.StartElement) bool {
	v, ok := attr(t, "val")
	if !ok {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "off":
		return false
	}
	return true
}

// wordPrompts are the placeholder texts Word gives the content controls
// it inserts (Developer tab), in English: a control whose placeholder
// building block is not in the package is told by them.
var wordPrompts = map[string]bool{
	"click or tap here to enter text.":   true,
	"click here to enter text.":          true,
	"click or tap to enter a date.":      true,
	"click here to enter a date.":        true,
	"choose an item.":                    true,
	"choose a building block.":           true,
	"click or tap here to enter a date.": true,
	"enter any content that you want to repeat, including other content controls. you can also insert this control around table rows in order to repeat parts of a table.": true,
}

func normPrompt(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// maxPromptTokens and maxPromptText bound what is read ahead of a
// control's content to tell its placeholder prompt: past them it is
// content.
// maxAheadTokens bounds those read ahead in one part (controls nested in
// controls read their content again): past it a control's content is
// content.
const (
	maxPromptTokens = 4096
	maxPromptText   = 2048
	maxAheadTokens  = 1 << 18
)

// isPrompt reads ahead a control's content (after its sdtContent start,
// up to the matching end) and says whether its text is the control's
// placeholder prompt: its building block's text in the glossary, or one
// of Word's own. The tokens read are given back to toks, to be walked
// as the rest of the part: a prompt's cells and paragraphs stay, empty
// (a cell-level control's cell was dropped, the row's next cells shifted
// left). Before office/25 every control whose sdtPr held showingPlcHdr
// was skipped: w:val="0" (not showing) and a control filled by a program
// that left the flag on lost their values.
func isPrompt(toks *partTokens, s *sdtState, glossary func() map[string]string) (bool, error) {
	var buf []xml.Token
	var text strings.Builder
	depth, inT, whole := 1, 0, false
	for len(buf) < maxPromptTokens && text.Len() <= maxPromptText && toks.ahead < maxAheadTokens {
		toks.ahead++
		tok, err := toks.next()
		if err != nil {
			return false, err
		}
		if tok == nil {
			break
		}
		tok = xml.CopyToken(tok)
		buf = append(buf, tok)
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if t.Name.Local == "t" {
				inT++
			}
		case xml.EndElement:
			depth--
			if t.Name.Local == "t" && inT > 0 {
				inT--
			}
		case xml.CharData:
			if inT > 0 {
				text.Write(t)
			}
		}
		if depth == 0 {
			whole = true
			break
		}
	}
	toks.pending = append(buf, toks.pending...)
	if !whole {
		return false, nil
	}
	got := normPrompt(text.String())
	if got == "" {
		return false, nil
	}
	if wordPrompts[got] {
		return true, nil
	}
	if glossary != nil && s.docPart != "" {
		if p, ok := glossary()[s.docPart]; ok && normPrompt(p) == got {
			return true, nil
		}
	}
	return false, nil
}

// maxGlossaryParts and maxGlossaryText bound the building blocks read
// from a document's glossary, and the text kept of each.
const (
	maxGlossaryParts = 10000
	maxGlossaryText  = 4096
)

// glossaryPrompts reads, once and only when asked, the text of the
// building blocks (docPart) of the document's glossary part, by name and
// by GUID: a content control's placeholder names one.
func glossaryPrompts(ix *zipIndex, rels map[string]relation) func() map[string]string {
	return sync.OnceValue(func() map[string]string {
		out := map[string]string{}
		for _, r := range rels {
			if r.External || !strings.HasSuffix(r.Type, "/glossaryDocument") {
				continue
			}
			rc, err := ix.open(r.Target)
			if err != nil {
				continue
			}
			readGlossary(rc, out)
			rc.Close()
		}
		return out
	})
}

func readGlossary(r io.Reader, out map[string]string) {
	d := newDecoder(r)
	var names []string
	var text strings.Builder
	inBody, inT, inCat := false, false, false
	for len(out) < maxGlossaryParts {
		tok, err := d.Token()
		if err != nil {
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "docPart":
				names, inBody = names[:0], false
				text.Reset()
			case "category":
				inCat = true
			case "name", "guid":
				if v, ok := attr(t, "val"); ok && v != "" && !inBody && !inCat {
					names = append(names, v, strings.Trim(v, "{}"))
				}
			case "docPartBody":
				inBody = true
			case "t":
				inT = inBody
			}
		case xml.CharData:
			if inT && text.Len() < maxGlossaryText {
				text.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inT = false
			case "category":
				inCat = false
			case "docPart":
				for _, n := range names {
					out[n] = text.String()
				}
			}
		}
	}
}
