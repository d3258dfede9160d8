package svg

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

func TestLayoutEdgesPointRight(t *testing.T) {
	nodes := []GraphNode{
		{ID: "src", Kind: "source"},
		{ID: "stg", Kind: "model", Parents: []string{"src"}},
		{ID: "a", Kind: "model", Parents: []string{"stg"}},
		{ID: "b", Kind: "model", Parents: []string{"stg", "a"}},
		{ID: "t", Kind: "test", Parents: []string{"b"}},
		{ID: "seed", Kind: "seed"},
		{ID: "c", Kind: "model", Parents: []string{"seed", "a"}},
		{ID: "loop1", Kind: "model", Parents: []string{"loop2"}},
		{ID: "loop2", Kind: "model", Parents: []string{"loop1"}},
	}
	l := LayoutGraph(nodes)
	want := map[string]int{"src": 0, "seed": 0, "stg": 1, "a": 2, "b": 3, "c": 3, "t": 4}
	for id, r := range want {
		if l.Rank[id] != r {
			t.Errorf("rank of %s = %d, want %d", id, l.Rank[id], r)
		}
	}
	for _, n := range nodes {
		for _, p := range n.Parents {
			if l.X[p] >= l.X[n.ID] && !strings.HasPrefix(n.ID, "loop") {
				t.Errorf("edge %s -> %s points left", p, n.ID)
			}
		}
	}
	// no two nodes overlap
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			a, b := nodes[i].ID, nodes[j].ID
			if l.X[a] == l.X[b] && math.Abs(l.Y[a]-l.Y[b]) < nodeH {
				t.Errorf("%s and %s overlap", a, b)
			}
		}
	}
	s := Lineage(nodes)
	if got := strings.Count(s, `<a class="node`); got != len(nodes) {
		t.Errorf("%d nodes drawn, want %d", got, len(nodes))
	}
	if got := strings.Count(s, `class="edge"`); got != 9 {
		t.Errorf("%d edges drawn, want 9", got)
	}
}

func TestChartsHaveAPointPerCategory(t *testing.T) {
	c := Chart{ID: "x", Categories: []string{"r1", "r2", "r3"}, Keys: []string{"a", "b", "c"}, KeyAttr: "run", Percent: true, YMax: 1,
		Thresholds: []Threshold{{Value: 0.5, Label: "min"}}}
	line := Lines(c, []Series{{Name: "s", Color: "#000", Values: []float64{0.9, math.NaN(), 0.4}}})
	runs := regexp.MustCompile(`data-run="([abc])"`).FindAllStringSubmatch(line, -1)
	if len(runs) != 3 || strings.Count(line, "<circle") != 3 || strings.Count(line, `class="nodata"`) != 1 {
		t.Errorf("line chart: %d runs, %d circles:\n%s", len(runs), strings.Count(line, "<circle"), line)
	}
	if !strings.Contains(line, `class="threshold"`) {
		t.Error("threshold not drawn")
	}
	bars := Bars(c, []Series{{Name: "ok", Color: "#0f0", Values: []float64{3, 0, 1}}, {Name: "bad", Color: "#f00", Values: []float64{1, 0, 0}}})
	if n := strings.Count(bars, "<rect x="); n != 3+2 { // 3 segments + 2 legend boxes
		t.Errorf("bars: %d rects:\n%s", n, bars)
	}
	if !strings.Contains(bars, `class="empty"`) {
		t.Error("an empty run has no marker")
	}
}

func TestHistogramBins(t *testing.T) {
	edges := LogEdges(1200)
	if edges[0] != 0 || edges[1] != 1 || edges[len(edges)-1] <= 1200 {
		t.Fatalf("edges %v", edges)
	}
	for i := 1; i < len(edges); i++ {
		if edges[i] <= edges[i-1] {
			t.Fatalf("edges not increasing: %v", edges)
		}
	}
	vals := []float64{0, 0.5, 1, 3, 1200, 5000}
	counts := make([]int, len(edges)-1)
	for _, v := range vals {
		counts[binOf(v, edges)]++
	}
	if counts[0] != 2 || counts[1] != 1 || counts[len(counts)-1] != 2 {
		t.Errorf("counts %v over %v", counts, edges)
	}
	h := Histogram(Chart{ID: "h"}, vals, edges, "#00f", []Threshold{{Value: 16, Label: "min 16"}})
	if strings.Count(h, `data-bin=`) != len(edges)-1 || !strings.Contains(h, "min 16") {
		t.Errorf("histogram:\n%s", h)
	}
}
