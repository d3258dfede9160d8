package text

import (
	"errors"
	"fmt"
	stdhtml "html"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	ical "github.com/emersion/go-ical"
)

// An iCalendar file (.ics, an e-mail's text/calendar invitation) is read
// with emersion/go-ical (RFC 5545 line unfolding, escapes, parameters):
// each event, to-do or journal entry becomes its summary as a Title, a
// paragraph of its facts (when, where, organizer, attendees, repeats) and
// its description's paragraphs. Before text/9 the file landed as its raw
// lines ("BEGIN:VCALENDAR | VERSION:2.0 | ...", folded lines cut, "\," and
// "\n" escapes kept), and an invitation's text/calendar part was dropped
// from its message.

// calendarBlocks reads an iCalendar text into blocks and a title (the
// first entry's summary; the calendar's name when it has several).
func calendarBlocks(s string) (_ []block, _ string, warnings []string, _ error) {
	// a file can hold several calendars one after the other (exports
	// concatenated: cat a.ics b.ics); Decode reads one, and text/9 read
	// the first only, the others' events lost without a word (review42)
	// Each calendar is decoded from its own BEGIN:VCALENDAR on, once:
	// decoding to the end of the file (text/11) failed the whole file on
	// anything after the last END:VCALENDAR that was no calendar (a mail
	// footer, a ^Z, a byte order mark), which landed as raw lines
	// (review44); such a tail is now left out with a warning.
	starts := calendarStartRe.FindAllStringIndex(s, -1)
	if len(starts) == 0 || strings.TrimLeft(s[:starts[0][0]], " \t\r\n\ufeff") != "" {
		starts = [][]int{{0, 0}}
	}
	var cals []*ical.Calendar
	var children []*ical.Component
	for k, st := range starts {
		end := len(s)
		if k+1 < len(starts) {
			end = starts[k+1][0]
		}
		line := 1 + strings.Count(s[:st[0]], "\n")
		clean, ws := cleanCalendarLines(s[st[0]:end], line)
		cal, err := ical.NewDecoder(strings.NewReader(clean)).Decode()
		switch {
		case err == nil:
			warnings = append(warnings, ws...)
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, "", nil, err // cut short: calendarUnreadable
		default:
			// read entry by entry: one broken entry costs itself only
			var ok bool
			cal, ws, ok = calendarEntries(s[st[0]:end], line)
			if !ok {
				return nil, "", nil, err
			}
			warnings = append(warnings, ws...)
		}
		cals = append(cals, cal)
		children = append(children, cal.Children...)
	}
	if i := lastIndexFoldASCII(s, "END:VCALENDAR"); i >= 0 {
		tail := s[i+len("END:VCALENDAR"):]
		if t := strings.Trim(tail, " \t\r\n\x00\x1a\ufeff"); t != "" {
			warnings = append(warnings, fmt.Sprintf("text after the calendar's last END:VCALENDAR line was not read as calendar entries and did not land: %.80q", t))
		}
	}
	var blocks []block
	title := ""
	entries := 0
	repeating := repeatingEntries(children)
	for _, c := range children {
		switch c.Name {
		case ical.CompEvent, ical.CompToDo, ical.CompJournal:
		default:
			continue
		}
		entries++
		summary := propText(c.Props, ical.PropSummary)
		if summary == "" {
			summary = "(" + strings.ToLower(strings.TrimPrefix(c.Name, "V")) + " without a summary)"
		}
		if title == "" {
			title = summary
		}
		blocks = append(blocks, block{cat: document.Title, text: summary, level: 1})
		var facts []string
		fact := func(label, v string) {
			if v = strings.Join(strings.Fields(v), " "); v != "" {
				facts = append(facts, label+": "+v)
			}
		}
		fact("When", calendarWhen(c.Props))
		fact("Where", propText(c.Props, ical.PropLocation))
		fact("Organizer", calendarPerson(c.Props.Get(ical.PropOrganizer)))
		var who []string
		for i := range c.Props.Values(ical.PropAttendee) {
			if p := calendarPerson(&c.Props.Values(ical.PropAttendee)[i]); p != "" {
				who = append(who, p)
			}
		}
		fact("Attendees", strings.Join(who, ", "))
		if r := c.Props.Get(ical.PropRecurrenceRule); r != nil {
			fact("Repeats", r.Value)
		}
		fact("Also on", calendarDates(c.Props, ical.PropRecurrenceDates))
		fact("Except", calendarDates(c.Props, ical.PropExceptionDates))
		fact("Changed occurrence", changedOccurrence(c, repeating))
		fact("Status", propText(c.Props, ical.PropStatus))
		for _, x := range calendarExtras {
			fact(x.label, propTexts(c.Props, x.names...))
		}
		if len(facts) > 0 {
			blocks = append(blocks, block{cat: document.NarrativeText, text: strings.Join(facts, "\n")})
		}
		desc := propText(c.Props, ical.PropDescription)
		if desc == "" {
			// Outlook's HTML description, when there is no plain one
			desc = htmlText(propText(c.Props, "X-ALT-DESC"))
		}
		for _, para := range blankLine.Split(desc, -1) {
			if para = strings.TrimSpace(para); para != "" {
				blocks = append(blocks, block{cat: document.NarrativeText, text: para})
			}
		}
	}
	if len(blocks) == 0 {
		return nil, "", nil, errors.New("no event, to-do or journal entry in it")
	}
	if name := propText(cals[0].Props, "X-WR-CALNAME"); name != "" && entries > 1 {
		title = name
	}
	return blocks, title, capCalendarWarnings(warnings), nil
}

