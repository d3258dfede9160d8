package worker

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAdviseHugeHeapRange: the range AdviseHugeHeap returns (what `docket
// load`'s main process advises) lies in mappings the kernel marks for
// transparent huge pages, at both ends (madvise splits the heap's mapping
// there). It checks in a fresh process of this test binary: in this one,
// a range Serve advised earlier (TestServeAdvisesHugeHeap, run first
// under -shuffle, frees its range for the heap to reuse) could hold the
// returned one, and the test would pass with AdviseHugeHeap advising
// nothing.
func TestAdviseHugeHeapRange(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages here")
	}
	if os.Getenv("DOCKET_TEST_ADVISE_ALONE") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAdviseHugeHeapRange$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "DOCKET_TEST_ADVISE_ALONE=1")
		out, err := cmd.CombinedOutput()
		switch {
		case err != nil:
			t.Fatalf("in a fresh process: %v\n%s", err, out)
		case bytes.Contains(out, []byte("--- SKIP: TestAdviseHugeHeapRange")):
			t.Skipf("in a fresh process:\n%s", out)
		case !bytes.Contains(out, []byte("--- PASS: TestAdviseHugeHeapRange")):
			t.Fatalf("the fresh process did not run the test:\n%s", out)
		}
		return
	}
	lo, hi := AdviseHugeHeap(8 << 20)
	if hi-lo != 8<<20 {
		t.Fatalf("advised range %#x-%#x, want 8 MiB", lo, hi)
	}
	for _, addr := range []uintptr{lo, hi - 1} {
		flags, ok := vmFlags(t, addr)
		if !ok {
			t.Fatalf("%#x is in no mapping of /proc/self/smaps", addr)
		}
		if !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("%#x of the advised range %#x-%#x is in a mapping without MADV_HUGEPAGE (VmFlags: %s)", addr, lo, hi, flags)
		}
	}
}

// TestServeAdvisesHugeHeap: once Serve has started, a large object the
// worker allocates lies in heap advised for transparent huge pages (the
// range adviseHugeHeap mapped ahead and the collector freed; the object
// may begin in a free page just before that range, so its middle is
// checked).
func TestServeAdvisesHugeHeap(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages here")
	}
	if err := Serve(context.Background(), strings.NewReader(""), io.Discard, testVersions, nil); err != nil {
		t.Fatal(err)
	}
	runtime.GC() // the range is free once a collection has found it unused
	b := make([]byte, 32<<20)
	flags, ok := vmFlags(t, uintptr(unsafe.Pointer(&b[len(b)/2])))
	runtime.KeepAlive(b)
	if !ok {
		t.Fatal("the allocation's mapping is not in /proc/self/smaps")
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		m, _ := os.ReadFile("/proc/self/maps")
		t.Errorf("the middle of a 32 MiB allocation (%#x) after Serve started is in a mapping without MADV_HUGEPAGE (VmFlags: %s); mappings:\n%s", uintptr(unsafe.Pointer(&b[len(b)/2])), flags, m)
	}
}

// vmFlags is the VmFlags line of the mapping holding addr.
func vmFlags(t *testing.T, addr uintptr) (string, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := vmRange(line); ok {
			in = uintptr(lo) <= addr && addr < uintptr(hi)
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), true
		}
	}
	return "", false
}

// vmRange parses the address range that starts a mapping's smaps entry.
func vmRange(line string) (lo, hi uint64, ok bool) {
	r, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(r, "-")
	if !found {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseUint(a, 16, 64)
	hi, err2 := strconv.ParseUint(b, 16, 64)
	return lo, hi, err1 == nil && err2 == nil
}
