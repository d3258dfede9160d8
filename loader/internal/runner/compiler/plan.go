package compiler

import "fmt"

// Plan decides what a command runs of the selected nodes (nil: all) and
// what each waits for: its executed ancestors; in build, a model also
// waits for its unit tests and the children of a tested node for its
// tests; in test, nothing waits. It reads only the manifest.
func (m *Manifest) Plan(command string, selected []string) (exec map[string]bool, deps map[string]map[string]bool, err error) {
	types, ok := commandTypes[command]
	if !ok {
		return nil, nil, fmt.Errorf("runner: unknown command %q", command)
	}
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	sel := selected
	if sel == nil {
		for id := range m.Nodes {
			sel = append(sel, id)
		}
	}
	exec = map[string]bool{}
	for _, id := range sel {
		n := m.Nodes[id]
		if n == nil || !want[n.ResourceType] || (n.ResourceType == Model && n.Config.Materialized == "ephemeral") {
			continue
		}
		exec[id] = true
	}
	// dependencies: executed ancestors
	deps = map[string]map[string]bool{}
	for id := range exec {
		deps[id] = map[string]bool{}
		n := m.Nodes[id]
		if (n.ResourceType == Test || n.ResourceType == UnitTest) && command == "test" {
			continue
		}
		from := id
		if n.ResourceType == UnitTest {
			// a unit test runs before its model, after the model's parents
			from = n.Unit.ModelNode.UniqueID
		}
		for a := range m.Ancestors(from) {
			if exec[a] && a != from {
				deps[id][a] = true
			}
		}
	}
	for id := range exec {
		// in build, a model waits for its unit tests (skipped when one fails)
		if n := m.Nodes[id]; n.ResourceType == UnitTest && exec[n.Unit.ModelNode.UniqueID] {
			deps[n.Unit.ModelNode.UniqueID][id] = true
		}
	}
	if command == "build" {
		// a model's children wait for the model's tests, unless that would
		// make a cycle (a test that also reads a descendant)
		reaches := func(from, to string) bool { // does from depend on to?
			seen := map[string]bool{}
			todo := []string{from}
			for len(todo) > 0 {
				cur := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				if cur == to {
					return true
				}
				for d := range deps[cur] {
					if !seen[d] {
						seen[d] = true
						todo = append(todo, d)
					}
				}
			}
			return false
		}
		for _, id := range SortedKeys(exec) {
			t := m.Nodes[id]
			if t.ResourceType != Test {
				continue
			}
			// A test guards the descendants of every node it reads (a
			// singular test that refs several models guards all of them).
			parents := t.DependsOn.Nodes
			if t.AttachedNode != "" {
				parents = []string{t.AttachedNode}
			}
			for _, attached := range parents {
				for _, c := range SortedKeys(m.Descendants(attached)) {
					if !exec[c] || c == id || m.Nodes[c].ResourceType == Test || m.Nodes[c].ResourceType == UnitTest || reaches(id, c) {
						continue
					}
					deps[c][id] = true
				}
			}
		}
	}
	return exec, deps, nil
}
