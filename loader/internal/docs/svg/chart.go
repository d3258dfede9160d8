package svg

import (
	"fmt"
	"math"
	"strings"
)

// Series is one named sequence of values, one per category (run or bin).
// NaN is a missing value (no point is drawn).
type Series struct {
	Name   string
	Color  string
	Values []float64
}

// Threshold is a horizontal (Y) or vertical (X, in value units of a
// histogram) line drawn across a chart with its label.
type Threshold struct {
	Value float64
	Label string
}

// Chart is the frame shared by every chart kind.
type Chart struct {
	ID         string
	Title      string
	YLabel     string
	Categories []string // x labels
	Keys       []string // data-run (or data-bin) of each category: the test counts them
	KeyAttr    string   // "run" or "bin"
	YMax       float64  // 0: from the data
	Percent    bool     // y values are fractions shown as %
	Thresholds []Threshold
	EdgeLabels bool // histograms: a label is the left edge of its bar
}

// Frame geometry.
const (
	cw, ch             = 640.0, 260.0
	padL, padR         = 56.0, 16.0
	padT, padB         = 30.0, 48.0
	plotW, plotH       = cw - padL - padR, ch - padT - padB
	legendH            = 16.0
	maxLabelledXLabels = 12
)

func (c *Chart) open(b *strings.Builder, yMax float64, series []Series) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="%s" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" role="img" aria-label="%s">`,
		esc(c.ID), cw, ch+legendH, cw, ch+legendH, esc(c.Title))
	fmt.Fprintf(b, `<text class="title" x="%.0f" y="18">%s</text>`, padL, esc(c.Title))
	// y grid and ticks
	for _, t := range ticks(yMax) {
		y := padT + plotH - t/yMax*plotH
		fmt.Fprintf(b, `<line class="grid" x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f"/>`, padL, padL+plotW, y, y)
		fmt.Fprintf(b, `<text class="tick" x="%.0f" y="%.1f" text-anchor="end">%s</text>`, padL-4, y+4, c.fmtY(t))
	}
	if c.YLabel != "" {
		fmt.Fprintf(b, `<text class="axis" transform="translate(12,%.0f) rotate(-90)" text-anchor="middle">%s</text>`, padT+plotH/2, esc(c.YLabel))
	}
	fmt.Fprintf(b, `<line class="axis-line" x1="%.0f" x2="%.0f" y1="%.0f" y2="%.0f"/>`, padL, padL+plotW, padT+plotH, padT+plotH)
	// legend
	x := padL
	for _, s := range series {
		if s.Name == "" {
			continue
		}
		fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="%s"/><text class="legend" x="%.0f" y="%.0f">%s</text>`,
			x, ch+legendH-12, s.Color, x+14, ch+legendH-3, esc(s.Name))
		x += 24 + 7*float64(len(s.Name))
	}
}

func (c *Chart) fmtY(v float64) string {
	if c.Percent {
		return fmt.Sprintf("%.0f%%", v*100)
	}
	return human(v)
}

// xLabels writes category labels, thinned so they do not overlap.
func (c *Chart) xLabels(b *strings.Builder, centre func(i int) float64) {
	n := len(c.Categories)
	step := 1
	if n > maxLabelledXLabels {
		step = (n + maxLabelledXLabels - 1) / maxLabelledXLabels
	}
	for i := 0; i < n; i += step {
		fmt.Fprintf(b, `<text class="tick" x="%.1f" y="%.0f" text-anchor="middle">%s</text>`, centre(i), padT+plotH+14, esc(c.Categories[i]))
	}
}

func (c *Chart) thresholds(b *strings.Builder, yMax float64) {
	for _, t := range c.Thresholds {
		if t.Value < 0 || t.Value > yMax {
			continue
		}
		y := padT + plotH - t.Value/yMax*plotH
		fmt.Fprintf(b, `<line class="threshold" x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f"/><text class="threshold-label" x="%.0f" y="%.1f" text-anchor="end">%s</text>`,
			padL, padL+plotW, y, y, padL+plotW-2, y-3, esc(t.Label))
	}
}

