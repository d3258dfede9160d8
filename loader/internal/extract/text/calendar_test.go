package text

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

const outlookICS = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN\r\nMETHOD:REQUEST\r\n" +
	"BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nBEGIN:STANDARD\r\nDTSTART:16011028T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n" +
	"BEGIN:VEVENT\r\nUID:2@x\r\nDTSTART;TZID=W. Europe Standard Time:20240415T140000\r\nDTEND;TZID=W. Europe Standard Time:20240415T153000\r\n" +
	"SUMMARY;LANGUAGE=de-DE:Quartalsgespräch Vertrieb\r\nLOCATION:Raum 3.14\\, Gebäude B\r\n" +
	"ORGANIZER;CN=\"Müller, Anna\":mailto:anna.mueller@example.de\r\nATTENDEE;CN=Bob Stone;ROLE=REQ-PARTICIPANT:mailto:bob@example.com\r\n" +
	"RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO\r\nDESCRIPTION:Tagesordnung:\\n1. Zahlen Q1\\n2. Planung\\n\\nBitte Unterlagen mi\r\n tbringen.\r\n" +
	"BEGIN:VALARM\r\nTRIGGER:-PT15M\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nEND:VALARM\r\nEND:VEVENT\r\n" +
	"BEGIN:VTODO\r\nUID:3@x\r\nDUE;VALUE=DATE:20240420\r\nSUMMARY:Send minutes\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"

// TestCalendarIsRead: an iCalendar file (an Outlook invitation with a
// Windows zone name, a folded description, escaped commas, a to-do) lands
// as its entries: the summary a Title, when / where / who as a paragraph,
// the description's paragraphs, no "BEGIN:" lines (text/9). It landed as
// its raw lines, the description cut at its fold ("mi" / " tbringen").
// One cut short lands its lines, flagged truncated.
func TestCalendarIsRead(t *testing.T) {
	data := []byte(outlookICS)
	info, _ := detect.DetectBytes("invite.ics", data)
	if info.Type != detect.ICalendar {
		t.Fatalf("detected %q", info.Type)
	}
	res, err := ExtractBytes(context.Background(), data, info, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		cat  document.Category
		text string
	}{
		{document.Title, "Quartalsgespräch Vertrieb"},
		{document.NarrativeText, "When: 2024-04-15 14:00 – 15:30 (W. Europe Standard Time)\nWhere: Raum 3.14, Gebäude B\nOrganizer: Müller, Anna <anna.mueller@example.de>\nAttendees: Bob Stone <bob@example.com>\nRepeats: FREQ=WEEKLY;COUNT=4;BYDAY=MO"},
		{document.NarrativeText, "Tagesordnung:\n1. Zahlen Q1\n2. Planung"},
		{document.NarrativeText, "Bitte Unterlagen mitbringen."},
		{document.Title, "Send minutes"},
		{document.NarrativeText, "When: due 2024-04-20"},
	}
	if len(res.Elements) != len(want) {
		t.Fatalf("%d elements, want %d: %+v", len(res.Elements), len(want), res.Elements)
	}
	for i, w := range want {
		if e := res.Elements[i]; e.Category != w.cat || e.Text != w.text {
			t.Errorf("element %d: %s %q, want %s %q", i, e.Category, e.Text, w.cat, w.text)
		}
	}
	if res.Metadata.Title != "Quartalsgespräch Vertrieb" || strings.Contains(res.Pages[0].Text, "BEGIN:") || len(res.Warnings) != 0 {
		t.Errorf("title %q, warnings %q, text %q", res.Metadata.Title, res.Warnings, res.Pages[0].Text)
	}

	cut := []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Cut short\r\n")
	res, err = ExtractBytes(context.Background(), cut, info, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Pages[0].Text, "SUMMARY:Cut short") || len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewTruncated {
		t.Errorf("cut short: text %q reviews %+v", res.Pages[0].Text, res.Reviews)
	}
}

