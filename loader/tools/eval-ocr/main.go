// Command eval-ocr measures docket's OCR against ground truth: for every
// scans/pNN.png of the corpus, the bag-of-words F1 of docket's page text
// against pNN.gt.txt and the same for plain `tesseract pNN.png -` run here;
// then scanned.pdf (pages 1-4 against p00-p03) and mixed.pdf page 2.
// With -variants it also compares the preprocessing choices (deskew,
// Tesseract's thresholding methods, the second reading of low-confidence
// lines). The word confidence cut is compared on every run, from the same
// recognition.
//
// Split: the OCR engine's thresholds (the orientation gate in
// ocr/orient.go, the second reading's line selection in ocr/engine.go)
// were tuned on the even scans (p00, p02, ... p10, "tune"); the odd scans
// (p01 ... p11, "holdout") were only looked at for reporting. Every mean
// is printed for both halves.
package main

import (
	"context"
	"flag"
	"fmt"
	goimage "image"
	"image/color"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/image"
	"github.com/docket-dev/docket/loader/internal/extract/ocr"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder")
	variants := flag.Bool("variants", false, "also measure preprocessing variants")
	pages := flag.Int("pages", 0, "only the first N scans (0: all)")
	only := flag.String("only", "", "only these scans, comma separated (p03,p10), for quick iteration; the full figures need all")
	rotations := flag.Bool("rotations", true, "also OCR each scan turned 90, 180 and 270 degrees (turned in memory here)")
	flag.Parse()
	scans := filepath.Join(*corpus, "scans")
	if _, err := os.Stat(scans); err != nil {
		fmt.Println("corpus not found, skipped")
		return
	}
	if err := run(scans, *pages, *only, *variants, *rotations); err != nil {
		fmt.Fprintln(os.Stderr, "eval-ocr:", err)
		os.Exit(1)
	}
}

func opts() document.Options {
	return document.Options{OCR: true, OCRLanguages: []string{"eng"}, OCRDPI: 300, OCRMinWordConf: 60, OCRReviewBelow: 60}
}

// holdout reports whether a scan (pNN.png) is in the half the engine's
// thresholds were not tuned on: the odd ones.
func holdout(png string) bool {
	var n int
	fmt.Sscanf(strings.TrimPrefix(filepath.Base(png), "p"), "%d", &n)
	return n%2 == 1
}

// splitMeans formats the mean of per-page values over the tune and the
// holdout half.
func splitMeans(pngs []string, vals []float64) string {
	var s [2]float64
	var n [2]int
	for i, p := range pngs {
		k := 0
		if holdout(p) {
			k = 1
		}
		s[k] += vals[i]
		n[k]++
	}
	return fmt.Sprintf("tune %.4f (%d pages), holdout %.4f (%d pages)", s[0]/float64(max(n[0], 1)), n[0], s[1]/float64(max(n[1], 1)), n[1])
}

