package text

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// endless yields pattern over and over, size bytes in all, and counts the
// bytes read: a file far larger than the text limits, never in memory.
type endless struct {
	pattern []byte
	size    int64
	read    int64
}

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= e.size {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && e.read < e.size {
		k := copy(p[n:], e.pattern[e.read%int64(len(e.pattern)):])
		k = int(min(int64(k), e.size-e.read))
		n += k
		e.read += int64(k)
	}
	return n, nil
}

// TestTextReadIsBounded (issue 17): a text file is read only as far as
// loader.max_doc_chars characters go, whatever its size: one byte a
// character for ASCII, whole characters for multi-byte UTF-8, at most 4
// bytes a character for other encodings; the document says the rest was
// not read.
func TestTextReadIsBounded(t *testing.T) {
	const limit = 100_000
	utf16le := func(s string) []byte {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	cases := []struct {
		name    string
		pattern []byte
		enc     string
		maxRead int64
	}{
		{"ascii", []byte("words without end "), detect.UTF8, limit + 2},
		{"utf-8 three-byte", []byte("日本語のテキスト "), detect.UTF8, 3*limit + 8},
		{"utf-16le", utf16le("wide words "), detect.UTF16LE, 4*limit + 8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &endless{pattern: c.pattern, size: 1 << 40} // a terabyte
			res, err := extractReader(context.Background(), r, detect.Info{Type: detect.Text, Encoding: c.enc},
				document.Options{MaxDocChars: limit}, includes{})
			if err != nil {
				t.Fatal(err)
			}
			if r.read > c.maxRead {
				t.Fatalf("read %d bytes for %d characters (at most %d expected)", r.read, limit, c.maxRead)
			}
			if n := utf8.RuneCountInString(res.Pages[0].Text); n != limit {
				t.Fatalf("want the first %d characters, got %d", limit, n)
			}
			if !strings.HasPrefix(res.Pages[0].Text, strings.TrimSpace(string([]rune(decodePattern(c.pattern, c.enc))[:3]))) {
				t.Fatalf("the text should start with the file's: %.20q", res.Pages[0].Text)
			}
			if !strings.Contains(res.Pages[0].Text[len(res.Pages[0].Text)-40:], strings.Fields(decodePattern(c.pattern, c.enc))[0][:1]) {
				t.Fatalf("the text should end in the pattern: %q", res.Pages[0].Text[len(res.Pages[0].Text)-40:])
			}
			rv := res.AllReviews()
			if len(rv) != 1 || rv[0].Code != document.ReviewTruncated || rv[0].Page != 0 || !strings.Contains(rv[0].Message, "not read") {
				t.Fatalf("want one document-level truncated review saying the rest was not read, got %v", rv)
			}
			if len(res.Warnings) != 0 {
				t.Fatalf("a cut at a character boundary gives no warning: %v", res.Warnings)
			}
		})
	}
}

func decodePattern(p []byte, enc string) string {
	if enc == detect.UTF16LE {
		u := make([]uint16, len(p)/2)
		for i := range u {
			u[i] = uint16(p[2*i]) | uint16(p[2*i+1])<<8
		}
		return string(utf16.Decode(u))
	}
	return string(p)
}

// A text within the limit is read whole and not flagged, also when it is
// exactly the limit long, or has a byte order mark.
func TestTextUnderTheLimitIsWhole(t *testing.T) {
	for _, src := range []string{strings.Repeat("a", 1000), "\uFEFF" + strings.Repeat("é", 1000), strings.Repeat("b", 999) + "\n"} {
		p := filepath.Join(t.TempDir(), "a.txt")
		os.WriteFile(p, []byte(src), 0o644)
		res, err := Extract(context.Background(), p, detect.Info{Type: detect.Text, Encoding: detect.UTF8}, document.Options{MaxDocChars: 1000})
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimPrefix(src, "\uFEFF")
		if res.Pages[0].Text != want || len(res.AllReviews()) != 0 {
			t.Fatalf("want the whole text unflagged, got %d characters, %v", utf8.RuneCountInString(res.Pages[0].Text), res.AllReviews())
		}
	}
	// One character more is cut, and says so.
	p := filepath.Join(t.TempDir(), "b.txt")
	os.WriteFile(p, []byte(strings.Repeat("c", 1001)), 0o644)
	res, err := Extract(context.Background(), p, detect.Info{Type: detect.Text, Encoding: detect.UTF8}, document.Options{MaxDocChars: 1000})
	if err != nil || len(res.Pages[0].Text) != 1000 || len(res.AllReviews()) != 1 {
		t.Fatalf("1001 characters: want 1000 kept and flagged, got %d, %v, %v", len(res.Pages[0].Text), res.AllReviews(), err)
	}
}
