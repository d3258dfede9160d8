package compiler

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// SnapshotConfig is a snapshot's own settings.
type SnapshotConfig struct {
	Strategy    string   `json:"strategy"`
	UniqueKey   []string `json:"unique_key"`
	UpdatedAt   string   `json:"updated_at,omitempty"`
	CheckCols   []string `json:"check_cols,omitempty"` // ["all"] = every column but the key
	HardDeletes string   `json:"hard_deletes"`
	// ValidToCurrent is dbt 1.9's dbt_valid_to_current: the SQL
	// expression current versions hold in dbt_valid_to ("" = null).
	ValidToCurrent string `json:"dbt_valid_to_current,omitempty"`
	// Names is the meta columns' names (dbt 1.9's
	// snapshot_meta_column_names; dbt's own where not renamed).
	Names SnapshotNames `json:"-"`
	// TargetSchema is the legacy target_schema: the schema as written,
	// past generate_schema_name (dbt keeps it for backward compatibility).
	TargetSchema string `json:"target_schema,omitempty"`
	// LegacySchema is where docket built the snapshot before it followed
	// dbt 1.9's schema rules (its schema as written, else snapshots); the
	// executor will not start a new history while one is left there.
	LegacySchema string `json:"-"`
}

// SnapshotNames is the names of a snapshot's meta columns.
type SnapshotNames struct{ ScdID, UpdatedAt, ValidFrom, ValidTo, IsDeleted string }

// dbtSnapshotNames is dbt's names of the meta columns, the keys of
// snapshot_meta_column_names.
var dbtSnapshotNames = SnapshotNames{"dbt_scd_id", "dbt_updated_at", "dbt_valid_from", "dbt_valid_to", "dbt_is_deleted"}

// fields is the names by dbt's name of each.
func (s *SnapshotNames) fields() map[string]*string {
	return map[string]*string{"dbt_scd_id": &s.ScdID, "dbt_updated_at": &s.UpdatedAt, "dbt_valid_from": &s.ValidFrom,
		"dbt_valid_to": &s.ValidTo, "dbt_is_deleted": &s.IsDeleted}
}

// MetaNames is the snapshot's meta column names, dbt's where not renamed
// (and for a config made without snapshot_meta_column_names read).
func (c *SnapshotConfig) MetaNames() SnapshotNames {
	if c.Names == (SnapshotNames{}) {
		return dbtSnapshotNames
	}
	return c.Names
}

// Renamed is snapshot_meta_column_names as dbt 1.9 writes it in
// manifest.json: each of dbt's names to its new one, or nil.
func (c *SnapshotConfig) Renamed() map[string]any {
	names := c.MetaNames()
	out := map[string]any{}
	for k, v := range names.fields() {
		out[k] = nil
		if *v != k {
			out[k] = *v
		}
	}
	return out
}

// snapshotNames reads snapshot_meta_column_names: a mapping of dbt's meta
// column names to the names the table uses (two the same is an error).
func snapshotNames(v any, bad func(string, ...any)) SnapshotNames {
	out := dbtSnapshotNames
	if v == nil {
		return out
	}
	mp, ok := stringKeyed(v)
	if !ok {
		bad("snapshot_meta_column_names must be a mapping of dbt_scd_id, dbt_updated_at, dbt_valid_from, dbt_valid_to, dbt_is_deleted to column names (got %v)", v)
		return out
	}
	fields := out.fields()
	for _, k := range SortedKeys(mp) {
		f, known := fields[k]
		name, isStr := mp[k].(string)
		switch {
		case !known:
			bad("snapshot_meta_column_names: %q is not a meta column (dbt_scd_id, dbt_updated_at, dbt_valid_from, dbt_valid_to, dbt_is_deleted)", k)
		case mp[k] == nil:
		case !isStr || strings.TrimSpace(name) == "":
			bad("snapshot_meta_column_names: %s must be a column name (got %v)", k, mp[k])
		default:
			*f = name
		}
	}
	seen := map[string]string{}
	for _, k := range SortedKeys(fields) {
		low := strings.ToLower(*fields[k])
		if other, dup := seen[low]; dup {
			bad("snapshot_meta_column_names: %s and %s both name column %q", other, k, *fields[k])
		}
		seen[low] = k
	}
	return out
}

// SnapshotNow is the snapshot clock (check strategy and hard deletes use
// it); tests freeze it.
var SnapshotNow = time.Now

