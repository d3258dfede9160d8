package compiler

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Select resolves dbt-style selectors. Each argument may hold several
// space-separated selectors (union); a comma inside one selector means
// intersection. An atom is a model/seed/test name or glob, a folder (layer)
// Name, path:<prefix>, tag:<tag>, source:<src>[.<table>], resource_type:,
// test_name:, test_type:generic|singular|unit, config.KEY:VALUE, with optional
// '+' before (ancestors) and after (descendants), "N+" / "+N" to stop after
// N levels, or a leading '@' (descendants and all their ancestors). Empty
// include selects all.
// Only nodes of the given resource types are returned, sorted.
func (m *Manifest) Select(include, exclude []string, types ...string) ([]string, error) {
	return m.SelectIndirect(include, exclude, "eager", types...)
}

// IndirectModes are dbt's --indirect-selection values: how tests are
// picked up from the nodes they test.
var IndirectModes = []string{"eager", "cautious", "buildable", "empty"}

// SelectIndirect is Select with dbt's --indirect-selection: eager (a test
// of any selected node), cautious (all of its parents selected), buildable
// (all parents selected or upstream of the selection) or empty (no test
// unless selected itself).
func (m *Manifest) SelectIndirect(include, exclude []string, indirect string, types ...string) ([]string, error) {
	switch indirect {
	case "", "eager", "cautious", "buildable", "empty":
	default:
		return nil, fmt.Errorf("--indirect-selection must be eager, cautious, buildable or empty (got %q)", indirect)
	}
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	all := map[string]bool{}
	for id, n := range m.Nodes {
		if len(want) == 0 || want[n.ResourceType] {
			all[id] = true
		}
	}
	if len(want) == 0 || want[Source] {
		for id := range m.Sources {
			all[id] = true
		}
	}
	if want[Exposure] {
		for _, e := range m.exposureRefs() {
			all[e.id] = true
		}
	}
	var sel map[string]bool
	inc := splitSelectors(include)
	if len(inc) == 0 {
		sel = all
	} else {
		s, err := m.union(inc)
		if err != nil {
			return nil, err
		}
		sel = s
		m.addTests(sel, indirect)
	}
	if exc := splitSelectors(exclude); len(exc) > 0 {
		x, err := m.union(exc)
		if err != nil {
			return nil, err
		}
		m.addTests(x, "eager") // excluding a node excludes its tests
		for id := range x {
			delete(sel, id)
		}
	}
	return m.keepTypes(sel, types), nil
}

