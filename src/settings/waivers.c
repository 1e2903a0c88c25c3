/*
 * SPDX-License-Identifier: Apache-2.0
 * waivers.c - waivers matched to findings through indexes (see waivers.h).
 */
#include "common.h"
#include "waivers.h"
#include "buf.h"
#include "config.h"
#include "finding.h"
#include "strmap.h"

/* Waivers with one and the same condition. */
struct group {
    const struct ndp_waiver *w; /* the first of them, for its condition */
    size_t best;                /* first of them in force, or SIZE_MAX */
    size_t first;               /* first finding covered, or SIZE_MAX */
    size_t stamp;               /* last finding it was met for, plus one */
    bool glob;                  /* its match is a glob: in the run index */
};

/* The longest literal run a glob is indexed by (a window of it). */
#define RUN_MAX 16

/* Globs indexed under one run. */
struct run_list {
    size_t *groups, nr, alloc;
};

struct index {
    struct group *groups;
    size_t nr, alloc;
    size_t *member_of;          /* per waiver: its group */
    struct ndp_strmap by_cond;  /* condition -> group */
    struct ndp_strmap plain;    /* rule/category (no match) -> group */
    struct ndp_strmap literal;  /* rule/category/id -> group */
    struct ndp_strmap runs[2];  /* run (exact, folded) -> run list */
    struct run_list *lists;
    size_t nr_lists, alloc_lists;
    unsigned run_lengths;       /* bit k: some glob's run has length k */
    size_t *unanchored, nr_unanchored, alloc_unanchored;
    char **keys;                /* owned keys of the maps */
    size_t nr_keys, alloc_keys;
};

static bool is_glob(const char *s)
{
    return strpbrk(s, "*?[\\") != NULL;
}

/* ARM ids compare case-insensitively (ndp_glob_match): fold those. */
static void add_id(struct ndp_buf *b, const char *id, size_t len)
{
    size_t i;

    ndp_buf_addf(b, "%zu:", len);
    for (i = 0; i < len; i++) {
        char c = id[i];
        ndp_buf_addch(b, id[0] == '/' && c >= 'A' && c <= 'Z'
                             ? (char)(c + 32) : c);
    }
}

/* "len:text", or "*" for any; the rule folded (it compares so). */
static void add_part(struct ndp_buf *b, const char *s, bool fold)
{
    size_t i;

    if (!s) {
        ndp_buf_adds(b, "*|");
        return;
    }
    ndp_buf_addf(b, "%zu:", strlen(s));
    for (i = 0; s[i]; i++)
        ndp_buf_addch(b, fold && s[i] >= 'A' && s[i] <= 'Z'
                             ? (char)(s[i] + 32) : s[i]);
    ndp_buf_addch(b, '|');
}

static const char *keep(struct index *ix, struct ndp_buf *b)
{
    NDP_GROW(ix->keys, ix->alloc_keys, ix->nr_keys + 1);
    ix->keys[ix->nr_keys] = ndp_buf_detach(b);
    return ix->keys[ix->nr_keys++];
}

static void fold_into(char *out, const char *s, size_t len, bool fold)
{
    size_t i;

    for (i = 0; i < len; i++)
        out[i] = fold && s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32)
                                                   : s[i];
    out[len] = '\0';
}

/*
 * The literal runs of 'pattern' that every match must contain, cut to
 * RUN_MAX: the text between wildcards, brackets and escapes.  Stops at a
 * '[' whose end ndp_glob_bracket_end() does not know, where what follows
 * is not sure.  Returns how many went into 'runs' (at most 'max'), as
 * (start, length) pairs.
 */
static size_t literal_runs(size_t runs[][2], size_t max, const char *pattern)
{
    size_t i = 0, n = 0, start = 0;

    for (;;) {
        char c = pattern[i];
        if (c && !strchr("*?[\\", c)) {
            i++;
            continue;
        }
        if (i > start && n < max) {
            runs[n][0] = start;
            runs[n][1] = i - start > RUN_MAX ? RUN_MAX : i - start;
            n++;
        }
        if (!c)
            return n;
        if (c == '\\')
            i += pattern[i + 1] ? 2 : 1;
        else if (c == '[') {
            const char *end = ndp_glob_bracket_end(pattern + i);
            if (!end)
                return n;
            i = (size_t)(end - pattern);
        } else {
            i++;
        }
        start = i;
    }
}

/* How many glob groups have each run: the rarest run is the index. */
static size_t run_count(struct ndp_strmap *counts, size_t **nr, size_t *alloc,
                        struct index *ix, const char *pattern,
                        const size_t run[2], bool add)
{
    struct ndp_buf b = NDP_BUF_INIT;
    size_t k, before;

    ndp_buf_add(&b, pattern + run[0], run[1]);
    if (!add) {
        k = ndp_strmap_find(counts, b.buf);
        ndp_buf_release(&b);
        return k == SIZE_MAX ? 0 : (*nr)[k];
    }
    before = counts->nr;
    k = ndp_strmap_add(counts, keep(ix, &b), before);
    NDP_GROW(*nr, *alloc, k + 1);
    if (counts->nr > before)
        (*nr)[k] = 0;
    (*nr)[k]++;
    return (*nr)[k];
}

