package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDuplicateIndexEqualsFullRefreshNarrowWindow checks the change-scoped
// curated.chunk_dup_index where its windows matter: with
// lsh_max_bucket_compare 1 each text is compared only with the member just
// before it in each shared bucket, so inserting a text in the middle of a
// bucket (a changed document keeps its first_seen_at), deleting one, or
// moving a text's representative changes other texts' windows. After each
// load the incremental build must equal a --full-refresh of the index and
// chunk_duplicates row for row.
func TestDuplicateIndexEqualsFullRefreshNarrowWindow(t *testing.T) {
	dir, inbox := narrowWindowProject(t)
	p := paragraphs(4)
	variant := func(k int) string { return nearVariant(p[0], k) }
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(inbox, name), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	step := func(what string) {
		t.Helper()
		must(t, dir, "load", "--quiet")
		must(t, dir, "build", "-s", "+chunk_duplicates")
		assertDuplicatesMatchFullRefresh(t, dir, what)
	}

	for k := 1; k <= 4; k++ {
		write(fmt.Sprintf("a%d.txt", k), variant(k))
	}
	write("u1.txt", p[1])
	step("load 1")
	if got := query(t, dir, "select count(*) from curated.chunk_duplicates where kind = 'near'"); got[0] == "0" {
		t.Fatalf("the variants should be near duplicates of each other")
	}

	for k := 5; k <= 7; k++ {
		write(fmt.Sprintf("a%d.txt", k), variant(k))
	}
	write("x2.txt", variant(2)) // an exact copy of a2
	step("load 2: later members and an exact copy")

	write("a2.txt", variant(8)) // a changed document: a new text in the middle of the buckets
	os.Remove(filepath.Join(inbox, "a3.txt"))
	write("a1.txt", p[2]) // the earliest variant leaves its group
	step("load 3: insert in the middle, delete, the earliest leaves")

	write("a3.txt", variant(3)) // back, now the latest
	os.Remove(filepath.Join(inbox, "a5.txt"))
	write("a6.txt", variant(2)) // now an exact copy of x2's text
	os.Remove(filepath.Join(inbox, "x2.txt"))
	step("load 4: returns, deletes, representative moves")
}

// narrowWindowProject is the shipped project with only generated
// documents in its inbox (a quick load; returned with the folder) and
// lsh_max_bucket_compare 1: each text is compared only with the member
// just before it in each shared bucket, so every window depends on the
// buckets' order.
func narrowWindowProject(t *testing.T) (dir, inbox string) {
	t.Helper()
	dir = shipped(t)
	inbox = filepath.Join(dir, "examples/inbox")
	entries, _ := os.ReadDir(inbox)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(inbox, e.Name()))
	}
	yaml, err := os.ReadFile(filepath.Join(dir, "project.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	yaml = []byte(strings.Replace(string(yaml), "\nvars:\n", "\nvars:\n  lsh_max_bucket_compare: 1\n", 1))
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), yaml, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, inbox
}

// nearVariant is variant k of paragraph p: two words changed at k's own
// places, a near duplicate of p and of every other variant.
func nearVariant(p string, k int) string {
	w := strings.Fields(p)
	w[3+k*9] = fmt.Sprintf("vamor%d", k)
	w[6+k*9] = fmt.Sprintf("telsin%d", k)
	return strings.Join(w, " ")
}

// assertDuplicatesMatchFullRefresh rebuilds curated.chunk_dup_index and
// chunk_duplicates with --full-refresh in a copy of the project and
// compares both with the incremental ones, EXCEPT ALL both ways.
func assertDuplicatesMatchFullRefresh(t *testing.T, dir, what string) {
	t.Helper()
	full := t.TempDir()
	for _, name := range []string{"project.yaml", "models", "macros", "seeds", "tests", "snapshots", "examples", "warehouse.duckdb"} {
		src := filepath.Join(dir, name)
		st, err := os.Stat(src)
		if err != nil {
			continue
		}
		if st.IsDir() {
			err = os.CopyFS(filepath.Join(full, name), os.DirFS(src))
		} else {
			var b []byte
			if b, err = os.ReadFile(src); err == nil {
				err = os.WriteFile(filepath.Join(full, name), b, 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	must(t, full, "run", "--full-refresh", "-s", "chunk_dup_index chunk_duplicates")
	var parts []string
	for _, rel := range []string{"curated.chunk_dup_index", "curated.chunk_duplicates"} {
		parts = append(parts, fmt.Sprintf("select '%s' || ' ' || (select count(*) from (select * from %s except all select * from f.%s)) || ' ' || (select count(*) from (select * from f.%s except all select * from %s)) || ' ' || (select count(*) from %s)",
			rel, rel, rel, rel, rel, rel))
	}
	attach := "attach '" + filepath.Join(full, "warehouse.duckdb") + "' as f (read_only); "
	out := must(t, dir, "sql", "--allow-external", attach+strings.Join(parts, " union all ")+" order by 1")
	lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(lines) != 2 {
		t.Fatalf("%s: comparison printed:\n%s", what, out)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 4 || f[1] != "0" || f[2] != "0" || f[3] == "0" {
			t.Errorf("%s: %s: rows only in the incremental build, rows only in the full refresh, rows: %v", what, f[0], f[1:])
		}
	}
}
