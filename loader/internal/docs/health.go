package docs

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/docket-dev/docket/loader/internal/docs/svg"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

var healthTpl = tmpl("health", `<h1>Pipeline health</h1>
<p class="muted">{{.Runs}} load runs. Dashed red lines are the thresholds of <code>project.yaml</code>
(<code>health:</code>, <code>loader.min_chars_per_page</code>, <code>ocr:</code>, <code>vars.min_doc_chars</code>).</p>
<h2>Per load run</h2>
<div class="charts">{{range .RunCharts}}{{svg .}}{{end}}</div>
<h2>Current documents</h2>
<div class="charts">{{range .DistCharts}}{{svg .}}{{end}}</div>
<h2 id="quarantine">Quarantined now ({{len .Quarantined}})</h2>
{{if .Quarantined}}<table class="grid"><tr><th>document</th><th>type</th><th>error kind</th><th>reason</th><th>since</th></tr>
{{range .Quarantined}}<tr><td><a href="{{.Href}}">{{.Path}}</a></td><td>{{.Type}}</td><td><span class="badge st-quarantined">{{.Kind}}</span></td><td>{{.Message}}</td><td>{{.Seen}}</td></tr>{{end}}</table>
{{else}}<p>Nothing is quarantined.</p>{{end}}
<h2 id="review">Pages flagged for review ({{len .Review}})</h2>
{{if .Review}}<table class="grid"><tr><th>document</th><th class="num">page</th><th>method</th><th class="num">OCR confidence</th><th>reason</th></tr>
{{range .Review}}<tr><td><a href="{{.Href}}">{{.Path}}</a></td><td class="num">{{.Page}}</td><td>{{.Method}}</td><td class="num">{{.Conf}}</td><td>{{.Reason}}</td></tr>{{end}}</table>
{{else}}<p>No page is flagged for review.</p>{{end}}
<h2>Load runs</h2>
<table class="grid"><tr><th>run</th><th>started</th><th>status</th><th class="num">seen</th><th class="num">processed</th><th class="num">landed</th><th class="num">quarantined</th><th class="num">unchanged</th><th class="num">deleted</th><th class="num">pages</th><th class="num">OCR pages</th><th class="num">seconds</th></tr>
{{range .RunRows}}<tr><td><code>{{.RunID}}</code></td><td>{{.StartedAt.Format "2006-01-02 15:04:05"}}</td><td>{{.Status}}</td><td class="num">{{.Seen}}</td><td class="num">{{.Processed}}</td><td class="num">{{.Landed}}</td><td class="num">{{.Quarantine}}</td><td class="num">{{.Unchanged}}</td><td class="num">{{.Deleted}}</td><td class="num">{{.Pages}}</td><td class="num">{{.OCRPages}}</td><td class="num">{{secs .DurationMS}}</td></tr>{{end}}</table>`)

type quarantineRow struct{ Path, Href, Type, Kind, Message, Seen string }
type reviewRow struct {
	Path, Href, Method, Conf, Reason string
	Page                             int
}

var palette = []string{"#d32f2f", "#f57c00", "#7b1fa2", "#1976d2", "#00897b", "#5d4037", "#c2185b", "#455a64", "#afb42b", "#0097a7"}

