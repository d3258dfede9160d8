package cli

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// runConnect is `docket connect`: how a notebook or another DuckDB client
// reads the warehouse without ever blocking docket.
func runConnect(args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("connect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	py := fs.Bool("python", false, "a Python snippet")
	node := fs.Bool("node", false, "a Node.js snippet (@duckdb/node-api)")
	cliSnip := fs.Bool("cli", false, "the DuckDB CLI command")
	pathOnly := fs.Bool("path", false, "print only the file readers open")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: docket connect [--python | --node | --cli | --path]")
		return ExitUsage
	}
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	rp := warehouse.ReadPath(p.Warehouse)
	st, err := warehouse.ReadStamp(p.Warehouse)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	if st == nil {
		fmt.Fprintf(stderr, "docket: note: %s is not published yet; `docket load` or `docket build` publishes it\n", filepath.Base(rp))
	}
	if *pathOnly {
		fmt.Fprintln(stdout, rp)
		return ExitOK
	}
	all := !*py && !*node && !*cliSnip
	q := strconv.Quote(rp)
	if all {
		fmt.Fprintf(stdout, "Readers open %s, read-only. docket publishes it after each successful\n", rp)
		fmt.Fprintln(stdout, "load, build, run, seed or snapshot by renaming a new copy over it: a connection")
		fmt.Fprintln(stdout, "keeps the state it opened, never blocks docket, and sees the new state after")
		fmt.Fprintln(stdout, "reconnecting. No docket and no extension needed: any DuckDB client of version 1.1 or later.")
		if st != nil && !st.PublishedAt.IsZero() {
			fmt.Fprintf(stdout, "Last published after `docket %s` at %s.\n", st.Command, st.PublishedAt.Local().Format("2006-01-02 15:04:05"))
		}
		fmt.Fprintln(stdout)
	}
	if all || *py {
		if all {
			fmt.Fprintln(stdout, "# Python (pip install duckdb)")
		}
		fmt.Fprintf(stdout, `import duckdb
con = duckdb.connect(%s, read_only=True)
con.sql("select * from retrieval.bm25('termination notice period', k := 5)").show()
`, q)
	}
	if all || *node {
		if all {
			fmt.Fprintln(stdout, "\n// Node.js (npm install @duckdb/node-api)")
		}
		fmt.Fprintf(stdout, `import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(%s, { access_mode: 'READ_ONLY' });
const con = await db.connect();
console.table((await con.runAndReadAll("select * from curated.documents")).getRowObjects());
`, q)
	}
	if all || *cliSnip {
		if all {
			fmt.Fprintln(stdout, "\n# DuckDB CLI")
		}
		fmt.Fprintf(stdout, "duckdb -readonly %s\n", shellQuote(rp))
	}
	return ExitOK
}

func shellQuote(s string) string {
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "'" + s + "'"
		}
	}
	return s
}
