package compiler

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/docket-dev/docket/loader/internal/runner/render"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"
)

const (
	manifestSchema   = "https://schemas.getdbt.com/dbt/manifest/v12.json"
	RunResultsSchema = "https://schemas.getdbt.com/dbt/run-results/v6.json"
)

// ArtifactTime is a time as dbt writes it in artifacts (generated_at):
// UTC with microseconds, "2024-05-01T12:00:00.123456Z".
func ArtifactTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// CompiledRel is where a node's compiled SQL goes, relative to the target
// folder: compiled/<package>/<file in the package> as dbt writes it (a
// generic or unit test: <yml file>/<test name>.sql).
func (m *Manifest) CompiledRel(n *Node) string {
	file := n.Path
	if pk := m.pkgDir(n.PackageName); pk.dir != "" {
		file = strings.TrimPrefix(file, pk.dir+"/")
	}
	dir := "compiled/" + cmp.Or(n.PackageName, m.Name) + "/"
	if n.TestMetadata != nil || n.ResourceType == UnitTest {
		return dir + file + "/" + n.Name + ".sql"
	}
	return dir + file
}

// ManifestJSON is target/manifest.json in dbt's manifest v12 shape.
type ManifestJSON struct {
	Metadata       map[string]any            `json:"metadata"`
	Nodes          map[string]map[string]any `json:"nodes"`
	Sources        map[string]map[string]any `json:"sources"`
	Macros         map[string]map[string]any `json:"macros"`
	Docs           map[string]map[string]any `json:"docs"`
	Exposures      map[string]map[string]any `json:"exposures"`
	Metrics        map[string]map[string]any `json:"metrics"`
	Groups         map[string]map[string]any `json:"groups"`
	Selectors      map[string]any            `json:"selectors"`
	Disabled       map[string][]any          `json:"disabled"`
	ParentMap      map[string][]string       `json:"parent_map"`
	ChildMap       map[string][]string       `json:"child_map"`
	GroupMap       map[string][]string       `json:"group_map"`
	SavedQueries   map[string]map[string]any `json:"saved_queries"`
	SemanticModels map[string]map[string]any `json:"semantic_models"`
	UnitTests      map[string]map[string]any `json:"unit_tests"`
	// Functions are docket's Go UDFs (dbt 1.11's user-defined functions).
	Functions map[string]map[string]any `json:"functions"`
}

// ManifestDoc builds the manifest document.
func (m *Manifest) ManifestDoc() *ManifestJSON {
	now := time.Now()
	doc := &ManifestJSON{
		Metadata: map[string]any{"dbt_schema_version": manifestSchema, "dbt_version": DbtVersion,
			"generated_at": ArtifactTime(now), "invocation_id": m.InvocationID(), "project_name": m.Name, "adapter_type": "duckdb",
			"env": map[string]string{}},
		Nodes: map[string]map[string]any{}, Sources: map[string]map[string]any{}, Macros: map[string]map[string]any{},
		Docs: map[string]map[string]any{}, Exposures: map[string]map[string]any{}, Metrics: map[string]map[string]any{},
		Groups: map[string]map[string]any{}, Selectors: m.selectorsDoc(), Disabled: map[string][]any{},
		ParentMap: map[string][]string{}, ChildMap: map[string][]string{}, GroupMap: map[string][]string{},
		SavedQueries: map[string]map[string]any{}, SemanticModels: map[string]map[string]any{},
		UnitTests: map[string]map[string]any{}, Functions: map[string]map[string]any{},
	}
	created := float64(now.UnixNano()) / 1e9
	for id, n := range m.Nodes {
		if n.ResourceType == UnitTest {
			continue // in unit_tests (unitTestDoc)
		}
		d := m.NodeDoc(n)
		d["created_at"] = created
		doc.Nodes[id] = d
	}
	for id, n := range m.Sources {
		d := m.sourceDoc(n)
		d["created_at"] = created
		doc.Sources[id] = d
	}
	m.hookDocs(doc, created)
	for id, n := range m.Disabled {
		var d map[string]any
		if n.ResourceType == Source {
			d = m.sourceDoc(n)
		} else {
			d = m.NodeDoc(n)
		}
		d["created_at"] = created
		doc.Disabled[id] = append(doc.Disabled[id], d)
	}
	m.macroDocs(doc.Macros, created)
	m.docDocs(doc.Docs)
	m.functionDocs(doc, created)
	m.unactedDocs(doc)
	m.graphMaps(doc)
	return doc
}

