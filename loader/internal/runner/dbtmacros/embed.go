// Package dbtmacros holds dbt-core's cross-database macros as docket
// ships them (the dbt namespace), embedded in the binary.
package dbtmacros

import "embed"

// FS holds the *.sql macro files.
//
//go:embed *.sql
var FS embed.FS
