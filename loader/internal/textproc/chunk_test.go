package textproc

import (
	"strings"
	"testing"
	"unicode"
)

// checkChunks asserts the ChunkText contract and returns the normalized texts.
func checkChunks(t *testing.T, text string, size, overlap int, boundaries []int, chunks []Chunk) []string {
	t.Helper()
	rs := []rune(text)
	eff := max(size, MinChunkSize)
	var norms []string
	covered := make([]bool, len(rs))
	prevStart := -1
	for i, c := range chunks {
		if c.Start < 0 || c.End > len(rs) || c.Start >= c.End {
			t.Fatalf("chunk %d: bad offsets [%d,%d) for %d code points", i, c.Start, c.End, len(rs))
		}
		if got := string(rs[c.Start:c.End]); got != c.Text {
			t.Fatalf("chunk %d: Text %q != text[%d:%d] %q", i, c.Text, c.Start, c.End, got)
		}
		n := NormalizeText(c.Text)
		if n == "" {
			t.Fatalf("chunk %d: normalized text is empty (%q)", i, c.Text)
		}
		if l := len([]rune(n)); l > eff {
			t.Fatalf("chunk %d: normalized length %d > size %d: %q", i, l, eff, n)
		}
		if c.Start <= prevStart {
			t.Fatalf("chunk %d: starts at %d, not after previous start %d", i, c.Start, prevStart)
		}
		prevStart = c.Start
		for _, b := range boundaries {
			if b > c.Start && b < c.End {
				t.Fatalf("chunk %d [%d,%d) crosses boundary %d", i, c.Start, c.End, b)
			}
		}
		for k := c.Start; k < c.End; k++ {
			covered[k] = true
		}
		norms = append(norms, n)
	}
	// Every visible character is in some chunk.
	for k, r := range rs {
		if !covered[k] && !unicode.IsSpace(r) && NormalizeText(string(r)) != "" {
			// A lone combining mark or similar may normalize to something only
			// in context; it still must be covered when it is a word's part.
			t.Fatalf("code point %d (%q) is in no chunk", k, r)
		}
	}
	return norms
}

func TestChunkTextSmallFitsOneChunk(t *testing.T) {
	text := "  Hello  world.\n"
	got := ChunkText(text, 100, 10, nil)
	checkChunks(t, text, 100, 10, nil, got)
	if len(got) != 1 || got[0].Text != "Hello  world." || got[0].Start != 2 || got[0].End != 15 {
		t.Fatalf("got %+v", got)
	}
}

func TestChunkTextEmptyAndBlank(t *testing.T) {
	for _, s := range []string{"", "   \n\n\t ", "\u200b\u200b \ufeff"} {
		if got := ChunkText(s, 50, 5, nil); len(got) != 0 {
			t.Fatalf("ChunkText(%q) = %+v, want none", s, got)
		}
	}
}

func TestChunkTextParagraphsFirst(t *testing.T) {
	p1 := "First paragraph has a few words. It has two sentences."
	p2 := "Second paragraph is here. Also short."
	text := p1 + "\n\n" + p2
	got := ChunkText(text, 60, 0, nil)
	checkChunks(t, text, 60, 0, nil, got)
	if len(got) != 2 || got[0].Text != p1 || got[1].Text != p2 {
		t.Fatalf("want the two paragraphs, got %+v", got)
	}
}

func TestChunkTextSentencesThenWords(t *testing.T) {
	text := "Alpha beta gamma delta. Epsilon zeta eta theta. Iota kappa lambda mu nu xi omicron pi rho sigma tau."
	got := ChunkText(text, 30, 0, nil)
	norms := checkChunks(t, text, 30, 0, nil, got)
	want := []string{"Alpha beta gamma delta.", "Epsilon zeta eta theta.", "Iota kappa lambda mu nu xi", "omicron pi rho sigma tau."}
	if strings.Join(norms, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", norms, want)
	}
}

