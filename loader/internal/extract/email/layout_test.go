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

// TestInkyMailRowsAreText: review44's HIGH on email/11. Foundation for
// Emails (Inky) writes each row of a mail as <th> cells
// (<th><p>...</p></th><th class="expander"></th>): such a one-row table
// was a header row with no body, so the mail's paragraphs (the tracking
// number) landed as a Table's header, out of the chunks. A message's
// table whose header has no rows under it, or holds paragraphs, is text;
// a real data table (short header cells over body rows) stays a table.
func TestInkyMailRowsAreText(t *testing.T) {
	inky := `<table class="body"><tr><td class="center" align="center" valign="top"><center>` +
		`<table align="center" class="container"><tbody><tr><td>` +
		`<table class="row"><tbody><tr><th class="small-12 large-12 columns first last"><table><tr>` +
		`<th><p>Hi Dana, your order ORD-55821 has shipped with tracking number 1Z999AA10123456784.</p><p>It should arrive on Thursday.</p></th>` +
		`<th class="expander"></th></tr></table></th></tr></tbody></table>` +
		`<table class="row"><tbody><tr><th class="small-12 large-6 columns first"><table><tr><th><p>Billing: Quentin Zarkowski, 12 Elm Road</p></th></tr></table></th>` +
		`<th class="small-12 large-6 columns last"><table><tr><th><p>Shipping: Xyzzy Depot, Dock 7</p></th></tr></table></th></tr></tbody></table>` +
		`</td></tr></tbody></table></center></td></tr></table>` +
		`<table><tr><th><p>Item</p></th><th>Qty</th></tr><tr><td>Tent</td><td>1</td></tr></table>` +
		`<table><tr><th>Item</th><th>Price</th></tr><tr><td>Stove</td><td>EUR 40</td></tr></table>`
	msg := "From: shop@example.com\r\nTo: b@example.com\r\nSubject: Shipped\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body>" + inky + "</body></html>"
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
	for _, want := range []string{"1Z999AA10123456784", "It should arrive on Thursday.", "Quentin Zarkowski", "Xyzzy Depot", "Tent"} {
		if !strings.Contains(narrative.String(), want) {
			t.Errorf("body outside Table elements lacks %q; tables %+v; narrative %q", want, res.Tables, narrative.String())
		}
	}
	if len(res.Tables) != 1 || strings.Join(res.Tables[0].Header, "|") != "Item|Price" || len(res.Tables[0].Rows) != 1 {
		t.Errorf("tables %+v, want the Item/Price data table only", res.Tables)
	}
}
