package compiler

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Model versions (dbt >= 1.5). A models: entry with versions: makes each
// version a model of its own, read from its file (defined_in, else
// <name>_v<v>.sql; the latest may be <name>.sql): unique_id
// model.<project>.<name>.v<v>, name <name>, fqn ending in <name>, v<v>,
// relation <name>_v<v> unless aliased. Each version takes the entry's
// description, config, columns and tests, its own keys winning (columns:
// include/exclude the entry's, then add its own). ref('name') is the
// latest_version (the greatest when not set); ref('name', v=N) or
// version=N the one version. The version of a ref is kept in its key
// (versionKey) so depends_on, the graph and manifest.json's refs see it.

// versionKey is the byName key of one version of a versioned model.
func versionKey(name, v string) string { return name + "@v" + v }

// splitRefKey is a ref key's model name and version ("" unversioned).
func splitRefKey(k string) (name, v string) {
	name, v, _ = strings.Cut(k, "@v")
	return name, v
}

// refKey is n's byName key.
func (n *Node) refKey() string {
	if n.Version != "" {
		return versionKey(n.Name, n.Version)
	}
	return n.Name
}

// verStr is a version as dbt prints it: 1 → "1", 1.5 → "1.5".
func verStr(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return strings.TrimSpace(x)
	}
	return fmt.Sprint(v)
}

// versionValue is a version as manifest.json holds it: a number when it
// is one, else the string (nil: unversioned).
func versionValue(v string) any {
	if v == "" {
		return nil
	}
	if i, err := strconv.Atoi(v); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
}

// versionLess orders versions as numbers when both are, else as text.
func versionLess(a, b string) bool {
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	if ea == nil && eb == nil {
		return fa < fb
	}
	return a < b
}

// versionsOf lists the versions of a versioned model, in order.
func (m *Manifest) versionsOf(name string) []string {
	var out []string
	for k := range m.byName {
		if n, v := splitRefKey(k); n == name && v != "" {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return versionLess(out[i], out[j]) })
	return out
}

type modelVersion struct {
	v string
	y *yaml.Node
}

// readVersions reads a models: entry e with versions: and returns the
// tests of every version.
func (m *Manifest) readVersions(path string, e *yaml.Node, diags *[]Diagnostic) []testSpec {
	name := ystr(e, "name")
	bad := func(at Position, format string, a ...any) {
		*diags = append(*diags, Diagnostic{Path: path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf("model %s: ", name) + fmt.Sprintf(format, a...)})
	}
	vers, latest := m.listVersions(e, bad)
	if len(vers) == 0 {
		return nil
	}
	unversioned := m.byName[name]
	var specs []testSpec
	for _, x := range vers {
		file := ystr(x.y, "defined_in")
		if file == "" {
			file = name + "_v" + x.v
		}
		n, missing := m.byName[file], file+".sql"
		if n == nil && x.v == latest && ystr(x.y, "defined_in") == "" {
			file, n = name, unversioned // the latest may be the unsuffixed file
			missing += " (or " + name + ".sql)"
		}
		if n == nil || n.ResourceType != Model || n.Version != "" {
			m.warn(path, ypos(x.y), "model %s version %s: no model file %s (name it so, or say defined_in:): not built", name, x.v, missing)
			continue
		}
		m.versionNode(n, file, name, x.v, latest)
		specs = append(specs, m.patchNode(path, Model, n, versionEntry(e, x.y), diags)...)
	}
	if unversioned != nil && unversioned.Version == "" && unversioned.ResourceType == Model {
		*diags = append(*diags, Diagnostic{Path: unversioned.Path, Line: 1, Col: 1,
			Msg: fmt.Sprintf("model %s is also a versioned model in %s (none of its versions is defined in this file): rename the file or list it as a version's defined_in", name, path)})
	}
	if l := m.byName[versionKey(name, latest)]; l != nil {
		m.setRef(l.PackageName, name, l) // ref('name') reads the latest version
	}
	return specs
}

// listVersions reads versions: (each with v:, once) and latest_version
// (the greatest when not set).
func (m *Manifest) listVersions(e *yaml.Node, bad func(Position, string, ...any)) ([]modelVersion, string) {
	var vers []modelVersion
	seen := map[string]bool{}
	for _, y := range yseq(yget(e, "versions")) {
		vn := yget(y, "v")
		v := verStr(yany(vn))
		switch {
		case vn == nil || v == "":
			bad(ypos(y), "a version needs v: (its number or name)")
		case seen[v]:
			bad(ypos(vn), "version %s is listed twice", v)
		default:
			seen[v] = true
			vers = append(vers, modelVersion{v, y})
		}
	}
	if len(vers) == 0 {
		bad(ypos(yget(e, "versions")), "versions: lists no version")
		return nil, ""
	}
	latest := verStr(yany(yget(e, "latest_version")))
	if latest == "" {
		for _, x := range vers {
			if latest == "" || versionLess(latest, x.v) {
				latest = x.v
			}
		}
	} else if !seen[latest] {
		bad(ypos(yget(e, "latest_version")), "latest_version %s is not one of its versions", latest)
	}
	return vers, latest
}

