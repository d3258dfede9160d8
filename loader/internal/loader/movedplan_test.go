package loader

import (
	"runtime"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestPlanWithoutLaTeXBuildsNoMovedSet: the set of files that moved (new,
// changed, deleted), which only decides about LaTeX documents with
// \input files (see includer), is not built when the plan has none:
// MakePlan built it for every load, a string and a map entry per such
// file (~130 bytes per file of a first load of 200k files). Here n
// deleted files, planned beside one unchanged file that is or is not a
// LaTeX document with includes: without one, the plan allocates
// at least 64 bytes per file less.
func TestPlanWithoutLaTeXBuildsNoMovedSet(t *testing.T) {
	p, _ := planProject(t)
	const n = 4000
	perFile := func(latex bool) uint64 {
		least := ^uint64(0)
		for round := 0; round < 3; round++ {
			st, l := noopState(n + 1)
			l.files = l.files[:1] // the others: deleted
			st.Includes = map[string]warehouse.LaTeXSources{}
			if latex {
				st.Includes[l.files[0].docID] = warehouse.LaTeXSources{Includes: []string{"chapter.tex"}, Digest: "d"}
			}
			var a, b runtime.MemStats
			runtime.ReadMemStats(&a)
			plan := mustPlan(t, st, l, Options{Project: p})
			runtime.ReadMemStats(&b)
			least = min(least, b.TotalAlloc-a.TotalAlloc)
			if plan.Count(ActDeleted) != n || plan.Count(ActUnchanged) != 1 {
				t.Fatalf("plan: %d deleted, %d unchanged; want %d and 1", plan.Count(ActDeleted), plan.Count(ActUnchanged), n)
			}
		}
		return least / n
	}
	with, without := perFile(true), perFile(false)
	t.Logf("%d bytes per file with a LaTeX document, %d without", with, without)
	if without+64 > with {
		t.Errorf("a plan without LaTeX documents allocates %d bytes per file, with one %d: want at least 64 less (no moved set)", without, with)
	}
}
