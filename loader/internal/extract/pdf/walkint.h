/* walkint.h: what the C files of the walk share among themselves (not
 * called from Go). */
#ifndef DK_WALKINT_H
#define DK_WALKINT_H
#include "walk.h"

/* doc.c */
void dk_seterr(char *dst, const char *msg);
/* log.c: MuPDF's warning and error callbacks; user is a dk_log. */
void dk_warn_cb(void *user, const char *msg);
void dk_error_cb(void *user, const char *msg);
/* vectors.c */
void dk_hook_vectors(fz_device *dev, dk_page *p);
void dk_unhook_vectors(void);
/* devhooks.c */
void dk_hook_text(fz_device *dev, fz_cookie *cookie);
void dk_unhook_text(void);
void dk_hook_shade(fz_device *dev);
void dk_hook_clip(dk_page *p, fz_stext_page *st);
/* images.c: how pdf_load_image loads JPEG 2000 images on this thread. */
enum { DK_IMAGES_LAZY = 1, DK_IMAGES_DECODE = 2 };
extern __thread int dk_images_mode, dk_images_lazy;
#endif
