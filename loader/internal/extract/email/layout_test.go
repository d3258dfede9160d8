package email

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestHTMLMailTablesAndFooterAreText: an HTML-only order mail's key/value
// table, a signature table beside a logo, its <header> and its <footer>
// land as text of the body (email/11), where docket search reads; a table
// with a header row stays a table. email/8 made the small tables Table
// elements, which chunking leaves out (the tracking number and the
// signer's name were not found), and dropped the header and footer.
func TestHTMLMailTablesAndFooterAreText(t *testing.T) {
	msg := "From: shop@example.com\r\nTo: b@example.com\r\nSubject: Your order shipped\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" +
		`<header><p>ACME Outdoor Letterhead</p></header>` +
		`<p>Your order has shipped.</p><table><tr><td>Order number:</td><td>ORD-12345</td></tr><tr><td>Tracking:</td><td>ZTRACK998877</td></tr></table>` +
		`<table><tr><th>Item</th><th>Qty</th></tr><tr><td>Kayak</td><td>1</td></tr><tr><td>Paddle</td><td>2</td></tr></table>` +
		`<table><tr><td><img src="cid:logo" alt="ACME"></td><td>Quentin Zarkowski<br>Chief Executive</td></tr></table>` +
		`<footer><p>Regards, Carol Xyzzyplugh. Unsubscribe here.</p></footer>`
	res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var narrative strings.Builder
	for _, e := range res.Elements {
		if e.Category != document.TableCat {
			narrative.WriteString(e.Text + "\n")
		}
	}
	for _, want := range []string{"ACME Outdoor Letterhead", "Order number: | ORD-12345\nTracking: | ZTRACK998877", "Quentin Zarkowski Chief Executive", "Regards, Carol Xyzzyplugh."} {
		if !strings.Contains(narrative.String(), want) {
			t.Errorf("body outside tables lacks %q: %q", want, narrative.String())
		}
	}
	if len(res.Tables) != 1 || strings.Join(res.Tables[0].Header, "|") != "Item|Qty" || len(res.Tables[0].Rows) != 2 {
		t.Errorf("tables %+v, want Item|Qty with 2 rows", res.Tables)
	}
}
