package loader

import (
	"testing"
)

// TestPlanLeavesURIsToExecution: a first load's plan holds every file,
// so it keeps no file:// URI per file (at 200k documents they were 12 MB
// of the plan's 70 MB of live heap); the executor makes each from the
// path, escaped as before, and a shard plan still carries it.
func TestPlanLeavesURIsToExecution(t *testing.T) {
	p, src := planProject(t)
	write(t, src, "a b#ü.txt", "a file whose name needs escaping\n")
	write(t, src, "plain.txt", "a plain name\n")
	plan := mustPlan(t, &State{}, List(p, nil), Options{Project: p})
	if len(plan.Files) != 2 {
		t.Fatalf("plan has %d files, want 2", len(plan.Files))
	}
	for _, pf := range plan.Files {
		if pf.URI != "" {
			t.Errorf("%s: the plan holds its URI %q", pf.Rel, pf.URI)
		}
		want := fileURI(pf.Abs)
		if got := fileOf(pf).uri; got != want || got == "" {
			t.Errorf("%s: executed with URI %q, want %q", pf.Rel, got, want)
		}
		if got := wire(pf).URI; got != want {
			t.Errorf("%s: shard plan URI %q, want %q", pf.Rel, got, want)
		}
	}
	// A plan that carries a URI (a shard plan) is executed with it.
	pf := plan.Files[0]
	pf.URI = "file:///elsewhere/x.txt"
	if got := fileOf(pf).uri; got != pf.URI {
		t.Errorf("a planned URI is replaced: %q", got)
	}
}
