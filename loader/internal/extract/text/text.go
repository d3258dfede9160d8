// Package text extracts plain-text documents. It takes the bytes of a text,
// Markdown, reStructuredText, Org, JSON, NDJSON or XML file (in UTF-8/16/32
// with or without BOM, or a legacy charset) and produces one native page of
// UTF-8 text with typed elements: NarrativeText paragraphs, ListItem for
// bullet and numbered lines, Title for headings (by the markup's syntax, or a
// conservative guess for plain text), and Table for Markdown pipe tables.
// WebVTT and SRT subtitles become their cue text (subtitles.go); LaTeX its
// text without commands, following \input/\include in its folder (latex.go).
// EBCDIC (code pages 037/500) is decoded; a legacy decoding whose text is
// implausible is quarantined undecodable rather than landed as mojibake.
// Element offsets are code points into the page text.
package text

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// Version is recorded as the pages' extractor_version.
const Version = "text/1"

// Extract reads the file at path and extracts it.
func Extract(ctx context.Context, path string, info detect.Info, opts document.Options) (*document.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("text %s: %w", path, err)
	}
	return extractBytes(ctx, data, info, filepath.Dir(path))
}

// ExtractBytes extracts in-memory content (e.g. an e-mail body).
func ExtractBytes(ctx context.Context, data []byte, info detect.Info, opts document.Options) (*document.Result, error) {
	return extractBytes(ctx, data, info, "")
}

// extractBytes extracts; dir is the folder LaTeX \input files are read
// from ("" for in-memory content: not followed).
func extractBytes(ctx context.Context, data []byte, info detect.Info, dir string) (*document.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, enc, warnings, err := Decode(data, info.Encoding)
	if err != nil {
		return nil, err
	}
	res := &document.Result{
		Type: info.Type, MIME: info.MIME, Warnings: warnings, ExtractorVersion: Version,
	}
	if res.Type == "" {
		res.Type = detect.Text
	}
	if enc != "" && enc != detect.UTF8 {
		res.Metadata.Extra = map[string]string{"encoding": enc}
	}
	var els []document.Element
	var tables []document.Table
	var title string
	switch info.Type {
	case detect.XML:
		s, err = xmlText(s)
		if err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
		els, tables, title = Structure(s, Data)
	case detect.WebVTT, detect.SRT:
		s = subtitleText(s)
		els, tables, title = Structure(s, Data)
	case detect.LaTeX:
		warn := func(w string) { res.Warnings = append(res.Warnings, w) }
		if dir == "" && inputRe.MatchString(s) {
			warn("\\input/\\include not followed: the document was not read from a folder")
		}
		d := parseLaTeX(latexSource(s, dir, map[string]bool{}, 0, warn))
		s, els = assembleBlocks(d.blocks)
		title = d.title
		res.Metadata.Author = d.author
	default:
		els, tables, title = Structure(s, SyntaxOf(info.Type))
	}
	if title == "" && len(els) > 0 && els[0].Category == document.Title {
		title = els[0].Text
	}
	res.Metadata.Title = title
	res.Metadata.PageCount = 1
	res.Pages = []document.Page{{
		Number: 1, Text: s, Method: document.MethodNative, CharCount: document.RealChars(s),
	}}
	res.Elements = els
	res.Tables = tables
	return res, nil
}

// SyntaxOf maps a detected type to the block syntax to honour.
func SyntaxOf(typ string) Syntax {
	switch typ {
	case detect.Markdown:
		return Markdown
	case detect.RST:
		return RST
	case detect.Org:
		return Org
	case detect.JSON:
		return Data
	case detect.NDJSON:
		return Lines
	}
	return Plain
}

// xmlText returns the character data of an XML document as paragraphs: the
// texts of an element's leaf children form one block ("\n"-joined), blocks
// are separated by blank lines. Malformed XML yields what was read before
// the error, plus the error as a warning.
func xmlText(s string) (string, error) {
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	// The text is already UTF-8, whatever the declaration says.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	type frame struct {
		own      strings.Builder
		lines    []string
		children bool
	}
	var stack []*frame
	var blocks []string
	collapse := func(t string) string { return strings.Join(strings.Fields(t), " ") }
	var xerr error
	for {
		tok, err := d.Token()
		if err != nil {
			if err != io.EOF {
				xerr = fmt.Errorf("xml: %w", err)
			}
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > 0 {
				stack[len(stack)-1].children = true
			}
			stack = append(stack, &frame{})
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].own.Write(t)
			}
		case xml.EndElement:
			if len(stack) == 0 {
				continue
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			own := collapse(f.own.String())
			if !f.children && len(stack) > 0 {
				if own != "" {
					p := stack[len(stack)-1]
					p.lines = append(p.lines, own)
				}
				continue
			}
			var parts []string
			if own != "" {
				parts = append(parts, own)
			}
			parts = append(parts, f.lines...)
			if len(parts) > 0 {
				blocks = append(blocks, strings.Join(parts, "\n"))
			}
		}
	}
	// Unclosed elements at EOF.
	for k := len(stack) - 1; k >= 0; k-- {
		f := stack[k]
		var parts []string
		if own := collapse(f.own.String()); own != "" {
			parts = append(parts, own)
		}
		parts = append(parts, f.lines...)
		if len(parts) > 0 {
			blocks = append(blocks, strings.Join(parts, "\n"))
		}
	}
	return strings.Join(blocks, "\n\n"), xerr
}

// assembleBlocks joins blocks into page text ("\n\n" between them) with
// code point offsets and sections.
func assembleBlocks(blocks []block) (string, []document.Element) {
	var sb strings.Builder
	var els []document.Element
	section := ""
	pos := 0
	for _, b := range blocks {
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
			pos += 2
		}
		n := utf8.RuneCountInString(b.text)
		if b.cat == document.Title {
			section = b.text
		}
		els = append(els, document.Element{Page: 1, Seq: len(els), Category: b.cat, Text: b.text,
			CharStart: pos, CharEnd: pos + n, Level: b.level, Section: section, TableSeq: -1})
		sb.WriteString(b.text)
		pos += n
	}
	return sb.String(), els
}
