package compiler

// DeferredRelation is where a previous run built a node (--defer): its
// parts as ref() returns them and its name as rendered SQL names it.
type DeferredRelation struct {
	Database, Schema, Identifier string
	Rendered                     string
}

// Defer returns a manifest whose refs to the nodes in rel (by unique_id)
// resolve to those relations, its models and tests compiled again; m is
// left as it is. Deferred nodes have no data version here, so their
// readers are never skipped as up to date.
func (m *Manifest) Defer(rel map[string]DeferredRelation) *Manifest {
	d := *m
	d.deferred = rel
	code, _ := d.compileAll() // compiled once already: no new mistakes
	return d.withCode(code)
}

// withCode is a copy of m whose nodes in code (unique_id → SQL) have that
// CompiledCode, each a new Node; the other nodes are shared.
func (m *Manifest) withCode(code map[string]string) *Manifest {
	c := *m
	c.Nodes = make(map[string]*Node, len(m.Nodes))
	for id, n := range m.Nodes {
		if sql, ok := code[id]; ok {
			nn := *n
			nn.CompiledCode = sql
			if n.builtin != nil {
				_, nn.TestFrom = c.builtinSQL(n)
			}
			n = &nn
		}
		c.Nodes[id] = n
	}
	// ByName must find the same nodes as Nodes (it found m's, with their
	// old CompiledCode).
	c.byName = c.sameNodes(m.byName)
	c.byPkg = make(map[string]map[string]*Node, len(m.byPkg))
	for p, keys := range m.byPkg {
		c.byPkg[p] = c.sameNodes(keys)
	}
	return &c
}

// Deferred is the relation a ref to id resolves to under Defer ("" when
// id is not deferred).
func (m *Manifest) Deferred(id string) string { return m.deferred[id].Rendered }

// sameNodes is a ref lookup (key → node) whose nodes are c's.
func (c *Manifest) sameNodes(keys map[string]*Node) map[string]*Node {
	out := make(map[string]*Node, len(keys))
	for k, n := range keys {
		if nn := c.Nodes[n.UniqueID]; nn != nil {
			n = nn
		}
		out[k] = n
	}
	return out
}
