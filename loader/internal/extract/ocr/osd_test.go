package ocr

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// turn turns a grey image clockwise by a multiple of 90 degrees.
func turn(src []byte, w, h, deg int) ([]byte, int, int) {
	if deg == 180 {
		out := make([]byte, len(src))
		for i, v := range src {
			out[len(src)-1-i] = v
		}
		return out, w, h
	}
	out := make([]byte, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if deg == 90 {
				out[x*h+(h-1-y)] = src[y*w+x]
			} else { // 270
				out[(w-1-x)*h+y] = src[y*w+x]
			}
		}
	}
	return out, h, w
}

// A page scanned sideways or upside down is turned upright by OSD before
// recognition and reads like the upright page.
func TestOrientationTurnsPageUpright(t *testing.T) {
	e := testEngine(t)
	g, w, h := renderFixture(t)
	for _, deg := range []int{90, 180} {
		tg, tw, th := turn(g, w, h, deg)
		r, err := e.RecognizeGray(tg, tw, th, tw, 300, testOpts())
		if err != nil {
			t.Fatal(err)
		}
		if r.Rotated != (360-deg)%360 || r.Text != fixtureText || r.Script != "Latin" {
			t.Errorf("turned %d°: rotated back %d, script %q, text %q", deg, r.Rotated, r.Script, r.Text)
		}
		if r.Width != tw || r.Height != th {
			t.Errorf("turned %d°: size %dx%d, want the image's own %dx%d", deg, r.Width, r.Height, tw, th)
		}
	}
}

// turnBox maps a box on a w×h image to the same place on the image
// turned clockwise by deg.
func turnBox(b document.BBox, w, h, deg int) document.BBox {
	W, H := float64(w), float64(h)
	switch deg {
	case 90:
		return document.BBox{X0: H - b.Y1, Y0: b.X0, X1: H - b.Y0, Y1: b.X1}
	case 180:
		return document.BBox{X0: W - b.X1, Y0: H - b.Y1, X1: W - b.X0, Y1: H - b.Y0}
	case 270:
		return document.BBox{X0: b.Y0, Y0: W - b.X1, X1: b.Y1, Y1: W - b.X0}
	}
	return b
}

// Word boxes of a turned page are in the pixels of the image as given
// (where a viewer draws them over that image), not in those of the
// upright copy recognition read: each word's box is the upright reading's
// box turned with the page, within a few pixels.
func TestBoxesOfTurnedPage(t *testing.T) {
	e := testEngine(t)
	g, w, h := renderFixture(t)
	up, err := e.RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	for _, deg := range []int{90, 180, 270} {
		tg, tw, th := turn(g, w, h, deg)
		r, err := e.RecognizeGray(tg, tw, th, tw, 300, testOpts())
		if err != nil {
			t.Fatal(err)
		}
		if r.Rotated != (360-deg)%360 || len(r.Words) != len(up.Words) {
			t.Fatalf("turned %d°: rotated back %d, %d words (upright %d)", deg, r.Rotated, len(r.Words), len(up.Words))
		}
		for i, wd := range r.Words {
			want := turnBox(up.Words[i].BBox, w, h, deg)
			b := wd.BBox
			if wd.Text != up.Words[i].Text || math.Abs(b.X0-want.X0) > 4 || math.Abs(b.Y0-want.Y0) > 4 || math.Abs(b.X1-want.X1) > 4 || math.Abs(b.Y1-want.Y1) > 4 {
				t.Errorf("turned %d°: word %q box %+v, want %+v (%q upright)", deg, wd.Text, b, want, up.Words[i].Text)
			}
		}
		for _, p := range r.Paragraphs {
			if p.BBox.X1 > float64(tw) || p.BBox.Y1 > float64(th) || p.BBox.X0 < 0 || p.BBox.Y0 < 0 {
				t.Errorf("turned %d°: paragraph box %+v outside the %dx%d image", deg, p.BBox, tw, th)
			}
		}
	}
}

