package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"

	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// lsKeys are the node keys dbt ls --output json prints without
// --output-keys (dbt's ListTask.ALLOWED_KEYS).
var lsKeys = []string{"alias", "config", "depends_on", "name", "original_file_path", "package_name", "resource_type", "source_name", "tags", "unique_id"}

// listDbtForm prints ids in dbt ls's --output forms: selector (the fqn
// joined by dots; source:pkg.source.table, exposure:pkg.name), name (the
// search name: source.table, model.v2), path (original_file_path) or json
// (one object a line, the manifest.json entry's lsKeys or --output-keys,
// keys sorted, as Python's json.dumps writes it).
func listDbtForm(m *runner.Manifest, ids []string, f *modelFlags, stdout, stderr io.Writer) int {
	var doc *compiler.ManifestJSON
	keys := lsKeys
	switch f.output {
	case "selector", "name", "path":
	case "json":
		doc = m.ManifestDoc()
		if len(f.outputKeys) > 0 {
			keys = strings.FieldsFunc(strings.Join(f.outputKeys, " "), func(r rune) bool { return r == ' ' || r == ',' })
		}
	default:
		fmt.Fprintf(stderr, "docket ls: --output must be selector, name, path or json (got %q)\n", f.output)
		return ExitUsage
	}
	for _, id := range ids {
		var d map[string]any
		if doc != nil {
			d = lsEntry(doc, id)
		} else if m.IsExposure(id) {
			d = map[string]any{"resource_type": "exposure", "name": strings.TrimPrefix(id, "exposure."+m.Name+"."),
				"package_name": m.Name, "original_file_path": ""}
		} else {
			n := m.Node(id)
			d = map[string]any{"resource_type": n.ResourceType, "name": n.Name, "package_name": n.PackageName,
				"source_name": n.SourceName, "original_file_path": n.Path, "fqn": n.FQN, "version": n.Version}
		}
		switch f.output {
		case "json":
			out := map[string]any{}
			for _, k := range keys {
				if v, ok := d[k]; ok {
					out[k] = v
				}
			}
			js, err := exec.PyJSONDumps(out, false) // json.dumps(sort_keys=True)
			if err != nil {
				js = "{}"
			}
			fmt.Fprintln(stdout, js)
		case "path":
			fmt.Fprintln(stdout, d["original_file_path"])
		case "name":
			fmt.Fprintln(stdout, lsSearchName(d))
		default:
			fmt.Fprintln(stdout, lsSelector(d))
		}
	}
	return ExitOK
}

// lsEntry is id's manifest.json entry.
func lsEntry(doc *compiler.ManifestJSON, id string) map[string]any {
	for _, group := range []map[string]map[string]any{doc.Nodes, doc.Sources, doc.Exposures, doc.UnitTests} {
		if d, ok := group[id]; ok {
			return d
		}
	}
	return map[string]any{"unique_id": id}
}

// lsSearchName is dbt's node.search_name: source_name.name for a source,
// name.v<version> for a versioned model, else the name.
func lsSearchName(d map[string]any) string {
	name := fmt.Sprint(d["name"])
	if d["resource_type"] == runner.Source {
		return fmt.Sprint(d["source_name"]) + "." + name
	}
	if v, _ := d["version"].(string); v != "" {
		return name + ".v" + v
	}
	return name
}

// lsSelector is dbt ls's default form.
func lsSelector(d map[string]any) string {
	switch d["resource_type"] {
	case runner.Source:
		return fmt.Sprintf("source:%s.%s.%s", d["package_name"], d["source_name"], d["name"])
	case runner.Exposure:
		return fmt.Sprintf("exposure:%s.%s", d["package_name"], d["name"])
	}
	if fqn, ok := d["fqn"].([]string); ok {
		return strings.Join(fqn, ".")
	}
	return fmt.Sprint(d["name"])
}
