// Package compiler is the pure half of docket's dbt-style runner. Parse
// reads a project (models/, macros/, seeds/, snapshots/, tests/, their
// YAML, dbt_project.yml and installed packages) through an fs.FS and
// returns a Manifest: the parsed nodes with their compiled SQL, their
// dependency graph, and positioned diagnostics. Selection (Select), the
// build plan (Plan), manifest.json (ManifestDoc) and the SQL of a node for
// one run (RenderForRun, RenderHook: is_incremental(), Jinja that reads
// the database through a Querier) are functions of the manifest. It links
// no database: TestCompilerLinksNoDatabase (in the runner package) checks.
package compiler

import (
	"fmt"
	"regexp"
	"sort"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// Resource types.
const (
	Model    = "model"
	Seed     = "seed"
	Test     = "test"
	Source   = "source"
	Snapshot = "snapshot"
	// Operation is an on-run-start/on-run-end hook (RunHooks).
	Operation = "operation"
)

// Diagnostic is a user mistake at a position in a project file.
type Diagnostic struct {
	Path string `json:"path"` // relative to the project folder, slash-separated
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"message"`
}

func (d Diagnostic) String() string { return fmt.Sprintf("%s:%d:%d: %s", d.Path, d.Line, d.Col, d.Msg) }

// SortDiagnostics orders by path, line, column, message and drops duplicates.
func SortDiagnostics(ds []Diagnostic) []Diagnostic {
	sort.Slice(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Msg < b.Msg
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d == ds[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// Hook is a pre- or post-hook as dbt's Hook: its SQL (a template) and
// whether it runs inside the build's transaction (false: dbt's
// before_begin/after_commit, or {"sql": ..., "transaction": false}).
type Hook struct {
	SQL         string
	Transaction bool
}

// Config is a node's resolved configuration.
type Config struct {
	Enabled             bool     `json:"enabled"`
	Materialized        string   `json:"materialized,omitempty"`
	Tags                []string `json:"tags"`
	UniqueKey           []string `json:"unique_key,omitempty"`
	IncrementalStrategy string   `json:"incremental_strategy,omitempty"`
	OnSchemaChange      string   `json:"on_schema_change,omitempty"`
	// incremental_predicates (or dbt's older name, predicates) restrict
	// the rows of the existing table a merge matches or a delete+insert
	// deletes; merge_update_columns / merge_exclude_columns choose the
	// columns a merge updates (executor/incremental.go)
	IncrementalPredicates []string `json:"incremental_predicates,omitempty"`
	MergeUpdateColumns    []string `json:"merge_update_columns,omitempty"`
	MergeExcludeColumns   []string `json:"merge_exclude_columns,omitempty"`
	// dbt 1.9's microbatch (microbatch.go): EventTime is the column a
	// model, seed, snapshot or source is filtered on when a microbatch
	// model reads it; the others set a microbatch model's batches
	EventTime   string            `json:"event_time,omitempty"`
	BatchSize   string            `json:"batch_size,omitempty"`
	Begin       *time.Time        `json:"begin,omitempty"`
	Lookback    *int              `json:"lookback,omitempty"`
	PreHook     []Hook            `json:"pre-hook"`
	PostHook    []Hook            `json:"post-hook"`
	Severity    string            `json:"severity,omitempty"`
	Where       string            `json:"where,omitempty"`
	ColumnTypes map[string]string `json:"column_types,omitempty"`
	Delimiter   string            `json:"delimiter,omitempty"` // a seed's CSV field separator
	Meta        *render.Mapping   `json:"meta,omitempty"`      // in the order dbt merges it (nil: none)
	Schema      string            `json:"schema,omitempty"`    // custom schema, before generate_schema_name
	Alias       string            `json:"alias,omitempty"`     // custom alias
	Database    string            `json:"database,omitempty"`  // custom database (an attached DuckDB file)
	FullRefresh *bool             `json:"full_refresh"`        // false: --full-refresh leaves the model alone
	Limit       int               `json:"limit,omitempty"`     // tests: at most this many failing rows
	WarnIf      string            `json:"warn_if,omitempty"`
	ErrorIf     string            `json:"error_if,omitempty"`
	FailCalc    string            `json:"fail_calc,omitempty"`
	ScopedTo    string            `json:"scoped_to,omitempty"` // singular tests: check only rows of this model written since the last pass (delta.go)
	// tests: keep the failing rows in <target schema>_dbt_test__audit.<test> (test_exec.go)
	StoreFailures   bool   `json:"store_failures,omitempty"`
	StoreFailuresAs string `json:"store_failures_as,omitempty"`
	// Group is the node's group (groups: in YAML): manifest.json's group
	// and the group: selector; access to it is not enforced (access warns)
	Group string `json:"group,omitempty"`
	// SQLHeader runs before the statement that creates a model's relation
	// (dbt-duckdb emits it before create table/view); PersistDocs writes
	// the description and the columns' as DuckDB comments.
	SQLHeader   string       `json:"sql_header,omitempty"`
	PersistDocs *PersistDocs `json:"persist_docs,omitempty"`
	// dbt-duckdb's own materializations (external.go)
	External      *External      `json:"-"`
	TableFunction *TableFunction `json:"-"`
}

// PersistDocs is the persist_docs config: COMMENT ON the relation
// (relation: true) and its documented columns (columns: true).
type PersistDocs struct {
	Relation bool `json:"relation,omitempty"`
	Columns  bool `json:"columns,omitempty"`
}

// Column documents one column.
type Column struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	DataType    string `json:"data_type,omitempty"`
	// Meta and Tags are the column's YAML meta: and tags: (config: too)
	Meta *render.Mapping `json:"meta,omitempty"`
	Tags []string        `json:"tags,omitempty"`
}

// DependsOn lists a node's parents.
type DependsOn struct {
	Nodes  []string `json:"nodes"`
	Macros []string `json:"macros"`
}

// TestMetadata describes a generic test.
type TestMetadata struct {
	Name   string         `json:"name"`
	Kwargs map[string]any `json:"kwargs"`
}

// Node is one model, seed, test or source.
type Node struct {
	UniqueID     string `json:"unique_id"`
	ResourceType string `json:"resource_type"`
	PackageName  string `json:"package_name"`
	Name         string `json:"name"`
	Schema       string `json:"schema"`
	Alias        string `json:"alias"`
	Database     string `json:"database"`
	// AuditSchema: where a test that stores failures keeps them (schema.go)
	AuditSchema  string            `json:"-"`
	Path         string            `json:"original_file_path"`
	FQN          []string          `json:"fqn"`
	Description  string            `json:"description"`
	Columns      map[string]Column `json:"columns"`
	Config       Config            `json:"config"`
	Tags         []string          `json:"tags"`
	DependsOn    DependsOn         `json:"depends_on"`
	Refs         [][]string        `json:"refs"`
	Sources      [][]string        `json:"sources"`
	RawCode      string            `json:"raw_code,omitempty"`
	CompiledCode string            `json:"compiled_code,omitempty"`
	CompiledPath string            `json:"compiled_path,omitempty"`
	Relation     string            `json:"relation_name,omitempty"`
	TestMetadata *TestMetadata     `json:"test_metadata,omitempty"`
	ColumnName   string            `json:"column_name,omitempty"`
	AttachedNode string            `json:"attached_node,omitempty"`
	// versioned models only (versions.go): the version (as written in
	// YAML), the model's latest_version, and the version's deprecation_date
	Version         string `json:"version,omitempty"`
	LatestVersion   string `json:"latest_version,omitempty"`
	DeprecationDate string `json:"deprecation_date,omitempty"`
	// sources only
	SourceName string `json:"source_name,omitempty"`
	// Sources with freshness criteria (freshness.go).
	Freshness     *Freshness `json:"freshness,omitempty"`
	LoadedAtField string     `json:"loaded_at_field,omitempty"`
	// snapshots only (snapshot.go)
	SnapshotCfg *SnapshotConfig `json:"snapshot_config,omitempty"`
	Identifier  string          `json:"identifier,omitempty"`

	// What the executor reads besides the dbt fields above (docket's
	// own, not marshaled).
	Pos         Position       `json:"-"` // where the node is declared (tests: the yml line)
	ConfigPos   Position       `json:"-"` // where its config(...) call is
	TestFrom    string         `json:"-"` // built-in generic tests: the relation (with its where filter) they read, as in CompiledCode
	LoaderOwned bool           `json:"-"` // sources: the relation is one `docket load` fills (ParseOptions.Owned)
	Contract    map[string]any `json:"-"` // config contract as written: enforced, alias_types
	SeedFile    string         `json:"-"` // seeds: absolute CSV path
	// Language is "python" for a dbt Python model (python.go: in the
	// graph, never built); "" is SQL.
	Language string `json:"-"`
	// RunError, when set, is the error the node's build reports without
	// running (a config docket cannot build, as dbt fails that node at
	// run time and builds the rest); a parse warning says it first.
	RunError  string    `json:"-"`
	HookIndex int       `json:"-"` // an on-run hook's place in its project's list (RunHooks)
	Unit      *UnitSpec `json:"-"` // unit tests only (unittest.go)
	// CustomMat: the {% materialization %} block a model's materialized
	// names (not view, table, incremental, ephemeral), run by the
	// executor through RunMaterialization (materialization.go)
	CustomMat *render.Materialization `json:"-"`

	// The compiler's own.
	layer     string // docket's default schema: the first folder under models/, or seeds
	srcDesc   string // sources: the source's own description and loader (manifest.json)
	srcLoader string
	// sources: the table's own meta and its source's (manifest.json's and
	// the graph's meta and source_meta; config.meta holds both merged)
	tblMeta, srcMeta *render.Mapping
	// quoteColumns: a source's quoting: {column: true} (its table's wins):
	// its columns' tests get the quoted name unless a column says quote:
	quoteColumns bool
	tpl          *render.Template
	calls        *render.Calls // macros rendering the node called (macros.go)
	usesIncr     bool          // template calls is_incremental()
	// needsDB: the template reads the database (run_query, ...): it
	// renders again at run time with a connection (dbjinja.go)
	needsDB bool
	// compileLogs: what the compiled render logged, shown when the node runs (ShowCompileLogs)
	compileLogs []string
	test        *testRender  // a generic test's call of its test macro (generic.go)
	builtin     *builtinTest // a built-in generic test, written again when compiled (generic.go)
	refPos      map[string]Position
	modelCfg    map[string]any   // config from config(...)
	ymlCfg      map[string]any   // config from schema.yml
	folderCfg   map[string]any   // config from project.yaml
	ymlAt       map[string]place // where each ymlCfg key is written (its YAML file and line)
	// constraints from the YAML (model and column level, constraints.go)
	constraints []constraint
}

// KeyPos is where config key k of n is written in n's own file: its line
// in a YAML snapshot's config:, else the config() call (or the node).
func (n *Node) KeyPos(k string) Position {
	if p, ok := n.ymlAt[k]; ok && p.path == n.Path {
		return p.at
	}
	if n.ConfigPos != (Position{}) {
		return n.ConfigPos
	}
	return n.Pos
}

// Position is a line and column (1-based) in a project file.
type Position struct{ Line, Col int }

var simpleIdent = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// Quote returns an identifier, double-quoted unless it is plain lower case.
func Quote(s string) string {
	if simpleIdent.MatchString(s) && !reserved[s] {
		return s
	}
	return quoteIdent(s)
}

var reserved = map[string]bool{"order": true, "group": true, "select": true, "from": true, "where": true, "table": true,
	"user": true, "limit": true, "offset": true, "join": true, "union": true, "all": true, "and": true, "or": true, "as": true,
	"case": true, "end": true, "to": true, "in": true, "is": true, "not": true, "null": true, "default": true, "check": true}

// Relation renders schema.name.
func Relation(schema, name string) string { return Quote(schema) + "." + Quote(name) }
