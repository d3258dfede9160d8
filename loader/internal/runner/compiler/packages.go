package compiler

import (
	"github.com/docket-dev/docket/loader/internal/runner/dbtmacros"

	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// builtinMacros are docket's dbt.* macros (package "dbt").
func builtinMacros() map[string]string {
	out := map[string]string{}
	fs.WalkDir(dbtmacros.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := dbtmacros.FS.ReadFile(p)
			out["<dbt>/dbtmacros/"+p] = string(b)
		}
		return nil
	})
	return out
}

// pkgDir is an installed package: its name (from its dbt_project.yml) and
// folder, slash-separated and relative to the project ("dbt_packages/x",
// or "../x" for a local package outside it).
type pkgDir struct {
	name, dir             string
	modelPaths, seedPaths []string       // its dbt_project.yml's (pkgmodels.go)
	models, seeds, vars   map[string]any // its dbt_project.yml's models:, seeds:, vars:
	snapshots             map[string]any // its dbt_project.yml's snapshots:
	tests                 map[string]any // its dbt_project.yml's tests: / data_tests:
	// what docket does not build of a package yet (warnPackageUnbuilt)
	snapshotPaths, testPaths, analysisPaths []string
	macroPaths                              []string // its macro-paths (schema YAML; packageMacroFiles reads the macros)
	onRunStart, onRunEnd                    []string // its on-run-start / on-run-end hooks (RunHooks)
}