// keepTypes is the selected nodes of the given resource types (all when
// none is given), sorted.
func (m *Manifest) keepTypes(sel map[string]bool, types []string) []string {
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	var out []string
	for id := range sel {
		n := m.Nodes[id]
		if n == nil {
			n = m.Sources[id]
		}
		if n != nil && (len(want) == 0 || want[n.ResourceType]) || n == nil && want[Exposure] && m.IsExposure(id) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// addTests adds the tests of selected nodes (indirect selection).
func (m *Manifest) addTests(sel map[string]bool, mode string) {
	if mode == "empty" {
		return
	}
	var upstream map[string]bool
	if mode == "buildable" {
		upstream = map[string]bool{}
		for id := range sel {
			for a := range m.Ancestors(id) {
				upstream[a] = true
			}
		}
	}
	var add []string
	for id, n := range m.Nodes {
		if (n.ResourceType != Test && n.ResourceType != UnitTest) || sel[id] {
			continue
		}
		anySel, allOK := false, true
		for _, p := range n.DependsOn.Nodes {
			if sel[p] {
				anySel = true
			} else if !(mode == "buildable" && upstream[p]) {
				allOK = false
			}
		}
		switch mode {
		case "", "eager":
			if anySel {
				add = append(add, id)
			}
		default:
			if anySel && allOK {
				add = append(add, id)
			}
		}
	}
	for _, id := range add {
		sel[id] = true
	}
}

func splitSelectors(args []string) []string {
	var out []string
	for _, a := range args {
		out = append(out, strings.Fields(a)...)
	}
	return out
}

func (m *Manifest) union(sels []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, s := range sels {
		var acc map[string]bool
		for i, part := range strings.Split(s, ",") {
			set, err := m.atom(part)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				acc = set
				continue
			}
			for id := range acc {
				if !set[id] {
					delete(acc, id)
				}
			}
		}
		for id := range acc {
			out[id] = true
		}
	}
	return out, nil
}

// graphOps reads dbt's graph operators around a selector: "+x" / "x+"
// (every ancestor / descendant), "2+x" / "x+1" (that many levels) and
// "@x" (x, its descendants and all of their ancestors). Depth -1 is
// unlimited, 0 none.
var graphOpRe = regexp.MustCompile(`^(@|(\d*)\+)?(.*?)(\+(\d*))?$`)

func graphOps(a string) (core string, up, down int, at bool) {
	g := graphOpRe.FindStringSubmatch(a)
	depth := func(op, n string) int {
		if op == "" {
			return 0
		}
		if n == "" {
			return -1
		}
		d, _ := strconv.Atoi(n)
		return d
	}
	core, at = g[3], g[1] == "@"
	if !at {
		up = depth(g[1], g[2])
	}
	down = depth(g[4], g[5])
	return
}

// walkDepth is walk limited to depth levels (-1: all).
func (m *Manifest) walkDepth(id string, edges map[string][]string, depth int) map[string]bool {
	if depth < 0 {
		return m.walk(id, edges)
	}
	out := map[string]bool{}
	level := []string{id}
	for d := 0; d < depth && len(level) > 0; d++ {
		var next []string
		for _, cur := range level {
			for _, nx := range edges[cur] {
				if !out[nx] {
					out[nx] = true
					next = append(next, nx)
				}
			}
		}
		level = next
	}
	return out
}

// configMatches is dbt's config.KEY:VALUE: the node's config (as
// manifest.json has it) holds VALUE at KEY, or in the list at KEY.
func (m *Manifest) configMatches(n *Node, key, val string) bool {
	if n.ResourceType == Source {
		return false
	}
	switch x := configDoc(n)[key].(type) {
	case []string:
		for _, s := range x {
			if s == val {
				return true
			}
		}
	case nil:
		return false
	default:
		return fmt.Sprint(x) == val
	}
	return false
}

func (m *Manifest) atom(a string) (map[string]bool, error) {
	a, up, down, at := graphOps(a)
	if a == "" {
		return nil, fmt.Errorf("empty selector")
	}
	method, val, hasMethod := strings.Cut(a, ":")
	if !hasMethod {
		method, val = "", a
	}
	if method == "exposure" {
		return m.exposureAtom(val, up, at)
	}
	if method == "resource_type" && val == Exposure {
		out := map[string]bool{}
		for _, e := range m.exposureRefs() {
			out[e.id] = true
		}
		return out, nil
	}
	match, err := m.selectorMethod(method, val)
	if err != nil {
		return nil, err
	}
	base := map[string]bool{}
	for id, n := range m.Nodes {
		if match(n) {
			base[id] = true
		}
	}
	for id, n := range m.Sources {
		if match(n) {
			base[id] = true
		}
	}
	return m.withGraphOps(base, up, down, at), nil
}

// exposureAtom is dbt's exposure:NAME (a glob; '*' every exposure) with
// its graph operators. An exposure is a leaf docket does not run, so
// what a command runs are its parents: +exposure:x (or @exposure:x)
// is the nodes and sources its depends_on names and their ancestors
// (N+exposure:x, N-1 levels of them), and exposure:x alone runs
// nothing, as in dbt. The set holds the exposure's own id too, which
// keepTypes keeps only for a caller asking for exposures (docket ls). The method was an error, so a project's
// "dbt ls -s +exposure:page" (what breaks this dashboard) did not run.
func (m *Manifest) exposureAtom(val string, up int, at bool) (map[string]bool, error) {
	base, own := map[string]bool{}, map[string]bool{}
	for _, e := range m.exposureRefs() {
		if ok, _ := path.Match(val, e.name); !ok && e.name != val {
			continue
		}
		own[e.id] = true // listed by docket ls, dropped for a run
		for _, id := range e.parents {
			base[id] = true
		}
	}
	if len(own) == 0 {
		return nil, fmt.Errorf("exposure:%s: the project has no exposure of that name", val)
	}
	switch {
	case at || up < 0:
		up = -1
	case up == 0:
		return own, nil
	default:
		up--
	}
	out := m.withGraphOps(base, up, 0, false)
	for id := range own {
		out[id] = true
	}
	return out, nil
}

// selectorMethod is the test a selector method:value puts to each node
// and source ("" is a name, folder or fqn).
func (m *Manifest) selectorMethod(method, val string) (func(*Node) bool, error) {
	if key, ok := strings.CutPrefix(method, "config."); ok {
		return func(n *Node) bool { return m.configMatches(n, key, val) }, nil
	}
	switch method {
	case "config":
		return func(*Node) bool { return false }, nil
	case "test_type":
		if val != "generic" && val != "singular" && val != "data" && val != "unit" {
			return nil, fmt.Errorf("test_type: takes generic, singular or unit (got %q)", val)
		}
		return func(n *Node) bool {
			if n.ResourceType == UnitTest || n.ResourceType != Test {
				return n.ResourceType == UnitTest && val == "unit"
			}
			return (val == "generic") == (n.TestMetadata != nil) && val != "unit"
		}, nil
	case "", "fqn":
		return func(n *Node) bool {
			if n.ResourceType == Source {
				return false
			}
			ok, _ := path.Match(val, n.Name)
			return ok || n.Name == val || (n.ResourceType == Model && n.Schema == val) || strings.Join(n.FQN[1:], ".") == val || versionSelected(n, val) || fqnPrefix(n.FQN, val) || len(n.FQN) > 1 && fqnPrefix(n.FQN[1:], val)
		}, nil
	case "version":
		if val != "latest" && val != "prerelease" && val != "old" && val != "none" {
			return nil, fmt.Errorf("version: takes latest, prerelease, old or none (got %q)", val)
		}
		return func(n *Node) bool { return n.ResourceType == Model && versionState(n) == val }, nil
	case "path":
		val = strings.TrimSuffix(val, "/")
		return func(n *Node) bool {
			return n.ResourceType != Source && (n.Path == val || strings.HasPrefix(n.Path, val+"/"))
		}, nil
	case "tag":
		return func(n *Node) bool { return slices.Contains(n.Tags, val) }, nil
	case "group": // dbt's GroupSelectorMethod: fnmatch on config.group
		return func(n *Node) bool {
			ok, _ := path.Match(val, n.Config.Group)
			return n.Config.Group != "" && ok
		}, nil
	case "source":
		src, tbl, _ := strings.Cut(val, ".")
		return func(n *Node) bool {
			return n.ResourceType == Source && n.SourceName == src && (tbl == "" || tbl == n.Name || tbl == "*")
		}, nil
	case "file":
		return func(n *Node) bool {
			ok, _ := path.Match(val, path.Base(n.Path))
			return n.ResourceType != Source && n.Path != "" && (ok || n.Path == val || strings.TrimSuffix(path.Base(n.Path), path.Ext(n.Path)) == val)
		}, nil
	case "package":
		return func(n *Node) bool { return n.PackageName == val || (val == "this" && n.PackageName == m.Name) }, nil
	case "resource_type":
		return func(n *Node) bool { return n.ResourceType == val }, nil
	case "test_name":
		return func(n *Node) bool { return n.TestMetadata != nil && n.TestMetadata.Name == val }, nil
	}
	return nil, fmt.Errorf("unknown selector method %q (use a name, a folder, fqn:, path:, file:, package:, tag:, group:, source:, exposure:, resource_type:, test_name:, test_type:, version:, config.KEY:)", method)
}

// withGraphOps adds to base the ancestors (up levels; -1 all), the
// descendants (down levels) and, with at (@), every descendant's
// ancestors.
func (m *Manifest) withGraphOps(base map[string]bool, up, down int, at bool) map[string]bool {
	out := map[string]bool{}
	var exps []exposureRef // the project's exposures, read once for every base node
	if down != 0 || at {
		exps = m.exposureRefs()
	}
	for id := range base {
		out[id] = true
		if up != 0 {
			for a := range m.walkDepth(id, m.Parents, up) {
				out[a] = true
			}
		}
		if down != 0 || at {
			depth := down
			if at {
				depth = -1
			}
			for d := range m.walkDepth(id, m.Children, depth) {
				out[d] = true
				if at {
					for a := range m.Ancestors(d) {
						out[a] = true
					}
				}
			}
			m.addExposures(out, exps, id, depth)
		}
	}
	return out
}

// fqnPrefix is dbt's is_selected_node past the leaf checks: the
// selector's dotted parts, up to a first one with a glob, begin the
// node's fqn: "pkg" is every node of package pkg, "pkg.marts" its marts
// folder, "pkg.marts.*" too. dbt's QualifiedNameSelectorMethod tries the
// fqn and the fqn without its project (or package): "marts" is the marts
// folder of every project.
func fqnPrefix(fqn []string, sel string) bool {
	if len(fqn) == 0 {
		return false
	}
	parts := strings.Split(sel, ".")
	if len(parts) > len(fqn) {
		return false
	}
	for i, p := range parts {
		if strings.ContainsAny(p, "*?[]") {
			ok, _ := path.Match(strings.Join(parts[i:], "."), strings.Join(fqn[i:], "."))
			return ok
		}
		if fqn[i] != p {
			return false
		}
	}
	return true
}
