package text

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/document/doctest"
)

// FuzzExtractBytes: text decoding and structure never panic and keep the
// result's invariants, whatever the bytes and the detected type.
func FuzzExtractBytes(f *testing.F) {
	for _, s := range []string{"# Title\n\nPara.\n\n- item\n", "| a | b |\n|---|---|\n| 1 | 2 |\n", "\xff\xfeh\x00i\x00", "caf\xe9 cr\xe8me\n",
		"<?xml version=\"1.0\"?><a><b>x</b></a>", "{\"a\": [1, 2]}", "line\x00with nul\n", "* org heading\n"} {
		f.Add(s, "text")
		f.Add(s, "markdown")
		f.Add(s, "xml")
	}
	for _, s := range []string{"Title\n=====\n\n.. note::\n\n   body *em*\n\n+--+--+\n|a |b |\n+==+==+\n", "* TODO h\n:PROPERTIES:\n:X: 1\n:END:\n| a || b |\n|--+--|\n#+begin_src\nx\n#+end_src\n",
		"---\ntitle: [a, b]\n---\n[x](y) ![a](b) [^1]\n\n[^1]: n\n"} {
		f.Add(s, "rst")
		f.Add(s, "org")
		f.Add(s, "markdown")
	}
	f.Fuzz(func(t *testing.T, s, typ string) {
		info, _ := detect.DetectBytes("f.txt", []byte(s))
		info.Type = typ
		res, err := ExtractBytes(context.Background(), []byte(s), info, document.Options{})
		if err != nil {
			return
		}
		if err := doctest.Check(res); err != nil {
			t.Fatal(err)
		}
	})
}
