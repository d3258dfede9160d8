package office

import (
	"encoding/xml"
	"strings"
)

// ISO/IEC 29500 Strict OOXML names the same elements as Transitional under
// other namespace URIs: http://purl.oclc.org/ooxml/<area>/<name> for
// http://schemas.openxmlformats.org/<area>/2006/<name> (the OPC package
// namespaces are the same in both). The readers compare namespaces with the
// Transitional URIs, so every decoder maps Strict names to Transitional
// ones as it reads; without that a Strict DOCX read as empty.

const (
	strictPrefix       = "http://purl.oclc.org/ooxml/"
	transitionalPrefix = "http://schemas.openxmlformats.org/"
)

// transitional maps a Strict namespace URI (or relationship type) to its
// Transitional twin and returns anything else unchanged.
func transitional(ns string) string {
	rest, ok := strings.CutPrefix(ns, strictPrefix)
	if !ok {
		return ns
	}
	area, name, ok := strings.Cut(rest, "/")
	if !ok {
		return ns
	}
	return transitionalPrefix + area + "/2006/" + name
}

// strictReader is an xml.TokenReader that renames Strict namespaces.
type strictReader struct{ d *xml.Decoder }

func (s strictReader) Token() (xml.Token, error) {
	tok, err := s.d.Token()
	switch t := tok.(type) {
	case xml.StartElement:
		t.Name.Space = transitional(t.Name.Space)
		if len(t.Attr) > 0 {
			attrs := make([]xml.Attr, len(t.Attr))
			for i, a := range t.Attr {
				a.Name.Space = transitional(a.Name.Space)
				if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" || a.Name.Local == "Type" {
					a.Value = transitional(a.Value)
				}
				attrs[i] = a
			}
			t.Attr = attrs
		}
		return t, err
	case xml.EndElement:
		t.Name.Space = transitional(t.Name.Space)
		return t, err
	}
	return tok, err
}
