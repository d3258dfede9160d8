package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"gopkg.in/yaml.v3"
)

// DBTFileName is dbt's project file. A folder with only dbt_project.yml is
// a docket project too: docket reads the dbt keys (and profiles.yml for a
// DuckDB target) and uses its defaults for the document settings.
const DBTFileName = "dbt_project.yml"

// DBT holds what docket reads from dbt_project.yml. Keys that project.yaml
// also sets win from project.yaml (see Project.Warnings).
type DBT struct {
	File          string // absolute path; "" when the folder has none
	Name          string
	Profile       string
	ModelPaths    []string
	SeedPaths     []string
	MacroPaths    []string
	TestPaths     []string
	AnalysisPaths []string
	SnapshotPaths []string
	DocsPaths     []string // docs-paths: where {% docs %} blocks are read; nil = every source path
	OnRunStart    []string
	OnRunEnd      []string
	Dispatch      []Dispatch
	Tests         map[string]any
	UnitTests     map[string]any // unit_tests: (+enabled, +tags, +meta)
	Snapshots     map[string]any
	FailFast      bool       // flags: fail_fast (dbt's --fail-fast for every command)
	WarnError     bool       // flags: warn_error, or warn_error_options erroring on all (dbt's --warn-error)
	Root          *yaml.Node // the parsed file, for positions
}

// Dispatch is one dispatch: entry of dbt_project.yml.
type Dispatch struct {
	MacroNamespace string   `yaml:"macro_namespace"`
	SearchOrder    []string `yaml:"search_order"`
}

// Target is the dbt target the runner builds into (profiles.yml, or the
// docket defaults: name dev, schema main).
type Target struct {
	Name, Schema, Type, ProfileName string
	Threads                         int
	File                            string // profiles.yml used, "" when none
	// ExternalRoot is dbt-duckdb's external_root (absolute): where an
	// external model without a location is written; "" is the project.
	ExternalRoot string
	// Attach are dbt-duckdb's attach: entries, attached on the runner's
	// connection for a build (attach.go).
	Attach []Attachment
	// Settings are dbt-duckdb's settings: entries docket applies, SET on
	// each of the runner's connections (settings.go).
	Settings []Setting
}

// Warning is a setting docket read but does not apply as written.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string { return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg) }

// dbtKnown are the dbt_project.yml keys docket reads or knowingly leaves
// to dbt (documented as not acted on).
var dbtActed = map[string]bool{"name": true, "profile": true, "model-paths": true, "seed-paths": true, "macro-paths": true,
	"test-paths": true, "snapshot-paths": true, "analysis-paths": true, "vars": true, "models": true, "seeds": true, "tests": true, "data_tests": true,
	"unit_tests": true, "snapshots": true, "on-run-start": true, "on-run-end": true, "dispatch": true, "target-path": true, "config-version": true,
	"version": true, "require-dbt-version": true, "source-paths": true, "data-paths": true, "clean-targets": true,
	"packages-install-path": true, "docs-paths": true}

// dbtIgnored are valid dbt keys with no effect on a DuckDB build (said once).
var dbtIgnored = map[string]bool{"dbt-cloud": true,
	"asset-paths": true, "log-path": true, "query-comment": true, "quoting": true,
	"sources": true, "semantic-models": true, "saved-queries": true, "metrics": true, "exposures": true, "restrict-access": true}

// dbtPathValue is a path setting of dbt_project.yml as dbt reads it:
// rendered with env_var when it holds Jinja ("{{ env_var('X', 'dbt_packages') }}");
// a value that does not render is warned and used as written.
func dbtPathValue(v *yaml.Node, warn func(n *yaml.Node, format string, a ...any)) string {
	if !strings.Contains(v.Value, "{{") && !strings.Contains(v.Value, "{%") {
		return v.Value
	}
	env, _ := render.NewEnv(nil)
	out, err := renderProfileValue(env, v.Value)
	if err != nil {
		warn(v, "%s: %v (used as written)", v.Value, err)
		return v.Value
	}
	return strings.TrimSpace(out)
}

func strList(n *yaml.Node) []string {
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.ScalarNode:
		return []string{n.Value}
	case n.Kind == yaml.SequenceNode:
		var out []string
		for _, c := range n.Content {
			out = append(out, c.Value)
		}
		return out
	}
	return nil
}

// hookList is on-run-start/on-run-end: strings, and {sql: ...,
// transaction: ...} mappings kept as the JSON hook dbt's before_begin()
// renders (the runner reads both as dbt's get_hook_dict does).
func hookList(n *yaml.Node) []string {
	if n == nil || n.Kind == yaml.ScalarNode {
		return strList(n)
	}
	items := n.Content
	if n.Kind == yaml.MappingNode {
		items = []*yaml.Node{n}
	}
	var out []string
	for _, c := range items {
		if c.Kind != yaml.MappingNode {
			out = append(out, c.Value)
			continue
		}
		var h map[string]any
		if err := c.Decode(&h); err != nil {
			out = append(out, c.Value)
			continue
		}
		b, _ := json.Marshal(h)
		out = append(out, string(b))
	}
	return out
}