static void add_to_run(struct index *ix, int folded, const char *run,
                       size_t g)
{
    struct ndp_buf b = NDP_BUF_INIT;
    struct run_list *l;
    size_t k;

    ndp_buf_adds(&b, run);
    k = ndp_strmap_add(&ix->runs[folded], keep(ix, &b), ix->nr_lists);
    if (k == ix->nr_lists) {
        NDP_GROW(ix->lists, ix->alloc_lists, ix->nr_lists + 1);
        memset(&ix->lists[k], 0, sizeof(ix->lists[k]));
        ix->nr_lists++;
    }
    l = &ix->lists[k];
    NDP_GROW(l->groups, l->alloc, l->nr + 1);
    l->groups[l->nr++] = g;
}

/*
 * Files every glob group under its rarest literal run (exact, for ids
 * compared as they are, and folded, for ARM ids), or as unanchored when
 * it has none.
 */
static void index_globs(struct index *ix, const size_t *globs, size_t nr)
{
    struct ndp_strmap counts = NDP_STRMAP_INIT(false);
    size_t *count = NULL, alloc = 0, i, k, runs[64][2];
    char run[RUN_MAX + 1];

    for (i = 0; i < nr; i++) {
        const char *p = ix->groups[globs[i]].w->match;
        size_t n = literal_runs(runs, 64, p);
        for (k = 0; k < n; k++)
            run_count(&counts, &count, &alloc, ix, p, runs[k], true);
    }
    for (i = 0; i < nr; i++) {
        const char *p = ix->groups[globs[i]].w->match;
        size_t n = literal_runs(runs, 64, p), best = 0, best_count = SIZE_MAX;
        for (k = 0; k < n; k++) {
            size_t c = run_count(&counts, &count, &alloc, ix, p, runs[k],
                                 false);
            if (c < best_count ||
                (c == best_count && runs[k][1] > runs[best][1])) {
                best = k;
                best_count = c;
            }
        }
        if (!n) {
            NDP_GROW(ix->unanchored, ix->alloc_unanchored,
                     ix->nr_unanchored + 1);
            ix->unanchored[ix->nr_unanchored++] = globs[i];
            continue;
        }
        ix->run_lengths |= 1u << runs[best][1];
        fold_into(run, p + runs[best][0], runs[best][1], false);
        add_to_run(ix, 0, run, globs[i]);
        fold_into(run, p + runs[best][0], runs[best][1], true);
        add_to_run(ix, 1, run, globs[i]);
    }
    free(count);
    ndp_strmap_release(&counts);
}

/* The group of waiver 'w' (index 'i'), new when its condition is. */
static void add_waiver(struct index *ix, const struct ndp_waiver *w,
                       size_t i, int64_t at)
{
    struct ndp_buf key = NDP_BUF_INIT;
    size_t g;

    add_part(&key, w->rule, true);
    add_part(&key, w->category, false);
    add_part(&key, w->match, false);
    g = ndp_strmap_add(&ix->by_cond, keep(ix, &key), ix->nr);
    if (g == ix->nr) {
        NDP_GROW(ix->groups, ix->alloc, ix->nr + 1);
        ix->groups[g].w = w;
        ix->groups[g].best = SIZE_MAX;
        ix->groups[g].first = SIZE_MAX;
        ix->groups[g].stamp = 0;
        ix->groups[g].glob = false;
        ix->nr++;
        add_part(&key, w->rule, true);
        add_part(&key, w->category, false);
        if (w->match && is_glob(w->match))
            ix->groups[g].glob = true; /* indexed once all are in */
        else if (w->match)
            add_id(&key, w->match, strlen(w->match));
        if (!w->match || !is_glob(w->match))
            ndp_strmap_add(w->match ? &ix->literal : &ix->plain,
                           keep(ix, &key), g);
        ndp_buf_release(&key);
    }
    ix->member_of[i] = g;
    if (w->expires >= at && ix->groups[g].best == SIZE_MAX)
        ix->groups[g].best = i;
}

static void build(struct index *ix, const struct ndp_config *config,
                  int64_t at)
{
    size_t i, nr = 0, *globs;

    memset(ix, 0, sizeof(*ix));
    ix->member_of = ndp_xcalloc(config->nr_waivers ? config->nr_waivers : 1,
                                sizeof(*ix->member_of));
    for (i = 0; i < config->nr_waivers; i++)
        add_waiver(ix, &config->waivers[i], i, at);
    globs = ndp_xcalloc(ix->nr ? ix->nr : 1, sizeof(*globs));
    for (i = 0; i < ix->nr; i++) {
        if (ix->groups[i].glob)
            globs[nr++] = i;
    }
    index_globs(ix, globs, nr);
    free(globs);
}

