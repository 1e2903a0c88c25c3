/*
 * report_util.c - helpers the CI reporters share: SHA-256 (FIPS 180-4,
 * written here so that fingerprints need no new library), paths relative
 * to --source-root, finding fingerprints and lines, and the one-line
 * description of a finding.
 */
#include "common.h"
#include "report_util.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "report.h"

#include <inttypes.h>

/* ---- SHA-256 ---- */

struct sha256 {
    uint32_t h[8];
    unsigned char block[64];
    size_t used;     /* bytes in 'block' */
    uint64_t total;  /* bytes hashed */
};

static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void sha256_compress(struct sha256 *s)
{
    uint32_t w[64], v[8], t1, t2;
    unsigned i;

    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)s->block[4 * i] << 24 |
               (uint32_t)s->block[4 * i + 1] << 16 |
               (uint32_t)s->block[4 * i + 2] << 8 | s->block[4 * i + 3];
    for (i = 16; i < 64; i++)
        w[i] = (rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)) +
               w[i - 7] +
               (rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^
                (w[i - 15] >> 3)) +
               w[i - 16];
    memcpy(v, s->h, sizeof(v));
    for (i = 0; i < 64; i++) {
        t1 = v[7] + (rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25)) +
             ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha256_k[i] + w[i];
        t2 = (rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22)) +
             ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof(v[0]));
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (i = 0; i < 8; i++)
        s->h[i] += v[i];
}

static void sha256_add(struct sha256 *s, const unsigned char *p, size_t len)
{
    s->total += len;
    while (len) {
        size_t n = 64 - s->used < len ? 64 - s->used : len;
        memcpy(s->block + s->used, p, n);
        s->used += n;
        p += n;
        len -= n;
        if (s->used == 64) {
            sha256_compress(s);
            s->used = 0;
        }
    }
}

void ndp_sha256_hex(char out[NDP_SHA256_HEX_LEN + 1], const void *data,
                    size_t len)
{
    static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                    0xa54ff53a, 0x510e527f, 0x9b05688c,
                                    0x1f83d9ab, 0x5be0cd19 };
    static const unsigned char pad[64] = { 0x80 };
    unsigned char length[8];
    struct sha256 s;
    uint64_t bits;
    unsigned i;

    memcpy(s.h, iv, sizeof(iv));
    s.used = 0;
    s.total = 0;
    sha256_add(&s, data, len);
    bits = s.total * 8;
    for (i = 0; i < 8; i++)
        length[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_add(&s, pad, s.used < 56 ? 56 - s.used : 120 - s.used);
    sha256_add(&s, length, sizeof(length));
    for (i = 0; i < 8; i++)
        snprintf(out + 8 * i, 9, "%08" PRIx32, s.h[i]);
}

/* ---- paths ---- */

/* 'path' with its directory resolved (symlinks included, as getcwd()
 * resolves them), or NULL.  Returns an owned string. */
static char *resolve(const char *path, bool is_dir)
{
    const char *slash = is_dir ? NULL : strrchr(path, '/');
    struct ndp_buf b = NDP_BUF_INIT;
    char *dir, *real;

    if (is_dir)
        ndp_buf_adds(&b, path);
    else if (slash)
        ndp_buf_add(&b, path, slash == path ? 1 : (size_t)(slash - path));
    else
        ndp_buf_adds(&b, ".");
    dir = ndp_buf_detach(&b);
    real = realpath(dir, NULL);
    free(dir);
    if (!real || is_dir)
        return real;
    ndp_buf_adds(&b, real);
    if (strcmp(real, "/") != 0)
        ndp_buf_addch(&b, '/');
    ndp_buf_adds(&b, slash ? slash + 1 : path);
    free(real);
    return ndp_buf_detach(&b);
}

int ndp_report_relative_path(struct ndp_buf *out, const char *input,
                             const char *source_root)
{
    char *file, *root;
    size_t n;
    int rc = 0;

    if (strcmp(input, "-") == 0) {
        ndp_buf_adds(out, "-");
        return -1;
    }
    file = resolve(input, false);
    root = resolve(source_root ? source_root : ".", true);
    if (!file) {
        ndp_buf_adds(out, input);
        rc = input[0] != '/';
        goto out;
    }
    n = root ? strlen(root) : 0;
    if (root && strncmp(file, root, n) == 0 &&
        (file[n] == '/' || (n == 1 && root[0] == '/'))) {
        ndp_buf_adds(out, file + n + (file[n] == '/'));
        rc = 1;
    } else {
        ndp_buf_adds(out, file);
    }
out:
    free(file);
    free(root);
    return rc;
}

/* ---- findings ---- */

void ndp_report_fingerprint(struct ndp_buf *out, const struct ndp_finding *f,
                            const char *where)
{
    const char *fields[6];
    char after[NDP_SHA256_HEX_LEN + 1], hex[NDP_SHA256_HEX_LEN + 1];
    struct ndp_buf text = NDP_BUF_INIT;
    size_t i;

    ndp_sha256_hex(after, f->after, strlen(f->after));
    fields[0] = f->rule_id;
    fields[1] = where;
    fields[2] = f->cluster;
    fields[3] = f->resource;
    fields[4] = f->path;
    fields[5] = after;
    ndp_buf_adds(&text, "ndplint/v1");
    /* NUL-separated, so that no two field lists hash the same text. */
    for (i = 0; i < NDP_ARRAY_SIZE(fields); i++) {
        ndp_buf_add(&text, "", 1);
        ndp_buf_adds(&text, fields[i]);
    }
    ndp_sha256_hex(hex, text.buf, text.len);
    ndp_buf_adds(out, hex);
    ndp_buf_release(&text);
}

long ndp_report_finding_line(const struct ndp_report *r,
                             const struct ndp_finding *f)
{
    /* The evaluator filled it from the resource's change, by index. */
    (void)r;
    return f->line > 0 ? f->line : 0;
}

void ndp_report_describe(struct ndp_buf *out, const struct ndp_finding *f,
                         const char *arrow)
{
    ndp_buf_addf(out, "%s: ", ndp_verdict_name(f->verdict));
    if (*f->path) {
        ndp_buf_adds(out, f->path);
        if (strcmp(f->before, "null") != 0 || strcmp(f->after, "null") != 0)
            ndp_buf_addf(out, " %s %s %s", f->before, arrow, f->after);
        ndp_buf_adds(out, " in ");
    }
    if (strcmp(f->resource, f->cluster) != 0)
        ndp_buf_addf(out, "%s (cluster %s)", f->resource, f->cluster);
    else
        ndp_buf_addf(out, "cluster %s", f->cluster);
}

void ndp_report_describe_all(struct ndp_buf *out, const struct ndp_finding *f,
                             const char *arrow)
{
    const char *msg = f->message ? f->message : "";

    ndp_report_describe(out, f, arrow);
    if (!*msg)
        return;
    ndp_buf_adds(out, ". ");
    if (*msg >= 'a' && *msg <= 'z')
        ndp_buf_addch(out, (char)(*msg++ - 'a' + 'A'));
    ndp_buf_adds(out, msg);
}

size_t ndp_report_failing(const struct ndp_report *r)
{
    size_t i, n = 0;

    if (r->fail_on == NDP_SEVERITY_NEVER)
        return 0;
    for (i = 0; i < r->findings->nr; i++)
        if ((int)r->findings->items[i].severity <= r->fail_on &&
            !r->findings->items[i].suppression)
            n++;
    return n;
}
