// Package runner is docket's dbt-style model runner, as one import for
// its callers (the cli, the bench tools). The work is in two packages:
//
//   - compiler reads a project folder (models/, macros/, seeds/, tests/
//     and their YAML, through an fs.FS) into a Manifest: parsed nodes,
//     their dependency graph, selection and positioned diagnostics. It
//     links no database and never executes SQL (a Querier answers the
//     Jinja that reads the database).
//   - executor builds the selected seeds, models, snapshots and tests
//     against the warehouse in DAG order (Execute, through the narrow
//     Database interface that *warehouse.DB implements) and writes
//     target/compiled, manifest.json and run_results.json.
//
// This package names their public types and functions; it never prints:
// the cli package does.
package runner

import (
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// Compiler types.
type (
	Manifest     = compiler.Manifest
	Node         = compiler.Node
	Diagnostic   = compiler.Diagnostic
	ParseOptions = compiler.ParseOptions
	RunContext   = compiler.RunContext
	Function     = compiler.Function
	Querier      = compiler.Querier
	// DeferredRelation is a node's relation in a previous run (--defer).
	DeferredRelation = compiler.DeferredRelation
	Config           = compiler.Config
	Batch            = compiler.Batch
)

// Executor types.
type (
	Database         = executor.Database
	RunOptions       = executor.RunOptions
	Result           = executor.Result
	BatchRun         = executor.BatchRun
	RunResults       = executor.RunResults
	FreshnessResult  = executor.FreshnessResult
	FreshnessOptions = executor.FreshnessOptions
	SourcesArtifact  = executor.SourcesArtifact
	QueryExecer      = executor.QueryExecer
)

// Resource types.
const (
	Model     = compiler.Model
	Seed      = compiler.Seed
	Test      = compiler.Test
	Source    = compiler.Source
	Snapshot  = compiler.Snapshot
	Operation = compiler.Operation
	UnitTest  = compiler.UnitTest
	Analysis  = compiler.Analysis
	Exposure  = compiler.Exposure
)

// Result statuses.
const (
	StatusSuccess = executor.StatusSuccess
	StatusError   = executor.StatusError
	StatusSkipped = executor.StatusSkipped
	StatusPass    = executor.StatusPass
	StatusFail    = executor.StatusFail
	StatusWarn    = executor.StatusWarn
	// StatusPartialSuccess: a microbatch model some of whose batches failed
	StatusPartialSuccess = executor.StatusPartialSuccess
)

// Freshness statuses.
const (
	FreshPass  = executor.FreshPass
	FreshWarn  = executor.FreshWarn
	FreshError = executor.FreshError
	FreshRTE   = executor.FreshRTE
)

// UpToDateMessage is a result's message when its inputs are unchanged.
const UpToDateMessage = executor.UpToDateMessage

// The compiler's and the executor's functions.
var (
	Parse           = compiler.Parse
	ParseEventTime  = compiler.ParseEventTime
	Quote           = compiler.Quote
	Relation        = compiler.Relation
	CommandTypes    = compiler.CommandTypes
	Execute         = executor.Execute
	RunOperation    = executor.RunOperation
	Attach          = executor.Attach
	Settings        = executor.Settings
	UnknownSettings = executor.UnknownSettings
	WriteArtifacts  = executor.WriteArtifacts
	RunResultsDoc   = executor.RunResultsDoc
	CheckFreshness  = executor.CheckFreshness
	SQLQuerier      = executor.SQLQuerier
	InlineID        = compiler.InlineID
)
