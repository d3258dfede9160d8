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

// expandStateSelectors turns state:new and state:modified (also
// state:modified.body and state:modified.configs) words into the names of
// the nodes that are new, or whose SQL or config differ, against the
// manifest.json in the --state folder.
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
	if !filepath.IsAbs(stateDir) {
		stateDir = filepath.Join(p.Dir, stateDir)
	}
	b, err := os.ReadFile(filepath.Join(stateDir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("--state: %w", err)
	}
	var old struct {
		Nodes map[string]map[string]any `json:"nodes"`
	}
	if err := json.Unmarshal(b, &old); err != nil {
		return nil, fmt.Errorf("--state: manifest.json: %w", err)
	}
	m, diags, err := runner.Parse(p, runner.ParseOptions{UDFs: projectUDFs(p)})
	if err != nil {
		return nil, err
	}
	if len(diags) > 0 {
		return nil, fmt.Errorf("%s", diags[0])
	}
	changed := map[string][]string{}
	for id, n := range m.Nodes {
		var cur map[string]any
		cb, _ := json.Marshal(m.NodeDoc(n)) // as manifest.json has it
		json.Unmarshal(cb, &cur)
		prev, ok := old.Nodes[id]
		if !ok {
			changed["new"] = append(changed["new"], n.Name)
			changed["modified"] = append(changed["modified"], n.Name)
			changed["modified.body"] = append(changed["modified.body"], n.Name)
			changed["modified.configs"] = append(changed["modified.configs"], n.Name)
			continue
		}
		body := !reflect.DeepEqual(prev["raw_code"], cur["raw_code"])
		configs := !reflect.DeepEqual(prev["config"], cur["config"])
		if body {
			changed["modified.body"] = append(changed["modified.body"], n.Name)
		}
		if configs {
			changed["modified.configs"] = append(changed["modified.configs"], n.Name)
		}
		if body || configs {
			changed["modified"] = append(changed["modified"], n.Name)
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
			case "new", "modified", "modified.body", "modified.configs":
			default:
				return nil, fmt.Errorf("%q: state: takes new, modified, modified.body or modified.configs", w)
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
