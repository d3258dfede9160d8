package text

import (
	"fmt"
	"regexp"
	"strings"

	ical "github.com/emersion/go-ical"
)

// A calendar with one line go-ical cannot read (a description's line that
// lost its fold's leading space, an attendee's name with a bare quote) made
// the whole file fail: it landed as its raw lines ("BEGIN:VEVENT",
// "DTSTART;TZID=..."), and a line like "X;A=b" (a parameter and no colon)
// made go-ical panic. Before go-ical reads a calendar, its content lines
// are checked here; a line that is none is read as a further line of the
// text property before it, or left out, and said with its line number.
// What go-ical still rejects (an entry without its END line) is read entry
// by entry (calendarEntries): the others land.

// calendarTextProps are the properties whose value is free text a line
// broken out of its fold continues.
var calendarTextProps = map[string]bool{
	ical.PropDescription: true, ical.PropSummary: true, ical.PropLocation: true, ical.PropComment: true, "X-ALT-DESC": true,
}

var calendarName = regexp.MustCompile(`^[A-Za-z0-9-]+$`)

// knownCalendarProp says whether name is an iCalendar property (RFC 5545,
// RFC 7986, an X- one): after a text property, a line "Note: bring the
// slides" is a text line that lost its fold, not a property NOTE.
func knownCalendarProp(name string) bool {
	if strings.HasPrefix(name, "X-") {
		return true
	}
	switch name {
	case "BEGIN", "END", "VERSION", "PRODID", "CALSCALE", "METHOD", "UID", "DTSTAMP", "DTSTART", "DTEND", "DUE",
		"DURATION", "SUMMARY", "DESCRIPTION", "LOCATION", "ORGANIZER", "ATTENDEE", "RRULE", "RDATE", "EXDATE",
		"EXRULE", "RECURRENCE-ID", "STATUS", "CLASS", "CREATED", "LAST-MODIFIED", "SEQUENCE", "PRIORITY", "TRANSP",
		"URL", "COMMENT", "CATEGORIES", "CONTACT", "RESOURCES", "ATTACH", "GEO", "PERCENT-COMPLETE", "COMPLETED",
		"RELATED-TO", "REQUEST-STATUS", "TZID", "TZNAME", "TZOFFSETFROM", "TZOFFSETTO", "TZURL", "ACTION",
		"TRIGGER", "REPEAT", "FREEBUSY", "NAME", "REFRESH-INTERVAL", "SOURCE", "COLOR", "IMAGE", "CONFERENCE",
		"ACKNOWLEDGED", "PROXIMITY", "STYLED-DESCRIPTION", "STRUCTURED-DATA", "LOCATION-TYPE", "PARTICIPANT-TYPE",
		"CALENDAR-ADDRESS", "TZUNTIL", "TZID-ALIAS-OF":
		return true
	}
	return false
}

// cleanCalendarLines returns s with its content lines checked: a line
// that is no property (no name before a colon) continues the text
// property before it (as a new line of its text) or is left out; a
// property whose parameters go-ical cannot read keeps its name and value.
// first is the line number of s's first line in the file.
func cleanCalendarLines(s string, first int) (string, []string) {
	lines := strings.SplitAfter(s, "\n")
	var out strings.Builder
	out.Grow(len(s))
	var warnings []string
	lastName, lastLine := "", 0
	for i := 0; i < len(lines); {
		n := i
		logical := strings.TrimRight(lines[i], "\r\n")
		i++
		for i < len(lines) && len(lines[i]) > 0 && (lines[i][0] == ' ' || lines[i][0] == '\t') {
			logical += strings.TrimRight(lines[i][1:], "\r\n")
			i++
		}
		if strings.TrimSpace(logical) == "" {
			out.WriteString(strings.Join(lines[n:i], ""))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(logical), "END:VCALENDAR") {
			// the calendar's end: what follows is go-ical's to leave (a
			// tail calendarBlocks warns of)
			out.WriteString(strings.Join(lines[n:], ""))
			break
		}
		name, value, paramsOK, ok := calendarContentLine(logical)
		switch {
		case ok && paramsOK && (knownCalendarProp(name) || !calendarTextProps[lastName]):
			out.WriteString(strings.Join(lines[n:i], ""))
			lastName, lastLine = name, first+n
			continue
		case ok && (knownCalendarProp(name) || !calendarTextProps[lastName]):
			params, _, _ := strings.Cut(logical[len(name)+1:], ":")
			warnings = append(warnings, fmt.Sprintf("calendar line %d: the parameters of its %s are malformed (%.60q): read without them", first+n, name, params))
			out.WriteString(name + ":" + value + "\r\n")
			lastName, lastLine = name, first+n
			continue
		case calendarTextProps[lastName] && (!ok || !knownCalendarProp(name)):
			warnings = append(warnings, fmt.Sprintf("calendar line %d is no iCalendar property line (a text line that lost its fold?): read as a further line of line %d's %s", first+n, lastLine, lastName))
			out.WriteString(" \\n" + escapeCalendarText(logical) + "\r\n")
			continue
		}
		warnings = append(warnings, fmt.Sprintf("calendar line %d is no iCalendar property line and did not land: %.80q", first+n, logical))
	}
	return out.String(), warnings
}

