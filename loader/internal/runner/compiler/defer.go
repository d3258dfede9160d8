package compiler

// Defer returns a manifest whose refs to the nodes in rel (unique_id →
// relation, as rendered SQL names it) resolve to those relations, its
// models and tests compiled again; m is left as it is. Deferred nodes
// have no data version here, so their readers are never skipped as up to
// date.
func (m *Manifest) Defer(rel map[string]string) *Manifest {
	d := *m
	d.deferred = rel
	d.Nodes = make(map[string]*Node, len(m.Nodes))
	for id, n := range m.Nodes {
		if (n.ResourceType == Model || n.ResourceType == Test) && n.rendered != "" {
			c := *n
			c.CompiledCode = d.Finish(&c, n.rendered, map[string]bool{})
			n = &c
		}
		d.Nodes[id] = n
	}
	return &d
}

// Deferred is the relation a ref to id resolves to under Defer ("" when
// id is not deferred).
func (m *Manifest) Deferred(id string) string { return m.deferred[id] }
