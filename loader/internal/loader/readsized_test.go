package loader

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// allocated is the bytes fn allocates on the Go heap: the least of three
// runs, because TotalAlloc is the whole process's and a goroutine another
// test left running could allocate during one of them.
func allocated(fn func()) uint64 {
	least := ^uint64(0)
	for i := 0; i < 3; i++ {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		fn()
		runtime.ReadMemStats(&b)
		least = min(least, b.TotalAlloc-a.TotalAlloc)
	}
	return least
}

// A small file read whole by the main process costs one buffer of about
// its size: io.ReadAll grew from 512 bytes by doubling, ~2.5x the file in
// allocations, copies and fresh pages per file.
func TestReadStableAllocatesTheFileOnce(t *testing.T) {
	data := bytes.Repeat([]byte("%PDF-1.7 readStable "), 10_000) // 200 kB
	path := filepath.Join(t.TempDir(), "a.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var got []byte
	var s snap
	n := allocated(func() { got, s = readStable(path, 512<<20) })
	sum := sha256.Sum256(data)
	if !bytes.Equal(got, data) || s.hash != hex.EncodeToString(sum[:]) || s.size != int64(len(data)) || s.unstable || s.err != nil {
		t.Fatalf("readStable: %d bytes, snap %+v", len(got), s)
	}
	if max := uint64(len(data)) * 5 / 4; n > max {
		t.Errorf("readStable allocated %d bytes for a %d-byte file, want at most %d", n, len(data), max)
	}
}

// The bytes and errors are those of the whole file, whatever its stat
// said: an empty file, one that grew, one over the limit.
func TestReadSizedReadsToTheEnd(t *testing.T) {
	data := bytes.Repeat([]byte("x"), 5000)
	for _, c := range []struct {
		size, most int64
		want       int
	}{
		{5000, 1 << 20, 5000}, // as stat said
		{100, 1 << 20, 5000},  // longer than stat said
		{-1, 1 << 20, 5000},   // no size
		{5000, 4001, 4001},    // the limit + 1 the caller passes
		{0, 1 << 20, 5000},
	} {
		got, err := readSized(bytes.NewReader(data), c.size, c.most)
		if err != nil || !bytes.Equal(got, data[:c.want]) {
			t.Errorf("readSized(size %d, most %d) = %d bytes, %v; want %d", c.size, c.most, len(got), err, c.want)
		}
	}
	got, err := readSized(bytes.NewReader(nil), 0, 1<<20)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty: %v %v (want an empty, non-nil slice as io.ReadAll gave)", got, err)
	}
}

// hashStable reuses its read buffer: 256 KiB was allocated per file.
func TestHashStableReusesItsBuffer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.pdf")
	if err := os.WriteFile(path, bytes.Repeat([]byte("y"), 300<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	hashStable(path, 512<<20) // the pool's first buffer
	const calls = 20
	n := allocated(func() {
		for i := 0; i < calls; i++ {
			if _, ok := hashStable(path, 512<<20); !ok {
				t.Fatal("hashStable failed")
			}
		}
	})
	if n > calls*32<<10 {
		t.Errorf("%d hashStable calls allocated %d bytes, want at most %d", calls, n, calls*32<<10)
	}
}
