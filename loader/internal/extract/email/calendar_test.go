package email

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestCalendarPartLands: an invitation's text/calendar part, beside the
// plain body in a multipart/alternative and without a file name, is an
// attachment (invite.ics, read as a calendar by the text extractor); it
// was dropped without a word (email/9).
func TestCalendarPartLands(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:1@x\r\nDTSTART:20240312T090000Z\r\nSUMMARY:Budget review\r\nLOCATION:Room 4B\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	msg := "From: a@example.com\r\nTo: b@example.com\r\nSubject: Invitation: Budget review\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/alternative; boundary=\"B\"\r\n\r\n" +
		"--B\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n\r\nYou are invited.\r\n" +
		"--B\r\nContent-Type: text/calendar; charset=\"UTF-8\"; method=REQUEST\r\n\r\n" + ics + "--B--\r\n"
	res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Pages[0].Text, "You are invited.") {
		t.Errorf("body %q", res.Pages[0].Text)
	}
	if len(res.Attachments) != 1 || res.Attachments[0].Name != "invite.ics" || !strings.Contains(string(res.Attachments[0].Data), "SUMMARY:Budget review") {
		t.Fatalf("attachments %+v", res.Attachments)
	}
}

// TestInvitationLandsOnce: Gmail's invitation (the calendar as the
// alternative part and again as an attached invite.ics) lands one child
// calendar (email/12; email/9 landed two, every event twice); two
// different calendars stay two.
func TestInvitationLandsOnce(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:1@x\r\nDTSTART:20240312T090000Z\r\nSUMMARY:Budget review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	msg := "From: a@example.com\r\nTo: b@example.com\r\nSubject: Invitation\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"M\"\r\n\r\n" +
		"--M\r\nContent-Type: multipart/alternative; boundary=\"B\"\r\n\r\n" +
		"--B\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n\r\nYou are invited.\r\n" +
		"--B\r\nContent-Type: text/calendar; charset=\"UTF-8\"; method=REQUEST\r\n\r\n" + ics + "--B--\r\n" +
		"--M\r\nContent-Type: application/ics; name=\"invite.ics\"\r\nContent-Disposition: attachment; filename=\"invite.ics\"\r\n\r\n" + ics + "--M--\r\n"
	res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Attachments) != 1 || res.Attachments[0].Name != "invite.ics" {
		t.Errorf("attachments %d: %+v", len(res.Attachments), res.Attachments)
	}
	other := strings.Replace(msg, "SUMMARY:Budget review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n--M--", "SUMMARY:Other review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n--M--", 1)
	if res, err = ExtractBytes(context.Background(), []byte(other), document.Options{}); err != nil || len(res.Attachments) != 2 {
		t.Errorf("two calendars: %v, %d attachments", err, len(res.Attachments))
	}
}
