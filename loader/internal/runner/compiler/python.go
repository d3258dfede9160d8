package compiler

import (
	"fmt"
	"regexp"
	"strings"
)

// A dbt Python model (models/**/*.py, `def model(dbt, session)`) is a
// node of the graph like a SQL model: manifest.json lists it (language
// python), its dbt.ref()/dbt.source() calls are its parents, a SQL
// model's ref() to it resolves. docket does not build it (PythonModelError:
// its run result is an error, and what refs it is skipped as dbt skips
// the children of a failed node).

// PythonModelError is why a Python model's run is an error.
func PythonModelError(n *Node) string {
	return fmt.Sprintf("%s is a dbt Python model; docket builds SQL models only and does not run Python: dbt-duckdb runs a Python model "+
		"in-process with the duckdb Python module, which docket does not embed. Build it with dbt-duckdb, or write it as a SQL model", n.Path)
}

// pyCall matches dbt.ref(...) and dbt.source(...) with string arguments
// (keyword arguments such as v=2 are read apart).
var pyCall = regexp.MustCompile(`\bdbt\s*\.\s*(ref|source)\s*\(([^()]*)\)`)

var pyString = regexp.MustCompile(`^\s*(?:[a-zA-Z_]+\s*=\s*)?(?:'([^'\\]*)'|"([^"\\]*)"|([0-9.]+))\s*$`)

// parsePython reads a Python model's refs and sources from its
// dbt.ref()/dbt.source() calls, as dbt's Python parser does from the
// syntax tree (calls with computed arguments are not followed).
func (m *Manifest) parsePython(n *Node) []Diagnostic {
	var diags []Diagnostic
	n.refPos = map[string]Position{}
	seen := map[string]bool{}
	for _, loc := range pyCall.FindAllStringSubmatchIndex(n.RawCode, -1) {
		fn, argText := n.RawCode[loc[2]:loc[3]], n.RawCode[loc[4]:loc[5]]
		at := offsetPos(n.RawCode, loc[0])
		var pos []string
		version := ""
		for _, a := range strings.Split(argText, ",") {
			if strings.TrimSpace(a) == "" {
				continue
			}
			s := pyString.FindStringSubmatch(a)
			if s == nil {
				pos = nil // a computed argument: not followed
				break
			}
			v := s[1] + s[2] + s[3]
			if kw, _, ok := strings.Cut(a, "="); ok {
				if k := strings.TrimSpace(kw); k == "v" || k == "version" {
					version = v
				}
				continue
			}
			pos = append(pos, v)
		}
		switch {
		case fn == "ref" && len(pos) > 0:
			name := pos[len(pos)-1]
			key := name
			if version != "" {
				key = versionKey(name, version)
			}
			if seen["r"+key] {
				continue
			}
			seen["r"+key] = true
			r := []string{key}
			if len(pos) > 1 {
				r = []string{pos[0], key}
			}
			n.Refs = append(n.Refs, r)
			n.refPos[key] = at
			if len(pos) > 1 && m.refTarget(r, n) == nil {
				diags = append(diags, Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col, Msg: m.packageRef(pos[0], name, key)})
			} else if m.refTarget(r, n) == nil {
				diags = append(diags, Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col, Msg: m.unknownRef(name, key)})
			}
		case fn == "source" && len(pos) == 2:
			if k := "s" + pos[0] + "." + pos[1]; !seen[k] {
				seen[k] = true
				n.Sources = append(n.Sources, []string{pos[0], pos[1]})
				if m.findSource(pos[0], pos[1], n) == nil {
					diags = append(diags, Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col, Msg: m.unknownSource(pos[0], pos[1])})
				}
			}
		}
	}
	return diags
}

// offsetPos is the line and column of byte offset i in s.
func offsetPos(s string, i int) Position {
	line := strings.Count(s[:i], "\n") + 1
	return Position{line, i - strings.LastIndex(s[:i], "\n")}
}

// pythonMaterialized: dbt builds a Python model as a table (its default)
// or incremental only, and errors on another materialization; docket
// records such a one as a table, with a warning.
func (m *Manifest) pythonMaterialized(n *Node) {
	if n.Language != "python" || n.Config.Materialized == "table" || n.Config.Materialized == "incremental" {
		return
	}
	at := Position{1, 1}
	if _, own := n.modelCfg["materialized"]; own {
		at = n.ConfigPos // its dbt.config(materialized=...)
	}
	m.warn(n.Path, at, "materialized %q: dbt builds Python models as table or incremental only; docket records this one as a table", n.Config.Materialized)
	n.Config.Materialized, n.CustomMat = "table", nil
}
