package detect

import "testing"

// FuzzDetectBytes: detection never panics and names a type for any bytes.
func FuzzDetectBytes(f *testing.F) {
	for _, s := range []string{"%PDF-1.7\n", "PK\x03\x04", "<html><body>x</body></html>", "\xef\xbb\xbfhello", "\xff\xfeh\x00i\x00",
		"a,b\n1,2\n", "From: a@b\r\nSubject: x\r\n\r\nbody", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "{\"a\":1}\n{\"b\":2}\n", "caf\xe9\x00"} {
		f.Add("file.txt", []byte(s))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		info, err := DetectBytes(name, data)
		if err != nil {
			t.Fatal(err)
		}
		if info.Type == "" {
			t.Fatalf("no type for %q", data)
		}
	})
}
