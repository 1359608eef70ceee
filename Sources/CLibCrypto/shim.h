#ifndef ITEMAUDIT_CLIBCRYPTO_SHIM_H
#define ITEMAUDIT_CLIBCRYPTO_SHIM_H
// Only the system libcrypto's SHA-256 (Debian: libssl-dev); nothing is copied here. Its low-level
// calls hash into a context on the caller's stack: the log hashes two small buffers per record,
// where allocating a context per hash (as swift-crypto's API does) costs as much as the hash.
// OpenSSL 3 marks them deprecated in favour of EVP, which allocates too.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <stddef.h>
#include <openssl/sha.h>

static inline void itemaudit_sha256(const void *bytes, size_t count, unsigned char digest[32]) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, bytes, count);
    SHA256_Final(digest, &context);
}
#endif
