package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// healthProject is a project with one empty source folder, inbox/, and
// the shipped models, macros, seeds and tests.
func healthProject(t *testing.T) (dir, inbox string) {
	t.Helper()
	dir = shipped(t)
	os.RemoveAll(filepath.Join(dir, "examples"))
	inbox = filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	py := filepath.Join(dir, "project.yaml")
	b, _ := os.ReadFile(py)
	s := strings.Replace(string(b), "path: examples/inbox", "path: inbox", 1)
	os.WriteFile(py, []byte(s), 0o644)
	return dir, inbox
}

// writePDF writes a born-digital PDF with one page per entry of pages,
// each page's lines drawn in Helvetica.
func writePDF(t *testing.T, path string, pages [][]string) {
	t.Helper()
	var objs []string
	n := len(pages)
	kids := make([]string, n)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i, lines := range pages {
		var c strings.Builder
		c.WriteString("BT /F1 10 Tf 14 TL 50 780 Td\n")
		for _, l := range lines {
			l = strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(l)
			fmt.Fprintf(&c, "(%s) Tj T*\n", l)
		}
		c.WriteString("ET")
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", c.Len(), c.String()))
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

var words = strings.Fields(`the quarterly report covers revenue margins supplier contracts warehouse
	safety training audit findings customer renewals pricing changes regional offices travel budget
	hiring plans equipment leases insurance claims compliance reviews project milestones`)

// prose returns n lines of varied words, seeded by k.
func prose(k, n int) []string {
	out := make([]string, n)
	for i := range out {
		var l []string
		for j := 0; j < 12; j++ {
			l = append(l, words[(k*7+i*5+j*3)%len(words)])
		}
		out[i] = fmt.Sprintf("%d. %s.", i+1, strings.Join(l, " "))
	}
	return out
}

func loadRunIDs(t *testing.T, dir string) []string {
	t.Helper()
	return query(t, dir, "select run_id from ops.load_runs order by started_at")
}

func acknowledge(t *testing.T, dir, run string) {
	t.Helper()
	py := filepath.Join(dir, "project.yaml")
	b, _ := os.ReadFile(py)
	s := strings.Replace(string(b), "acknowledged: []", "acknowledged:\n    - {run: "+run+", reason: test}", 1)
	if s == string(b) {
		t.Fatal("project.yaml has no `acknowledged: []` to fill")
	}
	os.WriteFile(py, []byte(s), 0o644)
}

// TestHealthComparesLikeWithLike: six short notes loaded after six long
// PDFs are another kind of document, not a drop; the build is green.
func TestHealthComparesLikeWithLike(t *testing.T) {
	dir, inbox := healthProject(t)
	for i := range 6 {
		writePDF(t, filepath.Join(inbox, fmt.Sprintf("report-%d.pdf", i)), [][]string{prose(i, 40), prose(i+1, 40), prose(i+2, 40)})
	}
	must(t, dir, "load", "--quiet")
	must(t, dir, "build", "-s", "ops")
	for i := range 6 {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("note-%d.txt", i)), []byte(fmt.Sprintf("Call the supplier %d about the lease.\n", i)), 0o644)
	}
	must(t, dir, "load", "--quiet")
	out, code := run(t, dir, "build", "-s", "ops")
	if code != 0 {
		t.Fatalf("short notes after long PDFs should build green, got exit %d:\n%s", code, out)
	}
	// The run-level figure did drop: the old check would have fired.
	if got := query(t, dir, "select mean_chars_change < -0.9 from ops.extraction_health where is_latest_judged"); len(got) != 1 || got[0] != "true" {
		t.Fatalf("expected the run-level mean to drop by more than 90%%, got %v", got)
	}
}

// TestHealthRealDropFailsNamesDocumentsAndClears: the same kind of
// documents losing their text fails the build, names the documents, keeps
// failing on rebuilds with nothing new, and clears once acknowledged.
func TestHealthRealDropFailsNamesDocumentsAndClears(t *testing.T) {
	dir, inbox := healthProject(t)
	for i := range 6 {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("minutes-%d.txt", i)), []byte(strings.Join(prose(i, 30), "\n")), 0o644)
	}
	must(t, dir, "load", "--quiet")
	must(t, dir, "build", "-s", "ops")
	// Extraction "breaks": the same files now give (almost) no text.
	for i := range 6 {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("minutes-%d.txt", i)), []byte(" \n\n \n"), 0o644)
	}
	must(t, dir, "load", "--quiet")
	drop := loadRunIDs(t, dir)[1]
	for range 2 { // the run that changed things is judged on every build until acknowledged
		out, code := run(t, dir, "build", "-s", "ops")
		if code != 1 || !strings.Contains(out, "health_mean_chars_drop") || !strings.Contains(out, drop) {
			t.Fatalf("a real drop should fail the build naming run %s, got exit %d:\n%s", drop, code, out)
		}
		if !regexp.MustCompile(`6 low: minutes-0\.txt, minutes-1\.txt, minutes-2\.txt`).MatchString(out) {
			t.Fatalf("the failure should name the documents that moved the figure:\n%s", out)
		}
	}
	acknowledge(t, dir, drop)
	if out, code := run(t, dir, "build", "-s", "ops"); code != 0 {
		t.Fatalf("after acknowledging %s the build should be green, got exit %d:\n%s", drop, code, out)
	}
	// The acknowledged run is the new normal: more documents like it are fine.
	for i := range 6 {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("blank-%d.txt", i)), []byte("\n \n"), 0o644)
	}
	must(t, dir, "load", "--quiet")
	if out, code := run(t, dir, "build", "-s", "ops"); code != 0 {
		t.Fatalf("documents like the acknowledged run's should not alarm, got exit %d:\n%s", code, out)
	}
}

// TestHealthSkipsAbortedLoads: a load killed before it finished (its row
// left aborted) is neither judged nor anyone's baseline.
func TestHealthSkipsAbortedLoads(t *testing.T) {
	dir, inbox := healthProject(t)
	for i := range 6 {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("minutes-%d.txt", i)), []byte(strings.Join(prose(i, 30), "\n")), 0o644)
	}
	must(t, dir, "load", "--quiet")
	// A killed load: it landed six near-empty documents and never finished.
	for i := range 6 {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("partial-%d.txt", i)), []byte("x\n"), 0o644)
	}
	must(t, dir, "load", "--quiet")
	killed := loadRunIDs(t, dir)[1]
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`update ops.load_runs set status = 'aborted', finished_at = null where run_id = ?`, killed); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, code := run(t, dir, "build", "-s", "ops")
	if code != 0 {
		t.Fatalf("an aborted load should not fail the build, got exit %d:\n%s", code, out)
	}
	if got := query(t, dir, "select judged from ops.extraction_health where run_id = '"+killed+"'"); len(got) != 1 || got[0] != "false" {
		t.Fatalf("the aborted run should be listed as not judged, got %v", got)
	}
	// The next completed load is compared with the completed one before the
	// kill, not with the aborted run.
	for i := range 6 {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("more-%d.txt", i)), []byte(strings.Join(prose(i+3, 30), "\n")), 0o644)
	}
	must(t, dir, "load", "--quiet")
	must(t, dir, "build", "-s", "ops")
	if got := query(t, dir, "select baseline_runs from ops.extraction_health_by_type where is_latest_for_type"); len(got) != 1 || got[0] != "1" {
		t.Fatalf("the baseline should be the one completed run, got %v", got)
	}
}
