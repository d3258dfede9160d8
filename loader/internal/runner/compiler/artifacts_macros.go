package compiler

import (
	"github.com/docket-dev/docket/loader/internal/runner/dbtmacros"

	"regexp"
	"strings"
)

// macroDocs fills manifest.json's macros: the project's, every package's
// and docket's dbt.* ones, each with its own {% macro %} block as
// macro_sql.
func (m *Manifest) macroDocs(out map[string]map[string]any, created float64) {
	add := func(pkg, name, file string) {
		id := "macro." + pkg + "." + name
		out[id] = map[string]any{
			"unique_id": id, "resource_type": "macro", "name": name, "package_name": pkg,
			"path": macroRelPath(file), "original_file_path": file, "macro_sql": m.macroSQL(file, name),
			"depends_on": map[string]any{"macros": m.macroCallees(id)}, "description": "", "meta": map[string]any{},
			"docs": map[string]any{"show": true, "node_color": nil}, "patch_path": nil, "arguments": []any{},
			"created_at": created, "supported_languages": nil,
		}
	}
	for name, file := range m.Macros {
		add(m.Name, name, file)
	}
	if m.env != nil {
		for pkg, ms := range m.env.PackageMacros() {
			for name, file := range ms {
				add(pkg, name, file)
			}
		}
	}
	for _, name := range goDbtMacros {
		if out["macro.dbt."+name] == nil {
			add("dbt", name, "<dbt>/"+name) // run in Go: no macro_sql
		}
	}
	// macros: entries of schema files document the project's macros
	for _, it := range m.Unacted["macros"] {
		d := out["macro."+m.Name+"."+ystrAny(it.Item["name"])]
		if d == nil {
			continue
		}
		d["description"], d["patch_path"] = ystrAny(it.Item["description"]), m.Name+"://"+it.Path
		d["meta"] = mapAny(it.Item["meta"])
		args := []any{}
		for _, a := range listAny(it.Item["arguments"]) {
			am := mapAny(a)
			args = append(args, map[string]any{"name": ystrAny(am["name"]), "type": strOrNilAny(am["type"]),
				"description": ystrAny(am["description"])})
		}
		d["arguments"] = args
	}
}

// macroRelPath is a macro file's path inside its package ("macros/x.sql").
func macroRelPath(file string) string {
	file = strings.TrimPrefix(file, "<dbt>/")
	if i := strings.LastIndex(file, "/macros/"); i >= 0 {
		return file[i+1:]
	}
	return file
}

var macroBlockRe = regexp.MustCompile(`(?s)\{%-?\s*(macro|test|materialization)\s+([A-Za-z_][A-Za-z0-9_]*)\b.*?\{%-?\s*end(macro|test|materialization)\s*-?%\}`)

// macroSQL is the {% macro name %}...{% endmacro %} block of file (the
// whole file when it cannot be found; a generic test "x" is macro test_x).
func (m *Manifest) macroSQL(file, name string) string {
	var text string
	if rel, ok := strings.CutPrefix(file, "<dbt>/dbtmacros/"); ok {
		b, _ := dbtmacros.FS.ReadFile(rel)
		text = string(b)
	} else {
		b, _ := m.readFile(file)
		text = string(b)
	}
	for _, loc := range macroBlockRe.FindAllStringSubmatchIndex(text, -1) {
		kind, n := text[loc[2]:loc[3]], text[loc[4]:loc[5]]
		if n == name || (kind == "test" && "test_"+n == name) {
			return text[loc[0]:loc[1]]
		}
	}
	return text
}
