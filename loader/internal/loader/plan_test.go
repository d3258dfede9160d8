package loader

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/worker"
)

func planProject(t *testing.T) (*project.Project, string) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "inbox")
	os.MkdirAll(src, 0o755)
	p := &project.Project{Sources: []project.Source{{Name: "inbox", Path: src}}}
	p.Loader.Workers, p.Loader.MaxFileSize, p.Loader.MaxAttempts = 2, 1<<20, 3
	p.Loader.Timeout.Duration = time.Minute
	p.Loader.MaxAttachmentDepth = 2
	return p, src
}

// mustPlan is MakePlan, failing the test on an error.
func mustPlan(t *testing.T, st *State, l *Listing, opts Options) *Plan {
	t.Helper()
	plan, err := MakePlan(st, l, opts)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMakePlan: the plan of a folder against a warehouse state held in
// memory: one action per file, deleted documents included, the contents
// it extracts again left out of the reusable ones; and it survives JSON
// (a plan can be executed elsewhere).
func TestMakePlan(t *testing.T) {
	p, src := planProject(t)
	write(t, src, "same.txt", "unchanged text\n")
	write(t, src, "edited.txt", "new text\n")
	write(t, src, "fresh.txt", "a new file\n")
	write(t, src, "retry.txt", "crashed once\n")
	same, retry := hashString("unchanged text\n"), hashString("crashed once\n")
	st := &State{
		Known: map[string]warehouse.Known{
			DocID("inbox", "same.txt"):   {Hash: same, Status: warehouse.StatusLanded, SourceName: "inbox", RelPath: "same.txt"},
			DocID("inbox", "edited.txt"): {Hash: hashString("old text\n"), Status: warehouse.StatusLanded, SourceName: "inbox", RelPath: "edited.txt"},
			DocID("inbox", "retry.txt"):  {Hash: retry, Status: warehouse.StatusQuarantined, ErrorKind: "crash", SourceName: "inbox", RelPath: "retry.txt"},
			DocID("inbox", "gone.txt"):   {Hash: "hg", Status: warehouse.StatusLanded, SourceName: "inbox", RelPath: "gone.txt"},
		},
		Extractions: map[string]warehouse.Extraction{
			same:  {Hash: same, Status: warehouse.StatusLanded, Attempts: 1},
			retry: {Hash: retry, Status: warehouse.StatusQuarantined, ErrorKind: "crash", Attempts: 1},
		},
		OCR: map[string]bool{},
	}
	// clean.txt's stat vouches for it (the load that read it saw this
	// stat, well after its last change).
	write(t, src, "clean.txt", "clean text\n")
	listed := List(p, st.Known)
	clean := hashString("clean text\n")
	for _, f := range listed.files {
		if f.rel == "clean.txt" {
			stat := f.stat
			stat.TakenN = stat.MTimeN + int64(time.Hour)
			st.Known[f.docID] = warehouse.Known{Hash: clean, Status: warehouse.StatusLanded, SourceName: "inbox", RelPath: "clean.txt", Stat: stat}
		}
	}
	st.Extractions[clean] = warehouse.Extraction{Hash: clean, Status: warehouse.StatusLanded, Attempts: 1}
	plan := mustPlan(t, st, listed, Options{Project: p})
	got := map[string]Action{}
	for _, f := range plan.Files {
		got[f.Rel] = f.Action
	}
	// An unchanged file not read is counted, not planned: its doc_id is
	// all the plan keeps of it (same.txt was read, its stat is recorded).
	if len(plan.Unchanged) != 1 || plan.Unchanged[0] != DocID("inbox", "clean.txt") || plan.Count(ActUnchanged) != 2 {
		t.Errorf("unchanged: %v, %d", plan.Unchanged, plan.Count(ActUnchanged))
	}
	got["clean.txt"] = ActUnchanged
	want := map[string]Action{"clean.txt": ActUnchanged, "same.txt": ActUnchanged, "edited.txt": ActChanged, "fresh.txt": ActNew, "retry.txt": ActRetry, "gone.txt": ActDeleted}
	for rel, a := range want {
		if got[rel] != a {
			t.Errorf("%s: %s, want %s", rel, got[rel], a)
		}
	}
	if len(got) != len(want) {
		t.Errorf("plan has %d files, want %d: %v", len(got), len(want), got)
	}
	if _, ok := plan.Contents[retry]; ok || !slices.Equal(plan.Dropped, []string{retry}) {
		t.Errorf("a content retried is still offered for reuse (dropped: %v)", plan.Dropped)
	}
	if _, ok := plan.Contents[same]; !ok {
		t.Error("a landed content is not offered for reuse")
	}
	todo := plan.Todo()
	if len(todo) != 3 || todo[len(todo)-1].Rel != "fresh.txt" {
		t.Errorf("todo: %+v (known files to redo first, then new ones)", todo)
	}
	// The files to execute come first: Todo is that part of Files, not a
	// copy of it (200k copies held while a first load ran), and appending
	// to it leaves Files alone.
	if len(todo) > 0 && (&todo[0] != &plan.Files[0] || cap(todo) != len(todo)) {
		t.Errorf("Todo copied the plan's files (or may append into them): cap %d, len %d", cap(todo), len(todo))
	}
	// A plan ordered otherwise still gets every file to execute.
	mixed := &Plan{Files: []PlannedFile{{Action: ActUnchanged, DocID: "u"}, {Action: ActNew, DocID: "n"}, {Action: ActKept, DocID: "k"}, {Action: ActChanged, DocID: "c"}}}
	if got := mixed.Todo(); len(got) != 2 || got[0].DocID != "n" || got[1].DocID != "c" {
		t.Errorf("Todo of a plan not ordered: %+v", got)
	}
	// Known files are hashed to decide; the new one is left to the executor.
	wantBytes := int64(len("unchanged text\n") + len("new text\n") + len("crashed once\n"))
	if plan.BytesHashed != wantBytes {
		t.Errorf("bytes hashed: %d, want %d", plan.BytesHashed, wantBytes)
	}
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	var back Plan
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Todo()) != 3 || back.Todo()[0] != todo[0] {
		t.Errorf("plan after JSON: %+v", back.Todo())
	}
}