// findPackages lists the packages docket can use, without network: local:
// entries of packages.yml / dependencies.yml and the folders already under
// dbt_packages/. A listed package that is not there is a warning.
func (m *Manifest) findPackages() ([]pkgDir, error) {
	var out []pkgDir
	seen := map[string]bool{}
	add := func(d string) error {
		d = path.Clean(filepath.ToSlash(d))
		b, err := m.readFile(d + "/dbt_project.yml")
		if err != nil {
			return err
		}
		var dp struct {
			Name        string         `yaml:"name"`
			ModelPaths  []string       `yaml:"model-paths"`
			SourcePaths []string       `yaml:"source-paths"`
			SeedPaths   []string       `yaml:"seed-paths"`
			DataPaths   []string       `yaml:"data-paths"`
			Models      map[string]any `yaml:"models"`
			Seeds       map[string]any `yaml:"seeds"`
			SnapCfg     map[string]any `yaml:"snapshots"`
			TestCfg     map[string]any `yaml:"tests"`
			DataTests   map[string]any `yaml:"data_tests"`
			Vars        map[string]any `yaml:"vars"`
			Snapshots   []string       `yaml:"snapshot-paths"`
			Tests       []string       `yaml:"test-paths"`
			Analyses    []string       `yaml:"analysis-paths"`
			Macros      []string       `yaml:"macro-paths"`
			OnRunStart  any            `yaml:"on-run-start"`
			OnRunEnd    any            `yaml:"on-run-end"`
		}
		if err := yaml.Unmarshal(b, &dp); err != nil {
			return fmt.Errorf("%s: %w", d+"/dbt_project.yml", err)
		}
		if dp.Name == "" || seen[dp.Name] || dp.Name == m.Name {
			return nil
		}
		seen[dp.Name] = true
		m.checkDbtProjectVersions(d+"/dbt_project.yml", b)
		pk := pkgDir{name: dp.Name, dir: d, modelPaths: append(dp.ModelPaths, dp.SourcePaths...),
			seedPaths: append(dp.SeedPaths, dp.DataPaths...), models: dp.Models, seeds: dp.Seeds, vars: dp.Vars,
			snapshotPaths: dp.Snapshots, testPaths: dp.Tests, analysisPaths: dp.Analyses, macroPaths: dp.Macros, tests: dp.TestCfg, snapshots: dp.SnapCfg}
		if pk.tests == nil {
			pk.tests = dp.DataTests // data_tests: is dbt >= 1.8's name for tests:
		} else {
			for k, v := range dp.DataTests {
				pk.tests[k] = v
			}
		}
		pk.onRunStart, pk.onRunEnd = hookStrings(dp.OnRunStart), hookStrings(dp.OnRunEnd)
		out = append(out, pk)
		return nil
	}
	var listed []string
	for _, f := range []string{"packages.yml", "dependencies.yml"} {
		b, err := m.readFile(f)
		if err != nil {
			continue
		}
		var doc struct {
			Packages []map[string]any `yaml:"packages"`
		}
		if err := yaml.Unmarshal(b, &doc); err != nil {
			m.warn(f, Position{1, 1}, "cannot read %s: %v", f, err)
			continue
		}
		for _, p := range doc.Packages {
			if l, ok := p["local"].(string); ok {
				if err := add(l); err != nil {
					m.warn(f, Position{1, 1}, "local package %s: %v", l, err)
				}
				continue
			}
			name := fmt.Sprint(p["package"])
			if g, ok := p["git"].(string); ok {
				name = g
			}
			listed = append(listed, name)
		}
	}
	// dbt_project.yml's packages-install-path (default dbt_packages)
	installDir := "dbt_packages"
	if d := m.Project.PackagesDir; d != "" {
		installDir = d
		if rel, ok := m.inside(d); ok {
			installDir = rel
		}
	}
	var entries []fs.DirEntry
	pkgFS, err := m.dirFS(installDir)
	if err == nil {
		entries, _ = fs.ReadDir(pkgFS, ".")
	}
	for _, e := range entries {
		d := path.Join(filepath.ToSlash(installDir), e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			// dbt deps links a local: package in; a shared checkout is
			// often linked by hand: the folder it points to is the package
			fi, err := fs.Stat(pkgFS, e.Name())
			if err != nil {
				m.warn(d, Position{1, 1}, "not a dbt package: %v", err)
				continue
			}
			isDir = fi.IsDir()
		}
		if isDir {
			if err := add(d); err != nil {
				m.warn(d, Position{1, 1}, "not a dbt package: %v", err)
			}
		}
	}
	for _, l := range listed {
		base := strings.TrimSuffix(filepath.Base(l), ".git")
		short := base
		if i := strings.LastIndex(base, "/"); i >= 0 {
			short = base[i+1:]
		}
		found := false
		for _, p := range out {
			if strings.EqualFold(p.name, short) || strings.EqualFold(strings.ReplaceAll(p.name, "_", "-"), short) ||
				strings.HasSuffix(strings.ToLower(l), "/"+p.name) || strings.Contains(strings.ReplaceAll(strings.ToLower(l), "-", "_"), p.name) {
				found = true
			}
		}
		if !found {
			m.pkgsMissing = true
			m.missingPkgs = append(m.missingPkgs, short)
			m.warn("packages.yml", Position{1, 1}, "package %s is listed but not installed under %s/: docket never downloads packages (run `dbt deps` once, or use a local: entry); its macros are unavailable", l, installDir)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// packageMacroFiles reads a package's macro files (macro-paths, default
// macros/, plus tests/generic), keyed by a path that names the package.
func (m *Manifest) packageMacroFiles(p pkgDir) (map[string]string, error) {
	b, _ := m.readFile(p.dir + "/dbt_project.yml")
	var dp struct {
		MacroPaths []string `yaml:"macro-paths"`
		TestPaths  []string `yaml:"test-paths"`
	}
	yaml.Unmarshal(b, &dp)
	dirs := dp.MacroPaths
	if len(dirs) == 0 {
		dirs = []string{"macros"}
	}
	tests := dp.TestPaths
	if len(tests) == 0 {
		tests = []string{"tests"}
	}
	for _, t := range tests {
		dirs = append(dirs, path.Join(t, "generic"))
	}
	out := map[string]string{}
	for _, d := range dirs {
		files, err := m.listTree(path.Join(p.dir, filepath.ToSlash(d)), ".sql")
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := m.readFile(f)
			if err != nil {
				return nil, err
			}
			out[f] = string(b)
		}
	}
	return out, nil
}

// hookStrings reads an on-run-start/on-run-end value of a package's
// dbt_project.yml as dbt does: one hook or a list, a mapping ({sql:,
// transaction:}) kept as its JSON (RenderRunHook runs its sql).
func hookStrings(v any) []string {
	var out []string
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	for _, it := range items {
		switch h := it.(type) {
		case nil:
		case string:
			out = append(out, h)
		case map[string]any:
			b, _ := json.Marshal(h)
			out = append(out, string(b))
		default:
			out = append(out, fmt.Sprint(h))
		}
	}
	return out
}