// hookDocs adds the on-run-start/on-run-end hooks as dbt's HookNode
// entries (path hooks/<name>.sql, original_file_path ./dbt_project.yml).
func (m *Manifest) hookDocs(doc *ManifestJSON, created float64) {
	for _, start := range []bool{true, false} {
		for _, h := range m.RunHooks(start) {
			d := m.NodeDoc(h)
			d["created_at"], d["index"], d["path"] = created, h.HookIndex, "hooks/"+h.Name+".sql"
			d["original_file_path"] = "./dbt_project.yml"
			doc.Nodes[h.UniqueID] = d
			doc.ParentMap[h.UniqueID], doc.ChildMap[h.UniqueID] = []string{}, []string{}
		}
	}
}

// functionDocs adds the Go UDFs as dbt 1.11's function entries.
func (m *Manifest) functionDocs(doc *ManifestJSON, created float64) {
	for _, u := range m.UDFs {
		id := "function." + m.Name + "." + u.Name
		args := []any{}
		for i, p := range u.Params {
			args = append(args, map[string]any{"name": fmt.Sprintf("arg%d", i+1), "data_type": p})
		}
		doc.Functions[id] = map[string]any{
			"unique_id": id, "resource_type": "function", "name": u.Name, "package_name": m.Name, "alias": u.Name,
			"database": m.Database(), "schema": "main", "path": "", "original_file_path": "",
			"fqn": []string{m.Name, u.Name}, "checksum": map[string]any{"name": "none", "checksum": ""},
			"returns": map[string]any{"data_type": u.Result}, "arguments": args, "description": u.Doc,
			"language": "go", "created_at": created,
			"config": map[string]any{"enabled": true, "type": "scalar", "materialized": "function",
				"meta": map[string]any{"signature": u.Signature(), "version": u.Version}},
		}
	}
}

