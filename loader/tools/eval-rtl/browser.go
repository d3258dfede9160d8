package main

import (
	"fmt"
	"html"
	"path/filepath"
	"strings"

	"github.com/docket-dev/docket/loader/tools/internal/browser"
)

// browserParas: Arabic, Hebrew and mixed prose written for the browser
// set only (not the PDF package's fixtures, not reportLines), printed by
// Chromium: text shaped by HarfBuzz, embedded font subsets, lines wrapped
// by the browser. Each inner slice is one paragraph.
var browserParas = [][]string{
	{"أعلنت البلدية عن افتتاح حديقة عامة جديدة في الحي الشمالي بعد عامين من العمل المتواصل",
		"ويضم المشروع ممرات للمشاة وملعبا صغيرا للأطفال ومكتبة مفتوحة"},
	{"سجلت محطة الأرصاد درجة حرارة بلغت 41 درجة مئوية يوم الأحد الماضي"},
	{"يضم المعرض أكثر من 250 لوحة لفنانين من عشرين دولة مختلفة",
		"وتستمر أيامه حتى نهاية الشهر المقبل"},
	{"انخفض عدد الحوادث المرورية بنسبة 8.5 بالمئة مقارنة بالعام السابق"},
	{"העירייה החליטה להרחיב את שעות הפתיחה של הספרייה הציבורית בסופי שבוע",
		"ההחלטה תיכנס לתוקף בחודש הבא ותיבחן מחדש בעוד שנה"},
	{"במהלך החורף ירדו בצפון הארץ כמויות גשם גבוהות מהממוצע"},
	{"המכון פרסם דוח שנתי ובו נתונים על 1200 עסקים קטנים"},
	{"בתחרות השתתפו תלמידים מארבעים בתי ספר מכל רחבי המדינה"},
	{"تستخدم الشركة نظام Linux في جميع خوادمها منذ عام 2015"},
	{"החברה Orbit Labs גייסה 40 מיליון דולר בסבב האחרון"},
}

// browserLTR: English paragraphs with right-to-left runs.
var browserLTR = []string{
	"The delegation from عمان arrived at the conference on Tuesday",
	"We met the author of הספר הלבן at the fair in Frankfurt",
}

// browserDoc lays the paragraphs out over three printed pages: wrapped
// right-aligned and justified paragraphs in two sizes, a list, and
// English paragraphs with right-to-left runs.
func browserDoc() (doc, truth string) {
	var b, t strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset="utf-8"><style>
@page{size:816px 1056px;margin:0}html,body{margin:0}
.page{width:816px;height:1056px;box-sizing:border-box;padding:72px 64px;break-after:page;font-family:"DejaVu Sans",sans-serif}
.narrow{width:360px}.just{text-align:justify}.big{font-size:17px}.small{font-size:11px}
</style></head><body>
`)
	para := func(attrs string, lines []string) {
		s := strings.Join(lines, " ")
		fmt.Fprintf(&b, "<p %s>%s</p>\n", attrs, html.EscapeString(s))
		t.WriteString(s + "\n")
	}
	b.WriteString(`<div class="page">`)
	for i, p := range browserParas[:4] {
		para([]string{`dir="rtl" class="narrow big"`, `dir="rtl" class="just"`}[i%2], p)
	}
	b.WriteString("</div>\n" + `<div class="page" dir="rtl"><ul>`)
	for _, p := range browserParas[4:8] {
		s := strings.Join(p, " ")
		fmt.Fprintf(&b, "<li>%s</li>\n", html.EscapeString(s))
		t.WriteString(s + "\n")
	}
	b.WriteString("</ul></div>\n" + `<div class="page">`)
	for _, p := range browserParas[8:] {
		para(`dir="rtl" class="small"`, p)
	}
	for _, s := range browserLTR {
		para(`class="narrow"`, []string{s})
	}
	b.WriteString("</div></body></html>\n")
	return b.String(), t.String()
}

// browserSet prints browserDoc with Chromium into dir and prints docket's
// and pdftotext's F1 against its text; without Chromium it says so.
func browserSet(dir string) error {
	pr, err := browser.New(dir)
	if err != nil {
		fmt.Printf("browser (held out): skipped: %v\n", err)
		return nil
	}
	doc, truth := browserDoc()
	if _, err := pr.PDF("rtl", doc); err != nil {
		return err
	}
	return scoreRow("browser (held out)", filepath.Join(dir, "rtl.pdf"), truth)
}