// A deskewed page's boxes are in the crooked image's pixels too: each
// word's centre is the upright word's centre turned by the skew.
func TestBoxesOfSkewedPage(t *testing.T) {
	e := testEngine(t)
	g, w, h := renderFixture(t)
	up, err := e.RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	const deg = 2.5
	rot, _, _ := rotate(g, w, h, deg)
	r, err := e.RecognizeGray(rot, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Words) != len(up.Words) {
		t.Fatalf("%d words, %d upright", len(r.Words), len(up.Words))
	}
	s, c := math.Sincos(deg * math.Pi / 180)
	for i, wd := range r.Words {
		b := up.Words[i].BBox
		dx, dy := (b.X0+b.X1)/2-float64(w)/2, (b.Y0+b.Y1)/2-float64(h)/2
		wx, wy := c*dx-s*dy+float64(w)/2, s*dx+c*dy+float64(h)/2
		gx, gy := (wd.BBox.X0+wd.BBox.X1)/2, (wd.BBox.Y0+wd.BBox.Y1)/2
		if math.Hypot(gx-wx, gy-wy) > 6 {
			t.Errorf("word %q centre (%.0f,%.0f), want (%.0f,%.0f)", wd.Text, gx, gy, wx, wy)
		}
	}
}

// The trial readings OSD falls back on find how far a page is turned.
func TestTrialOrientation(t *testing.T) {
	e := testEngine(t)
	g, w, h := renderFixture(t)
	for _, deg := range []int{0, 90, 180, 270} {
		tg, tw, th := g, w, h
		if deg != 0 {
			tg, tw, th = turn(g, w, h, deg)
		}
		p := newPix(tg, tw, th, tw, 300)
		// OSD's proposal: right, upside down, or on the wrong axis (then
		// all four orientations are read).
		for _, first := range []int{0, 1, 2} {
			e.mu.Lock()
			q, score := e.trialOrientation(p, tw, th, 300, first)
			e.mu.Unlock()
			if q != (4-deg/90)%4 || score < trialMinScore {
				t.Errorf("turned %d°, OSD proposing %d quarters: trial turns %d quarters (score %.1f), want %d", deg, first, q, score, (4-deg/90)%4)
			}
		}
		destroyPix(p)
	}
	if s := trialScore([]document.OCRWord{{Text: "Invoice", Confidence: 90, BBox: document.BBox{X1: 70, Y1: 20}}, {Text: "a", Confidence: 95, BBox: document.BBox{X1: 10, Y1: 8}},
		{Text: "xq", Confidence: 40, BBox: document.BBox{X1: 20, Y1: 10}}, {Text: "4711,", Confidence: 80, BBox: document.BBox{X1: 40, Y1: 20}}, {Text: "down", Confidence: 90, BBox: document.BBox{X1: 20, Y1: 60}}}); math.Abs(s-(7*0.9+4*0.8)) > 1e-9 {
		t.Errorf("trialScore %.2f", s)
	}
}

// arabicPage renders a page of Arabic text at 300 dpi as grey pixels.
// The tests read it with engines that do not load ara, whether or not its
// model is installed (they skipped where it was, and the Arabic model
// is what a machine checking ocr.languages installs).
func arabicPage(t *testing.T) ([]byte, int, int) {
	t.Helper()
	lines := []string{
		"الجمعية العامة للأمم المتحدة عقدت دورتها السنوية في نيويورك",
		"بلغ عدد السكان أربعة آلاف وخمسمائة نسمة في نهاية العام",
		"تم توقيع الاتفاقية في مدينة الرياض يوم الخميس الماضي",
		"قالت الشركة إن الأرباح ارتفعت بنسبة كبيرة هذا العام",
		"وأكد المدير أن المشروع سيكتمل قبل نهاية الصيف المقبل",
		"وشارك في الاجتماع ممثلون عن عدد من الدول العربية",
	}
	data, err := pdftest.RTLPDF(append(append(lines, lines...), lines...), pdftest.Visual)
	if err != nil {
		t.Fatal(err)
	}
	return renderGrey(t, pdftest.WriteBytes(t, "arabic.pdf", data))
}

