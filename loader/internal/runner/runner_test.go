package runner

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"github.com/docket-dev/docket/loader/internal/testflags"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"golang.org/x/tools/txtar"
)

var update = testflags.Update

var testUDFs = []warehouse.UDF{{Name: "shout", Params: []string{"VARCHAR"}, Result: "VARCHAR", Version: "1",
	Fn: func(_ context.Context, a []driver.Value) (any, error) {
		return strings.ToUpper(fmt.Sprint(a[0])) + "!", nil
	}}}

// testFuncs declares testUDFs to Parse; testOwned are the loader's
// tables, as the CLI passes them.
var testFuncs = declareUDFs(testUDFs)

var testOwned = warehouse.OwnedTables()

// declareUDFs declares the warehouse's UDFs to the runner (the CLI has
// its own copy: the runner does not import the warehouse).
func declareUDFs(udfs []warehouse.UDF) []compiler.Function {
	out := make([]compiler.Function, len(udfs))
	for i, u := range udfs {
		out[i] = compiler.Function{Name: u.Name, Params: u.Params, Result: u.Result, Version: u.Version, Doc: u.Doc, Volatile: u.Volatile}
	}
	return out
}

// TestGolden runs every testdata/*.txtar project through the steps in its
// "steps" file and compares the transcript with testdata/<name>.golden.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		t.Run(name, func(t *testing.T) {
			got := runFixture(t, f)
			golden := strings.TrimSuffix(f, ".txtar") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("transcript differs from %s (run with -update to accept):\n%s", golden, diffLines(string(want), got))
			}
		})
	}
}

func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d:\n- %s\n+ %s\n", i+1, a, c)
		}
	}
	return b.String()
}

