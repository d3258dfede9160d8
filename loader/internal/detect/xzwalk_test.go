package detect

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestXzDictsOKEveryBlock (review44's MEDIUM on archive/4): the dictionary
// check reads every block of every stream, found through each stream's
// index as xz -l finds them. A good stream followed by one whose block asks
// for 4 GiB passed the first-block check and made the decoder allocate
// 4 GiB, in the main process's detection and in the archive reader. Files
// xz writes (several blocks, streams one after another, stream padding)
// pass; a file cut short is refused, as its blocks cannot be found.
func TestXzDictsOKEveryBlock(t *testing.T) {
	if _, err := exec.LookPath("xz"); err != nil {
		t.Skip("xz not installed")
	}
	dir := t.TempDir()
	xz := func(name string, data []byte, args ...string) []byte {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		if out, err := exec.Command("xz", append(args, "-k", "-f", p)...).CombinedOutput(); err != nil {
			t.Fatalf("xz %s: %v %s", name, err, out)
		}
		b, err := os.ReadFile(p + ".xz")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	text := bytes.Repeat([]byte("the north basin is dredged again in May, 2024; "), 60000)
	multi := xz("multi", text, "-T2", "--block-size=512KiB")
	a, b := xz("a", []byte("hello\n")), xz("b", []byte("world\n"))
	big := xz("big", []byte("a small file asking for a big dictionary\n"), "--lzma2=dict=1536MiB")
	padded := append(append(append([]byte{}, a...), make([]byte, 8)...), b...)
	for name, c := range map[string]struct {
		data []byte
		ok   bool
		why  string
	}{
		"several blocks":          {multi, true, ""},
		"two streams":             {append(append([]byte{}, a...), b...), true, ""},
		"stream padding":          {padded, true, ""},
		"big dictionary alone":    {big, false, "dictionary"},
		"good stream, then a big": {append(append([]byte{}, a...), big...), false, "dictionary"},
		"big, then a good stream": {append(append([]byte{}, big...), a...), false, "dictionary"},
		"cut short":               {multi[:len(multi)/2], false, "footer"},
	} {
		err := XzDictsOK(bytes.NewReader(c.data), int64(len(c.data)))
		if c.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.why)) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// the first-block check let the second stream through
	bad := append(append([]byte{}, a...), big...)
	if !blockDictOK(bad[12:min(len(bad), 12+1024)]) {
		t.Error("the first-block check refuses it too: the test does not show the hole")
	}
}
