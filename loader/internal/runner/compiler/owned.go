package compiler

import (
	"fmt"
	"strings"
)

// ownedClash reports a node whose relation is one the loader owns
// (ParseOptions.Owned: the warehouse's landed tables, which the CLI passes
// and TestLoaderOwnedMatchesWarehouse checks). A model, seed or snapshot
// landing on one would replace landed data that no build can recreate.
func (m *Manifest) ownedClash(n *Node) *Diagnostic {
	if n.ResourceType != Model && n.ResourceType != Seed && n.ResourceType != "snapshot" {
		return nil
	}
	if n.ResourceType == Model && n.Config.Materialized == "ephemeral" {
		return nil
	}
	if n.Database != "" && n.Database != m.Database() {
		return nil // another attached database
	}
	key := strings.ToLower(n.Schema + "." + n.Alias)
	if key == StateTable || key == DeltaTable {
		at := n.ConfigPos
		if at == (Position{}) {
			at = Position{1, 1}
		}
		return &Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(
			"%s %s would replace %s, where the runner records what each node was built from: rename the %s, or give it another schema or alias",
			n.ResourceType, n.Name, key, n.ResourceType)}
	}
	if !m.Owned[key] {
		return nil
	}
	at := n.ConfigPos
	if at == (Position{}) {
		at = Position{1, 1}
	}
	return &Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(
		"%s %s would replace %s, which `docket load` owns (landed data no build can recreate): rename the %s, or give it another schema or alias",
		n.ResourceType, n.Name, key, n.ResourceType)}
}
