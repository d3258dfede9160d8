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

// TestPaddedRecordsStayApart: fixed-width records padded with NULs, no
// newline between them, land one a line (review42: their words glued,
// "council minutesREC00001").
func TestPaddedRecordsStayApart(t *testing.T) {
	var data []byte
	for i := 0; i < 30; i++ {
		rec := []byte("REC" + strings.Repeat("0", 4) + string(rune('0'+i%10)) + " Ayr council minutes")
		data = append(data, append(rec, make([]byte, 64-len(rec))...)...)
	}
	info, _ := detect.DetectBytes("records.dat", data)
	res, err := ExtractBytes(context.Background(), data, info, document.Options{})
	if err != nil {
		t.Fatalf("%v (detected %+v)", err, info)
	}
	if text := res.Pages[0].Text; strings.Contains(text, "minutesREC") || strings.Count(text, "council minutes") != 30 {
		t.Errorf("text %q", text)
	}
}
