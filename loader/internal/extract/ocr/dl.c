#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include "dl.h"

#define DK_POINTER(ret, name, params, args) static ret (*p_##name) params;
#define DK_POINTER_V(name, params, args) static void (*p_##name) params;
DK_TESS_FUNCS(DK_POINTER, DK_POINTER_V)
DK_LEPT_FUNCS(DK_POINTER, DK_POINTER_V)

#define DK_WRAP(ret, name, params, args) ret dk_##name params { return p_##name args; }
#define DK_WRAP_V(name, params, args) void dk_##name params { p_##name args; }
DK_TESS_FUNCS(DK_WRAP, DK_WRAP_V)
DK_LEPT_FUNCS(DK_WRAP, DK_WRAP_V)

static pthread_once_t dk_once = PTHREAD_ONCE_INIT;
static int dk_status = -1;
static char dk_err[512] = "OCR libraries not loaded";

static void *dk_open_first(const char *const *names)
{
	void *h = NULL;
	for (; *names && !h; names++)
		h = dlopen(*names, RTLD_NOW | RTLD_GLOBAL);
	return h;
}

static void dk_load_once(void)
{
	static const char *const lept[] = { "liblept.so.5", "libleptonica.so.6", "libleptonica.so", "liblept.so", NULL };
	static const char *const tess[] = { "libtesseract.so.5", "libtesseract.so", NULL };
	void *hl, *ht;
	const char *missing = NULL;

	hl = dk_open_first(lept);
	if (!hl) {
		snprintf(dk_err, sizeof dk_err, "cannot load leptonica (liblept.so.5): %s", dlerror());
		return;
	}
	ht = dk_open_first(tess);
	if (!ht) {
		snprintf(dk_err, sizeof dk_err, "cannot load Tesseract (libtesseract.so.5): %s", dlerror());
		return;
	}
#define DK_RESOLVE(h, name) \
	if (!missing && !(*(void **)(&p_##name) = dlsym(h, #name))) missing = #name;
#define DK_RESOLVE_T(ret, name, params, args) DK_RESOLVE(ht, name)
#define DK_RESOLVE_TV(name, params, args) DK_RESOLVE(ht, name)
#define DK_RESOLVE_L(ret, name, params, args) DK_RESOLVE(hl, name)
#define DK_RESOLVE_LV(name, params, args) DK_RESOLVE(hl, name)
	DK_TESS_FUNCS(DK_RESOLVE_T, DK_RESOLVE_TV)
	DK_LEPT_FUNCS(DK_RESOLVE_L, DK_RESOLVE_LV)
	if (missing) {
		snprintf(dk_err, sizeof dk_err, "the installed Tesseract or leptonica lacks %s", missing);
		return;
	}
	dk_err[0] = 0;
	dk_status = 0;
}

int dk_ocr_load(void)
{
	pthread_once(&dk_once, dk_load_once);
	return dk_status;
}

const char *dk_ocr_error(void) { return dk_err; }
