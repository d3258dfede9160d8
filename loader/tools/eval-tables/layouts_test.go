package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// stdout is what f prints.
func stdout(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	f()
	os.Stdout = old
	w.Close()
	b, _ := io.ReadAll(r)
	return string(b)
}

// -v prints the figures of each layout for the tune split only; the
// report split's per-layout figures are detail like its documents', so
// only -v-report prints them (they were printed with -v alone).
func TestLayoutFiguresTuneOnly(t *testing.T) {
	byLayout := map[string]*[2]tally{"footer": {{docs: 2}, {docs: 3}}}
	out := stdout(t, func() { printLayouts(byLayout, opts{verbose: true}) })
	if !strings.Contains(out, "generated/tune footer") || strings.Contains(out, "generated/report") {
		t.Errorf("-v printed:\n%s\nwant the tune split's layout figures only", out)
	}
	out = stdout(t, func() { printLayouts(byLayout, opts{verbose: true, reportDetail: true}) })
	if !strings.Contains(out, "generated/report footer") {
		t.Errorf("-v -v-report printed:\n%s\nwant the report split's layout figures too", out)
	}
}
