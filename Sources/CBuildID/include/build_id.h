#ifndef FORCELAYOUT_BUILD_ID_H
#define FORCELAYOUT_BUILD_ID_H

#include <stddef.h>

/// Copies the running executable's GNU build ID (its .note.gnu.build-id) into `out`, at most
/// `capacity` bytes; returns its length, 0 when it has none.
size_t forcelayout_build_id(unsigned char *out, size_t capacity);

#endif
