package warehouse

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestCompactReclaimsAndKeepsData: a warehouse whose largest table was
// rebuilt and dropped keeps its size; Compact gives the free blocks back,
// and every table (EXCEPT ALL both ways against a copy of the file taken
// before), view, macro and sequence is the same afterwards.
func TestCompactReclaimsAndKeepsData(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "warehouse.duckdb")
	exec1(t, path,
		"create schema curated",
		"create table curated.keep (id integer primary key, body varchar, v float[3])",
		"insert into curated.keep select i, repeat('x', i % 50) || i, [i, i + 1, i + 2]::float[3] from range(20000) t(i)",
		"create sequence curated.ids start 7",
		"create view curated.keep_v as select id, body from curated.keep where id % 2 = 0",
		"create macro curated.twice(x) as x * 2",
		"create table curated.big as select i, md5(i::varchar) || md5((i + 1)::varchar) as s from range(400000) t(i)",
		"checkpoint",
		"create table curated.big2 as select * from curated.big", // a rebuild under another name
		"drop table curated.big",
		"checkpoint",
		"drop table curated.big2",
		"create table curated.small as select 1 as x",
		"checkpoint")
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	orig := filepath.Join(dir, "orig.duckdb")
	copyTestFile(t, path, orig)

	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Blocks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if b.FreeShare() < 0.5 {
		t.Fatalf("the fixture should leave most blocks free: %+v", b)
	}
	res, err := Compact(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if res.Before != before.Size() || res.After >= res.Before/2 || res.Relations != 3 {
		t.Fatalf("compact: %+v (file was %d bytes)", res, before.Size())
	}
	if st, _ := os.Stat(path); st.Size() != res.After {
		t.Fatalf("file is %d bytes, result says %d", st.Size(), res.After)
	}
	if _, err := os.Stat(filepath.Join(dir, ".warehouse.duckdb.compact.tmp")); !os.IsNotExist(err) {
		t.Error("the temporary copy was left behind")
	}

	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"attach '" + orig + "' as orig (read_only)",
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var diff int
	for _, table := range []string{"curated.keep", "curated.small"} {
		q := "select (select count(*) from (select * from orig." + table + " except all select * from " + table + ")) + " +
			"(select count(*) from (select * from " + table + " except all select * from orig." + table + "))"
		if err := db.SQL().QueryRowContext(ctx, q).Scan(&diff); err != nil || diff != 0 {
			t.Errorf("%s differs after compact: %d rows (%v)", table, diff, err)
		}
	}
	var n, twice, next int
	if err := db.SQL().QueryRowContext(ctx, "select count(*), curated.twice(21), nextval('curated.ids') from curated.keep_v").Scan(&n, &twice, &next); err != nil {
		t.Fatal(err)
	}
	if n != 10000 || twice != 42 || next != 7 {
		t.Errorf("view/macro/sequence after compact: %d %d %d", n, twice, next)
	}
	if _, err := db.SQL().ExecContext(ctx, "insert into curated.keep values (1, 'dup', null)"); err == nil {
		t.Error("the primary key was not kept")
	}
}

func copyTestFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	out.Close()
}
