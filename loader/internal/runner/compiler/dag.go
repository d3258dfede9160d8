package compiler

import (
	"fmt"
	"sort"
	"strings"
)

// buildGraph fills DependsOn, Parents, Children and Order; it reports
// cycles between models.
func (m *Manifest) buildGraph() []Diagnostic {
	m.Parents, m.Children = map[string][]string{}, map[string][]string{}
	for _, id := range SortedKeys(m.Nodes) {
		m.nodeEdges(m.Nodes[id])
	}
	for _, id := range SortedKeys(m.Sources) {
		m.Parents[id] = []string{}
	}
	m.sourcesAfterProducers()
	for id := range m.Children {
		sort.Strings(m.Children[id])
	}
	if diags := m.cycles(); len(diags) > 0 {
		return diags
	}
	m.Order = m.topo(func(n *Node) bool { return n.ResourceType == Model || n.ResourceType == Seed })
	return nil
}

// nodeEdges fills n's DependsOn (from its refs and sources, unless a
// generic test that has them already) and its Parents and Children edges.
func (m *Manifest) nodeEdges(n *Node) {
	if n.TestMetadata == nil { // generic tests already have deps
		set := map[string]bool{}
		for _, r := range n.Refs {
			if t := m.refTarget(r, n); t != nil {
				set[t.UniqueID] = true
			}
		}
		for _, s := range n.Sources {
			if t := m.findSource(s[0], s[1], n); t != nil {
				set[t.UniqueID] = true
			}
		}
		n.DependsOn.Nodes = SortedKeys(set)
	}
	if n.DependsOn.Nodes == nil {
		n.DependsOn.Nodes = []string{}
	}
	n.DependsOn.Macros = m.directMacros(n)
	if n.Refs == nil {
		n.Refs = [][]string{}
	}
	if n.Sources == nil {
		n.Sources = [][]string{}
	}
	m.Parents[n.UniqueID] = n.DependsOn.Nodes
	for _, p := range n.DependsOn.Nodes {
		m.Children[p] = append(m.Children[p], n.UniqueID)
	}
}

// cycles reports each dependency cycle once (DFS, white/grey/black), at
// the ref that closes it in the node with the smallest id.
func (m *Manifest) cycles() []Diagnostic {
	var diags []Diagnostic
	color := map[string]int{}
	var stack []string
	reported := map[string]bool{}
	var visit func(id string)
	visit = func(id string) {
		color[id] = 1
		stack = append(stack, id)
		for _, p := range m.Parents[id] {
			if m.Nodes[p] == nil {
				continue
			}
			switch color[p] {
			case 0:
				visit(p)
			case 1:
				// cycle: p ... id -> p (edges point to parents)
				i := len(stack) - 1
				for stack[i] != p {
					i--
				}
				cyc := rotateToSmallest(append([]string(nil), stack[i:]...))
				if key := strings.Join(cyc, ","); !reported[key] {
					reported[key] = true
					diags = append(diags, m.cycleDiagnostic(cyc))
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[id] = 2
	}
	for _, id := range SortedKeys(m.Nodes) {
		if color[id] == 0 {
			visit(id)
		}
	}
	return diags
}

// rotateToSmallest rotates a cycle to start at its smallest id, for a
// stable report.
func rotateToSmallest(cyc []string) []string {
	minI := 0
	for j := range cyc {
		if cyc[j] < cyc[minI] {
			minI = j
		}
	}
	return append(cyc[minI:], cyc[:minI]...)
}

// cycleDiagnostic names the cycle's nodes, at the first node's ref to the
// next one.
func (m *Manifest) cycleDiagnostic(cyc []string) Diagnostic {
	first := m.Nodes[cyc[0]]
	next := m.Nodes[cyc[1%len(cyc)]]
	names := []string{}
	for _, c := range cyc {
		names = append(names, m.Nodes[c].Name)
	}
	names = append(names, first.Name)
	at := first.refPos[next.Name]
	if at == (Position{}) {
		at = Position{1, 1}
	}
	return Diagnostic{Path: first.Path, Line: at.Line, Col: at.Col, Msg: "dependency cycle: " + strings.Join(names, " -> ")}
}

// sourcesAfterProducers makes a source whose relation a seed, model or
// snapshot of this project builds (jaffle-shop's raw_* sources are its own
// seeds, loaded in the same `build`) wait for that node: without the edge
// a thread could read the source before the seed has created it. The
// edge is in the graph the scheduler and selectors walk (parent_map), not
// in the source's depends_on, which dbt leaves empty. A producer that
// itself reads the source gets no edge (no cycle).
func (m *Manifest) sourcesAfterProducers() {
	producers := map[string]string{}
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		if n.Relation != "" && (n.ResourceType == Model || n.ResourceType == Seed || n.ResourceType == Snapshot) {
			producers[strings.ToLower(n.Relation)] = id
		}
	}
	for _, sid := range SortedKeys(m.Sources) {
		pid, ok := producers[strings.ToLower(m.Sources[sid].Relation)]
		if !ok || m.walk(pid, m.Parents)[sid] {
			continue
		}
		m.Parents[sid] = []string{pid}
		m.Children[pid] = append(m.Children[pid], sid)
	}
}

// topo orders the nodes accepted by keep: parents first, ties by name.
func (m *Manifest) topo(keep func(*Node) bool) []string {
	indeg := map[string]int{}
	for id, n := range m.Nodes {
		if !keep(n) {
			continue
		}
		indeg[id] += 0
		for _, p := range m.Parents[id] {
			if pn := m.Nodes[p]; pn != nil && keep(pn) {
				indeg[id]++
			}
		}
	}
	var ready, out []string
	for id, d := range indeg {
		if d == 0 {
			ready = append(ready, id)
		}
	}
	for len(ready) > 0 {
		sort.Strings(ready)
		id := ready[0]
		ready = ready[1:]
		out = append(out, id)
		for _, c := range m.Children[id] {
			if _, ok := indeg[c]; ok {
				indeg[c]--
				if indeg[c] == 0 {
					ready = append(ready, c)
				}
			}
		}
	}
	return out
}

// Ancestors returns every node upstream of id (sources included).
func (m *Manifest) Ancestors(id string) map[string]bool {
	return m.walk(id, m.Parents)
}

// Descendants returns every node downstream of id.
func (m *Manifest) Descendants(id string) map[string]bool {
	return m.walk(id, m.Children)
}

func (m *Manifest) walk(id string, edges map[string][]string) map[string]bool {
	out := map[string]bool{}
	todo := []string{id}
	for len(todo) > 0 {
		cur := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, nx := range edges[cur] {
			if !out[nx] {
				out[nx] = true
				todo = append(todo, nx)
			}
		}
	}
	return out
}

// Node returns a model, seed, test or source by unique id.
func (m *Manifest) Node(id string) *Node {
	if n := m.Nodes[id]; n != nil {
		return n
	}
	if n := m.Sources[id]; n != nil || !strings.HasPrefix(id, Operation+".") {
		return n
	}
	for _, start := range []bool{true, false} {
		for _, h := range m.RunHooks(start) {
			if h.UniqueID == id {
				return h
			}
		}
	}
	return nil
}

// ByName returns a model or seed by name.
func (m *Manifest) ByName(name string) *Node { return m.byName[name] }

func (m *Manifest) String() string {
	return fmt.Sprintf("manifest %s: %d nodes, %d sources", m.Name, len(m.Nodes), len(m.Sources))
}