func (c *Chart) key(i int) string {
	if i < len(c.Keys) {
		return fmt.Sprintf(` data-%s="%s"`, c.KeyAttr, esc(c.Keys[i]))
	}
	return ""
}

// Bars draws one bar per category; several series are stacked.
func Bars(c Chart, series []Series) string {
	n := len(c.Categories)
	yMax := c.YMax
	if yMax == 0 {
		for i := 0; i < n; i++ {
			sum := 0.0
			for _, s := range series {
				if i < len(s.Values) && !math.IsNaN(s.Values[i]) {
					sum += s.Values[i]
				}
			}
			yMax = math.Max(yMax, sum)
		}
		for _, t := range c.Thresholds {
			yMax = math.Max(yMax, t.Value)
		}
		yMax = niceMax(yMax)
	}
	var b strings.Builder
	c.open(&b, yMax, series)
	slot := plotW / math.Max(float64(n), 1)
	bw := math.Min(slot*0.7, 48)
	for i := 0; i < n; i++ {
		x := padL + slot*float64(i) + (slot-bw)/2
		base := 0.0
		fmt.Fprintf(&b, `<g class="pt"%s>`, c.key(i))
		for _, s := range series {
			if i >= len(s.Values) || math.IsNaN(s.Values[i]) || s.Values[i] == 0 {
				continue
			}
			v := s.Values[i]
			y0 := padT + plotH - (base+v)/yMax*plotH
			h := v / yMax * plotH
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s %s</title></rect>`,
				x, y0, bw, math.Max(h, 0.5), s.Color, esc(c.Categories[i]), esc(s.Name), c.fmtY(v))
			base += v
		}
		if base == 0 { // an empty bar still marks its category
			fmt.Fprintf(&b, `<rect class="empty" x="%.1f" y="%.1f" width="%.1f" height="1"><title>%s: none</title></rect>`, x, padT+plotH-1, bw, esc(c.Categories[i]))
		}
		b.WriteString(`</g>`)
	}
	if c.EdgeLabels {
		c.xLabels(&b, func(i int) float64 { return padL + slot*float64(i) })
	} else {
		c.xLabels(&b, func(i int) float64 { return padL + slot*float64(i) + slot/2 })
	}
	c.thresholds(&b, yMax)
	b.WriteString(`</svg>`)
	return b.String()
}

// Lines draws one polyline per series with a marker per value.
func Lines(c Chart, series []Series) string {
	n := len(c.Categories)
	yMax := c.YMax
	if yMax == 0 {
		for _, s := range series {
			for _, v := range s.Values {
				if !math.IsNaN(v) {
					yMax = math.Max(yMax, v)
				}
			}
		}
		for _, t := range c.Thresholds {
			yMax = math.Max(yMax, t.Value)
		}
		yMax = niceMax(yMax)
	}
	var b strings.Builder
	c.open(&b, yMax, series)
	slot := plotW / math.Max(float64(n), 1)
	cx := func(i int) float64 { return padL + slot*float64(i) + slot/2 }
	cy := func(v float64) float64 { return padT + plotH - v/yMax*plotH }
	c.thresholds(&b, yMax)
	for _, s := range series {
		var pts []string
		for i, v := range s.Values {
			if !math.IsNaN(v) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", cx(i), cy(v)))
			}
		}
		if len(pts) > 1 {
			fmt.Fprintf(&b, `<polyline class="line" fill="none" stroke="%s" points="%s"/>`, s.Color, strings.Join(pts, " "))
		}
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<g class="pt"%s>`, c.key(i))
		drawn := false
		for _, s := range series {
			if i < len(s.Values) && !math.IsNaN(s.Values[i]) {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s: %s %s</title></circle>`,
					cx(i), cy(s.Values[i]), s.Color, esc(c.Categories[i]), esc(s.Name), c.fmtY(s.Values[i]))
				drawn = true
			}
		}
		if !drawn { // the run is on the chart, with nothing to measure (e.g. no OCR'd page)
			fmt.Fprintf(&b, `<circle class="nodata" cx="%.1f" cy="%.1f" r="3.5"><title>%s: no data in this run</title></circle>`,
				cx(i), padT+plotH, esc(c.Categories[i]))
		}
		b.WriteString(`</g>`)
	}
	c.xLabels(&b, cx)
	b.WriteString(`</svg>`)
	return b.String()
}

// Histogram counts values into bins [edges[i], edges[i+1]) (the last bin
// includes its upper edge) and draws them as bars; marks are vertical
// lines at value positions (thresholds of project.yaml).
func Histogram(c Chart, values []float64, edges []float64, color string, marks []Threshold) string {
	counts := make([]float64, len(edges)-1)
	for _, v := range values {
		counts[binOf(v, edges)]++
	}
	return HistogramCounts(c, counts, edges, color, marks)
}

// HistogramCounts draws already counted bins.
func HistogramCounts(c Chart, counts []float64, edges []float64, color string, marks []Threshold) string {
	c.Categories = nil
	c.Keys = nil
	c.KeyAttr = "bin"
	c.EdgeLabels = true
	for i := range counts {
		c.Categories = append(c.Categories, human(edges[i]))
		c.Keys = append(c.Keys, fmt.Sprintf("%g-%g", edges[i], edges[i+1]))
	}
	inner := c
	inner.Thresholds = nil
	svg := Bars(inner, []Series{{Color: color, Values: counts}})
	// vertical marks: position by the bin the value falls in, interpolated
	n := float64(len(counts))
	slot := plotW / math.Max(n, 1)
	var m strings.Builder
	for _, t := range marks {
		i := binOf(t.Value, edges)
		frac := 0.0
		if w := edges[i+1] - edges[i]; w > 0 {
			frac = math.Min(math.Max((t.Value-edges[i])/w, 0), 1)
		}
		x := padL + slot*(float64(i)+frac)
		fmt.Fprintf(&m, `<line class="threshold" x1="%.1f" x2="%.1f" y1="%.0f" y2="%.0f"/><text class="threshold-label" x="%.1f" y="%.0f">%s</text>`,
			x, x, padT, padT+plotH, x+3, padT+10, esc(t.Label))
	}
	return strings.TrimSuffix(svg, `</svg>`) + m.String() + `</svg>`
}

func binOf(v float64, edges []float64) int {
	last := len(edges) - 2
	for i := 0; i <= last; i++ {
		if v < edges[i+1] {
			return i
		}
	}
	return last
}

// LogEdges returns bin edges 0, 1, 2, 5, 10, 20, 50, ... up to at least
// max: character counts span five orders of magnitude.
func LogEdges(maxV float64) []float64 {
	edges := []float64{0, 1}
	for step := 0; edges[len(edges)-1] <= maxV; step++ {
		last := edges[len(edges)-1]
		switch step % 3 {
		case 0:
			edges = append(edges, last*2)
		case 1:
			edges = append(edges, last*2.5)
		default:
			edges = append(edges, last*2)
		}
	}
	return edges
}

// LinearEdges returns n equal bins over [lo, hi].
func LinearEdges(lo, hi float64, n int) []float64 {
	out := make([]float64, n+1)
	for i := range out {
		out[i] = lo + (hi-lo)*float64(i)/float64(n)
	}
	return out
}

func niceMax(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func ticks(yMax float64) []float64 {
	step := niceMax(yMax / 5)
	var out []float64
	for t := 0.0; t <= yMax*1.0001; t += step {
		out = append(out, t)
	}
	return out
}

func human(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return trimZero(fmt.Sprintf("%.1f", v/1e6)) + "M"
	case a >= 1e3:
		return trimZero(fmt.Sprintf("%.1f", v/1e3)) + "k"
	case a == math.Trunc(a):
		return fmt.Sprintf("%.0f", v)
	default:
		return trimZero(fmt.Sprintf("%.2f", v))
	}
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