func run(dir string, limit int, only string, variants, rotations bool) error {
	pngs, _ := filepath.Glob(filepath.Join(dir, "p[0-9][0-9].png"))
	if limit > 0 && limit < len(pngs) {
		pngs = pngs[:limit]
	}
	if only != "" {
		var sel []string
		for _, p := range pngs {
			if slices.Contains(strings.Split(only, ","), strings.TrimSuffix(filepath.Base(p), ".png")) {
				sel = append(sel, p)
			}
		}
		pngs = sel
	}
	if len(pngs) == 0 {
		fmt.Println("no scans/pNN.png in corpus, skipped")
		return nil
	}
	eng, err := ocr.NewEngine([]string{"eng"})
	if err != nil {
		return err
	}
	defer eng.Close()
	ctx := context.Background()
	var sumD, sumC float64
	worse := 0
	type pageWords struct {
		gt    string
		words []document.OCRWord
		cli   float64
	}
	var kept []pageWords
	var perD, perC []float64
	fmt.Println("page   split    docket_F1  cli_F1   conf  review")
	for _, p := range pngs {
		gt, err := os.ReadFile(strings.TrimSuffix(p, ".png") + ".gt.txt")
		if err != nil {
			return err
		}
		res, err := image.ExtractWith(ctx, eng, p, opts())
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		cli, err := exec.Command("tesseract", p, "-").Output()
		if err != nil {
			return fmt.Errorf("tesseract %s: %w", p, err)
		}
		fd, fc := F1(res.Pages[0].Text, string(gt)), F1(string(cli), string(gt))
		sumD += fd
		sumC += fc
		perD, perC = append(perD, fd), append(perC, fc)
		mark := ""
		if fd < fc {
			worse++
			mark = "  < cli"
		}
		split := "tune   "
		if holdout(p) {
			split = "holdout"
		}
		fmt.Printf("%s  %s  %.4f     %.4f   %.1f  %q%s\n", strings.TrimSuffix(filepath.Base(p), ".png"), split, fd, fc, res.Pages[0].OCRConfidence, res.Pages[0].ReviewReason, mark)
		kept = append(kept, pageWords{string(gt), res.Words, fc})
	}
	n := float64(len(pngs))
	fmt.Printf("mean            %.4f     %.4f   (docket/cli %.3f; pages where docket < cli: %d of %d)\n", sumD/n, sumC/n, sumD/sumC, worse, len(pngs))
	fmt.Printf("docket F1 by split: %s\n", splitMeans(pngs, perD))
	fmt.Printf("cli F1 by split:    %s\n", splitMeans(pngs, perC))

	// Image-only PDF: 4 pages of p00-p03.
	// Rendered as the loader does: each page at its scan's own resolution
	// (pdf.Layout.ScanDPI).
	scanned := filepath.Join(dir, "scanned.pdf")
	scan := map[int]int{}
	if res, err := pdf.Extract(ctx, scanned, document.Options{}); err == nil {
		for _, p := range res.Pages {
			scan[p.Number] = p.ScanDPI
		}
	}
	if rs, err := eng.OCRPDFPagesScan(ctx, scanned, nil, scan, opts()); err != nil {
		fmt.Println("scanned.pdf:", err)
	} else {
		var s float64
		for i, r := range rs {
			gt, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("p%02d.gt.txt", i)))
			f := F1(r.Text, string(gt))
			s += f
			fmt.Printf("scanned.pdf page %d  F1 %.4f  conf %.1f  rendered at %d dpi\n", r.Page, f, r.MeanConfidence, r.DPI)
		}
		fmt.Printf("scanned.pdf: %d pages OCR'd, mean F1 %.4f\n", len(rs), s/float64(max(len(rs), 1)))
	}
	if rs, err := eng.OCRPDFPages(ctx, filepath.Join(dir, "mixed.pdf"), []int{2}, opts()); err != nil {
		fmt.Println("mixed.pdf:", err)
	} else {
		gt, _ := os.ReadFile(filepath.Join(dir, "mixed.page2.gt.txt"))
		fmt.Printf("mixed.pdf page 2  F1 %.4f  conf %.1f\n", F1(rs[0].Text, string(gt)), rs[0].MeanConfidence)
	}

	if rotations {
		if err := rotated(eng, pngs); err != nil {
			return err
		}
	}

	// Word confidence cut, from the same recognition.
	for _, mc := range []float64{0, 30, 60, 80} {
		var s float64
		var per []string
		below := 0
		for _, k := range kept {
			t, _ := ocr.Rebuild(k.words, mc)
			f := F1(t, k.gt)
			s += f
			per = append(per, fmt.Sprintf("%.3f", f))
			if f < k.cli {
				below++
			}
		}
		fmt.Printf("min word confidence %2.0f: mean F1 %.4f, pages < cli %d  [%s]\n", mc, s/n, below, strings.Join(per, " "))
	}
	if !variants {
		return nil
	}
	for _, pre := range []ocr.Preprocess{
		{Deskew: false, Thresholding: ocr.ThresholdOtsu, Reread: true, EraseRules: true},
		{Deskew: true, Thresholding: ocr.ThresholdOtsu, Reread: false, EraseRules: true},
		{Deskew: true, Thresholding: ocr.ThresholdOtsu, Reread: true, EraseRules: true},
		{Deskew: true, Thresholding: ocr.ThresholdOtsu, Reread: true, EraseRules: false},
		{Deskew: true, Thresholding: ocr.ThresholdLeptonicaOtsu, Reread: true, EraseRules: true},
		{Deskew: true, Thresholding: ocr.ThresholdSauvola, Reread: true, EraseRules: true},
	} {
		e, err := ocr.NewEngineWith([]string{"eng"}, pre)
		if err != nil {
			return err
		}
		var s, conf float64
		var per []string
		for _, p := range pngs {
			gt, _ := os.ReadFile(strings.TrimSuffix(p, ".png") + ".gt.txt")
			res, err := image.ExtractWith(ctx, e, p, opts())
			if err != nil {
				return err
			}
			f := F1(res.Pages[0].Text, string(gt))
			s += f
			conf += res.Pages[0].OCRConfidence
			per = append(per, fmt.Sprintf("%.3f", f))
		}
		e.Close()
		fmt.Printf("variant deskew=%v thresholding=%d reread=%v erase-rules=%v: mean F1 %.4f mean conf %.1f  [%s]\n", pre.Deskew, pre.Thresholding, pre.Reread, pre.EraseRules, s/n, conf/n, strings.Join(per, " "))
	}
	return nil
}

