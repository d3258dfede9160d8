package pdf

// #include <stdlib.h>
import "C"

// dkDamageClass is the index in damageClasses of one of MuPDF's messages
// ("error: " and the message for an error), -1 for none: walk.c's log
// asks it for each message past its cap, so that a message saying text
// is lost still gives its review however many came before it. In a file
// of its own: a file with //export may declare but not define C in its
// preamble.
//
//export dkDamageClass
func dkDamageClass(msg *C.char) C.int {
	c := damageOf(C.GoString(msg))
	for i := range damageClasses {
		if c == &damageClasses[i] {
			return C.int(i)
		}
	}
	return -1
}
