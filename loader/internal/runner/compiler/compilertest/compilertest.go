// Package compilertest compiles projects given as maps of files, for the
// tests of the packages that use the compiler.
package compilertest

import (
	"testing"
	"testing/fstest"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// Compile parses a project given as a map of files (project.yaml among
// them, "version: 1\nname: mem\n" when absent) without a disk folder or
// a database: every read goes through an fstest.MapFS. raw.documents is
// the loader's, and the Go UDF shout(VARCHAR) -> VARCHAR is declared.
func Compile(t testing.TB, files map[string]string) (*compiler.Manifest, []compiler.Diagnostic) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	yml := files["project.yaml"]
	if yml == "" {
		yml = "version: 1\nname: mem\n"
	}
	p, err := project.Parse("/nonexistent/docket-mapfs/project.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{FS: fsys, Owned: []string{"raw.documents"},
		UDFs: []compiler.Function{{Name: "shout", Params: []string{"VARCHAR"}, Result: "VARCHAR"}}})
	if err != nil {
		t.Fatal(err)
	}
	return m, diags
}

// Strings renders diagnostics as path:line:col: message.
func Strings(ds []compiler.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.String())
	}
	return out
}
