package project

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// profiles.yml ---------------------------------------------------------

// UseTarget reads the DuckDB target name (or the profile's default) from
// profiles.yml: $DBT_PROFILES_DIR, the current folder, the project folder,
// then ~/.dbt (a relative path is from the project folder). The
// output's path becomes the warehouse unless project.yaml sets one.
func (p *Project) UseTarget(name string) error {
	p.Target = Target{Name: "dev", Schema: "main", Type: "duckdb", Threads: p.Threads}
	if p.DBT == nil {
		if name != "" {
			p.Target.Name = name
		}
		return nil
	}
	profile, file, profiles, err := p.readProfiles()
	if err != nil {
		return err
	}
	p.warnProfilesDirMissed(file)
	p.Target.ProfileName = profile
	if file == "" {
		p.warnProfileUnused(profile, "there is no profiles.yml (looked in DBT_PROFILES_DIR, the current folder, the project folder and ~/.dbt)")
		if name != "" {
			p.Target.Name = name
		}
		return nil
	}
	pr, ok := profiles[profile]
	if !ok {
		if name != "" {
			return fmt.Errorf("%s: no profile %q (dbt_project.yml profile:) for --target %s", file, profile, name)
		}
		p.warnProfileUnused(profile, fmt.Sprintf("%s has no profile %q", file, profile))
		return nil
	}
	if name == "" {
		// the default target is Jinja too (target: "{{ env_var('DBT_TARGET', 'dev') }}")
		def := map[string]any{"target": pr.Target}
		if err := renderProfileOutput(def); err != nil {
			return fmt.Errorf("%s: profile %q: %w", file, profile, err)
		}
		name = fmt.Sprint(def["target"])
	}
	if name == "" {
		name = "dev"
	}
	out, ok := pr.Outputs[name]
	if !ok {
		return fmt.Errorf("%s: profile %q has no output (target) %q", file, profile, name)
	}
	if err := renderProfileOutput(out); err != nil {
		return fmt.Errorf("%s: profile %q, target %q: %w", file, profile, name, err)
	}
	typ := fmt.Sprint(out["type"])
	if typ != "duckdb" {
		return fmt.Errorf("%s: target %q of profile %q is type %q; docket builds DuckDB targets only", file, name, profile, typ)
	}
	p.Target = Target{Name: name, Schema: "main", Type: typ, ProfileName: profile, Threads: p.Threads, File: file}
	if s, ok := out["schema"].(string); ok && s != "" {
		p.Target.Schema = s
	}
	if t, ok := out["threads"]; ok {
		if n, err := strconv.Atoi(fmt.Sprint(t)); err == nil && n > 0 {
			p.Target.Threads = n
			p.Threads = n
		}
	}
	if path, ok := out["path"].(string); ok && path != "" && !p.setWarehouse {
		p.Warehouse = p.abs(os.ExpandEnv(path))
	}
	if root, ok := out["external_root"].(string); ok && root != "" {
		root = os.ExpandEnv(root)
		if !strings.Contains(root, "://") { // a remote root stays a URL (the compiler refuses it)
			root = p.abs(root)
		}
		p.Target.ExternalRoot = root
	}
	p.warnProfileKeys(file, profile, name, out)
	if path, ok := out["path"].(string); ok && !p.setWarehouse {
		p.warnPathFromElsewhere(file, profile, name, os.ExpandEnv(path))
	}
	p.readAttach(file, profile, name, out["attach"])
	p.readSettings(file, profile, name, out["settings"])
	return nil
}

// warnPathFromElsewhere: dbt-duckdb opens a relative path from the folder
// dbt runs in; docket opens it from the project folder. Where the
// profiles.yml in use is the current folder's and the project another
// folder's (`--project-dir sub` from a repository root, the dbt-duckdb
// recipe layout) the two are different files: a warning at the path's
// line names both.
func (p *Project) warnPathFromElsewhere(file, profile, target, path string) {
	if path == "" || path == ":memory:" || filepath.IsAbs(path) || strings.Contains(path, ":") {
		return // absolute, in memory, or md:/s3:// (not a local file)
	}
	wd, err := os.Getwd()
	if err != nil {
		return
	}
	if filepath.Dir(file) != wd {
		// dbt reads profiles.yml from the folder it runs in (or
		// DBT_PROFILES_DIR, ~/.dbt): with this one it runs here, and the
		// path is this folder's only then
		return
	}
	dbt := filepath.Join(wd, path)
	if dbt == p.Warehouse {
		return
	}
	p.Warnings = append(p.Warnings, Warning{File: file, Line: fileKeyLines(file)[profile+".outputs."+target+".path"],
		Msg: fmt.Sprintf("path %q of output %q is relative: dbt-duckdb opens it from the folder dbt runs in (%s); "+
			"docket opens it from the project folder (%s): give an absolute path (or run from the project folder) for one file",
			path, target, dbt, p.Warehouse)})
}

// profileActed are the keys of a dbt-duckdb output docket applies.
var profileActed = map[string]bool{"type": true, "path": true, "schema": true, "threads": true, "external_root": true, "attach": true,
	"settings": true} // settings: settings.go