var snapshotBlockRe = regexp.MustCompile(`(?s)\{%-?\s*snapshot\s+([A-Za-z_][A-Za-z0-9_]*)\s*-?%\}(.*?)\{%-?\s*endsnapshot\s*-?%\}`)

// snapshotDecl is one snapshot as declared: a {% snapshot %} block or a
// snapshots: entry in YAML (yml: its config).
type snapshotDecl struct {
	name, path, body string
	at               Position
	yml              map[string]any
	ymlAt            map[string]place // where each yml key is written
	pkg              string           // an installed package's ("" = the root project's)
	folders          []string         // a package snapshot's folders under its snapshot-paths
}

// readSnapshots adds the snapshot nodes of snapshots/ (SQL blocks and
// YAML entries), rendered for their refs and config like models.
func (m *Manifest) readSnapshots() ([]Diagnostic, error) {
	decls, diags, err := m.snapshotBlocks()
	if err != nil {
		return nil, err
	}
	more, ydiags, err := m.snapshotEntries()
	if err != nil {
		return nil, err
	}
	diags = append(diags, ydiags...)
	for _, d := range append(decls, more...) {
		diags = append(diags, m.addSnapshot(d)...)
	}
	return diags, nil
}

// snapshotBlocks reads the {% snapshot %} blocks of snapshots/*.sql and
// of each installed package's snapshot-paths.
func (m *Manifest) snapshotBlocks() ([]snapshotDecl, []Diagnostic, error) {
	sqlFiles, err := m.readTree("snapshots", ".sql")
	if err != nil {
		return nil, nil, err
	}
	var decls []snapshotDecl
	var diags []Diagnostic
	for _, path := range SortedKeys(sqlFiles) {
		d, ds := blocksIn(path, sqlFiles[path])
		decls, diags = append(decls, d...), append(diags, ds...)
	}
	for _, pk := range m.pkgDirs {
		dirs := pk.pkgPaths(pk.snapshotPaths, "snapshots")
		files, err := m.listTrees(dirs, ".sql")
		if err != nil {
			return nil, nil, err
		}
		for _, path := range files {
			b, err := m.readFile(path)
			if err != nil {
				return nil, nil, err
			}
			d, ds := blocksIn(path, string(b))
			parts := partsBelow(path, dirs)
			for i := range d {
				d[i].pkg, d[i].folders = pk.name, parts[:len(parts)-1]
			}
			decls, diags = append(decls, d...), append(diags, ds...)
		}
	}
	return decls, diags, nil
}

// blocksIn reads the {% snapshot %} blocks of one file.
func blocksIn(path, src string) ([]snapshotDecl, []Diagnostic) {
	var decls []snapshotDecl
	var diags []Diagnostic
	blocks := snapshotBlockRe.FindAllStringSubmatchIndex(src, -1)
	if len(blocks) == 0 && strings.TrimSpace(src) != "" {
		diags = append(diags, Diagnostic{Path: path, Line: 1, Col: 1, Msg: "no {% snapshot NAME %} ... {% endsnapshot %} block: this file defines no snapshot"})
	}
	for _, b := range blocks {
		// Keep line numbers: the body starts on the line it has in the file.
		body := strings.Repeat("\n", strings.Count(src[:b[4]], "\n")) + src[b[4]:b[5]]
		decls = append(decls, snapshotDecl{name: src[b[2]:b[3]], path: path, body: body, at: OffsetPos(src, b[0])})
	}
	return decls, diags
}

