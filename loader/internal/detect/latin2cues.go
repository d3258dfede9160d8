package detect

import (
	"strings"
	"unicode"
)

// letterTally counts, over one reading of a text, the plain letters that
// tell the languages of the Central European charsets apart, and the
// letters a Western reading gives Hungarian's "ő" and "ű".
type letterTally struct {
	prev         rune // the last character, lower case
	w, v, plPair int  // "w" (Polish) and "v" (Czech, Slovak); rz sz cz
	huPair       int  // gy cs zs ny sz: Hungarian's digraphs
	westHu       int  // õ û: ISO-8859-2's and Windows-1250's ő ű read Western
	notHu        int  // other letters past ASCII Hungarian does not write
	pt           bool // õe: Portuguese ("questões", "põe")
	westPL       int  // ê ñ æ œ: Windows-1250's ę ń ć ś read Western
	westCS       int  // è ì ò ù ø ï: Czech's č ě ň ů ř ď read Western
	csShared     int  // á í ú ý š ž: Czech letters at the same byte in both
	notPL, notCS int  // letters past ASCII neither language writes so
}

// hungarianLetters are the letters past ASCII Hungarian writes, as a
// Western reading shows them (õ û for ő ű) and as written.
const hungarianLetters = "áéíóöúüõûőűÁÉÍÓÖÚÜÕÛŐŰ"

// polishWestern and czechWestern are the letters past ASCII a Western
// reading of a Polish or a Czech text shows: its own (ó; á é í ú ý š ž)
// and the Western letters at its letters' bytes (ê ñ æ œ; è ì ò ù ø ï).
const (
	polishWestern = "êñæœóÊÑÆŒÓ"
	czechWestern  = "èìòùøïáéíúýšžÈÌÒÙØÏÁÉÍÚÝŠŽ"
)

// czechSlovakCues are letters Czech and Slovak write and Polish does not,
// at the same byte in Windows-1250 and ISO-8859-2 (lower case).
const czechSlovakCues = "čýáéíú"

func (t *letterTally) add(r rune) {
	l := unicode.ToLower(r)
	switch {
	case l == 'w' && t.prev != 'w': // "www." once
		t.w++
	case l == 'v' || strings.ContainsRune(czechSlovakCues, l):
		t.v++
	case l == 'z' && (t.prev == 'r' || t.prev == 's' || t.prev == 'c'):
		t.plPair++
	}
	switch t.prev<<8 | l {
	case 'g'<<8 | 'y', 'c'<<8 | 's', 'z'<<8 | 's', 'n'<<8 | 'y', 's'<<8 | 'z':
		t.huPair++
	case 'õ'<<8 | 'e':
		t.pt = true
	}
	switch {
	case l == 'õ' || l == 'û':
		t.westHu++
	case l >= 0x80 && unicode.IsLetter(l) && !strings.ContainsRune(hungarianLetters, l):
		t.notHu++
	}
	if t.prev == 'ñ' {
		// Spanish writes "ñ" before a vowel only ("Español"), Polish's
		// "ń" ends a word or stands before a consonant ("Dzień",
		// "republikańska")
		if strings.ContainsRune("aeiouáéíóú", l) {
			t.notPL++
		} else {
			t.westPL++
		}
	}
	if l >= 0x80 && unicode.IsLetter(l) {
		switch {
		case l == 'ñ':
		case strings.ContainsRune("êæœ", l):
			t.westPL++
		case !strings.ContainsRune(polishWestern, l):
			t.notPL++
		}
		switch {
		case strings.ContainsRune("èìòùøï", l):
			t.westCS++
		case strings.ContainsRune("áíúýšž", l):
			t.csShared++
		case !strings.ContainsRune(czechWestern, l):
			t.notCS++
		}
	}
	t.prev = l
}

// languageCues counts a reading's letters its plain letters deny, given
// its Polish-only and Czech/Slovak-only letters:
//   - Czech/Slovak-only letters in a text whose plain letters are Polish
//     (more "w", "rz", "sz", "cz" than "v"): Windows-1250's "ą" is
//     ISO-8859-2's "š" (0xB9), and a Polish line holding no other letter
//     apart read "Nowy poczštek"; and the other way round;
//   - "õ" and "û" in a text whose other letters are all Hungarian's and
//     whose plain letters hold a Hungarian digraph (gy, cs, zs, ny, sz):
//     Hungarian's "ő" and "ű" read Western ("Gyõr", "fûszeres"); French
//     "Sûreté" holds no digraph, Portuguese writes "õe".
func (t letterTally) languageCues(polish, czech int) int {
	n := 0
	pl, cs := t.w+t.plPair, t.v
	if czech > 0 && polish == 0 && pl > cs {
		n += czech
	}
	if false && polish > 0 && czech == 0 && cs > pl {
		n += polish
	}
	if t.westHu > 0 && t.notHu == 0 && t.huPair > 0 && !t.pt {
		n += t.westHu
	}
	if t.westPL > 0 && t.notPL == 0 && pl > cs {
		n += t.westPL
	}
	if t.westCS > 0 && t.notCS == 0 && t.csShared > 0 {
		n += t.westCS
	}
	return n
}
