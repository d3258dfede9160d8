package ocr

import (
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
		if r.Width != w || r.Height != h {
			t.Errorf("turned %d°: size %dx%d, want the upright %dx%d", deg, r.Width, r.Height, w, h)
		}
	}
}

// A page in a script the configured languages cannot read is flagged, not
// read as English.
func TestUnreadableScriptFlagged(t *testing.T) {
	if _, err := os.Stat("/usr/share/tesseract-ocr/5/tessdata/ara.traineddata"); err == nil {
		t.Skip("Arabic model installed: eng+ara would read the page")
	}
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
	path := pdftest.WriteBytes(t, "arabic.pdf", data)
	doc, err := OpenFitz(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	img, err := doc.ImageDPI(0, 300)
	if err != nil {
		t.Fatal(err)
	}
	g, w, h := Gray(img)
	r, err := testEngine(t).RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if r.Script != "Arabic" || r.Text != "" || len(r.Words) != 0 {
		t.Fatalf("script %q, text %q", r.Script, r.Text)
	}
	if !strings.HasPrefix(r.ReviewReason, document.ReviewScriptNotInstalled+": the page is in Arabic script") || !strings.Contains(r.ReviewReason, "tesseract-ocr-ara") {
		t.Errorf("review reason %q", r.ReviewReason)
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
