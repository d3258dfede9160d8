// Package testflags holds the flags every docket test binary accepts.
//
// Each package with tests imports it (testflags_test.go), so that
// `go test ./... -update` refreshes every golden file instead of failing
// with "flag provided but not defined" in the packages that have none.
package testflags

import "flag"

// Update asks tests to rewrite their golden files instead of comparing
// with them.
var Update = flag.Bool("update", false, "rewrite golden files instead of comparing with them")
