// What Swift cannot import from libwebsockets directly: macros and helpers.
#ifndef FORCELAYOUT_LWS_SHIM_H
#define FORCELAYOUT_LWS_SHIM_H

#include <libwebsockets.h>

/// Bytes lws needs writable in front of every payload handed to lws_write.
static const size_t forcelayout_lws_pre = LWS_PRE;

/// lws_set_log_level takes a function pointer that may be NULL; Swift cannot pass NULL as
/// a non-optional C function pointer cleanly, so this wrapper keeps the default emitter.
static inline void forcelayout_lws_set_log_level(int level) {
    lws_set_log_level(level, NULL);
}

/// glibc's malloc_trim (in <malloc.h>, which Swift's Glibc module does not export): hands
/// freed heap memory back to the system after large buffers go.
#include <malloc.h>
static inline void forcelayout_malloc_trim(void) { malloc_trim(0); }

#endif