// calendarContentLine reads a content line as go-ical does (RFC 5545:
// name, ";" parameters, ":" value): ok says it has a property name (letters,
// digits, hyphens) before its first ";" or ":", paramsOK that go-ical reads
// its parameters (each name=value, quoted values closed, nothing between a
// closing quote and the next ",", ";" or ":"; go-ical panics on some of
// those). value is what follows the first ":" after the name when the
// parameters are not read.
func calendarContentLine(l string) (name, value string, paramsOK, ok bool) {
	i := strings.IndexAny(l, ";:")
	if i <= 0 || !calendarName.MatchString(l[:i]) {
		return "", "", false, false
	}
	name = strings.ToUpper(l[:i])
	rest := l[i:]
	for rest != "" && rest[0] == ';' {
		rest = rest[1:]
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 {
			break
		}
		rest = rest[eq+1:]
		for {
			if rest != "" && rest[0] == '"' {
				end := strings.IndexByte(rest[1:], '"')
				if end < 0 {
					rest = "\x00" // unterminated quote
					break
				}
				rest = rest[end+2:]
			} else {
				j := strings.IndexAny(rest, "\";,:")
				if j < 0 || rest[j] == '"' {
					rest = "\x00"
					break
				}
				rest = rest[j:]
			}
			if rest == "" || rest[0] != ',' {
				break
			}
			rest = rest[1:]
		}
		if rest == "" || (rest[0] != ';' && rest[0] != ':') {
			rest = "\x00"
			break
		}
	}
	if rest != "" && rest[0] == ':' {
		return name, rest[1:], true, true
	}
	_, value, _ = strings.Cut(l[i:], ":")
	return name, value, false, strings.Contains(l[i:], ":")
}

// escapeCalendarText escapes a text for an iCalendar TEXT value.
func escapeCalendarText(s string) string {
	return strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`).Replace(s)
}

var calendarEntryRe = regexp.MustCompile(`(?i)^(BEGIN|END):(VEVENT|VTODO|VJOURNAL|VTIMEZONE|VFREEBUSY)\s*$`)

// calendarEntries reads a calendar go-ical rejects as a whole entry by
// entry: each BEGIN:VEVENT (to-do, journal, zone) to its END line is read
// alone, one without its END line up to the next entry's BEGIN (said); an
// entry go-ical still rejects is said with its lines and left out. The
// calendar's own properties are read from the lines outside the entries.
// first is the line number of s's first line in the file; ok is false
// when no entry was read.
func calendarEntries(s string, first int) (cal *ical.Calendar, warnings []string, ok bool) {
	lines := strings.SplitAfter(s, "\n")
	var outside strings.Builder
	cal = ical.NewCalendar()
	var cur []string
	kind, start := "", 0
	flush := func(end int, closed bool) {
		piece := strings.Join(cur, "")
		if !closed {
			warnings = append(warnings, fmt.Sprintf("calendar lines %d-%d: the %s has no END:%s line: read up to line %d", first+start, first+end-1, strings.ToLower(kind[1:]), kind, first+end-1))
			piece += "END:" + kind + "\r\n"
		}
		piece, ws := cleanCalendarLines(piece, first+start)
		warnings = append(warnings, ws...)
		c, err := ical.NewDecoder(strings.NewReader("BEGIN:VCALENDAR\r\n" + piece + "END:VCALENDAR\r\n")).Decode()
		if err != nil || len(c.Children) == 0 {
			warnings = append(warnings, fmt.Sprintf("calendar lines %d-%d: the %s could not be read (%v) and did not land", first+start, first+end-1, strings.ToLower(kind[1:]), err))
		} else {
			cal.Children = append(cal.Children, c.Children...)
			ok = true
		}
		cur, kind = nil, ""
	}
	for i, l := range lines {
		m := calendarEntryRe.FindStringSubmatch(strings.TrimRight(l, "\r\n"))
		own := false // a line of the calendar's own, outside its entries
		switch {
		case m != nil && strings.EqualFold(m[1], "BEGIN"):
			if kind != "" {
				flush(i, false)
			}
			kind, start = strings.ToUpper(m[2]), i
			cur = append(cur, l)
		case kind != "" && m != nil && strings.EqualFold(m[2], kind):
			cur = append(cur, l)
			flush(i+1, true)
		case kind != "" && strings.EqualFold(strings.TrimSpace(l), "END:VCALENDAR"):
			flush(i, false)
			own = true
		case kind != "":
			cur = append(cur, l)
		case m != nil:
			warnings = append(warnings, fmt.Sprintf("calendar line %d: END:%s without its BEGIN line: left out", first+i, strings.ToUpper(m[2])))
		default:
			own = true
		}
		if own {
			outside.WriteString(l)
		} else {
			outside.WriteString("\n") // an entry's line, kept blank: the line numbers stay the file's
		}
	}
	if kind != "" {
		flush(len(lines), false)
	}
	// the calendar's own lines, checked as an entry's are (go-ical panics
	// on some malformed lines)
	rest, ws := cleanCalendarLines(outside.String(), first)
	warnings = append(warnings, ws...)
	if c, err := ical.NewDecoder(strings.NewReader(rest)).Decode(); err == nil {
		cal.Props = c.Props
	}
	return cal, warnings, ok
}

// maxCalendarLineWarnings is how many of a calendar's line faults are
// said one by one; the rest are counted (review46: a 2.7 MB .ics of bad
// lines gave 50,000 warnings).
const maxCalendarLineWarnings = 20

// capCalendarWarnings keeps the first maxCalendarLineWarnings warnings on
// calendar lines and counts the others in one more.
func capCalendarWarnings(ws []string) []string {
	out, more := ws[:0:0], 0
	kept := 0
	for _, w := range ws {
		if strings.HasPrefix(w, "calendar line") {
			if kept == maxCalendarLineWarnings {
				more++
				continue
			}
			kept++
		}
		out = append(out, w)
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("and %d more calendar line(s) not read as written (the first %d said above)", more, maxCalendarLineWarnings))
	}
	return out
}