// profileWhy says why docket leaves a dbt-duckdb output key unapplied.
var profileWhy = map[string]string{
	"extensions":              "docket installs no DuckDB extension (nothing persisted may need one a plain client lacks)",
	"plugins":                 "dbt-duckdb plugins are Python",
	"module_paths":            "dbt-duckdb plugins are Python",
	"filesystems":             "docket reads and writes local files only",
	"secrets":                 "docket reads and writes local files only",
	"use_credential_provider": "docket reads and writes local files only",
}

// builtInExtensions are the DuckDB extensions statically linked into
// docket's DuckDB and loaded at start (duckdb_extensions(): install_mode
// STATICALLY_LINKED, loaded), so a profile's INSTALL/LOAD of them changes
// nothing.
var builtInExtensions = map[string]bool{"parquet": true, "json": true, "icu": true, "core_functions": true, "autocomplete": true}

// BuiltInExtensions are those names, sorted (a runner test checks each is
// loaded in docket's DuckDB, so an upgrade that drops one shows).
func BuiltInExtensions() []string { return slices.Sorted(maps.Keys(builtInExtensions)) }

// notBuiltIn are the names of a profile's extensions (strings, or
// {name: ..., repo: ...} as dbt-duckdb also takes) that are not built in.
func notBuiltIn(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return []string{fmt.Sprint(v)}
	}
	var out []string
	for _, e := range list {
		name := fmt.Sprint(e)
		if m, ok := e.(map[string]any); ok {
			name = fmt.Sprint(m["name"])
		}
		if !builtInExtensions[strings.ToLower(name)] {
			out = append(out, name)
		}
	}
	return out
}

// warnProfileKeys warns, at its line in profiles.yml, of each key of the
// output in use that docket does not apply (dbt-duckdb reads them all), so
// that none is ignored in silence. The warnings of an earlier UseTarget
// are replaced. The file is parsed for lines only when a key is warned.
func (p *Project) warnProfileKeys(file, profile, target string, out map[string]any) {
	kept := p.Warnings[:0]
	for _, w := range p.Warnings {
		if w.File != file {
			kept = append(kept, w)
		}
	}
	p.Warnings = kept
	var lines map[string]int
	for _, k := range slices.Sorted(maps.Keys(out)) {
		if profileActed[k] {
			continue
		}
		why := profileWhy[k]
		if why == "" {
			why = "docket does not act on it"
		}
		what := k
		if k == "extensions" {
			others := notBuiltIn(out[k])
			if len(others) == 0 {
				continue // all built in and loaded: what INSTALL/LOAD would give
			}
			what = k + " " + strings.Join(others, ", ")
		}
		if lines == nil {
			lines = fileKeyLines(file)
		}
		p.Warnings = append(p.Warnings, Warning{File: file, Line: lines[profile+".outputs."+target+"."+k],
			Msg: fmt.Sprintf("%s of output %q (profile %q) is read but not applied: %s", what, target, profile, why)})
	}
}

// fileKeyLines is keyLines of a YAML file (empty when it cannot be read).
func fileKeyLines(file string) map[string]int {
	var doc yaml.Node
	data, err := os.ReadFile(file)
	if err != nil || yaml.Unmarshal(data, &doc) != nil {
		return map[string]int{}
	}
	return keyLines(&doc)
}

// profileOutputs is a profiles.yml profile: its default target and outputs.
type profileOutputs struct {
	Target  string                    `yaml:"target"`
	Outputs map[string]map[string]any `yaml:"outputs"`
}

// readProfiles finds profiles.yml (DBT_PROFILES_DIR or --profiles-dir, the
// current folder, the project, ~/.dbt)
// and reads it; file is "" when there is none.
func (p *Project) readProfiles() (profile, file string, profiles map[string]profileOutputs, err error) {
	profile = p.DBT.Profile
	if profile == "" {
		profile = p.DBT.Name
	}
	var dirs []string
	if d := os.Getenv("DBT_PROFILES_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	if wd, err := os.Getwd(); err == nil {
		dirs = append(dirs, wd) // dbt's order: where it runs (dbt build --project-dir x), then ~/.dbt
	}
	dirs = append(dirs, p.Dir)
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".dbt"))
	}
	var data []byte
	for _, d := range dirs {
		f := filepath.Join(d, "profiles.yml")
		if b, err := os.ReadFile(f); err == nil {
			file, data = f, b
			break
		}
	}
	if file == "" {
		return profile, "", nil, nil
	}
	if err := yaml.Unmarshal(data, &profiles); err != nil {
		return profile, file, nil, yamlErr(file, err)
	}
	return profile, file, profiles, nil
}