// calendarUnreadable says why a calendar landed as its raw lines: a file
// that ends before its END:VCALENDAR is cut short (a review, truncated),
// any other fault a warning.
func calendarUnreadable(res *document.Result, err error) {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		res.Warnings = append(res.Warnings, "the iCalendar file ends before its END:VCALENDAR line: its lines landed as text")
		res.Flag(0, document.ReviewTruncated, "the calendar file is cut short (it ends before its END:VCALENDAR line): its lines landed as they are, not read as events, and what followed is missing")
		return
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("not a readable iCalendar file (%v): its lines landed as text", err))
}

// calendarExtras are the properties of an entry landed as facts after
// its status (text/9 dropped them: a meeting's link, its dial-in comment,
// categories, contact, rooms and attached files' addresses).
var calendarStartRe = regexp.MustCompile(`(?mi)^BEGIN:VCALENDAR\r?$`)

var calendarExtras = []struct {
	label string
	names []string
}{
	{"Link", []string{ical.PropURL}},
	{"Online meeting", []string{"X-GOOGLE-CONFERENCE", "X-MICROSOFT-SKYPETEAMSMEETINGURL", "X-MICROSOFT-ONLINEMEETINGCONFLINK", "X-MICROSOFT-ONLINEMEETINGEXTERNALLINK"}},
	{"Comment", []string{ical.PropComment}},
	{"Categories", []string{ical.PropCategories}},
	{"Contact", []string{ical.PropContact}},
	{"Resources", []string{ical.PropResources}},
	{"Attachments", []string{ical.PropAttach}},
}

// propTexts is the values of the properties names (each may repeat),
// unescaped, joined by ", "; an ATTACH holding the file itself (base64)
// is left out, its address kept.
func propTexts(props ical.Props, names ...string) string {
	var out []string
	seen := map[string]bool{}
	for _, name := range names {
		for i := range props.Values(name) {
			p := &props.Values(name)[i]
			if strings.EqualFold(p.Params.Get(ical.ParamEncoding), "BASE64") || strings.EqualFold(p.Params.Get(ical.ParamValue), "BINARY") {
				continue
			}
			vs := []string{p.Value}
			if l, err := p.TextList(); err == nil {
				vs = l // a list (CATEGORIES:Finance,Board), or one text unescaped
			}
			if name != ical.PropCategories && name != ical.PropResources {
				if v, err := p.Text(); err == nil {
					vs = []string{v} // a comma in a text is the text's ("Dolittle\, ABC")
				}
			}
			for _, v := range vs {
				if v = strings.TrimSpace(v); v != "" && !seen[v] {
					seen[v] = true
					out = append(out, v)
				}
			}
		}
	}
	return strings.Join(out, ", ")
}

