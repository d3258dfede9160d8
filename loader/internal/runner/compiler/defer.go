package compiler

// Defer makes refs to the nodes in rel (unique_id → relation, as
// rendered SQL names it) resolve to those relations, and compiles every
// model and test again. Deferred nodes have no data version here, so their
// readers are never skipped as up to date.
func (m *Manifest) Defer(rel map[string]string) {
	m.deferred = rel
	for _, n := range m.Nodes {
		if (n.ResourceType == Model || n.ResourceType == Test) && n.rendered != "" {
			n.CompiledCode = m.Finish(n, n.rendered, map[string]bool{})
		}
	}
}

// Deferred is the relation a ref to id resolves to under Defer ("" when
// id is not deferred).
func (m *Manifest) Deferred(id string) string { return m.deferred[id] }
