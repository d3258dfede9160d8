// Command eval-rtl measures right-to-left PDF text: the bag-of-words F1 of
// docket's page text and of pdftotext's against the known text, on PDFs
// generated here in the two ways producers write RTL text (visual order,
// and logical order placed right to left), and, on the corpus's Arabic
// PDF (tables/tabula/arabic.pdf, no ground truth), docket's agreement
// with pdftotext. The fixture lines of the PDF package's tests were used
// while building the RTL reordering (tuning); the lines here were not
// (report).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// reportLines: Hebrew and Arabic prose, numbers, punctuation, Latin names
// and RTL words in English lines; not used for tuning.
var reportLines = []string{
	"בית המשפט העליון דחה את הערעור ביום שלישי",
	"החוזה נחתם בתל אביב בשנת 2019 ותוקפו 36 חודשים",
	"לפי הדוח, ההכנסות עלו ב 14 אחוז לעומת השנה הקודמת",
	"الجمعية العامة للأمم المتحدة عقدت دورتها السنوية",
	"بلغ عدد السكان 4500 نسمة في نهاية العام",
	"تم توقيع الاتفاقية في مدينة الرياض يوم الخميس",
	"قالت شركة Acme Corp إن الأرباح ارتفعت",
	"מנכל החברה Dana Levi הודיעה על התפטרותה",
	"The contract was signed in ירושלים on Monday",
	"Our office in القاهرة opens at nine",
}

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder")
	flag.Parse()
	if err := run(*corpus); err != nil {
		fmt.Fprintln(os.Stderr, "eval-rtl:", err)
		os.Exit(1)
	}
}

func run(corpus string) error {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		fmt.Println("pdftotext not installed, skipped")
		return nil
	}
	dir, err := os.MkdirTemp("", "docket-eval-rtl-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	truth := strings.Join(reportLines, "\n")
	fmt.Println("set (report split)          docket_F1  pdftotext_F1")
	for _, o := range []struct {
		name  string
		order pdftest.Order
	}{{"generated, visual order", pdftest.Visual}, {"generated, logical order", pdftest.Logical}} {
		data, err := pdftest.RTLPDF(reportLines, o.order)
		if err != nil {
			return err
		}
		p := filepath.Join(dir, strings.ReplaceAll(o.name, " ", "_")+".pdf")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		if err := scoreRow(o.name, p, truth); err != nil {
			return err
		}
	}
	if err := browserSet(dir); err != nil {
		return err
	}
	ar := filepath.Join(corpus, "tables", "tabula", "arabic.pdf")
	if _, err := os.Stat(ar); err != nil {
		fmt.Println("corpus arabic.pdf not found, skipped")
		return nil
	}
	d, pt, err := texts(ar)
	if err != nil {
		return err
	}
	fmt.Printf("tabula/arabic.pdf: docket vs pdftotext word F1 %.4f (no ground truth)\n", F1(d, pt))
	// The F1 above normalises both sides (NFKC); a search matches the
	// text as it lands, so say how that text compares with the words a
	// user types (pdftotext's, normalised).
	forms := 0
	for _, r := range d {
		if pdf.IsPresentationForm(r) {
			forms++
		}
	}
	fmt.Printf("tabula/arabic.pdf: docket's text as it lands vs pdftotext NFKC word F1 %.4f; Arabic presentation forms left in it: %d\n", f1(wordsOf(d, false), wordsOf(pt, true)), forms)
	return nil
}

// scoreRow prints one set's row: the F1 of docket's and of pdftotext's
// text of the PDF at path against truth (and both texts under
// EVAL_RTL_DEBUG).
func scoreRow(name, path, truth string) error {
	d, pt, err := texts(path)
	if err != nil {
		return err
	}
	fmt.Printf("%-27s %.4f     %.4f\n", name, F1(d, truth), F1(pt, truth))
	if os.Getenv("EVAL_RTL_DEBUG") != "" {
		fmt.Printf("docket:\n%s\npdftotext:\n%s\n", d, pt)
	}
	return nil
}

// texts is docket's and pdftotext's text of the PDF at path.
func texts(path string) (docket, poppler string, err error) {
	if docket, err = docketText(path); err != nil {
		return "", "", err
	}
	poppler, err = popplerText(path)
	return docket, poppler, err
}

func docketText(path string) (string, error) {
	res, err := pdf.Extract(context.Background(), path, document.Options{})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range res.Pages {
		b.WriteString(p.Text + "\n")
	}
	return b.String(), nil
}

func popplerText(path string) (string, error) {
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
	return string(out), err
}

// words: NFKC (Arabic presentation forms become letters), bidi controls
// as spaces (pdftotext separates runs with them), punctuation trimmed from
// word ends.
func words(s string) map[string]int { return wordsOf(s, true) }

// wordsOf is words, with NFKC only when nfkc is set.
func wordsOf(s string, nfkc bool) map[string]int {
	if nfkc {
		s = norm.NFKC.String(s)
	}
	s = strings.Map(func(r rune) rune {
		if r >= 0x200E && r <= 0x200F || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 {
			return ' '
		}
		return r
	}, s)
	m := map[string]int{}
	for _, w := range strings.Fields(s) {
		w = strings.TrimFunc(w, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
		if w != "" {
			m[w]++
		}
	}
	return m
}

// F1 is the bag-of-words F1 of got against want.
func F1(got, want string) float64 { return f1(words(got), words(want)) }

// f1 is the bag-of-words F1 of the words g against w.
func f1(g, w map[string]int) float64 {
	common, ng, nw := 0, 0, 0
	for k, n := range g {
		ng += n
		common += min(n, w[k])
	}
	for _, n := range w {
		nw += n
	}
	if ng == 0 || nw == 0 {
		return 0
	}
	p, r := float64(common)/float64(ng), float64(common)/float64(nw)
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}
