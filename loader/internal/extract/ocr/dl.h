/* dl.h: Tesseract and leptonica are loaded with dlopen when the first OCR
 * engine is made, not linked: libtesseract pulls ~50 shared libraries
 * (curl, gnutls, kerberos, ICU...) bound at start-up (BIND_NOW), which cost
 * every docket process ~12 ms, OCR or not, and kept docket from starting
 * at all where Tesseract is missing. The dk_ functions call the library's
 * functions of the same name (without the prefix). */
#ifndef DK_OCR_DL_H
#define DK_OCR_DL_H
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

/* dk_ocr_load loads both libraries once; 0 on success, else -1 and
 * dk_ocr_error says why. Safe to call again (returns the first outcome). */
int dk_ocr_load(void);
const char *dk_ocr_error(void);

/* X(return type, name, parameters, arguments); XV for void functions. */
#define DK_TESS_FUNCS(X, XV) \
	X(TessBaseAPI *, TessBaseAPICreate, (void), ()) \
	X(int, TessBaseAPIInit3, (TessBaseAPI *h, const char *d, const char *l), (h, d, l)) \
	XV(TessBaseAPIEnd, (TessBaseAPI *h), (h)) \
	XV(TessBaseAPIDelete, (TessBaseAPI *h), (h)) \
	XV(TessBaseAPIClear, (TessBaseAPI *h), (h)) \
	XV(TessBaseAPISetPageSegMode, (TessBaseAPI *h, TessPageSegMode m), (h, m)) \
	XV(TessBaseAPISetSourceResolution, (TessBaseAPI *h, int ppi), (h, ppi)) \
	XV(TessBaseAPISetImage2, (TessBaseAPI *h, struct Pix *p), (h, p)) \
	X(int, TessBaseAPIRecognize, (TessBaseAPI *h, ETEXT_DESC *m), (h, m)) \
	X(TessResultIterator *, TessBaseAPIGetIterator, (TessBaseAPI *h), (h)) \
	X(BOOL, TessBaseAPISetVariable, (TessBaseAPI *h, const char *n, const char *v), (h, n, v)) \
	X(BOOL, TessBaseAPIGetBoolVariable, (const TessBaseAPI *h, const char *n, BOOL *v), (h, n, v)) \
	X(BOOL, TessResultIteratorNext, (TessResultIterator *h, TessPageIteratorLevel l), (h, l)) \
	XV(TessResultIteratorDelete, (TessResultIterator *h), (h)) \
	X(const TessPageIterator *, TessResultIteratorGetPageIteratorConst, (const TessResultIterator *h), (h)) \
	X(char *, TessResultIteratorGetUTF8Text, (const TessResultIterator *h, TessPageIteratorLevel l), (h, l)) \
	X(float, TessResultIteratorConfidence, (const TessResultIterator *h, TessPageIteratorLevel l), (h, l)) \
	X(TessPageIterator *, TessBaseAPIAnalyseLayout, (TessBaseAPI *h), (h)) \
	X(BOOL, TessPageIteratorNext, (TessPageIterator *h, TessPageIteratorLevel l), (h, l)) \
	XV(TessPageIteratorDelete, (TessPageIterator *h), (h)) \
	X(BOOL, TessResultIteratorWordIsFromDictionary, (const TessResultIterator *h), (h)) \
	X(BOOL, TessPageIteratorIsAtBeginningOf, (const TessPageIterator *h, TessPageIteratorLevel l), (h, l)) \
	X(BOOL, TessPageIteratorBoundingBox, (const TessPageIterator *h, TessPageIteratorLevel l, int *a, int *b, int *c, int *d), (h, l, a, b, c, d)) \
	XV(TessDeleteText, (const char *t), (t)) \
	X(char **, TessBaseAPIGetLoadedLanguagesAsVector, (const TessBaseAPI *h), (h)) \
	XV(TessDeleteTextArray, (char **a), (a)) \
	X(BOOL, TessBaseAPIDetectOrientationScript, (TessBaseAPI *h, int *d, float *c, const char **s, float *sc), (h, d, c, s, sc))

#define DK_LEPT_FUNCS(X, XV) \
	X(PIX *, pixCreate, (l_int32 w, l_int32 h, l_int32 d), (w, h, d)) \
	X(l_uint32 *, pixGetData, (PIX *p), (p)) \
	X(l_int32, pixGetWpl, (const PIX *p), (p)) \
	X(l_int32, pixGetWidth, (const PIX *p), (p)) \
	X(l_int32, pixGetHeight, (const PIX *p), (p)) \
	X(l_ok, pixSetResolution, (PIX *p, l_int32 x, l_int32 y), (p, x, y)) \
	X(PIX *, pixFindSkewAndDeskew, (PIX *p, l_int32 r, l_float32 *a, l_float32 *c), (p, r, a, c)) \
	XV(pixDestroy, (PIX **p), (p)) \
	X(BOX *, boxCreate, (l_int32 x, l_int32 y, l_int32 w, l_int32 h), (x, y, w, h)) \
	X(PIX *, pixClipRectangle, (PIX *p, BOX *b, BOX **o), (p, b, o)) \
	XV(boxDestroy, (BOX **b), (b)) \
	X(PIX *, pixScale, (PIX *p, l_float32 x, l_float32 y), (p, x, y)) \
	X(PIX *, pixAddBorder, (PIX *p, l_int32 n, l_uint32 v), (p, n, v)) \
	X(l_int32, setMsgSeverity, (l_int32 s), (s)) \
	X(PIX *, pixRotateOrth, (PIX *p, l_int32 q), (p, q)) \
	X(PIX *, pixInvert, (PIX *d, PIX *s), (d, s)) \
	X(PIX *, pixCopy, (PIX *d, const PIX *s), (d, s)) \
	X(l_int32, pixGetDepth, (const PIX *p), (p)) \
	X(PIXCMAP *, pixGetColormap, (PIX *p), (p)) \
	X(l_ok, pixWriteMem, (l_uint8 **d, size_t *n, PIX *p, l_int32 f), (d, n, p, f))

#define DK_DECLARE(ret, name, params, args) ret dk_##name params;
#define DK_DECLARE_V(name, params, args) void dk_##name params;
DK_TESS_FUNCS(DK_DECLARE, DK_DECLARE_V)
DK_LEPT_FUNCS(DK_DECLARE, DK_DECLARE_V)
#endif
