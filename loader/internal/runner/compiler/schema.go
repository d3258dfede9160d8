package compiler

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// isDBT reports whether the project has a dbt_project.yml: then schemas
// follow dbt-duckdb (target schema, custom schema as <target>_<custom>);
// a docket project keeps folder = schema (staging, curated, seeds, ...).
func (m *Manifest) isDBT() bool { return m.Project.DBT != nil }

// defaultSchema is the built-in generate_schema_name.
func (m *Manifest) defaultSchema(n *Node, custom string) string {
	custom = strings.TrimSpace(custom)
	if m.isDBT() {
		if custom == "" {
			return m.Target().Schema
		}
		return m.Target().Schema + "_" + custom
	}
	if custom != "" {
		return custom
	}
	if n.layer != "" {
		return n.layer
	}
	return "main"
}

func (m *Manifest) Target() targetInfo {
	t := m.Project.Target
	if t.Name == "" {
		t.Name = "dev"
	}
	if t.Schema == "" {
		t.Schema = "main"
	}
	return targetInfo{Name: t.Name, Schema: t.Schema, Profile: t.ProfileName}
}

type targetInfo struct{ Name, Schema, Profile string }

// nodeMap is the `node` a generate_*_name macro receives.
func nodeMap(n *Node) map[string]any {
	return map[string]any{"resource_type": n.ResourceType, "name": n.Name, "unique_id": n.UniqueID,
		"package_name": n.PackageName, "fqn": toAny(n.FQN), "path": n.Path, "original_file_path": n.Path,
		"config": map[string]any{"schema": nilIfEmpty(n.Config.Schema), "alias": nilIfEmpty(n.Config.Alias),
			"materialized": n.Config.Materialized, "tags": toAny(n.Config.Tags), "database": nilIfEmpty(n.Config.Database)},
		"tags": toAny(n.Tags), "version": versionValue(n.Version), "latest_version": versionValue(n.LatestVersion)}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// place sets a model's, seed's or snapshot's schema, alias and database as
// dbt does: the project's generate_schema_name / generate_alias_name
// macros when it defines them, else the built-in rules. A snapshot's
// schema config goes through them as a model's (dbt >= 1.9); its legacy
// target_schema is used as written.
func (m *Manifest) place(n *Node) []Diagnostic {
	if n.ResourceType == Test {
		return m.placeAudit(n)
	}
	if n.ResourceType != Model && n.ResourceType != Seed && n.ResourceType != Snapshot {
		return nil
	}
	var diags []Diagnostic
	schema, alias := m.defaultSchema(n, n.Config.Schema), n.Name
	if n.Version != "" {
		alias = versionAlias(n.Name, n.Version) // dbt's default alias of a version
	}
	if n.Config.Alias != "" {
		alias = n.Config.Alias
	}
	if s, ok := m.nameMacro(n, "generate_schema_name", n.Config.Schema, &diags); ok && s != "" {
		schema = s
	}
	if a, ok := m.nameMacro(n, "generate_alias_name", n.Config.Alias, &diags); ok && a != "" {
		alias = a
	}
	if n.SnapshotCfg != nil && n.SnapshotCfg.TargetSchema != "" {
		schema = n.SnapshotCfg.TargetSchema // dbt's legacy rule: as written
	}
	n.Schema, n.Alias = schema, alias
	if a, ok := m.attachedTarget(n); ok {
		// dbt-duckdb's: built into the database profiles.yml attaches
		n.Database, n.Relation = a, Quote(a)+"."+Relation(schema, alias)
		return diags
	}
	// an ephemeral is inlined as a CTE and built nowhere: its database
	// config changes nothing, in dbt-duckdb either (it was warned as
	// "built into the warehouse file, as schema.name", which it is not)
	if n.Config.Database != "" && !strings.EqualFold(n.Config.Database, m.Database()) && n.Config.Materialized != "ephemeral" {
		// the executor builds every relation in the warehouse: a ref() to
		// "other".schema.alias found nothing (dbt-duckdb writes to a
		// database profiles.yml's attach: names, which docket does not apply)
		at := n.ConfigPos
		if at == (Position{}) {
			at = Position{1, 1}
		}
		from, fat := m.configWhere(n, "database", at)
		if m.isAttached(n.Config.Database) {
			why := "only seeds, snapshots, tables and incremental models are built into an attached database (a view there would name the warehouse's relations through a catalog only docket's runs attach): materialize it as a table to build it there"
			if m.attachedReadOnly(n.Config.Database) {
				why = "profiles.yml attaches that database read_only"
			}
			m.warn(from, fat, "config database %q is not applied to %s %s (%s): docket builds it into its warehouse file, as %s; %s",
				n.Config.Database, n.Config.Materialized, n.Name, n.ResourceType, Relation(schema, alias), why)
			n.Relation = Relation(schema, alias)
			return diags
		}
		m.warn(from, fat, "config database %q is not applied: docket builds %s into its one warehouse file (%s), as %s (dbt-duckdb writes to a database that profiles.yml's attach: names)",
			n.Config.Database, n.Name, m.Database(), Relation(schema, alias))
	}
	n.Relation = Relation(schema, alias)
	return diags
}

// nameMacro renders generate_schema_name or generate_alias_name (macro)
// for n with arg: as dbt's RelationUpdate, a package node uses its
// package's own macro when it defines one, else the root project's; ok
// false when there is none or it failed (the failure added to diags).
func (m *Manifest) nameMacro(n *Node, macro, arg string, diags *[]Diagnostic) (string, bool) {
	pkg := m.macroPkg(n.PackageName)
	file, ok := m.Macros[macro]
	if f, own := m.env.MacroFile(pkg, macro); pkg != "" && own && m.env.Has(pkg, macro) {
		file, ok = f, true
	}
	if !ok {
		return "", false
	}
	tpl, err := m.env.Parse(n.Path+":"+macro, "{{ "+macro+"(__arg, node) }}")
	if err != nil {
		return "", false
	}
	tpl.Pkg = pkg
	rc := &renderCtx{m: m, n: n, cfg: map[string]any{}, refPos: map[string]Position{}}
	ctx := rc.vars()
	ctx["__arg"] = nilIfEmpty(arg)
	ctx["node"] = nodeMap(n)
	out, err := tpl.Render(ctx)
	if err != nil {
		msg := err.Error()
		if re, _ := err.(*render.Error); re != nil {
			msg = re.Msg
		}
		*diags = append(*diags, Diagnostic{Path: file, Line: 1, Col: 1,
			Msg: fmt.Sprintf("%s failed for %s %s: %s", macro, n.ResourceType, n.Name, msg)})
		return "", false
	}
	return strings.TrimSpace(out), true
}

// placeAudit sets the schema where a test that stores its failures keeps
// them, as dbt places a test node: its schema config (dbt's default
// dbt_test__audit) through the project's generate_schema_name, else
// <target schema>_<schema>. Tests that store nothing are not rendered.
func (m *Manifest) placeAudit(n *Node) []Diagnostic {
	c := n.Config
	if !c.StoreFailures && (c.StoreFailuresAs == "" || c.StoreFailuresAs == "ephemeral") {
		return nil
	}
	custom := cmp.Or(strings.TrimSpace(c.Schema), "dbt_test__audit")
	n.AuditSchema = m.Target().Schema + "_" + custom
	var diags []Diagnostic
	if s, ok := m.nameMacro(n, "generate_schema_name", custom, &diags); ok && s != "" {
		n.AuditSchema = s
	}
	return diags
}