func runFixture(t *testing.T, file string) string {
	t.Helper()
	ctx := context.Background()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	alt := map[string][]byte{}
	var steps []string
	for _, f := range ar.Files {
		switch {
		case f.Name == "steps":
			for _, l := range strings.Split(string(f.Data), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					steps = append(steps, l)
				}
			}
		case strings.HasPrefix(f.Name, "alt/"):
			alt[strings.TrimPrefix(f.Name, "alt/")] = f.Data
		default:
			writeFile(t, filepath.Join(dir, f.Name), f.Data)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "dbt_project.yml")); err == nil {
		// a dbt project folder as it is
	} else if _, err := os.Stat(filepath.Join(dir, "project.yaml")); err != nil {
		writeFile(t, filepath.Join(dir, "project.yaml"), []byte("version: 1\nname: fixture\n"))
	}
	var db *warehouse.DB
	openDB := func() *warehouse.DB {
		if db == nil {
			p, err := project.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			db, err = warehouse.Open(ctx, p.Warehouse, warehouse.Options{UDFs: testUDFs})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.EnsureSchema(ctx); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
		}
		return db
	}
	parse := func(vars map[string]any) (*compiler.Manifest, []compiler.Diagnostic) {
		p, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, UDFs: testFuncs, Vars: vars})
		if err != nil {
			t.Fatal(err)
		}
		return m, diags
	}
	var out strings.Builder
	for _, step := range steps {
		fmt.Fprintf(&out, "> %s\n", step)
		cmd, rest, _ := strings.Cut(step, " ")
		switch cmd {
		case "parse":
			m, diags := parse(nil)
			if len(diags) == 0 {
				out.WriteString("ok\n")
				validateManifest(t, m)
			}
			for _, d := range diags {
				fmt.Fprintln(&out, d)
			}
			for _, w := range m.Warnings {
				fmt.Fprintln(&out, "warning:", w)
			}
		case "compile":
			m, diags := parse(nil)
			for _, d := range diags {
				fmt.Fprintln(&out, d)
			}
			for _, id := range compiler.SortedKeys(m.Nodes) {
				n := m.Nodes[id]
				if n.ResourceType == compiler.Seed || (rest != "" && n.Name != rest) {
					continue
				}
				fmt.Fprintf(&out, "-- %s (%s) depends on %v\n%s\n", id, n.Config.Materialized, n.DependsOn.Nodes, strings.TrimRight(n.CompiledCode, "\n"))
			}
		case "select":
			m, _ := parse(nil)
			inc, exc := splitArgs(rest)
			ids, err := m.SelectIndirect(inc, exc, indirectArg(rest))
			if err != nil {
				fmt.Fprintln(&out, "error:", err)
			}
			for _, id := range ids {
				fmt.Fprintln(&out, id)
			}
		case "build", "run", "test", "seed":
			inc, exc := splitArgs(rest)
			opts := executor.RunOptions{Command: cmd, Threads: 1}
			var vars map[string]any
			for _, f := range strings.Fields(rest) {
				switch {
				case f == "--full-refresh":
					opts.FullRefresh = true
				case f == "--force":
					opts.Force = true
				case strings.HasPrefix(f, "--threads="):
					opts.Threads, _ = strconv.Atoi(strings.TrimPrefix(f, "--threads="))
				case strings.HasPrefix(f, "--var="):
					k, v, _ := strings.Cut(strings.TrimPrefix(f, "--var="), "=")
					vars = map[string]any{k: v}
				}
			}
			m, diags := parse(vars)
			if len(diags) > 0 {
				for _, d := range diags {
					fmt.Fprintln(&out, d)
				}
				continue
			}
			if len(inc)+len(exc) > 0 {
				opts.Selected, _ = m.SelectIndirect(inc, exc, indirectArg(rest))
			}
			rr, err := executor.Execute(ctx, m, openDB(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := executor.WriteArtifacts(m, filepath.Join(dir, "target"), rr); err != nil {
				t.Fatal(err)
			}
			validateTarget(t, filepath.Join(dir, "target"))
			lines := resultLines(rr)
			if opts.Threads > 1 {
				sort.Strings(lines)
			}
			for _, l := range lines {
				out.WriteString(l)
			}
			exit := 0
			if rr.Failed() {
				exit = 1
			}
			fmt.Fprintf(&out, "exit %d\n", exit)
		case "run_results":
			b, err := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Results []struct {
					UniqueID string `json:"unique_id"`
					Status   string `json:"status"`
					Message  string `json:"message"`
					Failures *int64 `json:"failures"`
				} `json:"results"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			for _, r := range doc.Results {
				f := "null"
				if r.Failures != nil {
					f = fmt.Sprint(*r.Failures)
				}
				fmt.Fprintf(&out, "%s %s failures=%s %q\n", r.UniqueID, r.Status, f, r.Message)
			}
		case "sql", "exec":
			rows, err := openDB().SQL().QueryContext(ctx, rest)
			if err != nil {
				fmt.Fprintln(&out, "error:", compiler.FirstLine(err.Error()))
				continue
			}
			cols, _ := rows.Columns()
			if cmd == "sql" {
				fmt.Fprintln(&out, strings.Join(cols, " | "))
			}
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				if cmd == "exec" {
					continue
				}
				var cells []string
				for _, v := range vals {
					if v == nil {
						cells = append(cells, "NULL")
					} else {
						cells = append(cells, fmt.Sprint(v))
					}
				}
				fmt.Fprintln(&out, strings.Join(cells, " | "))
			}
			rows.Close()
		case "cp":
			data, ok := alt[rest]
			if !ok {
				t.Fatalf("no alt/%s in fixture", rest)
			}
			writeFile(t, filepath.Join(dir, rest), data)
		case "rm":
			os.Remove(filepath.Join(dir, rest))
		case "cat":
			b, err := os.ReadFile(filepath.Join(dir, rest))
			if err != nil {
				fmt.Fprintln(&out, "error:", err)
			}
			out.Write(b)
		default:
			t.Fatalf("unknown step %q", step)
		}
	}
	return out.String()
}

// parseFixture writes a fixture's project files and parses them.
func parseFixture(t *testing.T, file string) *compiler.Manifest {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name != "steps" && !strings.HasPrefix(f.Name, "alt/") {
			writeFile(t, filepath.Join(dir, f.Name), f.Data)
		}
	}
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, UDFs: testFuncs})
	if err != nil || len(diags) > 0 {
		t.Fatalf("parse: %v %v", err, diags)
	}
	return m
}

func resultLines(rr *executor.RunResults) []string {
	var lines []string
	for _, r := range rr.Results {
		l := fmt.Sprintf("%s %s", r.UniqueID, r.Status)
		if r.Message != "" {
			l += " " + strconv.Quote(r.Message)
		}
		if r.Failures != nil && *r.Failures > 0 {
			l += fmt.Sprintf(" failures=%d", *r.Failures)
		}
		l += "\n"
		if r.Sample != nil {
			l += "    " + strings.Join(r.Sample.Columns, " | ") + "\n"
			for _, row := range r.Sample.Rows {
				l += "    " + strings.Join(row, " | ") + "\n"
			}
		}
		lines = append(lines, l)
	}
	return lines
}

// splitArgs splits "-s a b --exclude c" into include and exclude lists.
func splitArgs(s string) (inc, exc []string) {
	cur := (*[]string)(nil)
	for _, f := range strings.Fields(s) {
		switch {
		case f == "-s" || f == "--select":
			cur = &inc
		case f == "--exclude":
			cur = &exc
		case strings.HasPrefix(f, "--"):
			cur = nil
		case cur != nil:
			*cur = append(*cur, f)
		}
	}
	return inc, exc
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// indirectArg returns the --indirect-selection=MODE of a step, or "eager".
func indirectArg(s string) string {
	for _, f := range strings.Fields(s) {
		if v, ok := strings.CutPrefix(f, "--indirect-selection="); ok {
			return v
		}
	}
	return "eager"
}
