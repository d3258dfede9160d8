package render

import (
	"testing"
	"time"
)

// TestStrftimeAsPython: Strftime gives what Python's strftime gives on
// Linux (the wanted texts are Python 3's output for the same times). The
// directives were rewritten into a Go layout, which read the format's own
// text as layout too: '%Y-%m-01' gave "2024-03-03" for 4 March 2024 and
// "report 2" "report 6"; %j, %I, %p, %U ... were printed as written.
func TestStrftimeAsPython(t *testing.T) {
	for _, c := range []struct {
		t       time.Time
		f, want string
	}{
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "%Y-%m-01", "2024-03-01"},
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "%Y-%m-%d %H:%M:%S", "2024-03-04 05:06:07"},
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "%d.%m.%Y Jan", "04.03.2024 Jan"},
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "report 2 %Y", "report 2 2024"},
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "%I %p %j %U %W %w %e %c %x %X %G %V %u %g %C %D %F %T %R %r %h %k %l", "05 AM 064 09 10 1  4 Mon Mar  4 05:06:07 2024 03/04/24 05:06:07 2024 10 1 24 20 03/04/24 2024-03-04 05:06:07 05:06 05:06:07 AM Mar  5  5"},
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "%H:%M:%S.%f", "05:06:07.500000"},
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "%-d/%-m/%Y %-H:%M", "4/3/2024 5:06"},
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "%%Y %Q 100%", "%Y %Q 100%"},
		{time.Date(2024, 3, 4, 5, 6, 7, 500000000, time.UTC), "%a %A %b %B %y", "Mon Monday Mar March 24"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "%Y-%m-01", "2021-01-01"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "%Y-%m-%d %H:%M:%S", "2021-01-03 17:00:09"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "%d.%m.%Y Jan", "03.01.2021 Jan"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "report 2 %Y", "report 2 2021"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "%I %p %j %U %W %w %e %c %x %X %G %V %u %g %C %D %F %T %R %r %h %k %l", "05 PM 003 01 00 0  3 Sun Jan  3 17:00:09 2021 01/03/21 17:00:09 2020 53 7 20 20 01/03/21 2021-01-03 17:00:09 17:00 05:00:09 PM Jan 17  5"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "%H:%M:%S.%f", "17:00:09.000042"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "%-d/%-m/%Y %-H:%M", "3/1/2021 17:00"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "%%Y %Q 100%", "%Y %Q 100%"},
		{time.Date(2021, 1, 3, 17, 0, 9, 42000, time.UTC), "%a %A %b %B %y", "Sun Sunday Jan January 21"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "%Y-%m-01", "2020-12-01"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "%Y-%m-%d %H:%M:%S", "2020-12-31 00:00:00"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "%d.%m.%Y Jan", "31.12.2020 Jan"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "report 2 %Y", "report 2 2020"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "%I %p %j %U %W %w %e %c %x %X %G %V %u %g %C %D %F %T %R %r %h %k %l", "12 AM 366 52 52 4 31 Thu Dec 31 00:00:00 2020 12/31/20 00:00:00 2020 53 4 20 20 12/31/20 2020-12-31 00:00:00 00:00 12:00:00 AM Dec  0 12"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "%H:%M:%S.%f", "00:00:00.000000"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "%-d/%-m/%Y %-H:%M", "31/12/2020 0:00"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "%%Y %Q 100%", "%Y %Q 100%"},
		{time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), "%a %A %b %B %y", "Thu Thursday Dec December 20"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "%Y-%m-01", "999-07-01"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "%Y-%m-%d %H:%M:%S", "999-07-09 12:30:01"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "%d.%m.%Y Jan", "09.07.999 Jan"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "report 2 %Y", "report 2 999"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "%I %p %j %U %W %w %e %c %x %X %G %V %u %g %C %D %F %T %R %r %h %k %l", "12 PM 190 27 27 2  9 Tue Jul  9 12:30:01 999 07/09/99 12:30:01 999 28 2 99 9 07/09/99 999-07-09 12:30:01 12:30 12:30:01 PM Jul 12 12"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "%H:%M:%S.%f", "12:30:01.000000"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "%-d/%-m/%Y %-H:%M", "9/7/999 12:30"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "%%Y %Q 100%", "%Y %Q 100%"},
		{time.Date(999, 7, 9, 12, 30, 1, 0, time.UTC), "%a %A %b %B %y", "Tue Tuesday Jul July 99"},
	} {
		if got := Strftime(c.t, c.f); got != c.want {
			t.Errorf("%s.strftime(%q) = %q, want %q", c.t.Format(time.RFC3339Nano), c.f, got, c.want)
		}
	}
}
