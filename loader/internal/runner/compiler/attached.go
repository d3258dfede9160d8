package compiler

import (
	"regexp"
	"strings"
)

// attachedViews warns of each view model that reads, directly or through
// ephemeral models, a source in a database profiles.yml's attach: names.
// The runner attaches it for its own runs (executor.Attach), but the
// warehouse file does not keep an ATTACH: a plain DuckDB client (a
// notebook, the published read copy) fails on such a view with "Catalog
// ... does not exist" (DESIGN §11: the file must answer in any client).
// docket warns rather than building the view as a table: a table copies
// the attached data at each build, which the user may not want for a
// large attached database, and a view is what the project asked for; the
// warning names the one-word fix. The warning is at the view's
// materialized config, or its file when the default made it a view.
func (m *Manifest) attachedViews() {
	if m.Project == nil || len(m.Project.Target.Attach) == 0 {
		return
	}
	aliases := map[string]string{}
	for _, a := range m.Project.Target.Attach {
		aliases[strings.ToLower(a.Alias)] = a.Alias
	}
	for _, id := range SortedKeys(m.Nodes) {
		n := m.Nodes[id]
		if n.ResourceType != Model || n.Config.Materialized != "view" || n.Language == "python" {
			continue
		}
		src := m.attachedSource(id, aliases, map[string]bool{})
		named := ""
		if src == nil {
			if named = attachedNameIn(n.RawCode, aliases); named == "" {
				continue
			}
		}
		path, at := n.Path, Position{1, 1}
		_, own := n.modelCfg["materialized"]
		_, yml := n.ymlCfg["materialized"]
		if own || yml || len(m.folderPlaces(n, "materialized")) > 0 {
			path, at = m.configWhere(n, "materialized", n.KeyPos("materialized"))
		}
		var what, db string
		switch {
		case src == nil: // its SQL names alias.schema.table itself
			what, db = named, aliases[strings.ToLower(named[:strings.IndexByte(named, '.')])]
		case src.ResourceType == Model:
			what, db = "model "+src.Name, src.Database
		default:
			what, db = "source "+src.SourceName+"."+src.Name, src.Database
		}
		m.warn(path, at, "view %s reads %s from database %q, which profiles.yml's attach: attaches for docket's runs only: a DuckDB client opening the warehouse (or its read copy) without that ATTACH fails on this view; materialize it as a table (materialized='table') to keep it readable anywhere",
			n.Name, what, db)
	}
}

var threePartName = regexp.MustCompile(`(?i)(^|[^a-z0-9_."])("[^"]+"|[a-z_][a-z0-9_]*)\s*\.\s*("[^"]+"|[a-z_][a-z0-9_]*)\s*\.\s*("[^"]+"|[a-z_][a-z0-9_]*)`)

// attachedNameIn is the first database.schema.table name in sql (outside
// its strings and comments) whose database is an attached alias, written
// as lake.main.events (quotes dropped); "" when none.
func attachedNameIn(sql string, aliases map[string]string) string {
	code := strings.ReplaceAll(stripSQL(strings.ReplaceAll(sql, `"`, "\x01")), "\x01", `"`)
	for _, g := range threePartName.FindAllStringSubmatch(code, -1) {
		db := strings.Trim(g[2], `"`)
		if _, ok := aliases[strings.ToLower(db)]; ok {
			return db + "." + strings.Trim(g[3], `"`) + "." + strings.Trim(g[4], `"`)
		}
	}
	return ""
}

// attachedTarget is the attached database a model or seed builds into:
// its database config names a profiles.yml attach: entry that is not
// read_only, and it is a seed, a snapshot, or built as a table or an
// incremental. A
// view stays in the warehouse with the warning: a view stored in the
// attached file would name the warehouse's relations through a catalog
// only docket's session has, and DuckDB binds a view's names in its own
// catalog, so it would not resolve anywhere else.
func (m *Manifest) attachedTarget(n *Node) (string, bool) {
	if n.Config.Database == "" || m.Project == nil || strings.EqualFold(n.Config.Database, m.Database()) {
		return "", false
	}
	switch {
	case n.ResourceType == Model && (n.Config.Materialized == "table" || n.Config.Materialized == "incremental") && n.Language != "python":
	case n.ResourceType == Seed: // a table loaded from its CSV, as dbt-duckdb loads it there
	case n.ResourceType == Snapshot:
	default:
		return "", false
	}
	for _, a := range m.Project.Target.Attach {
		if strings.EqualFold(a.Alias, n.Config.Database) && !a.ReadOnly {
			return a.Alias, true
		}
	}
	return "", false
}

// attachedSource is a source in an attached database (or a model built
// there) that id reads,
// directly or through ephemeral models; nil when none.
func (m *Manifest) attachedSource(id string, aliases map[string]string, seen map[string]bool) *Node {
	for _, pid := range m.Parents[id] {
		if seen[pid] {
			continue
		}
		seen[pid] = true
		if s := m.Sources[pid]; s != nil {
			if _, ok := aliases[strings.ToLower(s.Database)]; ok {
				return s
			}
			continue
		}
		if p := m.Nodes[pid]; p != nil && p.ResourceType == Model && p.Database != "" {
			if _, ok := aliases[strings.ToLower(p.Database)]; ok {
				return p // a model built in the attached database
			}
		}
		if p := m.Nodes[pid]; p != nil && p.ResourceType == Model && p.Config.Materialized == "ephemeral" {
			if s := m.attachedSource(pid, aliases, seen); s != nil {
				return s
			}
		}
	}
	return nil
}

// isAttached: db is a database profiles.yml's attach: names.
func (m *Manifest) isAttached(db string) bool {
	if m.Project == nil {
		return false
	}
	for _, a := range m.Project.Target.Attach {
		if strings.EqualFold(a.Alias, db) {
			return true
		}
	}
	return false
}

// attachedReadOnly: db is attached read_only.
func (m *Manifest) attachedReadOnly(db string) bool {
	for _, a := range m.Project.Target.Attach {
		if strings.EqualFold(a.Alias, db) {
			return a.ReadOnly
		}
	}
	return false
}

// AttachedDB is the attached database node n is built in ("" the
// warehouse): the one place() gave it from attachedTarget, so the
// executor's schema creation, relation names and state recording read one
// decision (a source's database is where it is read, not built).
func (m *Manifest) AttachedDB(n *Node) string {
	if n.ResourceType == Source || n.Database == "" || strings.EqualFold(n.Database, m.Database()) {
		return ""
	}
	return n.Database
}
