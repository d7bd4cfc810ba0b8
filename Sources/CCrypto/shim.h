#ifndef FORCELAYOUT_CRYPTO_SHIM_H
#define FORCELAYOUT_CRYPTO_SHIM_H

// OpenSSL's libcrypto (Debian libssl-dev, which libwebsockets-dev already needs): SHA-256 for
// the digests of room links' secrets, HMAC-SHA-256 for the links derived from an owner's
// secret, and CRYPTO_memcmp to compare digests in constant time.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#endif