// checkFlaggedArabic: r is the Arabic page flagged, not read.
func checkFlaggedArabic(t *testing.T, r PageResult) {
	t.Helper()
	if r.Script != "Arabic" || r.Text != "" || len(r.Words) != 0 {
		t.Fatalf("script %q, review %q, text %q", r.Script, r.ReviewReason, r.Text)
	}
	if !strings.HasPrefix(r.ReviewReason, document.ReviewScriptNotInstalled+": the page is in Arabic script") || !strings.Contains(r.ReviewReason, "tesseract-ocr-ara") {
		t.Errorf("review reason %q", r.ReviewReason)
	}
}

// A page in a script the configured languages cannot read is flagged, not
// read as English.
func TestUnreadableScriptFlagged(t *testing.T) {
	g, w, h := arabicPage(t)
	r, err := testEngine(t).RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	checkFlaggedArabic(t, r)
}

// ocr.languages naming a model that is not installed (deu, or the first of
// a few languages not installed here) or no language
// at all (xyz) next to eng: Tesseract starts with eng alone, so the page is
// still one eng cannot read and is flagged. readsScript used to judge by
// the configured list, where the unknown xyz "might read any script", and
// the Arabic page was OCR'd as English (only low_ocr_confidence).
func TestUnloadedLanguageDoesNotWidenScripts(t *testing.T) {
	missing := "" // a real language whose model is not installed
	for _, l := range []string{"deu", "fra", "spa", "ita", "nld", "por", "swe", "pol"} {
		if _, err := os.Stat("/usr/share/tesseract-ocr/5/tessdata/" + l + ".traineddata"); err != nil {
			missing = l
			break
		}
	}
	if missing == "" {
		t.Skip("every candidate model is installed: the test needs a configured language without a model")
	}
	g, w, h := arabicPage(t)
	langs := []string{"eng", missing, "xyz"}
	e, err := NewEngine(langs)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Languages() != "eng+"+missing+"+xyz" || e.Loaded() != "eng" {
		t.Fatalf("languages %q, loaded %q", e.Languages(), e.Loaded())
	}
	opts := testOpts()
	opts.OCRLanguages = langs
	r, err := e.RecognizeGray(g, w, h, w, 300, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkFlaggedArabic(t, r)
	if !strings.Contains(r.ReviewReason, "OCR languages (eng ("+missing+", xyz: no model loaded))") {
		t.Errorf("review reason %q does not say which languages were not loaded", r.ReviewReason)
	}
}

// Tesseract starts when any configured language loads, the first one
// included (xyz+eng reads with eng), and refuses when none does.
func TestLoadedLanguages(t *testing.T) {
	e, err := NewEngine([]string{"xyz", "eng"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Loaded() != "eng" || e.unloadedNote() != " (xyz: no model loaded)" {
		t.Errorf("loaded %q, note %q", e.Loaded(), e.unloadedNote())
	}
	if e, err := NewEngine([]string{"xyz"}); err == nil {
		e.Close()
		t.Error("an engine with no language loaded started")
	}
}

func TestReadsScript(t *testing.T) {
	for _, tc := range []struct {
		langs, script string
		want          bool
	}{
		{"eng", "Latin", true}, {"eng", "Arabic", false}, {"eng+ara", "Arabic", true}, {"eng", "Fraktur", true},
		{"eng+xyz", "Arabic", true}, {"rus", "Latin", false}, {"jpn", "Katakana", true},
	} {
		if got := readsScript(tc.langs, tc.script); got != tc.want {
			t.Errorf("readsScript(%q, %q) = %v", tc.langs, tc.script, got)
		}
	}
}
