package table

import "strings"

// currencyCodes are ISO 4217 codes written before or after amounts in
// statements and price lists ("CHF 1,234", "12.50 EUR"). A list, not any
// three capitals: a registration's or a standard's letters before a
// number ("HRB 48213", "ISO 9001") are no amount.
var currencyCodes = map[string]bool{
	"AUD": true, "BRL": true, "CAD": true, "CHF": true, "CNY": true, "CZK": true, "DKK": true, "EUR": true, "GBP": true,
	"HKD": true, "HUF": true, "INR": true, "JPY": true, "KRW": true, "MXN": true, "NOK": true, "NZD": true, "PLN": true,
	"RON": true, "SEK": true, "SGD": true, "TRY": true, "USD": true, "ZAR": true,
}

// withoutCurrency is s, an amount, with the currency pdf.IsNumber does not take
// left out: a code before or after it ("CHF 930,230.25", "12.50 EUR"), a
// sign after it ("1.234,56 €", "(589,992.56) €"), or a sign before a
// negative's parenthesis or minus ("£(94,133.45)", "$-1,407", "£−28.4").
// Anything else is returned as it is.
func withoutCurrency(s string) string {
	if i := strings.IndexByte(s, ' '); i == 3 && currencyCodes[s[:3]] {
		return strings.TrimSpace(s[4:])
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 && len(s)-i == 4 && currencyCodes[s[i+1:]] {
		return strings.TrimSpace(s[:i])
	}
	for _, c := range []string{"€", "£", "$"} {
		if t, ok := strings.CutSuffix(s, c); ok {
			if t = strings.TrimRight(t, " "); t != "" && (t[len(t)-1] >= '0' && t[len(t)-1] <= '9' || t[len(t)-1] == ')') {
				return t
			}
		}
		if t, ok := strings.CutPrefix(s, c); ok {
			t = strings.TrimLeft(t, " ")
			for _, sign := range []string{"(", "-", "−", "–"} {
				if strings.HasPrefix(t, sign) {
					return t
				}
			}
		}
	}
	return s
}