static void release(struct index *ix)
{
    size_t i;

    for (i = 0; i < ix->nr_keys; i++)
        free(ix->keys[i]);
    for (i = 0; i < ix->nr_lists; i++)
        free(ix->lists[i].groups);
    free(ix->keys);
    free(ix->lists);
    free(ix->unanchored);
    free(ix->groups);
    free(ix->member_of);
    ndp_strmap_release(&ix->by_cond);
    ndp_strmap_release(&ix->plain);
    ndp_strmap_release(&ix->literal);
    ndp_strmap_release(&ix->runs[0]);
    ndp_strmap_release(&ix->runs[1]);
}

/* What finding 'j' meets: the best waiver so far, the groups' firsts. */
struct visit {
    const struct ndp_findings *all;
    const struct ndp_finding *f;
    size_t j, best;
};

static bool covers(const struct ndp_waiver *w, const struct ndp_finding *f)
{
    if (w->rule && ndp_strcasecmp(w->rule, f->rule_id) != 0)
        return false;
    if (w->category && strcmp(w->category, f->category) != 0)
        return false;
    const char *ids[4];
    size_t i, n = ndp_finding_match_ids(f, ids);

    if (!w->match)
        return true;
    for (i = 0; i < n; i++)
        if (ndp_glob_match(w->match, ids[i]))
            return true;
    return false;
}

/* Group 'g' may cover the finding; 'checked' when it is known to. */
static void meet(struct index *ix, struct visit *v, size_t g, bool checked)
{
    struct group *gr = &ix->groups[g];

    if (gr->stamp == v->j + 1)
        return; /* met already for this finding */
    gr->stamp = v->j + 1;
    if (!checked && !covers(gr->w, v->f))
        return;
    if (gr->first == SIZE_MAX ||
        ndp_finding_compare(v->f, &v->all->items[gr->first]) < 0)
        gr->first = v->j;
    if (gr->best < v->best)
        v->best = gr->best;
}

/* The four rule/category keys a finding can meet, in 'keys'. */
static void rule_keys(struct ndp_buf keys[4], const struct ndp_finding *f)
{
    size_t k;

    for (k = 0; k < 4; k++) {
        ndp_buf_reset(&keys[k]);
        add_part(&keys[k], k & 1 ? NULL : f->rule_id, true);
        add_part(&keys[k], k & 2 ? NULL : f->category, false);
    }
}

static void meet_literals(struct index *ix, struct visit *v,
                          struct ndp_buf keys[4], const char *id)
{
    struct ndp_buf key = NDP_BUF_INIT;
    size_t k;

    for (k = 0; k < 4; k++) {
        size_t g;
        ndp_buf_reset(&key);
        ndp_buf_add(&key, keys[k].buf, keys[k].len);
        add_id(&key, id, strlen(id));
        g = ndp_strmap_find(&ix->literal, key.buf);
        if (g != SIZE_MAX)
            meet(ix, v, g, true);
    }
    ndp_buf_release(&key);
}

/*
 * Globs whose indexed run occurs in 'id': every window of every indexed
 * length is looked up, O(length of 'id' * RUN_MAX^2) at worst.
 */
static void meet_globs(struct index *ix, struct visit *v, const char *id)
{
    bool fold = id[0] == '/';
    size_t len = strlen(id), k, i, j;
    char window[RUN_MAX + 1];

    for (k = 1; k <= RUN_MAX; k++) {
        if (!(ix->run_lengths & (1u << k)))
            continue;
        for (i = 0; i + k <= len; i++) {
            size_t l;
            fold_into(window, id + i, k, fold);
            l = ndp_strmap_find(&ix->runs[fold], window);
            for (j = 0; l != SIZE_MAX && j < ix->lists[l].nr; j++)
                meet(ix, v, ix->lists[l].groups[j], false);
        }
    }
}

static size_t visit(struct index *ix, const struct ndp_findings *all,
                    size_t j)
{
    struct ndp_buf keys[4] = { NDP_BUF_INIT, NDP_BUF_INIT, NDP_BUF_INIT,
                               NDP_BUF_INIT };
    const struct ndp_finding *f = &all->items[j];
    struct visit v = { all, f, j, SIZE_MAX };
    const char *ids[4];
    size_t k, nr_ids = ndp_finding_match_ids(f, ids);

    rule_keys(keys, f);
    for (k = 0; k < 4; k++) {
        size_t g = ndp_strmap_find(&ix->plain, keys[k].buf);
        if (g != SIZE_MAX)
            meet(ix, &v, g, true);
    }
    for (k = 0; k < nr_ids; k++) {
        meet_literals(ix, &v, keys, ids[k]);
        meet_globs(ix, &v, ids[k]);
    }
    for (k = 0; k < ix->nr_unanchored; k++)
        meet(ix, &v, ix->unanchored[k], false);
    for (k = 0; k < 4; k++)
        ndp_buf_release(&keys[k]);
    return v.best;
}

void ndp_waivers_match(size_t *waiver_of, size_t *first_of,
                       const struct ndp_findings *findings,
                       const struct ndp_config *config, int64_t at)
{
    struct index ix;
    size_t i;

    build(&ix, config, at);
    for (i = 0; i < findings->nr; i++)
        waiver_of[i] = visit(&ix, findings, i);
    for (i = 0; i < config->nr_waivers; i++)
        first_of[i] = ix.groups[ix.member_of[i]].first;
    release(&ix);
}
