package cli

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// runSQL runs one query against the warehouse and prints the rows: a
// convenience for people without the DuckDB CLI. The warehouse is opened
// read-only and, unless --allow-external is given, DuckDB cannot touch
// anything else (files, extensions, network): see lockDown.
func runSQL(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("sql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	allowExternal := fs.Bool("allow-external", false, "let the query read and write files, attach databases and install extensions (off by default)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(stderr, `usage: docket sql [--allow-external] "SELECT ..."`)
		return ExitUsage
	}
	_, db, code := openProjectReader(ctx, dir, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	defer conn.Close()
	if !*allowExternal {
		if err := lockDown(ctx, conn); err != nil {
			fmt.Fprintln(stderr, "docket:", err)
			return ExitFailed
		}
	}
	rows, done, err := queryAsText(ctx, conn, fs.Arg(0))
	defer done()
	if err != nil {
		fmt.Fprintln(stderr, "docket:", termSafeLines(err.Error()))
		if !*allowExternal && strings.Contains(err.Error(), "disabled by configuration") {
			fmt.Fprintln(stderr, "docket: `docket sql` reads the warehouse only; add --allow-external to let the query use files, extensions or the network")
		}
		return ExitFailed
	}
	defer rows.Close()
	if err := printRows(stdout, rows); err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	return ExitOK
}

// queryAsText runs q once with every column cast to VARCHAR, so each value
// prints as DuckDB's own CLI prints it (a DATE 2024-01-31, an INTERVAL
// 3 days, a DECIMAL(4,2) 1.50, a list [1, 2], a struct {'a': 1}); Go's
// formatting of the driver's values printed "2024-01-31 00:00:00 +0000 UTC",
// "{3 0 0}", "[1 2]" and "map[a:1]". The wrapped query is prepared first: a
// statement that is not a query (SHOW, PRAGMA, ...) or that does not
// prepare so wrapped runs as written, printed as before, and its error is
// its own. A query that prepared and then fails is not run again (it was
// run twice, as wrapped and as written: a side effect happened twice, and
// the error shown was the second run's). A placeholder (? or $1) with no
// value is refused by database/sql before anything runs ("sql: expected 1
// arguments, got 0"); q then runs as written for the driver's message, as
// before ("incorrect argument count for command: have 0 want 1"). done
// closes the prepared statement once rows are read.
func queryAsText(ctx context.Context, conn *sql.Conn, q string, raw ...int) (rows *sql.Rows, done func(), err error) {
	inner := strings.TrimRight(strings.TrimSpace(q), "; \t\n")
	// raw: these columns (1-based) once more after all of them, as the
	// driver types them (show's Python forms)
	extra := ""
	for _, i := range raw {
		extra += fmt.Sprintf(", #%d", i)
	}
	stmt, err := conn.PrepareContext(ctx, "select columns(*)::varchar"+extra+" from (\n"+inner+"\n)")
	if err == nil {
		rows, err = stmt.QueryContext(ctx)
		if err == nil {
			return rows, func() { stmt.Close() }, nil
		}
		stmt.Close()
		if !strings.HasPrefix(err.Error(), "sql: expected ") {
			return nil, func() {}, err
		}
	}
	rows, err = conn.QueryContext(ctx, q)
	return rows, func() {}, err
}

func printRows(w io.Writer, rows *sql.Rows) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = termSafe(c)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		cells := make([]string, len(cols))
		for i, v := range vals {
			s := fmt.Sprint(v)
			if v == nil {
				s = "NULL"
			}
			s = termSafe(s)
			if r := []rune(s); len(r) > 80 {
				s = string(r[:77]) + "..."
			}
			cells[i] = s
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	return rows.Err()
}
