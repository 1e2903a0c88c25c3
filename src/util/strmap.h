/*
 * SPDX-License-Identifier: Apache-2.0
 * strmap.h - a map from strings to indexes, for the lookups by name that
 * must not grow with the square of the input (pools by name in impact.c).
 *
 * Open addressing over a table that is never more than half full, hashed
 * with SipHash-1-3 under a key drawn once per process from /dev/urandom,
 * so that names written by a pull request author cannot be chosen to
 * collide (hash flooding).  Lookups and insertions cost O(1) expected and
 * O(length of the key).  Nothing is iterated in hash order, so output
 * never depends on the key.
 *
 * Keys are borrowed: each must outlive the map and stay unchanged.  With
 * 'fold_case', keys compare ASCII case-insensitively.
 */
#ifndef NDP_STRMAP_H
#define NDP_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ndp_strmap_slot;

struct ndp_strmap {
    struct ndp_strmap_slot *slots;
    size_t cap, nr;     /* cap is 0 or a power of two */
    bool fold_case;
};

#define NDP_STRMAP_INIT(fold) { NULL, 0, 0, (fold) }

/*
 * Adds 'key' (borrowed) with 'value' unless the map holds it already.
 * Returns the value stored under 'key': 'value', or the earlier one.
 */
size_t ndp_strmap_add(struct ndp_strmap *m, const char *key, size_t value);

/* The value stored under 'key', or SIZE_MAX. */
size_t ndp_strmap_find(const struct ndp_strmap *m, const char *key);

/* Frees the table (not the keys); the map is empty and reusable. */
void ndp_strmap_release(struct ndp_strmap *m);

#endif