func TestChunkTextNeverCutsWords(t *testing.T) {
	text := sampleText(3000)
	for _, size := range []int{40, 100, 333} {
		got := ChunkText(text, size, size/5, nil)
		checkChunks(t, text, size, size/5, nil, got)
		rs := []rune(text)
		for _, c := range got {
			if c.Start > 0 && !unicode.IsSpace(rs[c.Start-1]) {
				t.Fatalf("size %d: chunk starts inside a word: %q", size, c.Text)
			}
			if c.End < len(rs) && !unicode.IsSpace(rs[c.End]) {
				t.Fatalf("size %d: chunk ends inside a word: %q", size, c.Text)
			}
		}
	}
}

func TestChunkTextOverlap(t *testing.T) {
	text := "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
	got := ChunkText(text, 30, 10, nil)
	norms := checkChunks(t, text, 30, 10, nil, got)
	if len(got) < 3 {
		t.Fatalf("want several chunks, got %q", norms)
	}
	for i := 1; i < len(got); i++ {
		ov := got[i-1].End - got[i].Start
		if ov <= 0 || ov > 10 {
			t.Fatalf("chunks %d,%d overlap by %d code points, want 1..10: %q", i-1, i, ov, norms)
		}
	}
}

func TestChunkTextLongWordHardSplit(t *testing.T) {
	word := strings.Repeat("x", 50)
	text := "short " + word + " end"
	got := ChunkText(text, 20, 0, nil)
	norms := checkChunks(t, text, 20, 0, nil, got)
	if strings.Join(norms, "") != "short"+word+"end" && strings.ReplaceAll(strings.Join(norms, " "), " ", "") != "short"+word+"end" {
		t.Fatalf("pieces do not rebuild the text: %q", norms)
	}
}

func TestChunkTextBoundaries(t *testing.T) {
	title := "Section Two"
	body := "Body text of the section goes on."
	text := "Intro words here. " + title + "\n" + body
	b := len([]rune("Intro words here. "))
	got := ChunkText(text, 200, 20, []int{b, -5, 10_000, b})
	norms := checkChunks(t, text, 200, 20, []int{b}, got)
	if len(got) != 2 || norms[0] != "Intro words here." || got[1].Start != b {
		t.Fatalf("got %q", norms)
	}
}

func TestChunkTextCodePointOffsets(t *testing.T) {
	text := "Ünïcödé ﬁles — 日本語のテキスト。 Ωmega ﬂow."
	got := ChunkText(text, 20, 0, nil)
	checkChunks(t, text, 20, 0, nil, got)
}

func TestChunkTextNormalizedSizeWithExpansion(t *testing.T) {
	// Each "ﬃ" is one code point but three characters once normalized.
	text := strings.Repeat("ﬃ ", 40)
	got := ChunkText(text, 20, 4, nil)
	checkChunks(t, text, 20, 4, nil, got)
	text = strings.Repeat("ﬃ", 40) + " a\u00b4b \ufdfa\ufdfa"
	got = ChunkText(text, 5, 0, nil)
	checkChunks(t, text, 5, 0, nil, got)
}

func FuzzChunkText(f *testing.F) {
	f.Add(sampleText(500), 60, 10, 100)
	f.Add("a b\n\nc. D e", 18, 3, 2)
	f.Add("ﬃﬃﬃﬃﬃﬃﬃ \u00b4\u00b4\u00b4 x", 18, 9, 0)
	f.Add("\xff\xfe word-\nbreak", 20, 5, 7)
	f.Fuzz(func(t *testing.T, text string, size, overlap, boundary int) {
		if len(text) > 4000 {
			return
		}
		size = size%300 + 1
		if size < 0 {
			size = -size
		}
		var bs []int
		if boundary != 0 {
			bs = []int{boundary % (len(text) + 1)}
		}
		got := ChunkText(text, size, overlap%200, bs)
		var valid []int
		for _, b := range bs {
			if b > 0 {
				valid = append(valid, b)
			}
		}
		checkChunks(t, text, size, overlap, valid, got)
	})
}

func BenchmarkChunkText(b *testing.B) {
	s := sampleText(20000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		ChunkText(s, 800, 100, nil)
	}
}