// TestExecuteSubset: a part of a plan executes without a warehouse and
// hands back its landings (what a shard does).
func TestExecuteSubset(t *testing.T) {
	p, src := planProject(t)
	write(t, src, "a.txt", "Alpha document text.\n")
	write(t, src, "b.txt", "Beta document text.\n")
	write(t, src, "c.txt", "Alpha document text.\n") // same bytes as a.txt
	st := &State{Known: map[string]warehouse.Known{}, Extractions: map[string]warehouse.Extraction{}, OCR: map[string]bool{}}
	plan := mustPlan(t, st, List(p, st.Known), Options{Project: p, HashNew: true})
	var subset []PlannedFile
	for _, f := range plan.Todo() {
		if f.Hash == "" {
			t.Errorf("%s: HashNew left the hash out", f.Rel)
		}
		if f.Rel != "b.txt" {
			subset = append(subset, f)
		}
	}
	exe, _ := os.Executable()
	pool := worker.NewPool(worker.PoolOptions{Command: []string{exe, "worker"}, Env: []string{"DOCKET_TEST_AS_DOCKET=1"}, Size: 1, Timeout: time.Minute, Versions: version.All()})
	defer pool.Close()
	sum := &Summary{}
	var landed []warehouse.Landing
	err := Execute(context.Background(), plan, subset, Options{Project: p}, pool, sum, func(f Family) error {
		landed = append(landed, f.Landings...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range subset {
		if f != (PlannedFile{}) {
			t.Errorf("%s: an executed file is still held", f.Rel)
		}
	}
	sort.Slice(landed, func(i, j int) bool { return landed[i].Doc.RelPath < landed[j].Doc.RelPath })
	if len(landed) != 2 || landed[0].Doc.RelPath != "a.txt" || landed[1].Doc.RelPath != "c.txt" {
		t.Fatalf("landed: %+v", landed)
	}
	extracted := 0
	for _, l := range landed {
		if l.Doc.Status != warehouse.StatusLanded || l.Event != "new" || l.Doc.Hash != hashString("Alpha document text.\n") {
			t.Errorf("%s: %s %s %s", l.Doc.RelPath, l.Doc.Status, l.Event, l.Doc.Hash)
		}
		if l.Extracted {
			extracted++
			if l.Content == nil || len(l.Content.Pages) == 0 {
				t.Errorf("%s: extracted without content", l.Doc.RelPath)
			}
		}
	}
	if extracted != 1 || sum.Extracted != 1 || sum.Landed != 2 {
		t.Errorf("same bytes extracted %d times (summary: extracted %d, landed %d)", extracted, sum.Extracted, sum.Landed)
	}
}

// TestDropParentsOfRedone: a known content is not reusable when an
// attachment's content at any depth is extracted again (a zip holding
// an email holding the outdated PDF: both dropped); a parent whose
// attachments are all reusable stays, and so does one whose attachment
// never had an extraction (nothing of it is redone).
func TestDropParentsOfRedone(t *testing.T) {
	landed := func(h string) warehouse.Extraction {
		return warehouse.Extraction{Hash: h, Status: warehouse.StatusLanded}
	}
	st := &State{
		Extractions: map[string]warehouse.Extraction{"zip": landed("zip"), "eml": landed("eml"), "pdf": landed("pdf"),
			"other": landed("other"), "txt": landed("txt"), "odd": landed("odd")},
		Attachments: map[string][]warehouse.AttachmentRef{
			"zip":   {{ChildHash: "eml"}},
			"eml":   {{ChildHash: "pdf"}, {ChildHash: "txt"}},
			"other": {{ChildHash: "txt"}},
			"odd":   {{ChildHash: "never-extracted"}},
		},
	}
	contents, dropped := st.Extractions, map[string]warehouse.Extraction{}
	drop := func(h string) {
		if ex, ok := contents[h]; ok {
			dropped[h] = ex
			delete(contents, h)
		}
	}
	drop("pdf") // outdated: dropped by the plan
	dropParentsOfRedone(contents, dropped, st.Attachments, drop)
	var kept []string
	for h := range contents {
		kept = append(kept, h)
	}
	sort.Strings(kept)
	if got, want := kept, []string{"odd", "other", "txt"}; !slices.Equal(got, want) {
		t.Errorf("reusable contents %v, want %v", got, want)
	}
}
