package textproc

import (
	"testing"
	"unicode/utf8"
)

func TestNormalizeText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"spaces only", " \t\n\r\n ", ""},
		{"ligatures", "ﬁnal ﬂow ﬃce", "final flow ffice"},
		{"fullwidth and compat", "ＡＢＣ １２３ ㎏", "ABC 123 kg"},
		{"nbsp and thin spaces", "a\u00a0b\u2009c\u3000d", "a b c d"},
		{"zero width", "in\u200bfor\u200cma\u200dti\u2060on\ufeff", "information"},
		{"soft hyphen and bidi marks", "co\u00adop\u200eera\u202ation", "cooperation"},
		{"controls", "a\x00b\x07c\x1bd\x7fe", "abcde"},
		{"whitespace runs", "  one\t\ttwo\n\nthree  \r\n four ", "one two three four"},
		{"hyphenated line break", "infor-\nmation", "information"},
		{"hyphenated crlf and indent", "infor-\r\n    mation retrieval", "information retrieval"},
		{"real hyphen kept", "a well-known fact", "a well-known fact"},
		{"hyphen before capital kept", "Anglo-\nSaxon", "Anglo- Saxon"},
		{"hyphen space no break kept", "pre- and post-war", "pre- and post-war"},
		{"dash as list marker", "items:\n- one\n- two", "items: - one - two"},
		{"unicode hyphen", "infor\u2010\nmation", "information"},
		{"composed accents", "cafe\u0301", "café"},
		{"zero width between base and mark", "e\u200b\u0301", "é"},
		{"invalid utf8", "ab\xffcd\xc3", "ab\ufffdcd\ufffd"},
		{"acute accent spacing", "\u00b4x", "\u0301x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NormalizeText(tt.in)
			if got != tt.want {
				t.Fatalf("NormalizeText(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := NormalizeText(got); again != got {
				t.Fatalf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"", "ﬁnal", "infor-\nmation", "a\u200b\u0301", "\xff\xfe", "x-\n\u0301", "\u00b4",
		"Ａ-\nｂ", "ᄀ-\nᅡ", "a -\nb", "e\u00ad\u0301", "a\u2028b", "ǅ-\nx", "\u1680x\u0085y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeText(s)
		if !utf8.ValidString(n) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, n)
		}
		if n2 := NormalizeText(n); n2 != n {
			t.Fatalf("not idempotent for %q: %q -> %q", s, n, n2)
		}
	})
}

func BenchmarkNormalizeText(b *testing.B) {
	s := sampleText(800)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		NormalizeText(s)
	}
}
