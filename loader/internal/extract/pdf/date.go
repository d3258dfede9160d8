package pdf

import (
	"strings"
	"time"
)

// pdfDate turns a PDF date ("D:20230405123000+02'00'") into RFC 3339;
// anything it cannot parse comes back as found.
func pdfDate(s string) string {
	raw := s
	s = strings.TrimPrefix(strings.TrimSpace(s), "D:")
	s = strings.ReplaceAll(s, "'", "")
	if len(s) < 4 {
		return raw
	}
	digits := 0
	for digits < len(s) && digits < 14 && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits < 4 || digits%2 != 0 {
		return raw
	}
	layout := "20060102150405"[:digits]
	t, err := time.Parse(layout, s[:digits])
	if err != nil {
		return raw
	}
	rest := s[digits:]
	loc := time.UTC
	if len(rest) >= 1 && (rest[0] == '+' || rest[0] == '-') && len(rest) >= 3 {
		if tz, err := time.Parse("-0700", pad4(rest)); err == nil {
			loc = tz.Location()
		}
	}
	t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc)
	return t.Format(time.RFC3339)
}

func pad4(tz string) string {
	sign, d := tz[:1], tz[1:]
	for len(d) < 4 {
		d += "0"
	}
	return sign + d[:4]
}
