package ocr

/*
#include <stdlib.h>
#include "dl.h"
*/
import "C"

import (
	"sync/atomic"
	"unsafe"
)

// lineCodec is the state of the pixWriteMem stand-in: active counts the
// recognitions running in this process (only while one runs is a line
// image written as SPIX), writes the line images so written.
var lineCodec struct {
	active atomic.Int32
	off    atomic.Bool // tests: leave every write to leptonica
	writes atomic.Int64
}

// withLineCodec runs f with the stand-in active.
func withLineCodec(f func()) {
	lineCodec.active.Add(1)
	defer lineCodec.active.Add(-1)
	f()
}

// pixWriteMem stands in for leptonica's function of the same name in
// this process: the executable exports it (cgo //export), so when
// Tesseract is dlopen'ed (dl.c) its calls bind here, before liblept's.
//
// Tesseract 5 hands every text line to its LSTM reader through an
// ImageData, which stores the line's pixels (clipped from the grey page)
// with pixWriteMem(IFF_PNG), zlib at its default level, and decodes them
// again with pixReadMem a moment later. On the corpus scans that PNG round
// trip was 3-4 % of a page's CPU in the first reading and about 40 % of the
// second reading of weak lines (perf: libz + libpng16, p03), whose crops
// are scaled 2x. While a recognition runs, a grey or binary image without
// colormap is written as leptonica's SPIX instead (its header and raw
// words: a copy), which the same pixReadMem reads back; the pixels, and so
// every word, confidence and box, are the same (the 12 corpus scans read
// identically). Other images, formats, and calls outside recognition go to
// leptonica as asked. PNM was tried first: leptonica writes it a byte at a
// time through a stdio stream, which cost more than the PNG it replaced.
//
//export pixWriteMem
func pixWriteMem(pdata **C.l_uint8, psize *C.size_t, pix *C.PIX, format C.l_int32) C.l_ok {
	if format == C.IFF_PNG && pix != nil && lineCodec.active.Load() > 0 && !lineCodec.off.Load() &&
		C.dk_pixGetColormap(pix) == nil {
		if d := C.dk_pixGetDepth(pix); d == 8 || d == 1 {
			format = C.IFF_SPIX
			lineCodec.writes.Add(1)
		}
	}
	return C.dk_pixWriteMem(pdata, psize, pix, format)
}

// writeMemForTest writes p as PNG through the stand-in (as Tesseract's
// calls do) and returns the bytes.
func writeMemForTest(p *C.PIX) []byte {
	var data *C.l_uint8
	var size C.size_t
	if pixWriteMem(&data, &size, p, C.IFF_PNG) != 0 || data == nil {
		return nil
	}
	defer C.free(unsafe.Pointer(data))
	return C.GoBytes(unsafe.Pointer(data), C.int(size))
}

func destroyPixForTest(p *C.PIX) { C.dk_pixDestroy(&p) }