// TestConcatenatedCalendars: a file of two calendars one after the other
// (exports concatenated) lands both calendars' events (text/11); text/9
// read the first only, the second's events lost without a word (review42).
func TestConcatenatedCalendars(t *testing.T) {
	cal := func(uid, summary string) string {
		return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:" + uid + "\r\nDTSTART:20240312T090000Z\r\nSUMMARY:" + summary + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	}
	data := []byte(cal("1", "First meeting") + cal("2", "Second meeting") + "\r\n")
	info, _ := detect.DetectBytes("two.ics", data)
	res, err := ExtractBytes(context.Background(), data, info, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, e := range res.Elements {
		if e.Category == document.Title {
			titles = append(titles, e.Text)
		}
	}
	if strings.Join(titles, "|") != "First meeting|Second meeting" || len(res.Warnings) > 0 {
		t.Errorf("titles %q, warnings %q", titles, res.Warnings)
	}
}

// TestCalendarExtras: an entry's link, online-meeting link, comment,
// categories, contact, resources and attachment addresses land as facts,
// an HTML-only description (X-ALT-DESC) as its text, and an all-day
// entry's exclusive end as its last day (text/12); text/9 dropped them
// all and showed 2024-03-12 – 2024-03-13 for the 12th alone.
func TestCalendarExtras(t *testing.T) {
	data := []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" +
		"BEGIN:VEVENT\r\nUID:1\r\nDTSTART;VALUE=DATE:20240312\r\nDTEND;VALUE=DATE:20240313\r\nSUMMARY:Board day\r\n" +
		"URL:https://meet.example.com/abc-defg-hij\r\nX-GOOGLE-CONFERENCE:https://meet.google.com/xyz\r\nCOMMENT:Dial-in 555-0100 PIN 4242\r\n" +
		"CATEGORIES:Finance,Board\r\nCONTACT:Jim Dolittle\\, ABC Industries\r\nRESOURCES:Projector\r\n" +
		"ATTACH:https://files.example.com/agenda.pdf\r\nATTACH;ENCODING=BASE64;VALUE=BINARY:QUJD\r\n" +
		"X-ALT-DESC;FMTTYPE=text/html:<html><body><p>Agenda in <b>HTML</b> only</p><p>Second &amp; last</p></body></html>\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:2\r\nDTSTART;VALUE=DATE:20240312\r\nDTEND;VALUE=DATE:20240315\r\nSUMMARY:Offsite\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
	info, _ := detect.DetectBytes("extras.ics", data)
	res, err := ExtractBytes(context.Background(), data, info, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Pages[0].Text
	for _, want := range []string{
		"When: 2024-03-12\nLink: https://meet.example.com/abc-defg-hij\nOnline meeting: https://meet.google.com/xyz\nComment: Dial-in 555-0100 PIN 4242\nCategories: Finance, Board\nContact: Jim Dolittle, ABC Industries\nResources: Projector\nAttachments: https://files.example.com/agenda.pdf",
		"Agenda in HTML only\nSecond & last",
		"When: 2024-03-12 – 2024-03-14",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "QUJD") {
		t.Errorf("an attached file's bytes landed: %s", text)
	}
}

// TestCalendarTrailingText: review44's LOW on text/11: after the last
// END:VCALENDAR, blank lines, a ^Z, a NUL or a byte order mark are nothing,
// and a mail footer is left out with a warning; decoding to the end of the
// file failed the whole calendar on any of them (its raw lines landed).
func TestCalendarTrailingText(t *testing.T) {
	cal := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:1@x\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240102T100000Z\r\nSUMMARY:Budget review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	for name, tail := range map[string]string{
		"none": "", "blank": "\r\n", "blanks": "\r\n\r\n\r\n", "lf-blank": "\n", "space": " \r\n", "tab": "\t\n",
		"footer": "-- \r\nSent from my phone\r\n", "nul": "\x00", "bom": "\ufeff", "ctrl-z": "\x1a",
		"two": strings.Replace(cal, "Budget review", "Second", 1) + "-- \r\nfooter\r\n",
	} {
		blocks, title, warnings, err := calendarBlocks(cal + tail)
		if err != nil || title != "Budget review" || name == "two" && len(blocks) != 4 {
			t.Errorf("%s: %d blocks, title %q, err %v", name, len(blocks), title, err)
		}
		if want := name == "footer" || name == "two"; want != (len(warnings) == 1) {
			t.Errorf("%s: warnings %q", name, warnings)
		}
	}
}