// htmlText is the text of an HTML fragment (an X-ALT-DESC): tags out,
// block ends and <br> as line ends, entities read.
func htmlText(s string) string {
	if s == "" {
		return ""
	}
	s = htmlBreak.ReplaceAllString(s, "\n")
	s = htmlTag.ReplaceAllString(s, "")
	s = stdhtml.UnescapeString(s)
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.TrimSpace(blankRuns.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

var (
	htmlBreak = regexp.MustCompile(`(?i)<br\s*/?>|</(p|div|li|tr|h[1-6])\s*>`)
	htmlTag   = regexp.MustCompile(`(?s)<!--.*?-->|<(script|style)\b.*?</(script|style)\s*>|<[^>]*>`)
	blankRuns = regexp.MustCompile(`\n{3,}`)
)

// propText is a text property's value, unescaped ("" when absent). A
// comma the producer left unescaped is the text's own (SUMMARY, LOCATION
// and DESCRIPTION hold one text, not a list): go-ical's Text() gives the
// part before the first such comma only, so "Kayıt ve ödeme sırası, ıslak
// ıslık" and a description's every later sentence were lost silently.
func propText(props ical.Props, name string) string {
	p := props.Get(name)
	if p == nil {
		return ""
	}
	if l, err := p.TextList(); err == nil {
		return strings.TrimSpace(strings.Join(l, ","))
	}
	return strings.TrimSpace(p.Value)
}

var icalDateTime = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$`)

// calendarWhen is an entry's start and end (or due date), as written:
// "2024-03-12 09:00 – 10:00 UTC", "2024-03-12 09:00 – 2024-03-13 17:00
// (Europe/Berlin)", a date alone for an all-day entry. The zone is named,
// not converted (a TZID like "W. Europe Standard Time" names no zone Go
// knows).
func calendarWhen(props ical.Props) string {
	start := props.Get(ical.PropDateTimeStart)
	end := props.Get(ical.PropDateTimeEnd)
	if end == nil {
		end = props.Get(ical.PropDue)
	}
	if start == nil && end == nil {
		return ""
	}
	if start == nil {
		d, z := calendarTime(end)
		return "due " + d + z
	}
	sd, sz := calendarTime(start)
	if end == nil {
		if p := props.Get(ical.PropDuration); p != nil {
			if dur, err := p.Duration(); err == nil {
				return sd + sz + " for " + dur.String()
			}
		}
		return sd + sz
	}
	ed, ez := calendarTime(end)
	if last, ok := allDayEnd(start, end); ok {
		// an all-day entry's DTEND is the day after its last (RFC 5545)
		if last == sd {
			return sd + sz
		}
		return sd + " – " + last + sz
	}
	if day, _, ok := strings.Cut(sd, " "); ok && strings.HasPrefix(ed, day+" ") && sz == ez {
		ed = strings.TrimPrefix(ed, day+" ") // same day: the end's time only
	}
	if sz == ez {
		return sd + " – " + ed + sz
	}
	return sd + sz + " – " + ed + ez
}

// allDayEnd is the last day of an entry whose start and end are dates
// (DTEND is exclusive: 20240312 to 20240313 is the 12th alone).
func allDayEnd(start, end *ical.Prop) (string, bool) {
	if end == nil || end.Name != ical.PropDateTimeEnd {
		return "", false
	}
	s := icalDateTime.FindStringSubmatch(strings.TrimSpace(start.Value))
	e := icalDateTime.FindStringSubmatch(strings.TrimSpace(end.Value))
	if s == nil || e == nil || s[4] != "" || e[4] != "" {
		return "", false
	}
	t, err := time.Parse("20060102", e[1]+e[2]+e[3])
	if err != nil {
		return "", false
	}
	last := t.AddDate(0, 0, -1).Format("2006-01-02")
	if last < s[1]+"-"+s[2]+"-"+s[3] {
		return "", false // an end before its start: shown as written
	}
	return last, true
}

// calendarTime formats a DATE or DATE-TIME value and names its zone.
func calendarTime(p *ical.Prop) (string, string) {
	m := icalDateTime.FindStringSubmatch(strings.TrimSpace(p.Value))
	if m == nil {
		return p.Value, ""
	}
	if m[4] == "" {
		return m[1] + "-" + m[2] + "-" + m[3], ""
	}
	v := fmt.Sprintf("%s-%s-%s %s:%s", m[1], m[2], m[3], m[4], m[5])
	if m[6] != "00" {
		v += ":" + m[6]
	}
	switch tz := p.Params.Get(ical.PropTimezoneID); {
	case m[7] == "Z":
		return v, " UTC"
	case tz != "":
		return v, " (" + tz + ")"
	}
	return v, ""
}

// calendarPerson is an ORGANIZER's or ATTENDEE's common name and address.
func calendarPerson(p *ical.Prop) string {
	if p == nil {
		return ""
	}
	addr := strings.TrimSpace(p.Value)
	if len(addr) > 7 && strings.EqualFold(addr[:7], "mailto:") {
		addr = addr[7:]
	}
	name := strings.Trim(p.Params.Get(ical.ParamCommonName), `"`)
	switch {
	case name == "" || strings.EqualFold(name, addr):
		return addr
	case addr == "":
		return name
	}
	return name + " <" + addr + ">"
}

// lastIndexFoldASCII is the byte index in s of the last match of the
// upper-case ASCII word w, ASCII letters matched in either case. Not
// strings.ToUpper: it changes the byte length of some letters ("ı" 2
// bytes -> "I" 1, "ɐ" 2 -> 3), so its index cut s in the wrong place (a
// Turkish event was warned of "text after the calendar" it had read).
func lastIndexFoldASCII(s, w string) int {
	for i := len(s) - len(w); i >= 0; i-- {
		k := 0
		for ; k < len(w); k++ {
			c := s[i+k]
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			if c != w[k] {
				break
			}
		}
		if k == len(w) {
			return i
		}
	}
	return -1
}
