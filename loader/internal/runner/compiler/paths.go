package compiler

import (
	"path"
	"strings"
)

// dirs returns the project folders holding one kind of file ("models",
// "seeds", "macros", "tests", "snapshots"): dbt_project.yml's
// model-paths etc. when set, else the folder of that name.
func (m *Manifest) dirs(kind string) []string {
	if d := m.Project.DBT; d != nil {
		var l []string
		switch kind {
		case "models":
			l = d.ModelPaths
		case "seeds":
			l = d.SeedPaths
		case "macros":
			l = d.MacroPaths
		case "tests":
			l = d.TestPaths
		case "snapshots":
			l = d.SnapshotPaths
		case "analyses":
			l = d.AnalysisPaths
		case "docs":
			l = d.DocsPaths
		}
		if len(l) > 0 {
			out := make([]string, len(l))
			for i, p := range l {
				out[i] = strings.Trim(path.Clean(strings.ReplaceAll(p, "\\", "/")), "/")
			}
			return out
		}
	}
	return []string{kind}
}

// relParts splits a project-relative file path into its folders and file
// Name below the kind's folder that holds it.
func (m *Manifest) relParts(p, kind string) []string {
	for _, d := range m.dirs(kind) {
		if strings.HasPrefix(p, d+"/") {
			return strings.Split(strings.TrimPrefix(p, d+"/"), "/")
		}
	}
	return strings.Split(p, "/")[1:]
}

// readTrees reads every file under the folders with the extension.
func (m *Manifest) readTrees(dirs []string, ext string) (map[string]string, error) {
	out := map[string]string{}
	for _, d := range dirs {
		t, err := m.readTree(d, ext)
		if err != nil {
			return nil, err
		}
		for k, v := range t {
			out[k] = v
		}
	}
	return out, nil
}

// listTrees lists the files under the folders with the extension, sorted.
func (m *Manifest) listTrees(dirs []string, ext string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		l, err := m.listTree(d, ext)
		if err != nil {
			return nil, err
		}
		out = append(out, l...)
	}
	return out, nil
}

// testFolderConfig is dbt_project.yml's tests: (or data_tests:) config of
// a test declared in path (a schema file, or a singular test's .sql): the
// folders of path under its resource folder, then the test's name, as
// dbt's test fqn. Below the test block's config() and the YAML's.
func (m *Manifest) testFolderConfig(path, name string) map[string]any {
	var root map[string]any
	if m.Project.DBT != nil {
		root = m.Project.DBT.Tests
	}
	if pkg := m.pkgOf(path); pkg != m.Name {
		// a package's test: its own data_tests: tree, under the root's
		// top-level keys and <pkg>: tree, along the folders under the
		// package's own paths (as its models)
		pk := m.pkgDir(pkg)
		dirs := append(append(pk.pkgPaths(pk.modelPaths, "models"), pk.pkgPaths(pk.seedPaths, "seeds")...), pk.pkgPaths(pk.testPaths, "tests")...)
		return m.pkgFolderConfig(pkg, pk.tests, root, nodePath(partsBelow(path, dirs), name))
	}
	if len(root) == 0 {
		return map[string]any{}
	}
	parts := m.partsUnder(path, "models", "seeds", "tests")
	return m.folderConfig(m.Project.DBT.Tests, nodePath(parts, name))
}

// partsUnder is path split at its slashes below the resource folder of
// kinds holding it (the last that does), or below its first folder.
func (m *Manifest) partsUnder(path string, kinds ...string) []string {
	parts := strings.Split(path, "/")[1:]
	for _, kind := range kinds {
		for _, d := range m.dirs(kind) {
			if strings.HasPrefix(path, d+"/") {
				parts = strings.Split(strings.TrimPrefix(path, d+"/"), "/")
			}
		}
	}
	return parts
}

// unitTestConfig is a unit test's config: dbt_project.yml's unit_tests:
// by its fqn (the YAML file's folders under models/, the model, the test's
// name: dbt's UnitTestParser._build_fqn), then its own config: (tags
// added, meta merged, the rest its own winning).
func (m *Manifest) unitTestConfig(path, model, name string, own map[string]any) map[string]any {
	cfg := map[string]any{}
	if d := m.Project.DBT; d != nil && len(d.UnitTests) > 0 {
		folders := append(nodePath(m.partsUnder(path, "models"), model), name)
		cfg = m.folderConfig(d.UnitTests, folders)
	}
	for k, v := range own {
		mergeCfg(cfg, k, v)
	}
	return cfg
}
