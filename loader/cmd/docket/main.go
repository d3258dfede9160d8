// Command docket turns folders of documents into a DuckDB warehouse.
package main

import (
	"os"

	"github.com/docket-dev/docket/loader/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
