package text

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

func encodeAs(t *testing.T, e encoding.Encoding, s string) string {
	t.Helper()
	out, err := e.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func extractString(t *testing.T, name, data string) (text string, warnings string) {
	t.Helper()
	info, _ := detect.DetectBytes(name, []byte(data))
	res, err := ExtractBytes(context.Background(), []byte(data), info, document.Options{})
	if err != nil {
		t.Fatalf("%s: %v (detected %+v)", name, err, info)
	}
	return strings.TrimSpace(res.Pages[0].Text), strings.Join(res.Warnings, " ")
}

// TestMixedEncodingLines: a text whose first paragraphs are UTF-8 and the
// rest Windows-1252 (pasted from two sources) reads each line in its own
// encoding, said in a warning (text/10); the whole file was decoded as
// Windows-1252, the UTF-8 half landing as "CafÃ© crÃ¨me brÃ»lÃ©e". Lines
// may end in CRLF or a lone CR, and a line of ASCII between them is the
// same in both. A file all in Windows-1252 is decoded as before.
func TestMixedEncodingLines(t *testing.T) {
	utf := strings.Repeat("Café menu: crème brûlée and naïve tarts, déjà vu.\n", 3)
	plain := "Second part: café, crème brûlée, façade, jalapeño.\n"
	latin := encodeAs(t, charmap.Windows1252, strings.Repeat(plain, 3))
	both := strings.TrimSpace(utf + strings.Repeat(plain, 3))
	for _, c := range []struct {
		name, data, want, warn string
	}{
		{"mixed.txt", utf + latin, both, "mixed encodings: 3 line(s) read as UTF-8, the other 3 as windows-1252"},
		{"crlf.txt", strings.ReplaceAll(utf+"ASCII only\n"+latin, "\n", "\r\n"), strings.Replace(both, "vu.\nSecond", "vu.\nASCII only\nSecond", 1), "3 line(s) read as UTF-8, the other 3"},
		{"cr.txt", strings.ReplaceAll(utf+latin, "\n", "\r"), both, "3 line(s) read as UTF-8, the other 3"},
		{"latin.txt", latin, strings.TrimSpace(strings.Repeat(plain, 3)), ""},
	} {
		got, w := extractString(t, c.name, c.data)
		if got != c.want {
			t.Errorf("%s: text %q", c.name, got)
		}
		if c.warn != "" && !strings.Contains(w, c.warn) || c.warn == "" && strings.Contains(w, "mixed") {
			t.Errorf("%s: warnings %q", c.name, w)
		}
	}
}

// TestMixedEncodingGuessedFromLegacyLines: a Russian text in UTF-8
// followed by more in Windows-1251 reads both halves: the legacy charset
// is guessed from the lines that are not UTF-8 (detect.GuessCharset). The
// UTF-8 half's bytes made the guess Windows-1252, and both halves landed
// as mojibake.
func TestMixedEncodingGuessedFromLegacyLines(t *testing.T) {
	ru := "Поезд отправляется с первой платформы в семь часов утра, билеты в кассе.\n"
	data := strings.Repeat(ru, 20) + encodeAs(t, charmap.Windows1251, strings.Repeat(ru, 20))
	got, w := extractString(t, "ru.txt", data)
	if n := strings.Count(got, strings.TrimSpace(ru)); n != 40 {
		t.Errorf("%d of 40 lines read (warnings %q): %.200q", n, w, got)
	}
	if !strings.Contains(w, "20 line(s) read as UTF-8, the other 20 as windows-1251") {
		t.Errorf("warnings %q", w)
	}
}

// TestLegacyLinesValidUTF8ByChance: in a Windows-1252 file, a line whose
// only accented letter stands before symbols is valid UTF-8 by chance
// ("Gruß" and a no-break space, "é", a no-break space and "»"); read as
// UTF-8 it would be NKo or Han letters Windows-1252 has not, so it stays
// Windows-1252 and the file is no mixed one (text/10 as first written read
// "Mit freundlichem GruߠA. Weber").
func TestLegacyLinesValidUTF8ByChance(t *testing.T) {
	plain := "Mit freundlichem Gruß\u00a0A. Weber\nLe café\u00a0» dit-il.\nGrüße aus Köln, schöne Tage!\n"
	data := encodeAs(t, charmap.Windows1252, plain)
	for _, l := range strings.Split(data, "\n")[:2] {
		if !utf8.ValidString(l) {
			t.Fatalf("fixture line %q is not valid UTF-8", l)
		}
	}
	got, w := extractString(t, "chance.txt", data)
	if want := strings.TrimSpace(plain); got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if strings.Contains(w, "mixed") {
		t.Errorf("warnings %q", w)
	}
}

// TestMultiByteLegacyNotMixed: Shift-JIS and GBK text is decoded whole in
// its charset, never line by line (a line of a multi-byte charset can be
// valid UTF-8 by chance and read as letters the charset has).
func TestMultiByteLegacyNotMixed(t *testing.T) {
	for _, c := range []struct {
		s string
		e encoding.Encoding
	}{
		{"東京駅から新幹線に乗って、大阪まで行きました。とても楽しい旅行でした。\n", japanese.ShiftJIS},
		{"我们今天去北京的博物馆参观了很多历史文物，非常有意思。\n", simplifiedchinese.GBK},
	} {
		got, w := extractString(t, "cjk.txt", encodeAs(t, c.e, strings.Repeat(c.s, 10)))
		if got != strings.TrimSpace(strings.Repeat(c.s, 10)) || strings.Contains(w, "mixed") {
			t.Errorf("%v: text %.80q, warnings %q", c.e, got, w)
		}
	}
	if keepsASCII(charmap.CodePage037) || !keepsASCII(charmap.Windows1252) {
		t.Error("keepsASCII: EBCDIC keeps ASCII or Windows-1252 does not")
	}
}

// TestMixedLinesMemoryBounded: review44's MEDIUM on text/10. A word list
// (one short word a line, Windows-1252 and UTF-8 lines mixed, as leaked
// password lists are) is read in place: mixedLines sliced every line and
// decoded each legacy one through a new transform buffer: 111 MB
// allocated for this 4 MB (review44: 1.18 GB for 40 MB, ~2 GB peak for
// 134 MB); now 13 MB.
func TestMixedLinesMemoryBounded(t *testing.T) {
	var b bytes.Buffer
	words := []string{"pass\xe9\n", "caf\xc3\xa9\n", "x\n", "m\xfcller1\n", "123456\r\n", "se\xf1or\r", "na\xc3\xafve\n"}
	for i := 0; b.Len() < 4<<20; i++ {
		b.WriteString(words[i%len(words)])
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, used, warnings, err := Decode(b.Bytes(), "windows-1252")
	runtime.ReadMemStats(&after)
	if err != nil || used != "windows-1252" || len(warnings) != 1 || !strings.HasPrefix(s, "passé\ncafé\nx\nmüller1\n123456\nseñor\nnaïve\npassé") {
		t.Fatalf("%q %s %q %v", s[:min(len(s), 60)], used, warnings, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 5*uint64(b.Len()) { // the output and Decode's line-end pass: ~3x
		t.Errorf("decoding %d MB allocated %d MB", b.Len()>>20, n>>20)
	}
}

// TestMixedLinesEmojiAndArrowsAreUTF8 (review44's LOW on text/10): in a file
// mixing UTF-8 and Windows-1252 lines, a UTF-8 line whose only non-ASCII
// characters Windows-1252 lacks (an emoji, an arrow) is read as UTF-8; it
// was read as Windows-1252 and landed "Thanks ðŸ‘\u008d see you â†’".
func TestMixedLinesEmojiAndArrowsAreUTF8(t *testing.T) {
	legacy := encodeAs(t, charmap.Windows1252, "Grüße aus München, die Straße ist gesperrt.\nDer Bäcker öffnet später.\n")
	data := "Thanks 👍 see you → tomorrow\n" + legacy + "Status: done ✔ next → review\n"
	text, warnings := extractString(t, "notes.txt", data)
	for _, w := range []string{"Thanks 👍 see you → tomorrow", "Grüße aus München", "Der Bäcker öffnet später", "done ✔ next → review"} {
		if !strings.Contains(text, w) {
			t.Errorf("lacks %q:\n%s", w, text)
		}
	}
	if !strings.Contains(warnings, "mixed encodings") {
		t.Errorf("no mixed-encodings warning: %q", warnings)
	}
	if strings.Contains(text, "ð") || strings.Contains(text, "â†") {
		t.Errorf("mojibake:\n%s", text)
	}
}
