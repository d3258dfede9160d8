package project

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Setting is one entry of a dbt-duckdb output's settings: map, which
// dbt-duckdb runs as SET name = 'value' on every cursor it opens
// (Environment.initialize_cursor; DuckDB casts the string). docket runs
// the same on each of the runner's connections (executor.Settings).
type Setting struct {
	Name, Value string
	File        string // profiles.yml
	Line        int
}

// SQL is the statement dbt-duckdb runs for s.
func (s Setting) SQL() string {
	return "SET " + s.Name + " = '" + strings.ReplaceAll(s.Value, "'", "''") + "'"
}

// settingRefused are the settings docket does not SET, and why: each
// would undo what the runner relies on or what the warehouse promises
// a plain client. Everything else is applied as dbt-duckdb applies it
// (a setting docket's DuckDB does not know, an extension's, is warned
// when the run starts: executor.UnknownSettings).
var settingRefused = map[string]string{
	"autoinstall_known_extensions":       "docket installs and loads no DuckDB extension (nothing persisted may need one a plain client lacks)",
	"autoload_known_extensions":          "docket installs and loads no DuckDB extension (nothing persisted may need one a plain client lacks)",
	"allow_unsigned_extensions":          "docket installs and loads no DuckDB extension",
	"allow_community_extensions":         "docket installs and loads no DuckDB extension",
	"custom_extension_repository":        "docket installs and loads no DuckDB extension",
	"autoinstall_extension_repository":   "docket installs and loads no DuckDB extension",
	"extension_directory":                "docket installs and loads no DuckDB extension",
	"enable_external_access":             "the runner reads seeds and external files itself",
	"lock_configuration":                 "the runner sets DuckDB's memory_limit itself after the profile's settings",
	"access_mode":                        "the runner opens the warehouse for writing (DuckDB takes it only when a database opens)",
	"storage_compatibility_version":      "docket keeps the warehouse file readable by older DuckDB clients",
	"experimental_metadata_reuse":        "docket keeps the warehouse file readable by older DuckDB clients",
	"allow_persistent_secrets":           "docket reads and writes local files only",
	"secret_directory":                   "docket reads and writes local files only",
	"enable_http_metadata_cache":         "docket reads and writes local files only",
	"allow_extensions_metadata_mismatch": "docket installs and loads no DuckDB extension",
}

var settingName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// readSettings reads an output's settings: into p.Target.Settings, each
// with its line; what is not applied is warned at its line. memory_limit
// (or max_memory) and temp_directory are applied as dbt-duckdb does, after
// docket's own default, unless project.yaml writes build.memory_limit or
// build.temp_directory: docket's own file then wins, said at the profile's
// line.
func (p *Project) readSettings(file, profile, target string, v any) {
	p.Target.Settings = nil
	if v == nil {
		return
	}
	lines := fileKeyLines(file)
	at := profile + ".outputs." + target + ".settings"
	warn := func(line int, format string, a ...any) {
		p.Warnings = append(p.Warnings, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, a...)})
	}
	m, ok := v.(map[string]any)
	if !ok {
		warn(lines[at], "settings of output %q (profile %q) is not a mapping of DuckDB settings: not applied", target, profile)
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		line := lines[at+"."+k]
		if line == 0 {
			line = lines[at]
		}
		name := strings.ToLower(k)
		why := settingRefused[name]
		switch {
		case !settingName.MatchString(k):
			why = "not a DuckDB setting name"
		case m[k] == nil:
			why = "it has no value"
		case (name == "memory_limit" || name == "max_memory") && p.Build.memoryLimitAt != "":
			why = "project.yaml's build.memory_limit (" + p.Build.memoryLimitAt + ") is docket's own setting and wins"
		case name == "temp_directory" && p.Build.tempDirAt != "":
			why = "project.yaml's build.temp_directory (" + p.Build.tempDirAt + ") is docket's own setting and wins"
		}
		if why != "" {
			warn(line, "setting %s of output %q (profile %q) is read but not applied: %s", k, target, profile, why)
			continue
		}
		p.Target.Settings = append(p.Target.Settings, Setting{Name: k, Value: fmt.Sprint(m[k]), File: file, Line: line})
	}
}
