package loader

import (
	"reflect"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestDecide: one action per file from what the warehouse knows and what
// the listing saw, without a warehouse or a file.
func TestDecide(t *testing.T) {
	landed := &warehouse.Known{DocID: "d", Hash: "h1", Status: warehouse.StatusLanded}
	tomb := &warehouse.Known{DocID: "d", Hash: "h1", Status: warehouse.StatusDeleted}
	quar := func(kind string) *warehouse.Known {
		return &warehouse.Known{DocID: "d", Hash: "h1", Status: warehouse.StatusQuarantined, ErrorKind: kind}
	}
	attachment := &warehouse.Known{DocID: "a", Hash: "h2", Status: warehouse.StatusLanded, ParentDocID: "d"}
	okContent := &warehouse.Extraction{Hash: "h1", Status: warehouse.StatusLanded, Attempts: 1}
	badContent := func(kind string, attempts int, d time.Duration) *warehouse.Extraction {
		return &warehouse.Extraction{Hash: "h1", Status: warehouse.StatusQuarantined, ErrorKind: kind, Attempts: attempts, Duration: d}
	}
	def := Policy{MaxAttempts: 3, Timeout: 60 * time.Second}
	retryFlag := def
	retryFlag.RetryQuarantined = true
	reocrFlag := def
	reocrFlag.ReOCR = true
	longer := def
	longer.Timeout = 5 * time.Minute
	versioned := def
	versioned.Current = func(v string) bool { return v == "x/2" }
	oldContent := &warehouse.Extraction{Hash: "h1", Status: warehouse.StatusLanded, Attempts: 1, Version: "x/1"}
	routedNow := def
	routedNow.Routed = func(typ string) bool { return typ == "odp" }
	unsupported := func(typ string, attempts int) *warehouse.Extraction {
		return &warehouse.Extraction{Hash: "h1", Status: warehouse.StatusQuarantined, ErrorKind: document.KindUnsupported, Type: typ, Attempts: attempts}
	}
	oldQuarantined := &warehouse.Extraction{Hash: "h1", Status: warehouse.StatusQuarantined, ErrorKind: document.KindCorrupt, Attempts: 1, Version: "x/1"}

	cases := []struct {
		name   string
		facts  Facts
		pol    Policy
		want   Action
		forget []string
	}{
		{"never seen", Facts{Listed: true}, def, ActNew, nil},
		{"never seen, gone before it was read", Facts{Listed: true, Gone: true}, def, ActVanished, nil},
		{"deleted earlier, back now", Facts{Known: tomb, Listed: true, Hash: "h1"}, def, ActNew, nil},
		{"same bytes", Facts{Known: landed, Listed: true, Hash: "h1", Content: okContent, Extracted: true}, def, ActUnchanged, nil},
		{"other bytes", Facts{Known: landed, Listed: true, Hash: "h9"}, def, ActChanged, nil},
		{"unreadable now (no hash)", Facts{Known: landed, Listed: true, Hash: ""}, def, ActChanged, nil},
		{"known, gone before hashing", Facts{Known: landed, Listed: true, Gone: true}, def, ActVanished, nil},
		{"landed, content missing from staging", Facts{Known: landed, Listed: true, Hash: "h1"}, def, ActRepair, nil},
		{"OCR'd, no --reocr", Facts{Known: landed, Listed: true, Hash: "h1", Content: okContent, Extracted: true, OCR: true}, def, ActUnchanged, nil},
		{"OCR'd, --reocr", Facts{Known: landed, Listed: true, Hash: "h1", Content: okContent, Extracted: true, OCR: true}, reocrFlag, ActReOCR, []string{"h1"}},
		{"text layer only, --reocr", Facts{Known: landed, Listed: true, Hash: "h1", Content: okContent, Extracted: true}, reocrFlag, ActUnchanged, nil},
		{"corrupt, no flag", Facts{Known: quar(document.KindCorrupt), Listed: true, Hash: "h1", Content: badContent(document.KindCorrupt, 1, 0), Extracted: true}, def, ActUnchanged, nil},
		{"corrupt, --retry-quarantined", Facts{Known: quar(document.KindCorrupt), Listed: true, Hash: "h1", Content: badContent(document.KindCorrupt, 1, 0), Extracted: true}, retryFlag, ActRetry, []string{"h1"}},
		{"empty file, --retry-quarantined (no content row)", Facts{Known: quar(document.KindEmpty), Listed: true, Hash: "h1"}, retryFlag, ActRetry, nil},
		{"crash, attempts left", Facts{Known: quar(document.KindCrash), Listed: true, Hash: "h1", Content: badContent(document.KindCrash, 1, 0), Extracted: true}, def, ActRetry, []string{"h1"}},
		{"crash, attempts used up", Facts{Known: quar(document.KindCrash), Listed: true, Hash: "h1", Content: badContent(document.KindCrash, 3, 0), Extracted: true}, def, ActUnchanged, nil},
		{"time-out, same limit", Facts{Known: quar(document.KindTimeout), Listed: true, Hash: "h1", Content: badContent(document.KindTimeout, 1, 60*time.Second), Extracted: true}, def, ActUnchanged, nil},
		{"time-out, longer limit now", Facts{Known: quar(document.KindTimeout), Listed: true, Hash: "h1", Content: badContent(document.KindTimeout, 1, 60*time.Second), Extracted: true}, longer, ActRetry, []string{"h1"}},
		{"unsupported, its type has an extractor now", Facts{Known: quar(document.KindUnsupported), Listed: true, Hash: "h1", Content: unsupported("odp", 1), Extracted: true}, routedNow, ActRetry, []string{"h1"}},
		{"unsupported, its type still has none", Facts{Known: quar(document.KindUnsupported), Listed: true, Hash: "h1", Content: unsupported("doc", 1), Extracted: true}, routedNow, ActUnchanged, nil},
		{"unsupported by its extractor, attempts used up", Facts{Known: quar(document.KindUnsupported), Listed: true, Hash: "h1", Content: unsupported("odp", 3), Extracted: true}, routedNow, ActUnchanged, nil},
		{"unsupported, no routes known", Facts{Known: quar(document.KindUnsupported), Listed: true, Hash: "h1", Content: unsupported("odp", 1), Extracted: true}, def, ActUnchanged, nil},
		{"unreadable: retried every load", Facts{Known: quar(document.KindUnreadable), Listed: true, Hash: "h1"}, def, ActRetry, nil},
		{"an attachment needs work", Facts{Known: landed, Listed: true, Hash: "h1", Content: okContent, Extracted: true, Redo: []string{"h2"}}, def, ActRetry, []string{"h2", "h1"}},
		{"made by an older extractor", Facts{Known: landed, Listed: true, Hash: "h1", Content: oldContent, Extracted: true}, versioned, ActReextract, []string{"h1"}},
		{"made by the current extractor", Facts{Known: landed, Listed: true, Hash: "h1", Content: &warehouse.Extraction{Hash: "h1", Status: warehouse.StatusLanded, Version: "x/2"}, Extracted: true}, versioned, ActUnchanged, nil},
		{"older extractor, no version check", Facts{Known: landed, Listed: true, Hash: "h1", Content: oldContent, Extracted: true}, def, ActUnchanged, nil},
		{"quarantined by an older extractor: the retry rules decide", Facts{Known: quar(document.KindCorrupt), Listed: true, Hash: "h1", Content: oldQuarantined, Extracted: true}, versioned, ActUnchanged, nil},
		{"older extractor, --reocr on an OCR'd content", Facts{Known: landed, Listed: true, Hash: "h1", Content: oldContent, Extracted: true, OCR: true}, func() Policy { p := versioned; p.ReOCR = true; return p }(), ActReOCR, []string{"h1"}},
		{"changed wins over flags", Facts{Known: quar(document.KindCorrupt), Listed: true, Hash: "h9", OCR: true}, retryFlag, ActChanged, nil},
		{"not listed: deleted", Facts{Known: landed}, def, ActDeleted, nil},
		{"not listed, its folder unreadable", Facts{Known: landed, UnderUnreadable: true}, def, ActKept, nil},
		{"not listed, an attachment (its parent decides)", Facts{Known: attachment}, def, ActKept, nil},
		{"not listed, a tombstone", Facts{Known: tomb}, def, ActKept, nil},
	}
	for _, c := range cases {
		d := Decide(c.facts, c.pol)
		if d.Action != c.want || !reflect.DeepEqual(d.Forget, c.forget) {
			t.Errorf("%s: got %s forget %v, want %s forget %v", c.name, d.Action, d.Forget, c.want, c.forget)
		}
		if got := d.Action.Executes(); got != (c.want != ActUnchanged && c.want != ActDeleted && c.want != ActKept) {
			t.Errorf("%s: Executes() = %v", c.name, got)
		}
	}
}

// TestDescendantsToRedo: attachments (recursively) bring their parent
// back when they need work.
func TestDescendantsToRedo(t *testing.T) {
	known := map[string]warehouse.Known{
		"p":  {DocID: "p", Hash: "hp", Status: warehouse.StatusLanded},
		"c1": {DocID: "c1", Hash: "hc1", Status: warehouse.StatusLanded, ParentDocID: "p"},
		"c2": {DocID: "c2", Hash: "hc2", Status: warehouse.StatusQuarantined, ErrorKind: document.KindCrash, ParentDocID: "p"},
		"g":  {DocID: "g", Hash: "hg", Status: warehouse.StatusLanded, ParentDocID: "c1"},
		"x":  {DocID: "x", Hash: "hx", Status: warehouse.StatusDeleted, ParentDocID: "p"},
	}
	children, _ := ChildrenOf(known)
	if len(children["p"]) != 2 {
		t.Fatalf("children of p: %v (a tombstone is no child)", children["p"])
	}
	ex := map[string]warehouse.Extraction{
		"hp": {Status: warehouse.StatusLanded}, "hc1": {Status: warehouse.StatusLanded},
		"hc2": {Status: warehouse.StatusQuarantined, ErrorKind: document.KindCrash, Attempts: 3},
		"hg":  {Status: warehouse.StatusLanded},
	}
	pol := Policy{MaxAttempts: 3}
	if got := DescendantsToRedo("p", children, known, ex, nil, pol); len(got) != 0 {
		t.Errorf("all settled: %v", got)
	}
	// The grandchild lost its staging rows: the whole family comes back.
	delete(ex, "hg")
	if got := DescendantsToRedo("p", children, known, ex, nil, pol); !reflect.DeepEqual(got, []string{"hg"}) {
		t.Errorf("grandchild to repair: %v", got)
	}
	ex["hg"] = warehouse.Extraction{Status: warehouse.StatusLanded}
	pol.RetryQuarantined = true
	if got := DescendantsToRedo("p", children, known, ex, nil, pol); !reflect.DeepEqual(got, []string{"hc2"}) {
		t.Errorf("--retry-quarantined: %v", got)
	}
	pol = Policy{MaxAttempts: 3, ReOCR: true}
	got := DescendantsToRedo("p", children, known, ex, map[string]bool{"hc1": true}, pol)
	if !reflect.DeepEqual(got, []string{"hc1"}) {
		t.Errorf("--reocr: %v", got)
	}
	// The grandchild was made by an extractor version no longer current.
	ex["hg"] = warehouse.Extraction{Status: warehouse.StatusLanded, Version: "x/1"}
	pol = Policy{MaxAttempts: 3, Current: func(v string) bool { return v != "x/1" }}
	if got := DescendantsToRedo("p", children, known, ex, nil, pol); !reflect.DeepEqual(got, []string{"hg"}) {
		t.Errorf("outdated grandchild: %v", got)
	}
}

// TestStatClean: git's index rules for a file the warehouse knows.
func TestStatClean(t *testing.T) {
	taken := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano()
	rec := FileStat{Size: 10, MTimeN: taken - int64(time.Hour), Inode: 7, CTimeN: taken - int64(time.Hour), TakenN: taken}
	k := warehouse.Known{Hash: "h", Stat: rec}
	now := rec
	now.TakenN = taken + int64(time.Hour)
	with := func(f func(*FileStat)) FileStat { s := now; f(&s); return s }
	cases := []struct {
		name string
		k    warehouse.Known
		now  FileStat
		want bool
	}{
		{"all match", k, now, true},
		{"size", k, with(func(s *FileStat) { s.Size++ }), false},
		{"mtime", k, with(func(s *FileStat) { s.MTimeN++ }), false},
		{"inode (renamed over)", k, with(func(s *FileStat) { s.Inode++ }), false},
		{"ctime (written, mtime set back)", k, with(func(s *FileStat) { s.CTimeN++ }), false},
		{"no stat recorded (older warehouse)", warehouse.Known{Hash: "h"}, now, false},
		{"no hash recorded (unreadable)", warehouse.Known{Stat: rec}, now, false},
		{"no stat now", k, FileStat{}, false},
		{"racily clean: mtime in the recording load's second", warehouse.Known{Hash: "h", Stat: with(func(s *FileStat) { s.MTimeN = taken - int64(time.Second); s.TakenN = taken })},
			with(func(s *FileStat) { s.MTimeN = taken - int64(time.Second) }), false},
		{"racily clean: mtime after the listing began", warehouse.Known{Hash: "h", Stat: with(func(s *FileStat) { s.MTimeN = taken + 5; s.TakenN = taken })},
			with(func(s *FileStat) { s.MTimeN = taken + 5 }), false},
		{"old enough", warehouse.Known{Hash: "h", Stat: with(func(s *FileStat) { s.MTimeN = taken - int64(RacyWindow) - 1; s.TakenN = taken })},
			with(func(s *FileStat) { s.MTimeN = taken - int64(RacyWindow) - 1 }), true},
	}
	for _, c := range cases {
		if got := StatClean(c.k, c.now); got != c.want {
			t.Errorf("%s: StatClean = %v, want %v", c.name, got, c.want)
		}
	}
}