// versionNode makes n, read from models/.../<file>.sql, version v of
// model name: its unique_id, name, fqn and default relation.
func (m *Manifest) versionNode(n *Node, file, name, v, latest string) {
	delete(m.Nodes, n.UniqueID)
	m.setRef(n.PackageName, file, nil)
	n.UniqueID = Model + "." + n.PackageName + "." + name + ".v" + v
	n.Name, n.Version, n.LatestVersion = name, v, latest
	n.FQN = append(append(n.FQN[:len(n.FQN)-1:len(n.FQN)-1], name), "v"+v)
	// project-file configs apply by the new fqn, as dbt's patch_node_config:
	// models: <name>: configures every version, <name>: v1: one
	n.folderCfg = m.folderConfig(m.Project.Models, n.FQN[1:])
	if n.PackageName != m.Name {
		n.folderCfg = m.pkgFolderConfig(n.PackageName, m.pkgDir(n.PackageName).models, m.Project.Models, n.FQN[1:])
	}
	n.Alias = versionAlias(name, v)
	n.Relation = Relation(n.Schema, n.Alias)
	m.Nodes[n.UniqueID] = n
	m.setRef(n.PackageName, versionKey(name, v), n)
}

// versionAlias is dbt's default alias of a version: <name>_v<v>, dots as _.
func versionAlias(name, v string) string { return name + "_v" + strings.ReplaceAll(v, ".", "_") }

// deprecationDate is a YAML date as manifest.json writes it (RFC 3339).
func deprecationDate(s string) string {
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	return s
}

// versionEntry is the models: entry of one version: the version's keys,
// then the entry's it does not set (tests and data_tests as one), with
// the columns the version includes and the two configs merged.
func versionEntry(e, ver *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Line: ver.Line, Column: ver.Column}
	own := map[string]bool{}
	for i := 0; i+1 < len(ver.Content); i += 2 {
		k := ver.Content[i]
		switch k.Value {
		case "columns", "config":
			continue
		case "tests", "data_tests":
			own["tests"], own["data_tests"] = true, true
		}
		own[k.Value] = true
		out.Content = append(out.Content, k, ver.Content[i+1])
	}
	for i := 0; i+1 < len(e.Content); i += 2 {
		switch k := e.Content[i].Value; {
		case k == "versions" || k == "latest_version" || k == "columns" || k == "config" || k == "deprecation_date" || own[k]:
		default:
			out.Content = append(out.Content, e.Content[i], e.Content[i+1])
		}
	}
	scalar := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	out.Content = append(out.Content, scalar("columns"), versionColumns(yget(e, "columns"), yget(ver, "columns")))
	cfg := ymap(yget(e, "config"))
	if cfg == nil {
		cfg = map[string]any{}
	}
	for k, v := range ymap(yget(ver, "config")) {
		prev, okP := cfg[k].(map[string]any)
		cur, okC := v.(map[string]any)
		if okP && okC {
			merged := map[string]any{}
			for mk, mv := range prev {
				merged[mk] = mv
			}
			for mk, mv := range cur {
				merged[mk] = mv
			}
			v = merged
		}
		cfg[k] = v
	}
	var cn yaml.Node
	if err := cn.Encode(cfg); err == nil {
		out.Content = append(out.Content, scalar("config"), &cn)
	}
	return out
}

// versionColumns are a version's columns: the model's that its include /
// exclude entry keeps (all when it has none), then its own.
func versionColumns(base, own *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.SequenceNode}
	if own == nil {
		out.Content = append(out.Content, yseq(base)...)
		return out
	}
	include, exclude := map[string]bool(nil), map[string]bool{}
	var extra []*yaml.Node
	names := func(n *yaml.Node) map[string]bool {
		set := map[string]bool{}
		for _, c := range yseq(n) {
			set[c.Value] = true
		}
		return set
	}
	for _, c := range yseq(own) {
		inc, exc := yget(c, "include"), yget(c, "exclude")
		if inc == nil && exc == nil {
			extra = append(extra, c)
			continue
		}
		if inc != nil && inc.Kind == yaml.SequenceNode {
			include = names(inc)
		}
		if exc != nil {
			exclude = names(exc)
		}
	}
	for _, c := range yseq(base) {
		cn := ystr(c, "name")
		if (include == nil || include[cn]) && !exclude[cn] {
			out.Content = append(out.Content, c)
		}
	}
	out.Content = append(out.Content, extra...)
	return out
}

// versionSelected: a versioned model is selected by <name>_v<v> and by
// <name>.v<v> (dbt's fqn method; <name> alone selects every version).
func versionSelected(n *Node, val string) bool {
	if n.Version == "" {
		return false
	}
	return val == n.Name+"_v"+n.Version || val == n.Name+".v"+n.Version || strings.HasSuffix(val, "."+n.Name+".v"+n.Version)
}

// versionState is what dbt's version: selector calls n: latest,
// prerelease (after the latest), old (before it) or none (unversioned).
func versionState(n *Node) string {
	switch {
	case n.Version == "":
		return "none"
	case n.Version == n.LatestVersion:
		return "latest"
	case versionLess(n.LatestVersion, n.Version):
		return "prerelease"
	}
	return "old"
}

// deprecated says whether date (RFC 3339) has passed.
func deprecated(date string) bool {
	t, err := time.Parse(time.RFC3339, date)
	return err == nil && t.Before(time.Now())
}

// warnDeprecatedRef is dbt's DeprecatedReference / UpcomingReference-
// Deprecation warning: n refs t, which has a deprecation_date.
func (m *Manifest) warnDeprecatedRef(n, t *Node, at Position) {
	what := t.Name
	if t.Version != "" {
		what += ".v" + t.Version
	}
	if deprecated(t.DeprecationDate) {
		m.warn(n.Path, at, "%s reads %s, deprecated on %s (its latest version is v%s)", n.Name, what, t.DeprecationDate, t.LatestVersion)
		return
	}
	m.warn(n.Path, at, "%s reads %s, slated for deprecation on %s", n.Name, what, t.DeprecationDate)
}
