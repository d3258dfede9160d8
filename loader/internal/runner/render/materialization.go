package render

import (
	"fmt"
	"sort"
	"strings"
)

// Materialization is a {% materialization name, adapter %} block, kept
// as dbt keeps it: the macro materialization_<name>_<adapter>.
type Materialization struct {
	Name    string // the materialized config value it serves
	Adapter string // "duckdb" or "default" (another adapter's never runs)
	Pkg     string // "" for the root project
	Macro   string // materialization_<name>_<adapter>
	File    string
	Line    int
}

// Materializations lists every package's materialization blocks
// (the root project's first, then packages by name).
func (e *Env) Materializations() []Materialization {
	var out []Materialization
	add := func(pkg string, ms map[string]macroDef) {
		for name, d := range ms {
			rest, ok := strings.CutPrefix(name, "materialization_")
			i := strings.LastIndexByte(rest, '_')
			if !ok || i <= 0 {
				continue
			}
			out = append(out, Materialization{Name: rest[:i], Adapter: rest[i+1:], Pkg: pkg, Macro: name,
				File: d.file, Line: d.node.Location.Line})
		}
	}
	add("", e.macros)
	for _, p := range sortedPkgs(e.packages) {
		if p != "dbt" {
			add(p, e.packages[p])
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Pkg == "") != (b.Pkg == "") {
			return a.Pkg == ""
		}
		if a.Pkg != b.Pkg {
			return a.Pkg < b.Pkg
		}
		return a.Macro < b.Macro
	})
	return out
}

func sortedPkgs(m map[string]map[string]macroDef) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// FindMaterialization picks the block that runs materialized=name as dbt
// does: an adapter='duckdb' block wins over a default one whatever its
// package, and for the same adapter the root project's wins over a
// package's; two packages' blocks of the same rank are an error, as in
// dbt ("cannot resolve this ambiguity"). ok is false when none exists.
func (e *Env) FindMaterialization(name string) (m Materialization, ok bool, err error) {
	all := e.Materializations()
	for _, adapter := range []string{"duckdb", "default"} {
		var found []Materialization
		for _, c := range all {
			if c.Name == name && c.Adapter == adapter {
				found = append(found, c)
			}
		}
		switch {
		case len(found) == 0:
			continue
		case found[0].Pkg == "" || len(found) == 1:
			return found[0], true, nil
		default:
			return found[0], true, fmt.Errorf("materialization %q (adapter %s) is defined by both package %s (%s) and package %s (%s): dbt cannot resolve this ambiguity either",
				name, adapter, found[0].Pkg, found[0].File, found[1].Pkg, found[1].File)
		}
	}
	return Materialization{}, false, nil
}

// RootMacro is where the root project defines the macro name: its file and
// line; ok false when it does not.
func (e *Env) RootMacro(name string) (file string, line int, ok bool) {
	d, ok := e.macros[name]
	if !ok {
		return "", 0, false
	}
	return d.file, d.node.Location.Line, true
}