// Words splits text into lowercase alphanumeric tokens.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// F1 is the multiset (bag-of-words) F1 of got against want.
func F1(got, want string) float64 {
	g, w := Words(got), Words(want)
	if len(g) == 0 && len(w) == 0 {
		return 1
	}
	bag := map[string]int{}
	for _, t := range w {
		bag[t]++
	}
	match := 0
	for _, t := range g {
		if bag[t] > 0 {
			bag[t]--
			match++
		}
	}
	if match == 0 {
		return 0
	}
	p, r := float64(match)/float64(len(g)), float64(match)/float64(len(w))
	return 2 * p * r / (p + r)
}

// rotated OCRs every scan upright and turned by 90, 180 and 270 degrees
// clockwise (in memory, never written) through the engine, and compares
// each turn's F1 with the upright scan's: orientation detection should
// make them equal.
func rotated(eng *ocr.Engine, pngs []string) error {
	n := float64(len(pngs))
	var up float64
	var upPer []float64
	for _, deg := range []int{0, 90, 180, 270} {
		var s float64
		var per []string
		var vals []float64
		turned := 0
		for _, p := range pngs {
			gt, _ := os.ReadFile(strings.TrimSuffix(p, ".png") + ".gt.txt")
			g, err := rotateGray(p, deg)
			if err != nil {
				return err
			}
			r, err := eng.RecognizeGray(g.Pix, g.Rect.Dx(), g.Rect.Dy(), g.Stride, 300, opts())
			if err != nil {
				return err
			}
			f := F1(r.Text, string(gt))
			s += f
			vals = append(vals, f)
			per = append(per, fmt.Sprintf("%.3f", f))
			if r.Rotated != 0 {
				turned++
			}
		}
		if deg == 0 {
			up, upPer = s, slices.Clone(vals)
		}
		worst := 0.0
		for i := range vals {
			vals[i] -= upPer[i]
			worst = min(worst, vals[i])
		}
		fmt.Printf("scan turned %3d°: mean F1 %.4f (difference to upright %+.4f, worst page %+.4f), turned back on %d of %d  [%s]\n",
			deg, s/n, (s-up)/n, worst, turned, len(pngs), strings.Join(per, " "))
		fmt.Printf("  difference to upright by split: %s\n", splitMeans(pngs, vals))
	}
	return nil
}

// rotateGray reads a PNG as grey, turned clockwise by deg (0, 90, 180, 270).
func rotateGray(src string, deg int) (*goimage.Gray, error) {
	f, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	img, _, err := goimage.Decode(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := goimage.NewGray(goimage.Rect(0, 0, w, h))
	if deg%180 != 0 {
		out = goimage.NewGray(goimage.Rect(0, 0, h, w))
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.GrayModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.Gray)
			switch deg {
			case 0:
				out.SetGray(x, y, c)
			case 90:
				out.SetGray(h-1-y, x, c)
			case 180:
				out.SetGray(w-1-x, h-1-y, c)
			case 270:
				out.SetGray(y, w-1-x, c)
			}
		}
	}
	return out, nil
}