func (s *site) writeHealth(ctx context.Context) error {
	var runs []warehouse.SiteRun
	var figs []warehouse.PageFigure
	var wordBins [20]int
	if s.loaded {
		var err error
		if runs, err = s.o.DB.SiteRuns(ctx); err != nil {
			return err
		}
		if figs, err = s.o.DB.SitePageFigures(ctx); err != nil {
			return err
		}
		if wordBins, err = s.o.DB.SiteWordConfidences(ctx); err != nil {
			return err
		}
	}
	s.rep.Runs = len(runs)
	if s.docs == nil {
		if err := s.loadDocs(ctx); err != nil {
			return err
		}
	}
	t := s.o.Thresholds
	labels, keys := make([]string, len(runs)), make([]string, len(runs))
	for i, r := range runs {
		labels[i], keys[i] = r.StartedAt.Format("01-02 15:04"), r.RunID
	}
	base := func(id, title, y string) svg.Chart {
		return svg.Chart{ID: id, Title: title, YLabel: y, Categories: labels, Keys: keys, KeyAttr: "run"}
	}
	val := func(f func(r warehouse.SiteRun) float64) []float64 {
		out := make([]float64, len(runs))
		for i, r := range runs {
			out[i] = f(r)
		}
		return out
	}
	ptr := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	var runCharts []string
	runCharts = append(runCharts, svg.Bars(base("chart-outcomes", "Documents per load run", "documents"), []svg.Series{
		{Name: "landed", Color: "#43a047", Values: val(func(r warehouse.SiteRun) float64 { return float64(r.Landed) })},
		{Name: "quarantined", Color: "#e53935", Values: val(func(r warehouse.SiteRun) float64 { return float64(r.Quarantine) })},
		{Name: "unchanged", Color: "#b0bec5", Values: val(func(r warehouse.SiteRun) float64 { return float64(r.Unchanged) })},
	}))
	c := base("chart-success", "Success rate (landed / processed)", "")
	c.Percent, c.YMax = true, 1
	c.Thresholds = []svg.Threshold{{Value: t.MinSuccessRate, Label: fmt.Sprintf("min_success_rate %.0f%%", t.MinSuccessRate*100)}}
	runCharts = append(runCharts, svg.Lines(c, []svg.Series{{Name: "success rate", Color: "#1976d2", Values: val(func(r warehouse.SiteRun) float64 { return ptr(r.SuccessRate) })}}))
	kinds := map[string]bool{}
	for _, r := range runs {
		for k := range r.FailureModes {
			kinds[k] = true
		}
	}
	var kindList []string
	for k := range kinds {
		kindList = append(kindList, k)
	}
	sort.Strings(kindList)
	var fm []svg.Series
	for i, k := range kindList {
		fm = append(fm, svg.Series{Name: k, Color: palette[i%len(palette)], Values: val(func(r warehouse.SiteRun) float64 { return float64(r.FailureModes[k]) })})
	}
	runCharts = append(runCharts, svg.Bars(base("chart-failures", "Failure modes (error_kind) per run", "documents"), fm))
	// the mean-characters test fails a run whose mean drops below the
	// previous run's times (1 - max_mean_chars_drop)
	floor := make([]float64, len(runs))
	prev := math.NaN()
	for i, r := range runs {
		floor[i] = prev * (1 - t.MaxMeanCharsDrop)
		if r.Processed > 0 && r.MeanChars != nil {
			prev = *r.MeanChars
		}
	}
	runCharts = append(runCharts, svg.Lines(base("chart-chars", "Mean characters per landed document", "characters"), []svg.Series{
		{Name: "mean characters", Color: "#1976d2", Values: val(func(r warehouse.SiteRun) float64 { return ptr(r.MeanChars) })},
		{Name: fmt.Sprintf("fails below (previous × %.2f, max_mean_chars_drop)", 1-t.MaxMeanCharsDrop), Color: "#e53935", Values: floor},
	}))
	c = base("chart-ocr-share", "OCR share of pages per run", "")
	c.Percent, c.YMax = true, 1
	runCharts = append(runCharts, svg.Lines(c, []svg.Series{{Name: "OCR'd pages / pages", Color: "#7b1fa2", Values: val(func(r warehouse.SiteRun) float64 {
		if r.Pages == 0 {
			return math.NaN()
		}
		return float64(r.OCRPages) / float64(r.Pages)
	})}}))
	c = base("chart-ocr-conf", "Mean OCR confidence per run", "confidence")
	c.YMax = 100
	c.Thresholds = []svg.Threshold{{Value: t.ReviewBelow, Label: fmt.Sprintf("ocr.review_below %.0f", t.ReviewBelow)}}
	runCharts = append(runCharts, svg.Lines(c, []svg.Series{{Name: "mean OCR confidence", Color: "#00897b", Values: val(func(r warehouse.SiteRun) float64 { return ptr(r.MeanOCRConfidence) })}}))
	runCharts = append(runCharts, svg.Bars(base("chart-review", "Pages flagged for review per run", "pages"), []svg.Series{
		{Name: "review pages", Color: "#f57c00", Values: val(func(r warehouse.SiteRun) float64 { return float64(r.ReviewPages) })},
	}))

	// distributions over the current documents
	var docChars, pageChars, pageConf, docOCRShare []float64
	maxDoc := 1.0
	for _, d := range s.docs {
		if d.Status == "landed" && d.Pages > 0 {
			docChars = append(docChars, float64(d.Chars))
			maxDoc = math.Max(maxDoc, float64(d.Chars))
			docOCRShare = append(docOCRShare, float64(d.OCRPages)/float64(d.Pages))
		}
	}
	maxPage := 1.0
	var review []reviewRow
	for _, f := range figs {
		pageChars = append(pageChars, float64(f.Chars))
		maxPage = math.Max(maxPage, float64(f.Chars))
		if f.OCRConfidence != nil && f.Method == "ocr" {
			pageConf = append(pageConf, *f.OCRConfidence)
		}
		if f.ReviewReason != "" {
			r := reviewRow{Path: s.displayOf(f.DocID, f.RelPath), Href: docRel(f.DocID) + fmt.Sprintf("#p%d", f.Page), Method: f.Method, Reason: f.ReviewReason, Page: f.Page}
			if f.OCRConfidence != nil {
				r.Conf = fmt.Sprintf("%.1f", *f.OCRConfidence)
			}
			review = append(review, r)
		}
	}
	dist := func(id, title, y string) svg.Chart { return svg.Chart{ID: id, Title: title, YLabel: y} }
	var marks []svg.Threshold
	if t.MinDocChars > 0 {
		marks = append(marks, svg.Threshold{Value: t.MinDocChars, Label: fmt.Sprintf("min_doc_chars %.0f", t.MinDocChars)})
	}
	distCharts := []string{
		svg.Histogram(dist("dist-doc-chars", fmt.Sprintf("Characters per document (%d landed documents with pages)", len(docChars)), "documents"), docChars, svg.LogEdges(maxDoc), "#1976d2", marks),
		svg.Histogram(dist("dist-page-chars", fmt.Sprintf("Characters per page (%d pages)", len(pageChars)), "pages"), pageChars, svg.LogEdges(maxPage), "#1976d2",
			[]svg.Threshold{{Value: float64(t.MinCharsPerPage), Label: fmt.Sprintf("min_chars_per_page %d", t.MinCharsPerPage)}}),
		svg.Histogram(dist("dist-ocr-share", fmt.Sprintf("OCR share per document (%d documents)", len(docOCRShare)), "documents"), docOCRShare, svg.LinearEdges(0, 1, 10), "#7b1fa2", nil),
		svg.Histogram(dist("dist-page-conf", fmt.Sprintf("OCR confidence per OCR'd page (%d pages)", len(pageConf)), "pages"), pageConf, svg.LinearEdges(0, 100, 20), "#00897b",
			[]svg.Threshold{{Value: t.ReviewBelow, Label: fmt.Sprintf("review_below %.0f", t.ReviewBelow)}}),
	}
	wc := make([]float64, len(wordBins))
	nWords := 0
	for i, n := range wordBins {
		wc[i] = float64(n)
		nWords += n
	}
	distCharts = append(distCharts, svg.HistogramCounts(dist("dist-word-conf", fmt.Sprintf("OCR word confidence (%s words)", humanInt(int64(nWords))), "words"), wc, svg.LinearEdges(0, 100, 20), "#00897b",
		[]svg.Threshold{{Value: t.MinWordConfidence, Label: fmt.Sprintf("min_word_confidence %.0f", t.MinWordConfidence)}}))

	var quarantined []quarantineRow
	for _, d := range s.docs {
		if d.Status == "quarantined" {
			quarantined = append(quarantined, quarantineRow{Path: d.SourceName + "/" + d.Display, Href: docRel(d.DocID), Type: d.DetectedType,
				Kind: d.ErrorKind, Message: d.ErrorMessage, Seen: d.LastSeen.Format("2006-01-02 15:04")})
		}
	}
	return s.write("health.html", "Health", "health", healthTpl, map[string]any{
		"Runs": len(runs), "RunCharts": runCharts, "DistCharts": distCharts, "Quarantined": quarantined, "Review": review, "RunRows": runs,
	})
}
