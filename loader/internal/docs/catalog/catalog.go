// Package catalog reads the runner's artifacts (target/manifest.json and
// run_results.json) and builds target/catalog.json, dbt's catalog
// artifact: every relation's columns, types and row count, keyed by the
// manifest's unique ids.
package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/duckmsg"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Node is the part of a manifest node (or source) the docs site uses.
type Node struct {
	UniqueID     string            `json:"unique_id"`
	Name         string            `json:"name"`
	ResourceType string            `json:"resource_type"`
	Schema       string            `json:"schema"`
	Alias        string            `json:"alias"`
	Identifier   string            `json:"identifier"`
	SourceName   string            `json:"source_name"`
	RelationName string            `json:"relation_name"`
	Database     string            `json:"database"`
	Path         string            `json:"original_file_path"`
	Description  string            `json:"description"`
	RawCode      string            `json:"raw_code"`
	CompiledCode string            `json:"compiled_code"`
	Config       map[string]any    `json:"config"`
	Columns      map[string]Column `json:"columns"`
	DependsOn    struct {
		Nodes []string `json:"nodes"`
	} `json:"depends_on"`
	AttachedNode string `json:"attached_node"`
	ColumnName   string `json:"column_name"`
}

// Column as declared in schema.yml.
type Column struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Materialized is the node's materialization (config.materialized).
func (n *Node) Materialized() string {
	if s, ok := n.Config["materialized"].(string); ok {
		return s
	}
	return ""
}

// Manifest is target/manifest.json as the docs site reads it.
type Manifest struct {
	Metadata map[string]any   `json:"metadata"`
	Nodes    map[string]*Node `json:"nodes"`
	Sources  map[string]*Node `json:"sources"`
	// Functions are the Go UDFs (dbt's functions; the signature is in
	// config.meta).
	Functions map[string]struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Config      struct {
			Meta struct {
				Signature string `json:"signature"`
			} `json:"meta"`
		} `json:"config"`
	} `json:"functions"`
	UDFs      []UDF               `json:"-"` // Functions by name
	ParentMap map[string][]string `json:"parent_map"`
}

// UDF is a Go UDF the models may call.
type UDF struct{ Name, Signature, Description string }

// All returns nodes and sources together, sorted by unique id.
func (m *Manifest) All() []*Node {
	var out []*Node
	for _, n := range m.Nodes {
		out = append(out, n)
	}
	for _, n := range m.Sources {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UniqueID < out[j].UniqueID })
	return out
}

// Parents returns the unique ids a node depends on.
func (m *Manifest) Parents(id string) []string {
	if p, ok := m.ParentMap[id]; ok {
		return p
	}
	if n := m.Nodes[id]; n != nil {
		return n.DependsOn.Nodes
	}
	return nil
}

// Result is one entry of run_results.json.
type Result struct {
	UniqueID      string  `json:"unique_id"`
	Status        string  `json:"status"`
	Message       string  `json:"message"`
	Failures      *int    `json:"failures"`
	ExecutionTime float64 `json:"execution_time"`
}

// RunResults is target/run_results.json.
type RunResults struct {
	Metadata map[string]any `json:"metadata"`
	Results  []Result       `json:"results"`
}

// ByID indexes the results by unique id.
func (r *RunResults) ByID() map[string]Result {
	out := map[string]Result{}
	if r == nil {
		return out
	}
	for _, x := range r.Results {
		out[x.UniqueID] = x
	}
	return out
}

// ReadArtifacts reads manifest.json (required: run `docket compile` or
// `docket build` first) and run_results.json (optional) from targetDir.
func ReadArtifacts(targetDir string) (*Manifest, *RunResults, error) {
	var m Manifest
	if err := readJSON(filepath.Join(targetDir, "manifest.json"), &m); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("catalog: %s has no manifest.json: run `docket compile` or `docket build` first", targetDir)
		}
		return nil, nil, err
	}
	for _, f := range m.Functions {
		m.UDFs = append(m.UDFs, UDF{Name: f.Name, Signature: f.Config.Meta.Signature, Description: f.Description})
	}
	sort.Slice(m.UDFs, func(i, j int) bool { return m.UDFs[i].Name < m.UDFs[j].Name })
	var rr RunResults
	if err := readJSON(filepath.Join(targetDir, "run_results.json"), &rr); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &m, nil, nil
		}
		return nil, nil, err
	}
	return &m, &rr, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("catalog: %s: %w", path, err)
	}
	return nil
}

// Catalog is dbt's catalog artifact (schema catalog/v1).
type Catalog struct {
	Metadata map[string]any   `json:"metadata"`
	Nodes    map[string]Table `json:"nodes"`
	Sources  map[string]Table `json:"sources"`
	Errors   []string         `json:"errors"`
}

// Table is one relation of the catalog.
type Table struct {
	Metadata TableMeta           `json:"metadata"`
	Columns  map[string]ColMeta  `json:"columns"`
	Stats    map[string]StatItem `json:"stats"`
	UniqueID string              `json:"unique_id"`
}

// TableMeta is a relation's metadata.
type TableMeta struct {
	Type     string  `json:"type"`
	Schema   string  `json:"schema"`
	Name     string  `json:"name"`
	Database *string `json:"database"`
	Comment  *string `json:"comment"`
	Owner    *string `json:"owner"`
}

// ColMeta is one column.
type ColMeta struct {
	Type    string  `json:"type"`
	Index   int     `json:"index"`
	Name    string  `json:"name"`
	Comment *string `json:"comment"`
}