// readDBT reads dir/dbt_project.yml into p; project.yaml values already in
// p win (with a warning when both set one).
func (p *Project) readDBT(set map[string]bool) error {
	file := filepath.Join(p.Dir, DBTFileName)
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return yamlErr(file, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("%s: expected a mapping", file)
	}
	root := doc.Content[0]
	d := &DBT{File: file, Root: root}
	warn := func(n *yaml.Node, format string, a ...any) {
		p.Warnings = append(p.Warnings, Warning{File: file, Line: n.Line, Msg: fmt.Sprintf(format, a...)})
	}
	decode := func(n *yaml.Node) map[string]any {
		var m map[string]any
		if err := n.Decode(&m); err != nil {
			warn(n, "expected a mapping: %v", err)
		}
		metaInOrder(m, n)
		return m
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "name":
			d.Name = v.Value
		case "profile":
			d.Profile = v.Value
		case "model-paths", "source-paths":
			d.ModelPaths = strList(v)
		case "seed-paths", "data-paths":
			d.SeedPaths = strList(v)
		case "macro-paths":
			d.MacroPaths = strList(v)
		case "test-paths":
			d.TestPaths = strList(v)
		case "analysis-paths":
			d.AnalysisPaths = strList(v)
		case "snapshot-paths":
			d.SnapshotPaths = strList(v)
		case "docs-paths":
			d.DocsPaths = strList(v)
		case "on-run-start", "on-run-end":
			if k.Value == "on-run-start" {
				d.OnRunStart = hookList(v)
			} else {
				d.OnRunEnd = hookList(v)
			}
		case "flags":
			d.FailFast, d.WarnError = dbtFlags(v, warn)
		case "dispatch":
			if err := v.Decode(&d.Dispatch); err != nil {
				warn(v, "dispatch: %v", err)
			}
		case "tests", "data_tests":
			d.Tests = decode(v)
		case "unit_tests":
			d.UnitTests = decode(v)
			warnUnitTestKeys(v, warn)
		case "snapshots":
			d.Snapshots = decode(v)
		case "vars":
			decode(v) // its error, at its line
			if v.Kind != yaml.MappingNode {
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				vk := v.Content[j].Value
				vv, err := render.DecodeYAML(v.Content[j+1]) // a mapping keeps the file's order
				if err != nil {
					warn(v.Content[j+1], "vars: %s: %v", vk, err)
					continue
				}
				if !set["vars."+vk] {
					p.Vars[vk] = vv
				}
			}
		case "models", "seeds":
			if set[k.Value] {
				warn(k, "%s: is set in both project.yaml and dbt_project.yml; project.yaml's wins and this one is not applied", k.Value)
				continue
			}
			if k.Value == "models" {
				p.Models = decode(v)
			} else {
				p.Seeds = decode(v)
			}
		case "target-path":
			if !set["target_dir"] {
				p.TargetDir = p.abs(dbtPathValue(v, warn))
			}
		case "packages-install-path":
			p.PackagesDir = p.abs(dbtPathValue(v, warn))
		case "config-version", "version", "require-dbt-version":
			// checked by the compiler (runner/compiler dbtversion.go),
			// which knows the dbt version docket builds as: an unmet
			// require-dbt-version and a config-version other than 2 are
			// warned at their line; version: is the project's own label,
			// which dbt only records.
		case "clean-targets": // read by docket clean
		default:
			if dbtIgnored[k.Value] {
				warn(k, "%s: is a dbt setting docket does not act on", k.Value)
			} else {
				warn(k, "unknown dbt_project.yml key %q: not applied", k.Value)
			}
		}
	}
	if d.Name == "" {
		return fmt.Errorf("%s: name is required", file)
	}
	if set["name"] && p.Name != d.Name {
		warn(root, "project.yaml names the project %q, dbt_project.yml %q: docket uses %q (the dbt name keys models:/seeds: configs and ref())", p.Name, d.Name, d.Name)
	}
	p.Name = d.Name
	p.DBT = d
	return nil
}

// unitTestConfigs are the configs dbt gives a unit test (UnitTestConfig).
var unitTestConfigs = map[string]bool{"enabled": true, "tags": true, "meta": true}

// warnUnitTestKeys warns, at its line, of each `+key` under unit_tests:
// that is not a unit test's config (dbt's UnitTestConfig has only
// enabled, tags and meta), so it is not applied.
func warnUnitTestKeys(n *yaml.Node, warn func(*yaml.Node, string, ...any)) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if key, ok := strings.CutPrefix(k.Value, "+"); ok && !unitTestConfigs[key] {
			warn(k, "unit_tests: %s is not a unit test config (enabled, tags, meta): not applied", k.Value)
			continue
		}
		warnUnitTestKeys(v, warn)
	}
}

