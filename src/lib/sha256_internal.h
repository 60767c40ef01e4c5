/*
 * sha256_internal.h — SHA-256 (FIPS 180-4) of the bytes a sweep was read
 * from, for the provenance that law files record about the data they were
 * fitted on.
 */
#ifndef LOOPSCALE_SHA256_INTERNAL_H
#define LOOPSCALE_SHA256_INTERNAL_H

#include <stddef.h>
#include <stdint.h>


typedef struct sha256 {
    uint32_t state[8];
    uint64_t length; /* bytes hashed so far */
    unsigned char block[64];
    size_t used;
} sha256;

void ls_sha256_init(sha256 *h);
void ls_sha256_update(sha256 *h, const void *data, size_t len);
/* Finish and write 64 lower-case hex digits and a NUL. */
void ls_sha256_hex(sha256 *h, char hex[65]);

#endif
