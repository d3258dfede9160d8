package cli

import (
	"context"
	"database/sql/driver"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"golang.org/x/tools/txtar"
)

func TestCLI(t *testing.T) {
	ar, _ := txtar.ParseFile("../testdata/failing.txtar")
	dir := t.TempDir()
	for _, f := range ar.Files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f.Name)), 0o755)
		os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nname: fx\nthreads: 2\n"), 0o644)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	udfs := []warehouse.UDF{{Name: "shout", Params: []string{"VARCHAR"}, Result: "VARCHAR", Version: "1.2", Fn: func(_ context.Context, a []driver.Value) (any, error) { return a[0], nil }}}
	for _, args := range [][]string{{"build"}, {"ls"}, {"ls", "--resource-type", "udf"}, {"compile", "-s", "c"}, {"run", "-s", "+c", "d", "--exclude", "a"}, {"build", "--bogus"}} {
		code := RunModels(context.Background(), args[0], args[1:], p, udfs, os.Stdout, os.Stdout)
		t.Logf("%v exit %d", args, code)
	}
}
