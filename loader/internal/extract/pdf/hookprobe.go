//go:build dkhooktest

package pdf

/*
#cgo LDFLAGS: -lpthread
int dk_hookprobe_two_threads(int *a, int *b);
*/
import "C"

// hookProbeTwoThreads: hookprobe.c's two pages hooked on two threads at
// once (test-only: `go test -tags dkhooktest`, which `make test` runs for
// TestHookStatePerThread); the glyph counts in page A's and page B's
// cookies, ok false when a thread could not start.
func hookProbeTwoThreads() (a, b int, ok bool) {
	var ca, cb C.int
	rc := C.dk_hookprobe_two_threads(&ca, &cb)
	return int(ca), int(cb), rc == 0
}
