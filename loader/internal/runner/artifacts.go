package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The artifacts follow dbt's JSON Schemas (manifest v12, run-results v6,
// shipped in ../shared/dbt/schemas and checked by artifacts_test.go), so
// tools that read dbt artifacts read docket's. The schemas close most
// objects (additionalProperties: false): docket's own facts go where they
// allow free keys (config, meta, adapter_response, args), never beside
// dbt's fields.

const (
	manifestSchema   = "https://schemas.getdbt.com/dbt/manifest/v12.json"
	runResultsSchema = "https://schemas.getdbt.com/dbt/run-results/v6.json"
)

// compiledRel is where a node's compiled SQL goes, relative to the target
// folder.
func compiledRel(n *Node) string {
	if n.TestMetadata != nil || n.ResourceType == UnitTest {
		return "compiled/" + n.Path + "/" + n.Name + ".sql"
	}
	return "compiled/" + n.Path
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
		Metadata: map[string]any{"dbt_schema_version": manifestSchema,
			"generated_at": now.UTC().Format(time.RFC3339), "project_name": m.Name, "adapter_type": "duckdb",
			"env": map[string]string{}},
		Nodes: map[string]map[string]any{}, Sources: map[string]map[string]any{}, Macros: map[string]map[string]any{},
		Docs: map[string]map[string]any{}, Exposures: map[string]map[string]any{}, Metrics: map[string]map[string]any{},
		Groups: map[string]map[string]any{}, Selectors: map[string]any{}, Disabled: map[string][]any{},
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
	for _, u := range m.UDFs {
		id := "function." + m.Name + "." + u.Name
		args := []any{}
		for i, p := range u.Params {
			args = append(args, map[string]any{"name": fmt.Sprintf("arg%d", i+1), "data_type": p})
		}
		doc.Functions[id] = map[string]any{
			"unique_id": id, "resource_type": "function", "name": u.Name, "package_name": m.Name, "alias": u.Name,
			"database": m.database(), "schema": "main", "path": "", "original_file_path": "",
			"fqn": []string{m.Name, u.Name}, "checksum": map[string]any{"name": "none", "checksum": ""},
			"returns": map[string]any{"data_type": u.Result}, "arguments": args, "description": u.Doc,
			"language": "go", "created_at": created,
			"config": map[string]any{"enabled": true, "type": "scalar", "materialized": "function",
				"meta": map[string]any{"signature": u.Signature(), "version": u.Version}},
		}
	}
	m.unactedDocs(doc)
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
	return doc
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

func strOrNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func columnsDoc(cols map[string]Column) map[string]any {
	out := map[string]any{}
	for k, c := range cols {
		out[k] = map[string]any{"name": c.Name, "description": c.Description, "data_type": strOrNil(c.DataType),
			"meta": map[string]any{}, "constraints": []any{}, "quote": nil, "tags": []string{}}
	}
	return out
}

func hooksDoc(hs []string) []any {
	out := []any{}
	for i, h := range hs {
		out = append(out, map[string]any{"sql": h, "transaction": true, "index": i})
	}
	return out
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
	d := map[string]any{"enabled": c.Enabled, "alias": strOrNil(c.Alias), "schema": strOrNil(c.Schema),
		"database": strOrNil(c.Database), "tags": tags, "meta": orEmpty(c.Meta), "group": nil}
	switch n.ResourceType {
	case Test:
		d["materialized"] = "test"
		sev := c.Severity
		if sev == "" {
			sev = "error"
		}
		d["severity"], d["where"], d["store_failures"] = sev, strOrNil(c.Where), nil
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
	d["incremental_strategy"] = strOrNil(c.IncrementalStrategy)
	d["pre-hook"], d["post-hook"] = hooksDoc(c.PreHook), hooksDoc(c.PostHook)
	d["persist_docs"], d["quoting"], d["grants"] = map[string]any{}, map[string]any{}, map[string]any{}
	ct := map[string]any{}
	for k, v := range c.ColumnTypes {
		ct[k] = v
	}
	d["column_types"], d["full_refresh"], d["packages"] = ct, c.FullRefresh, []string{}
	d["docs"] = map[string]any{"show": true, "node_color": nil}
	d["contract"] = n.contract
	if d["contract"] == nil {
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
		d["strategy"], d["updated_at"], d["target_schema"] = s.Strategy, strOrNil(s.UpdatedAt), nil
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
		"database": strOrNil(n.Database), "schema": n.Schema, "alias": n.Alias, "path": resourcePath(n),
		"original_file_path": n.Path, "fqn": n.FQN, "checksum": m.fileHash(n), "config": configDoc(n),
		"tags": tags, "description": n.Description, "columns": columnsDoc(n.Columns), "meta": orEmpty(n.Config.Meta),
		"group": nil, "docs": map[string]any{"show": true, "node_color": nil}, "patch_path": nil, "build_path": nil,
		"unrendered_config": map[string]any{}, "relation_name": strOrNil(n.Relation), "raw_code": n.RawCode,
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
		ref := map[string]any{"name": r[len(r)-1], "package": nil, "version": nil}
		if len(r) > 1 {
			ref["package"] = r[0]
		}
		refs = append(refs, ref)
	}
	sources := [][]string{}
	if n.Sources != nil {
		sources = n.Sources
	}
	d["language"], d["refs"], d["sources"], d["metrics"], d["functions"] = "sql", refs, sources, [][]string{}, [][]string{}
	d["depends_on"] = map[string]any{"nodes": nonNil(n.DependsOn.Nodes), "macros": macros}
	d["compiled_path"] = nil
	if n.CompiledPath != "" {
		d["compiled_path"] = n.CompiledPath
	}
	d["compiled"], d["compiled_code"] = n.CompiledCode != "", strOrNil(n.CompiledCode)
	d["extra_ctes_injected"], d["extra_ctes"] = n.CompiledCode != "", []any{}
	d["contract"] = map[string]any{"enforced": false, "alias_types": true, "checksum": nil}
	switch {
	case n.ResourceType == Model:
		d["access"], d["constraints"], d["version"], d["latest_version"] = "protected", []any{}, nil, nil
		d["deprecation_date"], d["primary_key"] = nil, []string{}
	case n.TestMetadata != nil:
		kw := orEmpty(n.TestMetadata.Kwargs)
		d["test_metadata"] = map[string]any{"name": n.TestMetadata.Name, "kwargs": kw, "namespace": nil}
		d["column_name"], d["attached_node"] = strOrNil(n.ColumnName), strOrNil(n.AttachedNode)
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
	cfg := map[string]any{"enabled": n.Config.Enabled || m.Sources[n.UniqueID] != nil, "meta": orEmpty(n.Config.Meta), "tags": tags,
		"loaded_at_field": strOrNil(n.LoadedAtField)}
	d := map[string]any{
		"unique_id": n.UniqueID, "resource_type": Source, "package_name": n.PackageName, "name": n.Name,
		"database": strOrNil(n.Database), "schema": n.Schema, "path": n.Path, "original_file_path": n.Path,
		"fqn": n.FQN, "source_name": n.SourceName, "source_description": n.srcDesc, "loader": n.srcLoader,
		"identifier": n.Identifier, "quoting": map[string]any{}, "loaded_at_field": strOrNil(n.LoadedAtField),
		"description": n.Description, "columns": columnsDoc(n.Columns), "meta": orEmpty(n.Config.Meta),
		"source_meta": map[string]any{}, "tags": tags, "config": cfg, "patch_path": nil,
		"unrendered_config": map[string]any{}, "relation_name": strOrNil(n.Relation), "doc_blocks": []string{},
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

// WriteArtifacts writes compiled SQL for every model and test (run-time
// SQL from rr when given), manifest.json and, when rr is not nil,
// run_results.json under targetDir.
func (m *Manifest) WriteArtifacts(targetDir string, rr *RunResults) error {
	compiled := map[string]string{}
	for id, n := range m.Nodes {
		if n.ResourceType == Model || n.ResourceType == Test || (n.ResourceType == UnitTest && n.CompiledCode != "") {
			compiled[id] = n.CompiledCode
		}
	}
	if rr != nil {
		for _, r := range rr.Results {
			if r.CompiledCode != "" {
				compiled[r.UniqueID] = r.CompiledCode
			}
		}
	}
	for id, sql := range compiled {
		n := m.Nodes[id]
		if n == nil {
			continue
		}
		p := filepath.Join(targetDir, filepath.FromSlash(compiledRel(n)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("runner: %w", err)
		}
		if err := os.WriteFile(p, []byte(sql), 0o644); err != nil {
			return fmt.Errorf("runner: %w", err)
		}
	}
	doc := m.ManifestDoc()
	if rr != nil {
		// one invocation: tools join the two artifacts on it
		for _, k := range []string{"invocation_id", "generated_at"} {
			if v, ok := rr.Metadata[k]; ok {
				doc.Metadata[k] = v
			}
		}
	}
	if err := writeJSON(filepath.Join(targetDir, "manifest.json"), doc); err != nil {
		return err
	}
	if rr != nil {
		if err := writeJSON(filepath.Join(targetDir, "run_results.json"), m.RunResultsDoc(rr)); err != nil {
			return err
		}
	}
	return nil
}

// RunResultsDoc is run_results.json in dbt's run-results v6 shape.
// docket's extras ride where the schema allows free keys: the command in
// args.which, a failing test's sample rows and a positioned error in
// adapter_response.
func (m *Manifest) RunResultsDoc(rr *RunResults) map[string]any {
	md := map[string]any{"env": map[string]string{}}
	for k, v := range rr.Metadata {
		switch k {
		case "dbt_schema_version", "dbt_version", "generated_at", "invocation_id", "invocation_started_at":
			md[k] = v
		}
	}
	md["dbt_schema_version"] = runResultsSchema
	args := map[string]any{}
	for k, v := range rr.Args {
		args[k] = v
	}
	if _, ok := args["which"]; !ok {
		if c, ok := rr.Metadata["docket_command"]; ok {
			args["which"] = c
		}
	}
	if len(m.Vars) > 0 {
		args["vars"] = m.Vars
	}
	results := []any{}
	for _, r := range rr.Results {
		timing := []any{}
		for _, t := range r.Timing {
			timing = append(timing, map[string]any{"name": t.Name, "started_at": t.StartedAt.UTC().Format(time.RFC3339Nano),
				"completed_at": t.CompletedAt.UTC().Format(time.RFC3339Nano)})
		}
		ar := map[string]any{"_message": r.AdapterResponse.Message, "rows_affected": r.AdapterResponse.RowsAffected}
		if r.Sample != nil {
			ar["sample"] = r.Sample
		}
		if r.Diagnostic != nil {
			ar["diagnostic"] = r.Diagnostic
		}
		rel := r.RelationName
		if rel == "" {
			if n := m.Nodes[r.UniqueID]; n != nil && n.ResourceType != Test {
				rel = n.Relation
			}
		}
		var failures any
		if r.Failures != nil {
			failures = *r.Failures
		}
		results = append(results, map[string]any{
			"unique_id": r.UniqueID, "status": r.Status, "timing": timing, "thread_id": r.ThreadID,
			"execution_time": r.ExecutionTime, "adapter_response": ar, "message": r.Message, "failures": failures,
			"compiled": r.CompiledCode != "", "compiled_code": strOrNil(r.CompiledCode), "relation_name": strOrNil(rel),
			"batch_results": nil,
		})
	}
	return map[string]any{"metadata": md, "results": results, "elapsed_time": rr.ElapsedTime, "args": args}
}

func writeJSON(path string, v any) error {
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
