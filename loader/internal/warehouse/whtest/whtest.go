// Package whtest gives tests the warehouses older dockets made
// (loader/internal/warehouse/testdata), written where a test wants them.
package whtest

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Testdata is the warehouse package's testdata folder.
func Testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata")
}

// Gunzip reads a gzipped file whole.
func Gunzip(t testing.TB, name string) []byte {
	t.Helper()
	gz, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// WriteSchema12 writes to path the warehouse main's docket (5d6a67e)
// loaded at schema version 12: testdata/v12-inbox (4 documents, 36
// elements; the source "inbox") loaded with testdata/v12-project.yaml.
func WriteSchema12(t testing.TB, path string) {
	t.Helper()
	if err := os.WriteFile(path, Gunzip(t, filepath.Join(Testdata(), "v12-warehouse.duckdb.gz")), 0o644); err != nil {
		t.Fatal(err)
	}
}
