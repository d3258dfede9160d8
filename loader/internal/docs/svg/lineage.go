// Package svg draws the docs site's pictures as SVG text: the lineage
// graph (laid out here, left to right by layer) and the health charts.
// The layout and charts are small enough that a plotting or graph-layout
// dependency (and a JavaScript one in the page) would weigh more than the
// code; the site must open from the file system with nothing fetched.
package svg

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
)

// GraphNode is one node of the lineage graph.
type GraphNode struct {
	ID      string
	Label   string
	Kind    string // source | model | seed | test | snapshot
	Group   string // schema (layer)
	Href    string
	Title   string // tooltip
	Status  string // last result: pass | fail | error | success | ... (colours the border)
	Parents []string
}

// Layout is where each node goes.
type Layout struct {
	Rank  map[string]int
	X, Y  map[string]float64
	W, H  float64
	Ranks [][]string // node ids per column, top to bottom
}

// Geometry of the lineage picture.
const (
	nodeW  = 230.0
	nodeH  = 24.0
	colGap = 90.0
	rowGap = 8.0
	margin = 20.0
	header = 30.0
)

// LayoutGraph assigns each node a column (its longest path from a node
// without parents, so every edge points right) and orders each column by
// the mean position of the node's parents (one barycentre sweep keeps most
// edges short and uncrossed).
func LayoutGraph(nodes []GraphNode) Layout {
	byID := map[string]*GraphNode{}
	for i := range nodes {
		byID[nodes[i].ID] = &nodes[i]
	}
	rank := map[string]int{}
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(id string) int
	visit = func(id string) int {
		switch state[id] {
		case 2:
			return rank[id]
		case 1:
			return 0 // a cycle: the runner refuses them, draw it anyway
		}
		state[id] = 1
		r := 0
		for _, p := range byID[id].Parents {
			if byID[p] != nil {
				r = max(r, visit(p)+1)
			}
		}
		state[id], rank[id] = 2, r
		return r
	}
	maxRank := 0
	for i := range nodes {
		maxRank = max(maxRank, visit(nodes[i].ID))
	}
	cols := make([][]string, maxRank+1)
	for i := range nodes {
		r := rank[nodes[i].ID]
		cols[r] = append(cols[r], nodes[i].ID)
	}
	pos := map[string]float64{}
	for c, ids := range cols {
		key := map[string]float64{}
		for _, id := range ids {
			n := byID[id]
			sum, k := 0.0, 0
			for _, p := range n.Parents {
				if v, ok := pos[p]; ok {
					sum += v
					k++
				}
			}
			if k > 0 {
				key[id] = sum / float64(k)
			} else {
				key[id] = math.Inf(-1)
			}
		}
		sort.SliceStable(ids, func(i, j int) bool {
			a, b := byID[ids[i]], byID[ids[j]]
			if key[ids[i]] != key[ids[j]] {
				return key[ids[i]] < key[ids[j]]
			}
			if a.Group != b.Group {
				return a.Group < b.Group
			}
			return a.Label < b.Label
		})
		for i, id := range ids {
			pos[id] = float64(i)
		}
		cols[c] = ids
	}
	l := Layout{Rank: rank, X: map[string]float64{}, Y: map[string]float64{}, Ranks: cols}
	tallest := 0
	for c, ids := range cols {
		tallest = max(tallest, len(ids))
		for i, id := range ids {
			l.X[id] = margin + float64(c)*(nodeW+colGap)
			l.Y[id] = margin + header + float64(i)*(nodeH+rowGap)
		}
	}
	l.W = 2*margin + float64(len(cols))*(nodeW+colGap) - colGap
	l.H = 2*margin + header + float64(tallest)*(nodeH+rowGap)
	return l
}

// Lineage draws the graph. Every node is an <a class="node"> linking to
// its page; edges are curves from parent to child.
func Lineage(nodes []GraphNode) string {
	l := LayoutGraph(nodes)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" id="lineage" class="lineage" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" role="img" aria-label="lineage graph">`,
		l.W, l.H, l.W, l.H)
	b.WriteString(`<g class="viewport">`)
	for c, ids := range l.Ranks {
		groups := map[string]bool{}
		var names []string
		for _, id := range ids {
			for _, n := range nodes {
				if n.ID == id && !groups[n.Group] {
					groups[n.Group] = true
					names = append(names, n.Group)
				}
			}
		}
		sort.Strings(names)
		fmt.Fprintf(&b, `<text class="col-head" x="%.1f" y="%.1f">%s</text>`, margin+float64(c)*(nodeW+colGap), margin+14, esc(strings.Join(names, " · ")))
	}
	b.WriteString(`<g class="edges">`)
	for _, n := range nodes {
		for _, p := range n.Parents {
			if _, ok := l.X[p]; !ok {
				continue
			}
			x1, y1 := l.X[p]+nodeW, l.Y[p]+nodeH/2
			x2, y2 := l.X[n.ID], l.Y[n.ID]+nodeH/2
			dx := (x2 - x1) / 2
			fmt.Fprintf(&b, `<path class="edge" data-from="%s" data-to="%s" d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f"/>`,
				esc(p), esc(n.ID), x1, y1, x1+dx, y1, x2-dx, y2, x2, y2)
		}
	}
	b.WriteString(`</g>`)
	for _, n := range nodes {
		x, y := l.X[n.ID], l.Y[n.ID]
		cls := "node kind-" + n.Kind + " layer-" + safeClass(n.Group)
		if n.Status != "" {
			cls += " st-" + safeClass(n.Status)
		}
		fmt.Fprintf(&b, `<a class="%s" href="%s" data-id="%s"><title>%s</title><rect x="%.1f" y="%.1f" width="%.0f" height="%.0f" rx="4"/><text x="%.1f" y="%.1f">%s</text></a>`,
			cls, esc(n.Href), esc(n.ID), esc(n.Title), x, y, nodeW, nodeH, x+8, y+nodeH/2+4, esc(clip(n.Label, 34)))
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func esc(s string) string { return html.EscapeString(s) }

func safeClass(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, s)
}