// warnProfileUnused warns, at dbt_project.yml's profile: line (name:
// when it sets none: dbt then reads the profile of the project's name),
// that the profile cannot be used (why) and what docket builds into
// instead; dbt stops there.
func (p *Project) warnProfileUnused(profile, why string) {
	if p.ownFile {
		// project.yaml names the warehouse (its warehouse: or docket's
		// default beside it): the profile is dbt's fallback, not needed.
		return
	}
	key := "profile"
	if p.DBT.Profile == "" {
		key = "name"
	}
	line := 1
	for i := 0; i+1 < len(p.DBT.Root.Content); i += 2 {
		if p.DBT.Root.Content[i].Value == key {
			line = p.DBT.Root.Content[i].Line
		}
	}
	w := Warning{File: p.DBT.File, Line: line, Msg: fmt.Sprintf("profile %q is not applied: %s, so docket builds into %s, schema %s (dbt stops here)",
		profile, why, p.rel(p.Warehouse), p.Target.Schema)}
	if !slices.Contains(p.Warnings, w) {
		p.Warnings = append(p.Warnings, w)
	}
}

// warnProfilesDirMissed: dbt reads profiles.yml from DBT_PROFILES_DIR
// (--profiles-dir) alone when it is set, and stops when it is not there;
// docket goes on to the current folder, the project and ~/.dbt, and says
// so, since another profiles.yml may build into another file.
func (p *Project) warnProfilesDirMissed(file string) {
	d := os.Getenv("DBT_PROFILES_DIR")
	if d == "" || file == filepath.Join(d, "profiles.yml") {
		return
	}
	read := "none was found: the default target is used"
	if file != "" {
		read = "read " + file + " instead"
	}
	w := Warning{File: filepath.Join(d, "profiles.yml"), Msg: fmt.Sprintf(
		"DBT_PROFILES_DIR (or --profiles-dir) names %s, which has no profiles.yml (dbt stops there); %s", d, read)}
	if !slices.Contains(p.Warnings, w) {
		p.Warnings = append(p.Warnings, w)
	}
}

// TargetWarehouses lists the DuckDB files the project's targets build
// into: project.yaml's warehouse and each duckdb output's path of the
// project's profile (--defer finds a state's database among them).
func (p *Project) TargetWarehouses() []string {
	out := []string{p.Warehouse}
	if p.DBT == nil {
		return out
	}
	profile, _, profiles, err := p.readProfiles()
	if err != nil {
		return out
	}
	for _, o := range profiles[profile].Outputs {
		if renderProfileOutput(o) != nil {
			continue
		}
		if path, ok := o["path"].(string); ok && path != "" && fmt.Sprint(o["type"]) == "duckdb" {
			out = append(out, p.abs(os.ExpandEnv(path)))
		}
	}
	return out
}

// renderProfileOutput renders the Jinja of a profiles.yml output's
// string values in place, as dbt renders profiles.yml: with env_var
// (a missing variable without a default is an error naming it) and the
// rest of Jinja ('../' ~ env_var('DB'), filters such as | int or | lower,
// conditionals). It rendered a bare {{ env_var(...) }} by pattern only:
// anything more was refused, and a filter other than | int was dropped.
// threads and port become numbers. Values nested in lists and mappings
// (attach: entries and their options, settings:) are rendered too, as
// dbt renders the whole profile: they were passed on as written, so an
// attach path or a temp_directory setting named a file "{{ env_var(...) }}".
func renderProfileOutput(out map[string]any) error {
	var env *render.Env
	return renderProfileMap(&env, out, true)
}

// renderProfileMap renders m's values in place; top says m is the output
// itself, whose threads and port become numbers.
func renderProfileMap(env **render.Env, m map[string]any, top bool) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		r, err := renderProfileAny(env, m[k])
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		if s, ok := r.(string); ok && top && (k == "threads" || k == "port") {
			if n, err := strconv.Atoi(s); err == nil {
				r = n
			}
		}
		m[k] = r
	}
	return nil
}

// renderProfileAny renders one value: a string with Jinja, or each
// element of a list or mapping; anything else is returned as it is.
func renderProfileAny(env **render.Env, v any) (any, error) {
	switch v := v.(type) {
	case string:
		if !strings.Contains(v, "{{") && !strings.Contains(v, "{%") {
			return v, nil
		}
		if *env == nil {
			*env, _ = render.NewEnv(nil)
		}
		r, err := renderProfileValue(*env, v)
		return strings.TrimSpace(r), err
	case map[string]any:
		return v, renderProfileMap(env, v, false)
	case []any:
		for i, e := range v {
			r, err := renderProfileAny(env, e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			v[i] = r
		}
	}
	return v, nil
}

// renderProfileValue renders one profiles.yml value with dbt's env_var.
func renderProfileValue(env *render.Env, s string) (string, error) {
	tpl, err := env.Parse("profiles.yml", s)
	if err != nil {
		return "", err
	}
	var missing string
	r, err := tpl.Render(map[string]any{"env_var": render.EnvVar(render.LookupEnv, func(name string) error {
		missing = name
		return fmt.Errorf("env var %s is not set and env_var() has no default", name)
	})})
	if missing != "" {
		return "", fmt.Errorf("env var %s is not set and env_var() has no default", missing)
	}
	if err != nil {
		return "", err
	}
	return r, nil
}

// rel is path as a message shows it: relative to the project folder when
// it lies inside it (messages and golden transcripts name no temporary
// or home folder), else as it is.
func (p *Project) rel(path string) string {
	if r, err := filepath.Rel(p.Dir, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return path
}
