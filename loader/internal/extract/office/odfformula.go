package office

import (
	"context"
	"encoding/xml"
	"strings"
	"unicode/utf8"
)

// maxFormulaText bounds the text one embedded formula lands.
const maxFormulaText = 4096

// odfFormula reads an embedded object's content part as a formula (a
// LibreOffice Math object: MathML, its root math:math) and returns its
// text as shown, the presentation MathML's tokens in order ("f=12.5×L"),
// or, when those hold none, its annotation (StarMath "f = 12.5 times
// L"). ok is false for an object that is no formula (a chart) or a part
// that cannot be read. Before office/30 a formula was a warning ("is no
// chart: its content is not read") and its sentence lost its words:
// "The formula for the fee is  per call."
func odfFormula(ctx context.Context, ix *zipIndex, part string) (text string, ok bool) {
	rc, err := ix.open(part)
	if err != nil {
		return "", false
	}
	defer rc.Close()
	toks := partTokens{ctx: ctx, d: newDecoder(rc), part: part}
	var shown, note strings.Builder
	inNote, root := 0, true
	for {
		tok, _ := toks.next()
		if tok == nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root {
				if t.Name.Local != "math" {
					return "", false
				}
				root = false
			}
			if t.Name.Local == "annotation" || t.Name.Local == "annotation-xml" {
				inNote++
			}
		case xml.EndElement:
			if (t.Name.Local == "annotation" || t.Name.Local == "annotation-xml") && inNote > 0 {
				inNote--
			}
		case xml.CharData:
			s := strings.TrimSpace(string(t))
			if inNote > 0 {
				if note.Len() < maxFormulaText {
					note.WriteString(s)
				}
			} else if shown.Len() < maxFormulaText {
				shown.WriteString(s)
			}
		}
	}
	if root {
		return "", false
	}
	text = shown.String()
	if text == "" {
		text = strings.Join(strings.Fields(note.String()), " ")
	}
	if len(text) > maxFormulaText {
		text = strings.ToValidUTF8(text[:maxFormulaText], "")
		for !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
	}
	return text, true
}
