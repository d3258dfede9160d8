package text

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// TestNULPaddingIsDropped: a report whose writer left 200,000 NULs after
// its text (past the head detection reads) lands its text, the padding
// dropped with a warning; it was quarantined undecodable ("content is not
// readable text", NULs over a twentieth of the characters).
func TestNULPaddingIsDropped(t *testing.T) {
	text := strings.Repeat("Line of a long report that the writer never finished.\n", 400)
	data := append([]byte(text), make([]byte, 200000)...)
	info, _ := detect.DetectBytes("report.txt", data)
	res, err := ExtractBytes(context.Background(), data, info, document.Options{})
	if err != nil {
		t.Fatalf("%v (detected %+v)", err, info)
	}
	var got bytes.Buffer
	for _, p := range res.Pages {
		got.WriteString(p.Text)
	}
	if strings.ContainsRune(got.String(), 0) || strings.Count(got.String(), "writer never finished") != 400 {
		t.Errorf("text %d bytes, %d lines", got.Len(), strings.Count(got.String(), "writer never finished"))
	}
	if len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, " "), "200000 NUL byte(s) of padding removed") {
		t.Errorf("warnings %q", res.Warnings)
	}
}