// snapshotEntries reads the snapshots: entries of snapshots/*.yml (an
// entry without relation: patches a block, as dbt's snapshot properties).
func (m *Manifest) snapshotEntries() ([]snapshotDecl, []Diagnostic, error) {
	var decls []snapshotDecl
	var diags []Diagnostic
	var ymls []string
	for _, ext := range []string{".yml", ".yaml"} {
		l, err := m.listTree("snapshots", ext)
		if err != nil {
			return nil, nil, err
		}
		ymls = append(ymls, l...)
	}
	sort.Strings(ymls)
	for _, path := range ymls {
		data, err := m.readFile(path)
		if err != nil {
			return nil, nil, err
		}
		root, err := yroot(data)
		if err != nil || root == nil {
			diags = append(diags, Diagnostic{Path: path, Line: 1, Col: 1, Msg: fmt.Sprintf("invalid YAML: %v", err)})
			continue
		}
		if d, bad := impossibleTimestamp(path, root); bad {
			diags = append(diags, d)
			continue
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			switch k.Value {
			case "version":
			case "snapshots":
				for _, e := range yseq(v) {
					name, rel := ystr(e, "name"), ystr(e, "relation")
					p := ypos(e)
					if name != "" && rel == "" {
						// dbt's snapshot properties: description, columns,
						// tests of a {% snapshot %} block (snapshotPatches)
						m.snapPatches = append(m.snapPatches, yamlEntry{path, e})
						continue
					}
					if name == "" || rel == "" {
						diags = append(diags, Diagnostic{Path: path, Line: p.Line, Col: p.Col, Msg: "a snapshot needs a name and a relation (ref('model') or source('src', 'table'))"})
						continue
					}
					d := snapshotDecl{name: name, path: path, at: p, body: "select * from {{ " + rel + " }}", yml: map[string]any{}}
					if c := yget(e, "config"); c != nil {
						for ck, cv := range ymap(c) {
							mergeCfg(d.yml, normKey(ck), cv)
						}
						d.ymlAt = configPlaces(path, c)
					}
					decls = append(decls, d)
				}
			default:
				diags = append(diags, Diagnostic{Path: path, Line: k.Line, Col: k.Column, Msg: fmt.Sprintf("unknown key %q in a snapshots file (expected version and snapshots)", k.Value)})
			}
		}
	}
	return decls, diags, nil
}

// addSnapshot makes d's node: parsed as a model, configured from
// dbt_project.yml's snapshots: folders < the YAML entry < the block's
// config(), placed by generate_schema_name (or a legacy target_schema).
func (m *Manifest) addSnapshot(d snapshotDecl) []Diagnostic {
	pkg := cmp.Or(d.pkg, m.Name)
	n := &Node{UniqueID: Snapshot + "." + pkg + "." + d.name, ResourceType: Snapshot, PackageName: pkg, Name: d.name,
		Schema: "snapshots", Alias: d.name, Database: m.Database(), Path: d.path, RawCode: d.body,
		FQN: []string{pkg, d.name}, Columns: map[string]Column{}, Pos: d.at}
	if prev := m.byPkg[pkg][d.name]; prev != nil {
		return []Diagnostic{{Path: d.path, Line: d.at.Line, Col: d.at.Col, Msg: fmt.Sprintf("snapshot name %q is already used by %s", d.name, prev.Path)}}
	}
	ds := m.parseNode(n)
	if len(ds) > 0 {
		return ds
	}
	// dbt_project.yml snapshots: (folder levels, + keys) < the YAML
	// entry's config < the block's config()
	raw := m.snapshotFolderConfig(d.path)
	if d.pkg != "" { // the package's snapshots: tree under the root's snapshots: <pkg>:
		raw = m.pkgFolderConfig(d.pkg, m.pkgDir(d.pkg).snapshots, m.rootSnapshotTree(), d.folders)
	}
	layers := []map[string]any{raw, d.yml, n.modelCfg}
	raw = maps.Clone(raw)
	for _, src := range layers[1:] {
		for k, v := range src {
			if k == "tags" || k == "pre_hook" || k == "post_hook" {
				mergeCfg(raw, k, v)
			} else {
				raw[k] = v
			}
		}
	}
	n.ymlAt = d.ymlAt
	sc, diags := snapshotConfig(n, raw)
	// What is left (tags, enabled, hooks, meta) is resolved as for models,
	// each layer kept apart so a warning names the place it is written.
	left := func(layer map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range layer {
			if _, ok := raw[k]; ok {
				out[k] = v
			}
		}
		return out
	}
	n.folderCfg, n.ymlCfg, n.modelCfg = left(layers[0]), left(layers[1]), left(layers[2])
	// schema is a custom schema as a model's (generate_schema_name,
	// dbt >= 1.9); a legacy target_schema is used as written (place).
	n.SnapshotCfg, n.layer = sc, "snapshots"
	custom := fmt.Sprint(cmp.Or(raw["schema"], any("")))
	n.Schema = m.defaultSchema(n, custom)
	if sc.TargetSchema == "" {
		sc.LegacySchema = cmp.Or(custom, "snapshots")
	}
	if sc.TargetSchema != "" {
		n.Schema = sc.TargetSchema
	}
	n.Relation = Relation(n.Schema, n.Alias)
	m.setRef(pkg, d.name, n)
	m.Nodes[n.UniqueID] = n
	return diags
}

