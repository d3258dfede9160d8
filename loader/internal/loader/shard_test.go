package loader

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// SplitPlan: every file the plan executes lands in exactly one shard, in
// the plan's order; files with the same bytes share a shard; shards are
// balanced by bytes; the same plan splits the same way; each shard
// carries the knowledge its files need and nothing of the others'.
func TestSplitPlan(t *testing.T) {
	var files []PlannedFile
	for i := 0; i < 40; i++ {
		f := PlannedFile{Action: ActNew, DocID: fmt.Sprintf("d%02d", i), Hash: fmt.Sprintf("h%02d", i), Stat: FileStat{Size: int64(1000 + 37*i)}}
		if i%10 == 3 {
			f.Hash = "dup" // four files with the same bytes
		}
		files = append(files, f)
	}
	files = append(files, PlannedFile{Action: ActUnchanged, DocID: "u1", Hash: "hu"}, PlannedFile{Action: ActDeleted, DocID: "x1"})
	plan := &Plan{Files: files,
		Contents:    map[string]warehouse.Extraction{"h05": {Hash: "h05"}, "kid": {Hash: "kid"}, "other": {Hash: "other"}},
		Attachments: map[string][]warehouse.AttachmentRef{"h05": {{Seq: 0, Name: "a.pdf", ChildHash: "kid"}}},
		Children:    map[string][]string{"d05": {"c1"}, "c1": {"c2"}, "zz": {"c9"}}}
	shards := SplitPlan(plan, 4, "p")
	if again := SplitPlan(plan, 4, "p"); !reflect.DeepEqual(shards, again) {
		t.Fatal("the same plan split differently")
	}
	where := map[string]int{}
	var bytes [4]int64
	for k, sp := range shards {
		last := -1
		for _, w := range sp.Files {
			if _, dup := where[w.DocID]; dup {
				t.Fatalf("%s in two shards", w.DocID)
			}
			where[w.DocID] = k
			i := 0
			fmt.Sscanf(w.DocID, "d%d", &i)
			if i < last {
				t.Fatalf("shard %d out of the plan's order", k)
			}
			last = i
			bytes[k] += w.Stat.Size
		}
	}
	if len(where) != 40 {
		t.Fatalf("%d files assigned, want the 40 the plan executes", len(where))
	}
	if _, ok := where["u1"]; ok {
		t.Fatal("an unchanged file went to a shard")
	}
	if where["d03"] != where["d13"] || where["d13"] != where["d23"] || where["d23"] != where["d33"] {
		t.Fatal("files with the same bytes in different shards")
	}
	min, max := bytes[0], bytes[0]
	for _, b := range bytes {
		min, max = minI(min, b), maxI(max, b)
	}
	if float64(max-min) > 0.1*float64(max) {
		t.Fatalf("shards unbalanced: %v bytes", bytes)
	}
	sp := shards[where["d05"]]
	if _, ok := sp.Contents["kid"]; !ok || len(sp.Attachments["h05"]) != 1 || len(sp.Children["c1"]) != 1 {
		t.Fatalf("shard of d05 lacks its content's attachments or its children: %+v", sp)
	}
	for _, s := range shards {
		if _, ok := s.Contents["other"]; ok {
			t.Fatal("a shard carries a content none of its files has")
		}
		if _, ok := s.Children["zz"]; ok {
			t.Fatal("a shard carries children of a document it does not have")
		}
	}
}

func minI(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

func maxI(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// deploy/: every document of the Kubernetes file parses; the Indexed
// Job's completions and parallelism equal the plan's --shards; the
// container build installs only packages the README's install names.
func TestDeployFiles(t *testing.T) {
	b, err := os.ReadFile("../../../deploy/kubernetes/docket-shards.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	var shards, completions, parallelism int
	kinds := 0
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatal(err)
		}
		kinds++
		meta := doc["metadata"].(map[string]any)
		spec := doc["spec"].(map[string]any)
		switch meta["name"] {
		case "docket-plan":
			cmd := fmt.Sprint(spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["command"])
			fmt.Sscanf(regexp.MustCompile(`--shards \d+`).FindString(cmd), "--shards %d", &shards)
		case "docket-shards":
			if spec["completionMode"] != "Indexed" {
				t.Fatal("shards are not an Indexed Job")
			}
			completions, parallelism = spec["completions"].(int), spec["parallelism"].(int)
		}
	}
	if kinds != 4 || shards == 0 || completions != shards || parallelism != shards {
		t.Fatalf("%d documents; --shards %d, completions %d, parallelism %d", kinds, shards, completions, parallelism)
	}
	mk, err := os.ReadFile("../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, p := range strings.Fields(regexp.MustCompile(`(?m)^APT_PACKAGES := (.*)$`).FindStringSubmatch(string(mk))[1]) {
		allowed[p] = true
	}
	df, err := os.ReadFile("../../../deploy/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`--no-install-recommends \\\n\s+(.*)\$OCR_LANGS`).FindStringSubmatch(string(df))
	if m == nil {
		t.Fatal("Dockerfile: apt-get install line not found")
	}
	for _, p := range strings.Fields(m[1]) {
		if !allowed[p] {
			t.Errorf("Dockerfile installs %s, which the README's install does not", p)
		}
	}
}
