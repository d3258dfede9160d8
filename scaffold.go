// Package docket holds the shipped project (models, macros, seeds, tests
// and project.yaml) so that `docket init` can scaffold a complete,
// working project from the binary alone.
package docket

import "embed"

// Scaffold is the shipped project's files.
//
//go:embed project.yaml models macros seeds tests snapshots
var Scaffold embed.FS
