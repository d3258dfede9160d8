package project

import (
	"strings"
	"testing"
)

// TestNoValueWarningsInWrittenOrder: keys written with no value on one
// line (a flow mapping) are warned in the order written, every time.
// They were sorted by line alone out of a map, so two keys on one line
// came out in Go's random map order.
func TestNoValueWarningsInWrittenOrder(t *testing.T) {
	want := "/p/project.yaml:2: loader.timeout has no value: the default is used\n" +
		"/p/project.yaml:2: loader.workers has no value: the default is used\n" +
		"/p/project.yaml:2: loader.max_pages has no value: the default is used\n" +
		"/p/project.yaml:4: health.window has no value: the default is used"
	for i := 0; i < 30; i++ {
		p, err := Parse("/p/project.yaml", []byte("version: 1\nloader: {timeout: , workers: , max_pages: }\nhealth:\n  window:\n"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range p.Warnings {
			if strings.Contains(w.Msg, "has no value") {
				got = append(got, w.String())
			}
		}
		if g := strings.Join(got, "\n"); g != want {
			t.Fatalf("round %d: warnings\n%s\nwant\n%s", i, g, want)
		}
	}
}
