package office

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"
)

// ExtractCSV reads a delimited text file (CSV, TSV…) as one page holding one
// table: header = first non-empty record, page text = records as
// tab-separated lines, rows bounded by Options.MaxSheetRows (default 10000)
// with a warning. delim 0 sniffs the delimiter among , ; tab and | from
// the first lines. The encoding comes from a BOM, else UTF-16 is recognised
// by its NUL bytes, else UTF-8, else Windows-1252. Quotes are read lazily
// and records may have any number of fields.
func ExtractCSV(ctx context.Context, p string, delim rune, opts document.Options) (*document.Result, error) {
	fh, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 64<<10)
	head, _ := br.Peek(32 << 10)
	if len(bytes.TrimSpace(head)) == 0 {
		res := newBuilder("csv", "text/csv").finish()
		return res, nil
	}
	r, enc := textReader(br, head)
	if delim == 0 {
		delim = sniffDelim(r)
	}
	mime := "text/csv"
	if delim == '\t' {
		mime = "text/tab-separated-values"
	}
	b := newBuilderFor("csv", mime, opts)
	if enc != "utf-8" {
		setExtra(&b.res.Metadata, "encoding", enc)
	}
	cr := csv.NewReader(r)
	cr.Comma = delim
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	limit := maxRows(opts)
	var rows [][]string
	n := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				b.warn("csv: %v", err)
				if pe.Err == csv.ErrFieldCount {
					continue
				}
				if len(rows) == 0 {
					return nil, document.Errorf(document.KindCorrupt, "not readable as delimited text: %v", err)
				}
				break
			}
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		n++
		if n%1024 == 0 {
			if err := ctxErr(ctx); err != nil {
				return nil, err
			}
		}
		empty := true
		for _, c := range rec {
			if strings.TrimSpace(c) != "" {
				empty = false
				break
			}
		}
		if empty {
			continue
		}
		if len(rows) >= limit {
			b.warn("more than %d rows, the rest were dropped", limit)
			b.res.Flag(0, document.ReviewTruncated, "the file has more than %d rows (loader.max_sheet_rows): only its first %d are in the warehouse, the rest were not read", limit, limit)
			break
		}
		rows = append(rows, rec)
	}
	b.addTableRows(rows)
	return b.finish(), nil
}

// textReader picks the decoding from the first bytes and returns a UTF-8
// reader over the whole stream (the BOM removed).
func textReader(br *bufio.Reader, head []byte) (*bufio.Reader, string) {
	var tr transform.Transformer
	name := "utf-8"
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		_, _ = br.Discard(3)
		return br, name
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		tr, name = utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM).NewDecoder(), "utf-32le"
	case bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}):
		tr, name = utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM).NewDecoder(), "utf-32be"
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		tr, name = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder(), "utf-16le"
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		tr, name = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder(), "utf-16be"
	default:
		if wide := detect.WideEncoding(head); wide == detect.UTF16LE {
			tr, name = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder(), "utf-16le"
		} else if wide == detect.UTF16BE {
			tr, name = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder(), "utf-16be"
		} else if !validUTF8Prefix(head) {
			tr, name = charmap.Windows1252.NewDecoder(), "windows-1252"
		}
	}
	if tr == nil {
		return br, name
	}
	return bufio.NewReaderSize(transform.NewReader(br, tr), 64<<10), name
}

// validUTF8Prefix is utf8.Valid tolerating a sequence cut at the end.
func validUTF8Prefix(b []byte) bool {
	for i := 0; i < 3 && len(b) > 0; i++ {
		if utf8.Valid(b) {
			return true
		}
		if utf8.FullRune(b[len(b)-1:]) && b[len(b)-1] < utf8.RuneSelf {
			return false
		}
		b = b[:len(b)-1]
	}
	return utf8.Valid(b)
}

// sniffDelim looks at the first lines and picks the candidate delimiter
// that occurs most consistently outside quotes.
func sniffDelim(r *bufio.Reader) rune {
	head, _ := r.Peek(16 << 10)
	lines := strings.Split(string(head), "\n")
	if len(lines) > 1 && len(head) == 16<<10 {
		lines = lines[:len(lines)-1] // last one may be cut
	}
	if len(lines) > 20 {
		lines = lines[:20]
	}
	best, bestScore := ',', 0
	for _, d := range []rune{',', ';', '\t', '|'} {
		minN, total := -1, 0
		for _, l := range lines {
			if strings.TrimSpace(l) == "" {
				continue
			}
			n, inQ := 0, false
			for _, c := range l {
				switch {
				case c == '"':
					inQ = !inQ
				case c == d && !inQ:
					n++
				}
			}
			total += n
			if minN < 0 || n < minN {
				minN = n
			}
		}
		// consistent presence on every line weighs most
		score := minN*1000 + total
		if minN <= 0 {
			score = total
		}
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	return best
}
