package render

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Strftime formats t as Python's strftime does on Linux (glibc's
// directives, Python's %f, the C locale): each %-directive is replaced by
// its value and every other character is copied as it is. Go's time
// package has no strftime, and none of the well-kept Go strftime modules
// is in this build's module set; the earlier form (the directives
// rewritten into a Go layout) read the format's own text as layout too:
// '%Y-%m-01' gave "2024-03-03" for a March date, and %j, %I, %p ... were
// printed as written. A '-' after % drops the padding (%-d: "4"), as
// glibc's; an unknown directive stays as written, as glibc leaves it.
func Strftime(t time.Time, f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		j := i + 1
		noPad := f[j] == '-'
		if noPad && j+1 < len(f) {
			j++
		}
		if v, ok := strftimeDirective(t, f[j], noPad); ok {
			b.WriteString(v)
			i = j
			continue
		}
		b.WriteByte('%')
	}
	return b.String()
}

// strftimeDirective is the text of one directive (c after the %), false
// when c is none.
func strftimeDirective(t time.Time, c byte, noPad bool) (string, bool) {
	num := func(n, width int, pad byte) string {
		s := strconv.Itoa(n)
		if noPad {
			return s
		}
		for len(s) < width {
			s = string(pad) + s
		}
		return s
	}
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	isoYear, isoWeek := t.ISOWeek()
	yday := t.YearDay() - 1
	wday := int(t.Weekday()) // Sunday 0
	switch c {
	case 'a':
		return t.Format("Mon"), true
	case 'A':
		return t.Format("Monday"), true
	case 'b', 'h':
		return t.Format("Jan"), true
	case 'B':
		return t.Format("January"), true
	case 'c':
		return Strftime(t, "%a %b %e %H:%M:%S %Y"), true
	case 'C':
		return strconv.Itoa(t.Year() / 100), true
	case 'd':
		return num(t.Day(), 2, '0'), true
	case 'D':
		return Strftime(t, "%m/%d/%y"), true
	case 'e':
		return num(t.Day(), 2, ' '), true
	case 'f':
		return num(t.Nanosecond()/1000, 6, '0'), true
	case 'F':
		return Strftime(t, "%Y-%m-%d"), true
	case 'G':
		return strconv.Itoa(isoYear), true
	case 'g':
		return num(isoYear%100, 2, '0'), true
	case 'H':
		return num(t.Hour(), 2, '0'), true
	case 'I':
		return num(hour12, 2, '0'), true
	case 'j':
		return num(yday+1, 3, '0'), true
	case 'k':
		return num(t.Hour(), 2, ' '), true
	case 'l':
		return num(hour12, 2, ' '), true
	case 'm':
		return num(int(t.Month()), 2, '0'), true
	case 'M':
		return num(t.Minute(), 2, '0'), true
	case 'n':
		return "\n", true
	case 'p':
		return t.Format("PM"), true
	case 'r':
		return Strftime(t, "%I:%M:%S %p"), true
	case 'R':
		return Strftime(t, "%H:%M"), true
	case 's':
		return strconv.FormatInt(t.Unix(), 10), true
	case 'S':
		return num(t.Second(), 2, '0'), true
	case 't':
		return "\t", true
	case 'T', 'X':
		return Strftime(t, "%H:%M:%S"), true
	case 'u':
		return strconv.Itoa((wday+6)%7 + 1), true
	case 'U':
		return num((yday+7-wday)/7, 2, '0'), true
	case 'V':
		return num(isoWeek, 2, '0'), true
	case 'w':
		return strconv.Itoa(wday), true
	case 'W':
		return num((yday+7-(wday+6)%7)/7, 2, '0'), true
	case 'x':
		return Strftime(t, "%m/%d/%y"), true
	case 'y':
		return num(t.Year()%100, 2, '0'), true
	case 'Y':
		return strconv.Itoa(t.Year()), true
	case 'z':
		return t.Format("-0700"), true
	case 'Z':
		return t.Format("MST"), true
	case '%':
		return "%", true
	}
	return "", false
}

// PyFormat is date.__format__ (exec.PyFormatter): '{:%Y}'.format(d) is
// strftime, an empty spec str() ('{}'.format(d) failed naming a Go type).
func (d Date) PyFormat(spec string) (string, error) { return PyFormatTime(d, d.T, spec), nil }

// PyFormat is datetime.__format__ (see Date.PyFormat).
func (d Datetime) PyFormat(spec string) (string, error) { return PyFormatTime(d, d.T, spec), nil }

// PyFormatTime is Python's date/datetime __format__: str() for an empty
// spec, else strftime(spec).
func PyFormatTime(s fmt.Stringer, t time.Time, spec string) string {
	if spec == "" {
		return s.String()
	}
	return Strftime(t, spec)
}