// snapshotConfig takes the snapshot keys out of raw and validates them.
func snapshotConfig(n *Node, raw map[string]any) (*SnapshotConfig, []Diagnostic) {
	var diags []Diagnostic
	bad := func(k, format string, a ...any) { // at key k's line where known
		at := n.KeyPos(k)
		diags = append(diags, Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf("snapshot %s: ", n.Name) + fmt.Sprintf(format, a...)})
	}
	str := func(k string) string {
		v, ok := raw[k]
		delete(raw, k)
		if !ok || v == nil {
			return ""
		}
		s, ok := v.(string)
		if !ok {
			bad(k, "%s must be a string (got %v)", k, v)
		}
		return s
	}
	sc := &SnapshotConfig{TargetSchema: str("target_schema")}
	if s := str("target_database"); s != "" && s != n.Database {
		// the warehouse's own name (dbt-tests-adapter's target_database=database) is where it goes anyway
		bad("target_database", "target_database %q: docket writes one DuckDB file; drop it", s)
	}
	sc.Strategy = str("strategy")
	sc.UpdatedAt = str("updated_at")
	sc.HardDeletes = str("hard_deletes")
	sc.ValidToCurrent = str("dbt_valid_to_current")
	sc.Names = snapshotNames(raw["snapshot_meta_column_names"], func(format string, a ...any) { bad("snapshot_meta_column_names", format, a...) })
	delete(raw, "snapshot_meta_column_names")
	if v, ok := raw["unique_key"]; ok {
		sc.UniqueKey = toStrings(v)
		delete(raw, "unique_key")
	}
	if v, ok := raw["check_cols"]; ok {
		sc.CheckCols = toStrings(v)
		delete(raw, "check_cols")
	}
	if v, ok := raw["invalidate_hard_deletes"]; ok {
		delete(raw, "invalidate_hard_deletes")
		if b, _ := v.(bool); b && sc.HardDeletes == "" {
			sc.HardDeletes = "invalidate"
		}
	}
	if len(sc.UniqueKey) == 0 {
		bad("unique_key", "unique_key is required (a column, or a list of columns)")
	}
	switch sc.Strategy {
	case "timestamp":
		if sc.UpdatedAt == "" {
			bad("strategy", "the timestamp strategy needs updated_at (the column that says when a row last changed)")
		}
	case "check":
		if len(sc.CheckCols) == 0 {
			bad("strategy", "the check strategy needs check_cols (a list of columns, or 'all')")
		}
	case "":
		bad("", "strategy is required: timestamp (with updated_at) or check (with check_cols)")
	default:
		bad("strategy", "strategy must be timestamp or check (got %q)", sc.Strategy)
	}
	switch sc.HardDeletes {
	case "":
		sc.HardDeletes = "ignore"
	case "ignore", "invalidate", "new_record":
	default:
		bad("hard_deletes", "hard_deletes must be ignore, invalidate or new_record (got %q)", sc.HardDeletes)
	}
	return sc, diags
}

// snapshotFolderConfig is dbt_project.yml's snapshots: defaults for a
// snapshot file, merged along its folders under snapshots/ as models:
// merges them: + keys (+strategy, +unique_key, +target_schema, ...) and
// the configs models also take (tags, enabled, unique_key, ...).
func (m *Manifest) snapshotFolderConfig(path string) map[string]any {
	if m.Project.DBT == nil || len(m.Project.DBT.Snapshots) == 0 {
		return map[string]any{}
	}
	parts := strings.Split(strings.TrimPrefix(path, "snapshots/"), "/")
	return m.folderConfig(m.Project.DBT.Snapshots, parts[:len(parts)-1])
}

// yamlEntry is one entry of a YAML file, kept to apply later.
type yamlEntry struct {
	path string
	e    *yaml.Node
}

// patchSnapshot applies a snapshots: entry without relation: (dbt's
// snapshot properties, in snapshots/ or beside models) to the snapshot
// of its name: description, columns, config and tests.
func (m *Manifest) patchSnapshot(path string, e *yaml.Node, diags *[]Diagnostic) []testSpec {
	name := ystr(e, "name")
	n := m.byName[name]
	if n == nil || n.ResourceType != Snapshot {
		m.warn(path, ypos(e), "%s describes snapshot %q, but there is no such snapshot: not applied", path, name)
		return nil
	}
	m.renderYAMLEntry(path, e, diags)
	return m.patchNode(path, Snapshot, n, e, diags)
}

// rootSnapshotTree is dbt_project.yml's snapshots: tree (nil without one).
func (m *Manifest) rootSnapshotTree() map[string]any {
	if m.Project.DBT == nil {
		return nil
	}
	return m.Project.DBT.Snapshots
}