// graphMaps fills parent_map and child_map: nodes, sources, and the
// exposures, metrics, semantic models, saved queries and unit tests, as
// dbt has them.
func (m *Manifest) graphMaps(doc *ManifestJSON) {
	for id, n := range m.Nodes {
		if n.ResourceType == UnitTest {
			continue // with the other unit_tests entries below
		}
		doc.ParentMap[id] = nonNil(m.Parents[id])
		doc.ChildMap[id] = append([]string{}, m.Children[id]...)
	}
	for id := range m.Sources {
		doc.ParentMap[id] = []string{}
		doc.ChildMap[id] = append([]string{}, m.Children[id]...)
	}
	// exposures, metrics, semantic models, saved queries and unit tests
	// are in the graph maps too, as dbt has them
	sets := []map[string]map[string]any{doc.Exposures, doc.Metrics, doc.SemanticModels, doc.SavedQueries, doc.UnitTests}
	for _, set := range sets {
		for id := range set {
			doc.ChildMap[id] = []string{}
		}
	}
	for _, set := range sets {
		for _, id := range sortedIDs(set) {
			deps, _ := set[id]["depends_on"].(map[string]any)
			parents, _ := deps["nodes"].([]string)
			doc.ParentMap[id] = nonNil(parents)
			for _, p := range parents {
				if c, ok := doc.ChildMap[p]; ok {
					doc.ChildMap[p] = append(c, id)
				}
			}
		}
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// fileHash is dbt's checksum of a node's file (none for generated tests).
func (m *Manifest) fileHash(n *Node) map[string]any {
	if n.TestMetadata == nil && n.Path != "" {
		if b, err := m.readFile(n.Path); err == nil {
			s := sha256.Sum256(b)
			return map[string]any{"name": "sha256", "checksum": hex.EncodeToString(s[:])}
		}
	}
	return map[string]any{"name": "none", "checksum": ""}
}

// resourcePath is dbt's `path`: relative to the resource folder
// (models/, seeds/, ...); a generic test's is its own name.
func resourcePath(n *Node) string {
	if n.TestMetadata != nil {
		return n.Name + ".sql"
	}
	if i := strings.Index(n.Path, "/"); i >= 0 {
		return n.Path[i+1:]
	}
	return n.Path
}

func StrOrNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func columnsDoc(cols map[string]Column) map[string]any {
	out := map[string]any{}
	for k, c := range cols {
		out[k] = map[string]any{"name": c.Name, "description": c.Description, "data_type": StrOrNil(c.DataType),
			"meta": metaDoc(c.Meta), "constraints": []any{}, "quote": nil, "tags": append([]string{}, c.Tags...)}
	}
	return out
}

// metaDoc is a meta mapping as manifest.json and the graph have it: in
// its keys' order (dbt's dict order), floats written with their point.
func metaDoc(m *render.Mapping) any {
	if m == nil {
		return map[string]any{}
	}
	return floatsKept(reflect.ValueOf(m))
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// configDoc is a node's config in dbt's shape for its resource type.
func configDoc(n *Node) map[string]any {
	c := n.Config
	tags := c.Tags
	if tags == nil {
		tags = []string{}
	}
	d := map[string]any{"enabled": c.Enabled, "alias": StrOrNil(c.Alias), "schema": StrOrNil(c.Schema),
		"database": StrOrNil(c.Database), "tags": tags, "meta": metaDoc(c.Meta), "group": StrOrNil(c.Group)}
	switch n.ResourceType {
	case Test:
		d["materialized"] = "test"
		sev := c.Severity
		if sev == "" {
			sev = "error"
		}
		d["severity"], d["where"], d["store_failures"] = sev, StrOrNil(c.Where), nil
		d["limit"] = nil
		if c.Limit > 0 {
			d["limit"] = c.Limit
		}
		for k, v := range map[string]string{"fail_calc": c.FailCalc, "warn_if": c.WarnIf, "error_if": c.ErrorIf} {
			if v != "" {
				d[k] = v
			}
		}
		return d
	}
	mat := c.Materialized
	if mat == "" {
		mat = n.ResourceType
	}
	d["materialized"] = mat
	d["incremental_strategy"] = StrOrNil(c.IncrementalStrategy)
	if c.EventTime != "" {
		d["event_time"] = c.EventTime // dbt 1.9's microbatch configs
	}
	if c.IncrementalStrategy == "microbatch" {
		d["batch_size"], d["lookback"] = c.BatchSize, 1
		if c.Lookback != nil {
			d["lookback"] = *c.Lookback
		}
		if c.Begin != nil {
			d["begin"] = c.Begin.Format("2006-01-02T15:04:05")
		}
	}
	d["pre-hook"], d["post-hook"] = hooksDoc(c.PreHook), hooksDoc(c.PostHook)
	d["persist_docs"], d["quoting"], d["grants"] = map[string]any{}, map[string]any{}, map[string]any{}
	if pd := c.PersistDocs; pd != nil {
		d["persist_docs"] = map[string]any{"relation": pd.Relation, "columns": pd.Columns}
	}
	if c.SQLHeader != "" {
		d["sql_header"] = c.SQLHeader // a config() extra, where dbt writes it
	}
	for k, v := range map[string][]string{"incremental_predicates": c.IncrementalPredicates, // extras too
		"merge_update_columns": c.MergeUpdateColumns, "merge_exclude_columns": c.MergeExcludeColumns} {
		if len(v) > 0 {
			d[k] = v
		}
	}
	ct := map[string]any{}
	for k, v := range c.ColumnTypes {
		ct[k] = v
	}
	d["column_types"], d["full_refresh"], d["packages"] = ct, c.FullRefresh, []string{}
	d["docs"] = map[string]any{"show": true, "node_color": nil}
	d["contract"] = n.Contract
	if n.Contract == nil { // a nil map in an any is not nil
		d["contract"] = contractConfig(nil)
	}
	d["on_schema_change"] = "ignore"
	if c.OnSchemaChange != "" {
		d["on_schema_change"] = c.OnSchemaChange
	}
	d["on_configuration_change"] = "apply"
	switch len(c.UniqueKey) {
	case 0:
		d["unique_key"] = nil
	case 1:
		d["unique_key"] = c.UniqueKey[0]
	default:
		d["unique_key"] = c.UniqueKey
	}
	if n.ResourceType == Model {
		d["access"] = "protected"
	}
	if s := n.SnapshotCfg; s != nil {
		d["strategy"], d["updated_at"], d["target_schema"] = s.Strategy, StrOrNil(s.UpdatedAt), StrOrNil(s.TargetSchema)
		d["unique_key"] = s.UniqueKey
		if len(s.UniqueKey) == 1 {
			d["unique_key"] = s.UniqueKey[0]
		}
		d["check_cols"] = nil
		if len(s.CheckCols) == 1 && s.CheckCols[0] == "all" {
			d["check_cols"] = "all"
		} else if len(s.CheckCols) > 0 {
			d["check_cols"] = s.CheckCols
		}
		d["hard_deletes"] = s.HardDeletes
		d["dbt_valid_to_current"] = StrOrNil(s.ValidToCurrent)
		d["snapshot_meta_column_names"] = s.Renamed()
	}
	return d
}

// NodeDoc is a model, seed, snapshot or test as manifest.json has it
// (also what `state:modified` compares with a previous manifest).
func (m *Manifest) NodeDoc(n *Node) map[string]any {
	tags := n.Tags
	if tags == nil {
		tags = []string{}
	}
	d := map[string]any{
		"unique_id": n.UniqueID, "resource_type": n.ResourceType, "package_name": n.PackageName, "name": n.Name,
		"database": StrOrNil(n.Database), "schema": n.Schema, "alias": n.Alias, "path": resourcePath(n),
		"original_file_path": n.Path, "fqn": n.FQN, "checksum": m.fileHash(n), "config": configDoc(n),
		"tags": tags, "description": n.Description, "columns": columnsDoc(n.Columns), "meta": metaDoc(n.Config.Meta),
		"group": StrOrNil(n.Config.Group), "docs": map[string]any{"show": true, "node_color": nil}, "patch_path": nil, "build_path": nil,
		"unrendered_config": map[string]any{}, "relation_name": StrOrNil(n.Relation), "raw_code": n.RawCode,
		"doc_blocks": []string{},
	}
	if n.FQN == nil {
		d["fqn"] = []string{}
	}
	if n.Config.Materialized == "ephemeral" {
		d["relation_name"] = nil // dbt's: an ephemeral model is a CTE, no relation
	}
	macros := nonNil(n.DependsOn.Macros)
	if n.ResourceType == Seed {
		d["depends_on"] = map[string]any{"macros": macros}
		d["root_path"] = m.Project.Dir
		return d
	}
	refs := []any{}
	for _, r := range n.Refs {
		name, v := splitRefKey(r[len(r)-1])
		ref := map[string]any{"name": name, "package": nil, "version": versionValue(v)}
		if len(r) > 1 {
			ref["package"] = r[0]
		}
		refs = append(refs, ref)
	}
	sources := [][]string{}
	if n.Sources != nil {
		sources = n.Sources
	}
	d["language"], d["refs"], d["sources"], d["metrics"], d["functions"] = cmp.Or(n.Language, "sql"), refs, sources, [][]string{}, [][]string{}
	d["depends_on"] = map[string]any{"nodes": nonNil(n.DependsOn.Nodes), "macros": macros}
	d["compiled_path"] = nil
	if n.CompiledPath != "" {
		d["compiled_path"] = n.CompiledPath
	}
	d["compiled"], d["compiled_code"] = n.CompiledCode != "", StrOrNil(n.CompiledCode)
	d["extra_ctes_injected"], d["extra_ctes"] = n.CompiledCode != "", []any{}
	d["contract"] = map[string]any{"enforced": false, "alias_types": true, "checksum": nil}
	switch {
	case n.ResourceType == Model:
		d["access"], d["constraints"], d["version"], d["latest_version"] = "protected", []any{}, versionValue(n.Version), versionValue(n.LatestVersion)
		d["deprecation_date"], d["primary_key"] = StrOrNil(n.DeprecationDate), []string{}
	case n.TestMetadata != nil:
		kw := orEmpty(n.TestMetadata.Kwargs)
		d["test_metadata"] = map[string]any{"name": n.TestMetadata.Name, "kwargs": kw, "namespace": nil}
		d["column_name"], d["attached_node"] = StrOrNil(n.ColumnName), StrOrNil(n.AttachedNode)
		d["file_key_name"] = nil
		if p := m.Nodes[n.AttachedNode]; p != nil {
			d["file_key_name"] = p.ResourceType + "s." + p.Name
		} else if p := m.Sources[n.AttachedNode]; p != nil {
			d["file_key_name"] = "sources." + p.SourceName
		}
	}
	return d
}

// sourceDoc is a source table as manifest.json has it.
func (m *Manifest) sourceDoc(n *Node) map[string]any {
	tags := n.Tags
	if tags == nil {
		tags = []string{}
	}
	cfg := map[string]any{"enabled": n.Config.Enabled || m.Sources[n.UniqueID] != nil, "meta": metaDoc(n.Config.Meta), "tags": tags,
		"loaded_at_field": StrOrNil(n.LoadedAtField)}
	d := map[string]any{
		"unique_id": n.UniqueID, "resource_type": Source, "package_name": n.PackageName, "name": n.Name,
		"database": StrOrNil(n.Database), "schema": n.Schema, "path": n.Path, "original_file_path": n.Path,
		"fqn": n.FQN, "source_name": n.SourceName, "source_description": n.srcDesc, "loader": n.srcLoader,
		"identifier": n.Identifier, "quoting": map[string]any{}, "loaded_at_field": StrOrNil(n.LoadedAtField),
		"description": n.Description, "columns": columnsDoc(n.Columns), "meta": metaDoc(n.tblMeta),
		"source_meta": metaDoc(n.srcMeta), "tags": tags, "config": cfg, "patch_path": nil,
		"unrendered_config": map[string]any{}, "relation_name": StrOrNil(n.Relation), "doc_blocks": []string{},
		"freshness": nil,
	}
	if n.Identifier == "" {
		d["identifier"] = n.Name
	}
	if n.FQN == nil {
		d["fqn"] = []string{}
	}
	if n.Freshness != nil {
		d["freshness"], cfg["freshness"] = n.Freshness, n.Freshness
	}
	return d
}

func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	return os.Rename(tmp, path)
}

// sortedIDs returns a map's keys in order.
func sortedIDs[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
