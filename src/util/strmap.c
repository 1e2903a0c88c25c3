/*
 * SPDX-License-Identifier: Apache-2.0
 * strmap.c - a string-keyed map with a keyed hash (see strmap.h).
 */
#include "common.h"
#include "strmap.h"

#include "compat.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

struct ndp_strmap_slot {
    const char *key;    /* NULL: empty */
    uint64_t hash;
    size_t value;
};

static uint64_t sip_key[2];
static bool sip_keyed;

/*
 * The hash key: 16 bytes of /dev/urandom (read unbuffered: a stdio stream
 * would draw 4 KiB), else from the clock and the process.
 */
static void key_once(void)
{
    int fd;
    bool keyed;

    if (sip_keyed)
        return;
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    keyed = fd >= 0 && read(fd, sip_key, sizeof(sip_key)) ==
                           (ssize_t)sizeof(sip_key);
    if (fd >= 0)
        close(fd);
    if (!keyed) {
        sip_key[0] = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        sip_key[1] = (uint64_t)(uintptr_t)&sip_key ^ (uint64_t)clock();
    }
    sip_keyed = true;
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static void sip_round(uint64_t v[4])
{
    v[0] += v[1]; v[1] = ROTL(v[1], 13); v[1] ^= v[0]; v[0] = ROTL(v[0], 32);
    v[2] += v[3]; v[3] = ROTL(v[3], 16); v[3] ^= v[2];
    v[0] += v[3]; v[3] = ROTL(v[3], 21); v[3] ^= v[0];
    v[2] += v[1]; v[1] = ROTL(v[1], 17); v[1] ^= v[2]; v[2] = ROTL(v[2], 32);
}

static unsigned char fold(unsigned char c, bool fold_case)
{
    return fold_case && c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* SipHash-1-3 of 'len' bytes (ASCII-folded when 'fold_case'), keyed per
 * process. */
static uint64_t siphash(const char *s, size_t len, bool fold_case)
{
    const unsigned char *p = (const unsigned char *)s;
    uint64_t v[4], m = 0;
    size_t i;

    key_once();
    v[0] = sip_key[0] ^ 0x736f6d6570736575ULL;
    v[1] = sip_key[1] ^ 0x646f72616e646f6dULL;
    v[2] = sip_key[0] ^ 0x6c7967656e657261ULL;
    v[3] = sip_key[1] ^ 0x7465646279746573ULL;
    for (i = 0; i < len; i++) {
        m |= (uint64_t)fold(p[i], fold_case) << (8 * (i % 8));
        if (i % 8 == 7) {
            v[3] ^= m;
            sip_round(v);
            v[0] ^= m;
            m = 0;
        }
    }
    m |= (uint64_t)len << 56;
    v[3] ^= m;
    sip_round(v);
    v[0] ^= m;
    v[2] ^= 0xff;
    sip_round(v);
    sip_round(v);
    sip_round(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static bool same(const struct ndp_strmap *m, const char *a, const char *b)
{
    return m->fold_case ? ndp_strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

/* The slot of 'key' (hash 'h'), or the empty slot where it would go. */
static struct ndp_strmap_slot *probe(const struct ndp_strmap *m,
                                     const char *key, uint64_t h)
{
    size_t mask = m->cap - 1, i = (size_t)h & mask;

    while (m->slots[i].key &&
           (m->slots[i].hash != h || !same(m, m->slots[i].key, key)))
        i = (i + 1) & mask;
    return &m->slots[i];
}

static void grow(struct ndp_strmap *m)
{
    struct ndp_strmap_slot *old = m->slots;
    size_t i, old_cap = m->cap;

    m->cap = m->cap ? m->cap * 2 : 16;
    m->slots = ndp_xcalloc(m->cap, sizeof(*m->slots));
    for (i = 0; i < old_cap; i++)
        if (old[i].key)
            *probe(m, old[i].key, old[i].hash) = old[i];
    free(old);
}

size_t ndp_strmap_add(struct ndp_strmap *m, const char *key, size_t value)
{
    uint64_t h = siphash(key, strlen(key), m->fold_case);
    struct ndp_strmap_slot *s;

    if (2 * (m->nr + 1) > m->cap)
        grow(m);
    s = probe(m, key, h);
    if (s->key)
        return s->value;
    s->key = key;
    s->hash = h;
    s->value = value;
    m->nr++;
    return value;
}

size_t ndp_strmap_find(const struct ndp_strmap *m, const char *key)
{
    const struct ndp_strmap_slot *s;

    if (!m->cap)
        return SIZE_MAX;
    s = probe(m, key, siphash(key, strlen(key), m->fold_case));
    return s->key ? s->value : SIZE_MAX;
}

void ndp_strmap_release(struct ndp_strmap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->nr = 0;
}
