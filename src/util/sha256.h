/*
 * SPDX-License-Identifier: Apache-2.0
 * sha256.h - SHA-256 of a buffer, as hex: the hash behind the stable
 * fingerprints of findings (report_util.c) and of the baseline (triage.c).
 */
#ifndef NDP_SHA256_H
#define NDP_SHA256_H

#include <stddef.h>

#define NDP_SHA256_HEX_LEN 64

/*
 * Writes the SHA-256 of the 'len' bytes at 'data' (borrowed) to 'out' as
 * 64 lower-case hex digits and a NUL.
 */
void ndp_sha256_hex(char out[NDP_SHA256_HEX_LEN + 1], const void *data,
                    size_t len);

#endif
