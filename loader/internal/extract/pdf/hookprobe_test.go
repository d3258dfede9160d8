//go:build dkhooktest

package pdf

import "testing"

// TestHookStatePerThread: two pages loaded at once on two threads (tools
// and tests read pages on their own threads; the worker's page thread
// reads one at a time) each count their own glyphs into their own cookie,
// whatever the order of their hooks, text and unhooks: page A hooked, page
// B hooked on the other thread, A's text and unhook, then B's text. With
// devhooks.c's state shared by the process, A's glyphs went into B's
// cookie and A's unhook stopped B's counting (watchTokens' budgets off).
// Run by `make test` (go test -tags dkhooktest -run TestHookStatePerThread).
func TestHookStatePerThread(t *testing.T) {
	a, b, ok := hookProbeTwoThreads()
	if !ok {
		t.Fatal("a probe thread could not start")
	}
	if a != 5*16 || b != 7*16 {
		t.Errorf("cookie progress: page A %d, page B %d; want %d and %d (16 a glyph, each page its own)", a, b, 5*16, 7*16)
	}
}
