package project

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Attachment is one entry of a dbt-duckdb output's attach: list: a
// database the runner's connection attaches for a build, so that sources
// (and SQL) naming its alias read it. The warehouse file never records an
// ATTACH: a plain DuckDB client opening it lacks the alias, so the
// compiler warns of each view that reads one.
type Attachment struct {
	Path     string            // absolute for a local file; as written for a URL or ":memory:"
	Alias    string            // AS alias; DuckDB's default (the file's stem) when not written
	Type     string            // TYPE (duckdb, sqlite, ...); "" for DuckDB's own
	ReadOnly bool              // READ_ONLY
	Options  map[string]string // other options (dbt-duckdb's options:), each an SQL literal
	File     string            // profiles.yml
	Line     int               // the entry's line
}

// SQL is the ATTACH statement (IF NOT EXISTS: a second build in one
// process attaches once).
func (a Attachment) SQL() string {
	q := fmt.Sprintf("attach if not exists '%s' as \"%s\"", strings.ReplaceAll(a.Path, "'", "''"), strings.ReplaceAll(a.Alias, `"`, `""`))
	var opts []string
	if a.Type != "" {
		opts = append(opts, "type "+a.Type)
	}
	if a.ReadOnly {
		opts = append(opts, "read_only")
	}
	for _, k := range slices.Sorted(maps.Keys(a.Options)) {
		opts = append(opts, k+" "+a.Options[k])
	}
	if len(opts) > 0 {
		q += " (" + strings.Join(opts, ", ") + ")"
	}
	return q
}

// attachKeys are an attach: entry's keys docket applies.
var attachKeys = map[string]bool{"path": true, "alias": true, "type": true, "read_only": true, "options": true}

// readAttach reads an output's attach: list into p.Target.Attach; what it
// cannot apply (an entry without path, a key it does not know, a value
// of the wrong kind) is a warning at its line.
func (p *Project) readAttach(file, profile, target string, v any) {
	if v == nil {
		return
	}
	var lines map[string]int
	line := func(k string) int {
		if lines == nil {
			lines = fileKeyLines(file)
		}
		return lines[k]
	}
	base := profile + ".outputs." + target + ".attach"
	warn := func(k, msg string) {
		p.Warnings = append(p.Warnings, Warning{File: file, Line: line(k), Msg: msg})
	}
	list, ok := v.([]any)
	if !ok {
		warn(base, fmt.Sprintf("attach of output %q is not a list of {path, alias, type, read_only, options} entries: not applied", target))
		return
	}
	for i, e := range list {
		at := fmt.Sprintf("%s[%d]", base, i)
		m, ok := e.(map[string]any)
		path, _ := m["path"].(string)
		if !ok || path == "" {
			warn(at, fmt.Sprintf("attach entry %d of output %q has no path: not applied", i+1, target))
			continue
		}
		a := Attachment{File: file, Line: line(at)}
		path = os.ExpandEnv(path)
		a.Path = path
		if !strings.Contains(path, ":") || filepath.IsAbs(path) { // not ":memory:", a URL or md:
			a.Path = p.abs(path)
		}
		if s, ok := m["alias"].(string); ok && s != "" {
			a.Alias = s
		} else {
			base := filepath.Base(path)
			a.Alias = strings.TrimSuffix(base, filepath.Ext(base))
		}
		if s, ok := m["type"].(string); ok {
			a.Type = s
		}
		if b, ok := m["read_only"].(bool); ok {
			a.ReadOnly = b
		}
		if o, ok := m["options"].(map[string]any); ok {
			a.Options = map[string]string{}
			for k, v := range o {
				if s, ok := v.(string); ok {
					a.Options[k] = "'" + strings.ReplaceAll(s, "'", "''") + "'"
				} else {
					a.Options[k] = fmt.Sprint(v)
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !attachKeys[k] {
				warn(at+"."+k, fmt.Sprintf("%s of attach entry %q is read but not applied: docket attaches with path, alias, type, read_only and options", k, a.Alias))
			}
		}
		p.Target.Attach = append(p.Target.Attach, a)
	}
}