// metaInOrder sets each meta / +meta mapping of tree, at any folder
// level, to the file's order (a *render.Mapping, as dbt's dict keeps it;
// yaml.v3's Go map has none). n is tree's YAML.
func metaInOrder(tree map[string]any, n *yaml.Node) {
	if tree == nil || n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		if v.Kind != yaml.MappingNode {
			continue
		}
		if k == "meta" || k == "+meta" {
			if m, err := render.DecodeYAML(v); err == nil {
				if mm, ok := m.(*render.Mapping); ok {
					tree[k] = mm
				}
			}
			continue
		}
		if sub, ok := tree[k].(map[string]any); ok {
			metaInOrder(sub, v)
		}
	}
}

// dbtFlagsSatisfied are dbt_project.yml flags: whose value docket already
// has (colors off, usage statistics, parsing and cache tuning, the version
// check, artifacts written, nodes skipped after a failed on-run-start):
// the value that changes nothing docket does, or any value for tuning.
var dbtFlagsSatisfied = map[string]func(v any) bool{
	"send_anonymous_usage_stats":       func(any) bool { return true }, // docket sends none
	"partial_parse":                    func(any) bool { return true },
	"static_parser":                    func(any) bool { return true },
	"use_experimental_parser":          func(any) bool { return true },
	"populate_cache":                   func(any) bool { return true },
	"cache_selected_only":              func(any) bool { return true },
	"version_check":                    func(any) bool { return true },
	"use_colors":                       func(v any) bool { return v == false },
	"use_colors_file":                  func(v any) bool { return v == false },
	"write_json":                       func(v any) bool { return v == true },
	"skip_nodes_if_on_run_start_fails": func(v any) bool { return v == true },
}

// dbtFlags reads dbt_project.yml's flags: fail_fast and warn_error (or
// warn_error_options making every warning an error) are applied
// (returned), a flag whose value docket has already is taken silently, any
// other is warned at its line as not acted on (it was one warning for the
// whole block, fail_fast included).
func dbtFlags(v *yaml.Node, warn func(n *yaml.Node, format string, a ...any)) (failFast, warnError bool) {
	if v.Kind != yaml.MappingNode {
		warn(v, "flags: expected a mapping")
		return false, false
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		var x any
		_ = val.Decode(&x)
		switch ok := dbtFlagsSatisfied[k.Value]; {
		case k.Value == "fail_fast":
			failFast = x == true
		case k.Value == "warn_error":
			warnError = warnError || x == true
		case k.Value == "warn_error_options":
			all, why := WarnErrorOptions(x)
			warnError = warnError || all
			if why != "" {
				warn(k, "flags: warn_error_options: %s", why)
			}
		case ok != nil && ok(x):
		default:
			warn(k, "flags: %s is a dbt flag docket does not act on", k.Value)
		}
	}
	return failFast, warnError
}

// WarnErrorOptions reads dbt's warn_error_options (--warn-error-options,
// or dbt_project.yml's flags), already decoded from YAML: all is true when
// it makes every warning an error (include/error: all or [all]); why, when
// not empty, says what of it docket does not apply. docket's warnings are
// not dbt's events, so naming events (include: [NoNodesForSelectionCriteria])
// or leaving some out (exclude/warn/silence) cannot be honoured: named
// events are not applied, exclusions under all are not either (every
// warning is an error).
func WarnErrorOptions(v any) (all bool, why string) {
	m, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			return false, ""
		}
		return false, fmt.Sprintf("expected a mapping of include/error and exclude/warn/silence, got %v", v)
	}
	var named, excluded []string
	for k, val := range m {
		var list []string
		switch x := val.(type) {
		case string:
			list = []string{x}
		case []any:
			for _, e := range x {
				list = append(list, fmt.Sprint(e))
			}
		}
		switch k {
		case "include", "error":
			for _, e := range list {
				if strings.EqualFold(e, "all") || e == "*" {
					all = true
				} else {
					named = append(named, e)
				}
			}
		case "exclude", "warn", "silence":
			excluded = append(excluded, list...)
		default:
			return all, fmt.Sprintf("%s is not a key of warn_error_options (include/error, exclude/warn, silence)", k)
		}
	}
	sort.Strings(named)
	sort.Strings(excluded)
	switch {
	case len(named) > 0 && !all:
		return false, fmt.Sprintf("names dbt events (%s) that docket does not emit: its warnings stay warnings (include: all makes every one an error)", strings.Join(named, ", "))
	case all && len(excluded) > 0:
		return true, fmt.Sprintf("every warning is an error: docket's warnings are not dbt's events, so %s cannot be left out", strings.Join(excluded, ", "))
	}
	return all, ""
}
