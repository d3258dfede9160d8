package compiler

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// External is a model materialized as dbt-duckdb's `external`: built,
// written with COPY to Path in Format, and a view over that file (or, with
// partition_by, the files under it) left as the model's relation.
type External struct {
	Path   string // absolute (a relative location is taken from the project folder)
	Format string // parquet, csv or json
	// CopyOptions are COPY's options as dbt-duckdb's external_write_options
	// renders them (FORMAT first, then the rest sorted by name).
	CopyOptions string
	// ReadFrom is the view's table function call over what COPY wrote.
	ReadFrom string
	// Partitioned: COPY writes a folder of files (partition_by) at Path.
	Partitioned bool
}

// TableFunction is dbt-duckdb's `table_function`: a DuckDB table macro
// named as the model, taking Parameters.
type TableFunction struct {
	Parameters []string
}

// externalFormats are the formats COPY writes and DuckDB reads back with
// readers built into every DuckDB client (no extension to install).
var externalFormats = map[string]string{"parquet": "read_parquet", "csv": "read_csv", "json": "read_json"}

// duckdbMatKeys are the config keys dbt-duckdb's external and
// table_function materializations read (consumed, not warned as unknown).
var duckdbMatKeys = map[string]map[string]bool{
	"external":       {"location": true, "format": true, "options": true, "delimiter": true, "parquet_read_options": true, "json_read_options": true, "plugin": true, "glue_register": true, "glue_database": true, "partition_columns": true},
	"table_function": {"parameters": true},
}

// duckdbMaterialization reads the config of a model materialized as one
// of dbt-duckdb's own materializations (external, table_function) into c,
// removing the keys it read from raw; options docket does not apply are
// warnings at their line.
func (m *Manifest) duckdbMaterialization(c *Config, n *Node, raw map[string]any, at Position, bad func(Position, string, ...any)) {
	mat, _ := raw["materialized"].(string)
	keys := duckdbMatKeys[mat]
	if n.ResourceType != Model || keys == nil {
		return
	}
	got := map[string]any{}
	for k := range keys {
		if v, ok := raw[k]; ok {
			got[k] = v
			delete(raw, k)
		}
	}
	if mat == "table_function" {
		c.TableFunction = &TableFunction{Parameters: tableFunctionParams(got["parameters"])}
		return
	}
	for _, k := range []string{"plugin", "glue_register", "glue_database", "partition_columns"} {
		if _, ok := got[k]; ok {
			from, fat := m.configWhere(n, k, at)
			m.warn(from, fat, "config %s is read but not applied by docket: dbt-duckdb's plugins and Glue registration are not supported (the file is written and read back as a view)", k)
		}
	}
	c.External = m.externalConfig(n, got, at, bad)
}

func (m *Manifest) externalConfig(n *Node, got map[string]any, at Position, bad func(Position, string, ...any)) *External {
	str := func(k string) string {
		if v, ok := got[k]; ok && v != nil {
			return strings.TrimSpace(fmt.Sprint(v))
		}
		return ""
	}
	opts := map[string]string{}
	if o, ok := got["options"]; ok && o != nil {
		mp, ok := stringKeyed(o)
		if !ok {
			bad(at, "config options of an external model must be a mapping of COPY options (got %v)", o)
		}
		for k, v := range mp {
			opts[strings.ToLower(k)] = fmt.Sprint(v)
		}
	}
	if f := str("format"); f != "" {
		opts["format"] = f
	}
	if d := str("delimiter"); d != "" {
		opts["delimiter"] = d
	}
	loc := str("location")
	format := strings.ToLower(opts["format"])
	if format == "" {
		switch ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(loc), ".")); {
		case ext != "":
			format = ext
		case opts["delimiter"] != "":
			format = "csv"
		default:
			format = "parquet"
		}
	}
	reader, ok := externalFormats[format]
	if !ok {
		bad(at, "external model %s: format %q is not one of csv, parquet, json", n.Name, format)
		return nil
	}
	opts["format"] = format
	if format == "csv" && opts["header"] == "" {
		opts["header"] = "1"
	}
	if loc == "" {
		// dbt-duckdb's external_location: <external_root>/<identifier>.<format>,
		// or the folder <external_root>/<identifier> with partition_by
		loc = n.Alias
		if opts["partition_by"] == "" {
			loc += "." + format
		}
		if root := m.Project.Target.ExternalRoot; root != "" {
			// a remote root (s3://...) is kept as written, for the check below
			loc = strings.TrimSuffix(root, "/") + "/" + loc
		}
	}
	if strings.Contains(loc, "://") {
		bad(at, "external model %s: location %q is remote; docket writes local files only", n.Name, loc)
		return nil
	}
	path := loc
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.Project.Dir, path)
	}
	path = filepath.ToSlash(path)
	read := path
	if pb := opts["partition_by"]; pb != "" {
		if strings.Contains(pb, ",") && !strings.HasPrefix(pb, "(") {
			opts["partition_by"] = "(" + pb + ")"
		}
		// COPY writes a folder per partition value (dbt-duckdb's external_read_location)
		read = path + "/*" + strings.Repeat("/*", len(strings.Split(pb, ","))) + "." + format
		if opts["overwrite"] == "" && opts["overwrite_or_ignore"] == "" {
			opts["overwrite_or_ignore"] = "true" // the next run writes into the same folder
		}
	}
	return &External{Path: path, Format: format, CopyOptions: copyOptions(opts), ReadFrom: readCall(reader, read, format, got),
		Partitioned: opts["partition_by"] != ""}
}

// copyOptions renders COPY's options as dbt-duckdb does: delimiter,
// quote, escape and null quoted unless already quoted.
func copyOptions(opts map[string]string) string {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		if k != "format" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := []string{"format " + opts["format"]}
	for _, k := range keys {
		v := opts[k]
		switch k {
		case "delimiter", "quote", "escape", "null":
			if !strings.HasPrefix(v, "'") {
				v = sqlLiteral(v)
			}
		}
		parts = append(parts, k+" "+v)
	}
	return strings.Join(parts, ", ")
}

// readCall is the view's reader: read_parquet / read_csv / read_json over
// the written file(s), with parquet_read_options / json_read_options as
// dbt-duckdb passes them.
func readCall(reader, path, format string, got map[string]any) string {
	var extra map[string]any
	switch format {
	case "parquet":
		extra, _ = stringKeyed(got["parquet_read_options"])
	case "json":
		extra, _ = stringKeyed(got["json_read_options"])
	case "csv":
		extra = map[string]any{"header": true}
	}
	args := []string{sqlLiteral(path)}
	for _, k := range SortedKeys(extra) {
		args = append(args, k+" = "+sqlLiteral(extra[k]))
	}
	return reader + "(" + strings.Join(args, ", ") + ")"
}

// tableFunctionParams is table_function's parameters: a string (with or
// without commas) or a list of names.
func tableFunctionParams(v any) []string {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		var out []string
		for _, p := range strings.Split(t, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	return toStrings(v)
}

// ReadsFiles reports a source of dbt-duckdb's external_location: its
// relation is a quoted file name or a table function call over files,
// not a table or view the warehouse holds.
func (n *Node) ReadsFiles() bool {
	return n.ResourceType == Source && (strings.HasPrefix(n.Relation, "'") || strings.Contains(n.Relation, "("))
}
