package runner

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
)

func TestProf(t *testing.T) {
	p, err := project.Load("/tmp/benchproj")
	if err != nil {
		t.Skip()
	}
	m, _, _ := Parse(p, ParseOptions{})
	t0 := time.Now()
	doc := m.ManifestDoc()
	fmt.Println("doc", time.Since(t0))
	t0 = time.Now()
	b, _ := json.MarshalIndent(doc, "", "  ")
	fmt.Println("marshal", time.Since(t0), len(b))
	t0 = time.Now()
	m.WriteArtifacts(t.TempDir(), nil)
	fmt.Println("write", time.Since(t0))
}
