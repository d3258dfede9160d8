package executor

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// WriteArtifacts writes compiled SQL for every model and test (run-time
// SQL from rr when given), manifest.json and, when rr is not nil,
// run_results.json under targetDir. Without rr (docket compile) analyses'
// SQL is written too, as `dbt compile` does (build and run do not).
func WriteArtifacts(m *compiler.Manifest, targetDir string, rr *RunResults) error {
	compiled := map[string]string{}
	for id, n := range m.Nodes {
		if n.Language == "python" {
			continue // not compiled: docket does not run Python (compiler/python.go)
		}
		if n.ResourceType == compiler.Model || n.ResourceType == compiler.Test || (n.ResourceType == compiler.UnitTest && n.CompiledCode != "") ||
			(n.ResourceType == compiler.Analysis && rr == nil) {
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
		p := filepath.Join(targetDir, filepath.FromSlash(m.CompiledRel(n)))
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
	if err := compiler.WriteJSON(filepath.Join(targetDir, "manifest.json"), doc); err != nil {
		return err
	}
	if rr != nil {
		if err := compiler.WriteJSON(filepath.Join(targetDir, "run_results.json"), RunResultsDoc(m, rr)); err != nil {
			return err
		}
	}
	return nil
}

// RunResultsDoc is run_results.json in dbt's run-results v6 shape.
// docket's extras ride where the schema allows free keys: the command in
// args.which, a failing test's sample rows and a positioned error in
// adapter_response.
func RunResultsDoc(m *compiler.Manifest, rr *RunResults) map[string]any {
	md := map[string]any{"env": map[string]string{}}
	for k, v := range rr.Metadata {
		switch k {
		case "dbt_schema_version", "dbt_version", "generated_at", "invocation_id", "invocation_started_at":
			md[k] = v
		}
	}
	md["dbt_schema_version"] = compiler.RunResultsSchema
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
		if r.AdapterResponse.StatementRows != nil {
			ar["statement_rows"] = *r.AdapterResponse.StatementRows
		}
		if r.Sample != nil {
			ar["sample"] = r.Sample
		}
		if r.Diagnostic != nil {
			ar["diagnostic"] = r.Diagnostic
		}
		rel := r.RelationName
		if rel == "" {
			if n := m.Nodes[r.UniqueID]; n != nil && n.ResourceType != compiler.Test {
				rel = n.Relation
			}
		}
		var failures any
		if r.Failures != nil {
			failures = *r.Failures
		}
		var batches any // dbt 1.9's batch_results: a microbatch model's
		if r.BatchResults != nil {
			batches = r.BatchResults
		}
		results = append(results, map[string]any{
			"unique_id": r.UniqueID, "status": r.Status, "timing": timing, "thread_id": r.ThreadID,
			"execution_time": r.ExecutionTime, "adapter_response": ar, "message": r.Message, "failures": failures,
			"compiled": r.CompiledCode != "", "compiled_code": compiler.StrOrNil(r.CompiledCode), "relation_name": compiler.StrOrNil(rel),
			"batch_results": batches,
		})
	}
	return map[string]any{"metadata": md, "results": results, "elapsed_time": rr.ElapsedTime, "args": args}
}
