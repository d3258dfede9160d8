package text

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

func extractCalendar(t *testing.T, cal string) *document.Result {
	t.Helper()
	data := []byte(cal)
	info, _ := detect.DetectBytes("cal.ics", data)
	if info.Type != detect.ICalendar {
		t.Fatalf("detected %q", info.Type)
	}
	res, err := ExtractBytes(context.Background(), data, info, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func calendarTitles(res *document.Result) string {
	var titles []string
	for _, e := range res.Elements {
		if e.Category == document.Title {
			titles = append(titles, e.Text)
		}
	}
	return strings.Join(titles, "|")
}

// TestCalendarBadLines (text/19): one line go-ical cannot read no longer
// sends the whole calendar to its raw lines ("BEGIN:VEVENT",
// "DTSTART;TZID=...": text/9-18): a description's line that lost its
// fold's space (with or without a colon) lands as a further line of the
// description, an attendee whose name holds a bare quote lands without
// the name, a stray line is left out, each said with its line number;
// "X;A=b" (a parameter and no colon) made go-ical panic.
func TestCalendarBadLines(t *testing.T) {
	cal := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" + // lines 1-3
		"BEGIN:VEVENT\r\nUID:1\r\nDTSTART:20240312T090000Z\r\nSUMMARY:Budget review\r\n" + // 4-7
		"DESCRIPTION:Agenda for the review.\r\nPlease bring the printed slides.\r\nNote: parking is behind building C\r\n" + // 8-10
		"ATTENDEE;CN=John \"Jack\" Doe:mailto:jack@example.com\r\nEND:VEVENT\r\n" + // 11-12
		"%%% garbage %%%\r\n" + // 13
		"BEGIN:VEVENT\r\nUID:2\r\nDTSTART:20240313T090000Z\r\nX;A=b\r\nSUMMARY:Hiring panel\r\nEND:VEVENT\r\n" + // 14-19
		"END:VCALENDAR\r\n"
	res := extractCalendar(t, cal)
	text := res.Pages[0].Text
	if got := calendarTitles(res); got != "Budget review|Hiring panel" || strings.Contains(text, "BEGIN:") {
		t.Fatalf("titles %q, text %q", got, text)
	}
	for _, want := range []string{"Agenda for the review.\nPlease bring the printed slides.\nNote: parking is behind building C", "Attendees: jack@example.com"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q: %q", want, text)
		}
	}
	w := strings.Join(res.Warnings, "\n")
	for _, want := range []string{"calendar line 9 is no iCalendar property line", "calendar line 10 is no iCalendar property line", "line 8's DESCRIPTION",
		`calendar line 11: the parameters of its ATTENDEE are malformed ("CN=John \"Jack\" Doe")`, `calendar line 13 is no iCalendar property line and did not land: "%%% garbage %%%"`,
		`calendar line 17 is no iCalendar property line and did not land: "X;A=b"`} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

// TestCalendarEntryWithoutEnd (text/19): an event without its END:VEVENT
// line costs the calendar nothing: every event lands, the one without its
// end read up to the next one's BEGIN, said, and a stray line between
// entries left out, said; text/9-18 landed the raw lines of the whole file.
func TestCalendarEntryWithoutEnd(t *testing.T) {
	cal := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nX-WR-CALNAME:Team\r\n" +
		"BEGIN:VEVENT\r\nUID:1\r\nDTSTART:20240312T090000Z\r\nSUMMARY:First\r\nEND:VEVENT\r\n" + // 5-9
		"garbage\r\n" + // 10
		"BEGIN:VEVENT\r\nUID:2\r\nDTSTART:20240313T090000Z\r\nSUMMARY:Second\r\n" + // 11-14
		"BEGIN:VEVENT\r\nUID:3\r\nDTSTART:20240314T090000Z\r\nSUMMARY:Third\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	res := extractCalendar(t, cal)
	if got := calendarTitles(res); got != "First|Second|Third" || res.Metadata.Title != "Team" {
		t.Errorf("titles %q, title %q, text %q", got, res.Metadata.Title, res.Pages[0].Text)
	}
	w := strings.Join(res.Warnings, "\n")
	for _, want := range []string{"calendar lines 11-14: the event has no END:VEVENT line", `calendar line 10 is no iCalendar property line and did not land: "garbage"`} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

// TestCalendarChangedOccurrence (text/19): a series' changed occurrence
// (same UID, RECURRENCE-ID) says which occurrence of which series it
// replaces, and the series' EXDATE and RDATE land; text/9-18 landed the
// changed occurrence as a second meeting with nothing said, and a week
// taken out of the series as held.
func TestCalendarChangedOccurrence(t *testing.T) {
	cal := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" +
		"BEGIN:VEVENT\r\nUID:sync@x\r\nDTSTART;TZID=Europe/Berlin:20240305T090000\r\nDTEND;TZID=Europe/Berlin:20240305T093000\r\n" +
		"RRULE:FREQ=WEEKLY;COUNT=6\r\nEXDATE;TZID=Europe/Berlin:20240326T090000,20240402T090000\r\nRDATE;VALUE=DATE:20240410\r\nSUMMARY:Weekly sync\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:sync@x\r\nRECURRENCE-ID;TZID=Europe/Berlin:20240319T090000\r\nDTSTART;TZID=Europe/Berlin:20240319T140000\r\n" +
		"DTEND;TZID=Europe/Berlin:20240319T143000\r\nSUMMARY:Weekly sync (moved)\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:other@x\r\nRECURRENCE-ID:20240320T100000Z\r\nDTSTART:20240320T110000Z\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	text := extractCalendar(t, cal).Pages[0].Text
	for _, want := range []string{
		"Except: 2024-03-26 09:00 (Europe/Berlin), 2024-04-02 09:00 (Europe/Berlin)",
		"Also on: 2024-04-10",
		"Changed occurrence: 2024-03-19 09:00 (Europe/Berlin) of the repeating “Weekly sync”",
		"Changed occurrence: 2024-03-20 10:00 UTC of a repeating entry not in this file",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// TestCalendarLinesNoPanic: go-ical panics on a parameter with nothing
// after it (index out of range); text/9-18 handed it such lines and the
// extraction crashed. Every line is checked first now, the calendar's own
// lines too when it is read entry by entry.
func TestCalendarLinesNoPanic(t *testing.T) {
	for _, s := range []string{
		"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nX;A=b\r\nSUMMARY:S\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
		"0;0=\n0:0",
		"BEGIN:VCALENDAR\r\nX;A=\"b\"c:d\r\nBEGIN:VEVENT\r\nSUMMARY:S\r\nEND:VCALENDAR\r\n",
	} {
		calendarBlocks(s)
	}
}

// TestCalendarLineWarningsCapped (text/21, review46's LOW on text/20): a
// calendar of many bad lines says the first 20 and counts the rest; each
// was a warning of its own (50,000 for a 2.7 MB file).
func TestCalendarLineWarningsCapped(t *testing.T) {
	cal := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20240312T090000Z\r\n" +
		strings.Repeat("%%% stray %%%\r\n", 5000) + "SUMMARY:Survivor\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	res := extractCalendar(t, cal)
	if got := calendarTitles(res); got != "Survivor" {
		t.Errorf("titles %q", got)
	}
	if len(res.Warnings) != 21 || res.Warnings[20] != "and 4980 more calendar line(s) not read as written (the first 20 said above)" {
		t.Errorf("%d warnings, last %q", len(res.Warnings), res.Warnings[len(res.Warnings)-1])
	}
}