// StatItem is one statistic (dbt's shape).
type StatItem struct {
	ID          string  `json:"id"`
	Label       string  `json:"label"`
	Value       any     `json:"value"`
	Include     bool    `json:"include"`
	Description *string `json:"description"`
}

// Build makes the catalog from the warehouse's relations and the manifest:
// models, seeds and snapshots go under nodes, sources under sources. A
// relation of the warehouse that the manifest does not name (for example a
// loader table no source declares) is listed under nodes with a
// "relation.<schema>.<name>" id so that every relation is in the catalog;
// a manifest node without a relation is named in errors. The runner's own
// records are left out.
func Build(m *Manifest, rels []warehouse.Relation, now time.Time) *Catalog {
	c := &Catalog{
		Metadata: map[string]any{"dbt_schema_version": "https://schemas.getdbt.com/dbt/catalog/v1.json",
			"dbt_version": "docket", "generated_at": now.UTC().Format(time.RFC3339), "invocation_id": nil, "env": map[string]string{}},
		Nodes: map[string]Table{}, Sources: map[string]Table{}, Errors: nil,
	}
	byRel := map[string]*warehouse.Relation{}
	for i := range rels {
		byRel[relKey(&rels[i])] = &rels[i]
	}
	used := map[string]bool{}
	db := "warehouse"
	for _, n := range m.All() {
		switch n.ResourceType {
		case "model", "seed", "snapshot", "source":
		default:
			continue
		}
		if n.Materialized() == "ephemeral" {
			continue
		}
		key := strings.ToLower(RelationOf(n))
		r := byRel[key]
		if r != nil && r.Type == "" {
			// an external location DuckDB could not read (externalRelations)
			c.Errors = append(c.Errors, fmt.Sprintf("%s: external location %s could not be described: %s",
				n.UniqueID, RelationOf(n), duckmsg.ErrorLine(r.RowsErr)))
			used[key] = true
			continue
		}
		if r == nil {
			c.Errors = append(c.Errors, fmt.Sprintf("%s: relation %s is not in the warehouse (not built yet?)", n.UniqueID, RelationOf(n)))
			continue
		}
		used[key] = true
		t := table(r, &db, n.UniqueID)
		if r.Schema == "" { // an external location or an attached database's table: named as the source's table
			t.Metadata.Schema, t.Metadata.Name = n.Schema, tableName(n)
			if r.Type != "EXTERNAL" && n.Database != "" {
				t.Metadata.Database = &n.Database
			}
		}
		if n.ResourceType == "source" {
			c.Sources[n.UniqueID] = t
		} else {
			c.Nodes[n.UniqueID] = t
		}
	}
	for i := range rels {
		r := &rels[i]
		key := relKey(r)
		if used[key] || runnerRecords[key] || r.Schema == "" {
			continue
		}
		id := "relation." + r.Schema + "." + r.Name
		c.Nodes[id] = table(r, &db, id)
	}
	sort.Strings(c.Errors)
	return c
}

// runnerRecords are the runner's own bookkeeping tables (runner/state.go,
// runner/delta.go): not data a reader looks for, and never in dbt's catalog.
var runnerRecords = map[string]bool{"ops.build_state": true, "ops.build_deltas": true}

// relKey is how Build matches a relation with RelationOf: schema.name,
// or the location itself for an external one (no schema).
func relKey(r *warehouse.Relation) string {
	if r.Schema == "" {
		return strings.ToLower(r.Name)
	}
	return strings.ToLower(r.Schema + "." + r.Name)
}

// IsExternal: the node's relation is an external location (a source's
// meta.external_location, read_csv('...') or a path), not a table.
func IsExternal(n *Node) bool {
	return n.ResourceType == "source" && strings.ContainsAny(n.RelationName, "('/")
}

// tableName is the node's table name (its identifier, alias or name).
func tableName(n *Node) string {
	for _, s := range []string{n.Identifier, n.Alias} {
		if s != "" {
			return s
		}
	}
	return n.Name
}

// RelationOf is schema.name of a node's relation.
func RelationOf(n *Node) string {
	if n.RelationName != "" {
		return n.RelationName
	}
	name := n.Alias
	if n.Identifier != "" {
		name = n.Identifier
	}
	if name == "" {
		name = n.Name
	}
	return n.Schema + "." + name
}

func table(r *warehouse.Relation, db *string, id string) Table {
	t := Table{
		Metadata: TableMeta{Type: r.Type, Schema: r.Schema, Name: r.Name, Database: db, Comment: strPtr(r.Comment)},
		Columns:  map[string]ColMeta{}, UniqueID: id,
		Stats: map[string]StatItem{"has_stats": {ID: "has_stats", Label: "Has Stats?", Value: true, Include: false,
			Description: strPtr("Indicates whether there are statistics for this table")}},
	}
	for _, col := range r.Columns {
		t.Columns[col.Name] = ColMeta{Type: col.Type, Index: col.Index, Name: col.Name, Comment: strPtr(col.Comment)}
	}
	if r.RowsErr == "" {
		t.Stats["row_count"] = StatItem{ID: "row_count", Label: "Row Count", Value: r.Rows, Include: true,
			Description: strPtr("Rows in the relation when the catalog was generated")}
	}
	return t
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Write writes the catalog as JSON to path (atomically).
func (c *Catalog) Write(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	return nil
}
