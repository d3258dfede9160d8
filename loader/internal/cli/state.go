package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner"
)

// expandStateSelectors turns state:new and state:modified words into the
// names of the nodes that are new, or modified, against the manifest.json
// in the --state folder. As dbt's sub-selectors: state:modified.body (the
// SQL), .configs (the resolved config), .macros (a macro the node calls,
// directly or through other macros, project or package, changed or is
// new), .contract (config contract, and with an enforced contract the
// columns' names and data types) and .relation (the relation it builds:
// database, schema or alias); state:modified is any of them.
func expandStateSelectors(p *project.Project, stateDir string, args []string) ([]string, error) {
	uses := false
	for _, a := range args {
		if strings.Contains(a, "state:") {
			uses = true
		}
	}
	if !uses {
		return args, nil
	}
	if stateDir == "" {
		return nil, fmt.Errorf("state: selectors compare with a previous run's artifacts: give --state DIR (a copy of its target/ folder)")
	}
	var old struct {
		Nodes  map[string]map[string]any `json:"nodes"`
		Macros map[string]struct {
			SQL string `json:"macro_sql"`
		} `json:"macros"`
	}
	if err := readStateManifest(p, stateDir, &old); err != nil {
		return nil, err
	}
	m, diags, err := runner.Parse(p, parseOptions(projectUDFs(p)))
	if err != nil {
		return nil, err
	}
	if len(diags) > 0 {
		return nil, fmt.Errorf("%s", diags[0])
	}
	macroChanged := map[string]bool{}
	for id, old := range old.Macros {
		if cur, ok := m.MacroSQL(id); !ok || cur != old.SQL {
			macroChanged[id] = true
		}
	}
	kinds := []string{"modified.body", "modified.configs", "modified.macros", "modified.contract", "modified.relation"}
	changed := map[string][]string{}
	for id, n := range m.Nodes {
		var cur map[string]any
		cb, _ := json.Marshal(m.NodeDoc(n)) // as manifest.json has it
		json.Unmarshal(cb, &cur)
		prev, ok := old.Nodes[id]
		if !ok {
			changed["new"] = append(changed["new"], selectorName(n))
			changed["modified"] = append(changed["modified"], selectorName(n))
			for _, k := range kinds {
				changed[k] = append(changed[k], selectorName(n))
			}
			continue
		}
		is := map[string]bool{
			"modified.body":     !reflect.DeepEqual(prev["raw_code"], cur["raw_code"]),
			"modified.configs":  !reflect.DeepEqual(prev["config"], cur["config"]),
			"modified.contract": contractChanged(prev, cur),
			"modified.relation": !reflect.DeepEqual(prev["relation_name"], cur["relation_name"]),
		}
		for _, mac := range m.MacroClosure(n) {
			if macroChanged[mac] {
				is["modified.macros"] = true
				break
			}
			if _, known := old.Macros[mac]; !known {
				is["modified.macros"] = true // a macro the previous manifest did not have
				break
			}
		}
		mod := false
		for _, k := range kinds {
			if is[k] {
				changed[k] = append(changed[k], selectorName(n))
				mod = true
			}
		}
		if mod {
			changed["modified"] = append(changed["modified"], selectorName(n))
		}
	}
	out := make([]string, 0, len(args))
	for _, a := range args {
		if !strings.Contains(a, "state:") || strings.HasPrefix(a, "-") {
			out = append(out, a)
			continue
		}
		var words []string
		for _, w := range strings.Fields(a) {
			if !strings.Contains(w, "state:") {
				words = append(words, w)
				continue
			}
			if strings.Contains(w, ",") {
				return nil, fmt.Errorf("%q: state: selectors cannot be intersected with ',' in docket yet; use them on their own", w)
			}
			pre, core, post := "", w, ""
			if strings.HasPrefix(core, "+") {
				pre, core = "+", core[1:]
			}
			if strings.HasSuffix(core, "+") {
				post, core = "+", core[:len(core)-1]
			}
			kind := strings.TrimPrefix(core, "state:")
			names, ok := changed[kind]
			switch kind {
			case "new", "modified", "modified.body", "modified.configs", "modified.macros", "modified.contract", "modified.relation":
			default:
				return nil, fmt.Errorf("%q: state: takes new, modified, modified.body, modified.configs, modified.macros, modified.contract or modified.relation", w)
			}
			if !ok || len(names) == 0 {
				words = append(words, "__docket_no_state_"+kind)
				continue
			}
			sort.Strings(names)
			for _, n := range names {
				words = append(words, pre+n+post)
			}
		}
		out = append(out, strings.Join(words, " "))
	}
	return out, nil
}

// contractChanged compares two manifest nodes' contracts: config contract
// (a manifest without one had dbt's default, not enforced) and, when
// either enforces it, the columns' names and data types.
func contractChanged(prev, cur map[string]any) bool {
	contract := func(d map[string]any) map[string]any {
		cfg, _ := d["config"].(map[string]any)
		c, _ := cfg["contract"].(map[string]any)
		out := map[string]any{"enforced": false, "alias_types": true}
		for k, v := range c {
			if k == "enforced" || k == "alias_types" {
				out[k] = v
			}
		}
		return out
	}
	a, b := contract(prev), contract(cur)
	if !reflect.DeepEqual(a, b) {
		return true
	}
	if a["enforced"] != true {
		return false
	}
	cols := func(d map[string]any) map[string]any {
		out := map[string]any{}
		cs, _ := d["columns"].(map[string]any)
		for name, c := range cs {
			cm, _ := c.(map[string]any)
			out[strings.ToLower(name)] = cm["data_type"]
		}
		return out
	}
	return !reflect.DeepEqual(cols(prev), cols(cur))
}

// readStateManifest decodes the manifest.json of a --state folder (relative
// to the project) into v: the one reader of state: selectors and --defer.
func readStateManifest(p *project.Project, stateDir string, v any) error {
	if !filepath.IsAbs(stateDir) {
		stateDir = filepath.Join(p.Dir, stateDir)
	}
	b, err := os.ReadFile(filepath.Join(stateDir, "manifest.json"))
	if err != nil {
		return fmt.Errorf("--state: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("--state: manifest.json: %w", err)
	}
	return nil
}

// selectorName is the name that selects n alone: a version of a
// versioned model is name.vN (its name selects every version).
func selectorName(n *runner.Node) string {
	if n.Version != "" {
		return n.Name + ".v" + n.Version
	}
	return n.Name
}
