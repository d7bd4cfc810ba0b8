#ifndef FORCELAYOUT_ZLIB_SHIM_H
#define FORCELAYOUT_ZLIB_SHIM_H

// zlib (Debian zlib1g-dev, which libwebsockets-dev already needs): crc32 for the records of a
// room's history file (docs/history-format.md).
#include <zlib.h>

#endif
