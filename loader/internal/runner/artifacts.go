package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// compiledRel is where a node's compiled SQL goes, relative to the target
// folder.
func compiledRel(n *Node) string {
	if n.TestMetadata != nil {
		return "compiled/" + n.Path + "/" + n.Name + ".sql"
	}
	return "compiled/" + n.Path
}

// ManifestJSON is target/manifest.json, close to dbt's shape.
type ManifestJSON struct {
	Metadata  map[string]any         `json:"metadata"`
	Nodes     map[string]*Node       `json:"nodes"`
	Sources   map[string]*Node       `json:"sources"`
	Macros    map[string]any         `json:"macros"`
	UDFs      []map[string]string    `json:"udfs"`
	ParentMap map[string][]string    `json:"parent_map"`
	ChildMap  map[string][]string    `json:"child_map"`
	Vars      map[string]any         `json:"vars"`
	Disabled  map[string]interface{} `json:"disabled"`
}

// ManifestDoc builds the manifest document.
func (m *Manifest) ManifestDoc() *ManifestJSON {
	doc := &ManifestJSON{
		Metadata: map[string]any{"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
			"generated_at": time.Now().UTC().Format(time.RFC3339), "project_name": m.Name, "adapter_type": "duckdb",
			"generator": "docket"},
		Nodes: m.Nodes, Sources: m.Sources, Macros: map[string]any{}, UDFs: []map[string]string{},
		ParentMap: map[string][]string{}, ChildMap: map[string][]string{}, Vars: m.Vars, Disabled: map[string]any{},
	}
	for name, file := range m.Macros {
		doc.Macros["macro."+m.Name+"."+name] = map[string]string{"name": name, "original_file_path": file,
			"unique_id": "macro." + m.Name + "." + name, "package_name": m.Name}
	}
	for _, u := range m.UDFs {
		doc.UDFs = append(doc.UDFs, map[string]string{"name": u.Name, "signature": u.Signature(), "version": u.Version, "description": u.Doc})
	}
	sort.Slice(doc.UDFs, func(i, j int) bool { return doc.UDFs[i]["name"] < doc.UDFs[j]["name"] })
	for id := range m.Nodes {
		doc.ParentMap[id] = nonNil(m.Parents[id])
		doc.ChildMap[id] = nonNil(m.Children[id])
	}
	for id := range m.Sources {
		doc.ParentMap[id] = []string{}
		doc.ChildMap[id] = nonNil(m.Children[id])
	}
	return doc
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteArtifacts writes compiled SQL for every model and test (run-time
// SQL from rr when given), manifest.json and, when rr is not nil,
// run_results.json under targetDir.
func (m *Manifest) WriteArtifacts(targetDir string, rr *RunResults) error {
	compiled := map[string]string{}
	for id, n := range m.Nodes {
		if n.ResourceType == Model || n.ResourceType == Test {
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
		p := filepath.Join(targetDir, filepath.FromSlash(compiledRel(n)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("runner: %w", err)
		}
		if err := os.WriteFile(p, []byte(sql), 0o644); err != nil {
			return fmt.Errorf("runner: %w", err)
		}
	}
	if err := writeJSON(filepath.Join(targetDir, "manifest.json"), m.ManifestDoc()); err != nil {
		return err
	}
	if rr != nil {
		if err := writeJSON(filepath.Join(targetDir, "run_results.json"), rr); err != nil {
			return err
		}
	}
	return nil
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
