/*
 * SPDX-License-Identifier: Apache-2.0
 * test_rules_simple.c - the patterns matched without PCRE2
 * (rules_simple.c): which ones are simple, and that every answer they give
 * is PCRE2's, on subjects drawn from each pattern (then changed a byte at
 * a time) and on the edge cases of each piece.
 */
#include "test_common.h"
#include "buf.h"
#include "error.h"
#include "rules.h"
#include "rules/rules_internal.h"

/* PCRE2 on 'subject', with the flags a rule set compiles 'src' with. */
static bool pcre2_says(const char *src, bool caseless, const char *subject)
{
    int code;
    PCRE2_SIZE offset;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED,
                                   caseless ? PCRE2_CASELESS : 0, &code,
                                   &offset, NULL);
    pcre2_match_data *md;
    bool hit;

    if (!re)
        fail_msg("'%s' does not compile", src);
    md = pcre2_match_data_create_from_pattern(re, NULL);
    hit = pcre2_match(re, (PCRE2_SPTR)subject, PCRE2_ZERO_TERMINATED, 0, 0,
                      md, NULL) >= 0;
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return hit;
}

static void simple_is(const char *src, bool want)
{
    struct ndp_simple *s = ndp_simple_compile(src, false);

    if ((s != NULL) != want)
        fail_msg("'%s' is %ssimple", src, s ? "" : "not ");
    ndp_simple_free(s);
}

static void only_these_pieces_are_simple(void **state)
{
    static const char *const simple[] = {
        "^$", "^a$", "^a\\.b$", "^x\\[\\d+\\]\\.y$", "^x\\[\\d\\]$",
        "^p\\[name=[^\\]]+\\]\\.q$", "^(a|b)$", "^a\\.(b|cd|)$",
        "^(a|ab)c$", "^[^.]+$", "^[^.]$", "^[^\\]\\\\]+\\]$", "^\\d+$",
        "^a-b_c/d=e,f:g;h'i\"j%k@l#m!n~o&p<q>r$", "^[^$|(){}*?+.]+$",
        "^[^a]+a$", "^[^\\\\]+\\\\$", "^a\\\\$",
    };
    static const char *const not_simple[] = {
        "a$", "^a", "", "^", "^a\\$", "^a\\\\\\$", "^a|b$", "^(a|b)+$",
        "^(?i)a$", "^[^\\]\\\\]+x$",
        "^(a(b)|c)$", "^a+$", "^a?$", "^a*$", "^a{2}$", "^.$", "^a.b$",
        "^\\w$", "^\\x41$", "^\\Qa\\E$", "^[ab]$", "^[^a-z]$",
        "^[^[:alpha:]]$", "^[^]]$", "^[^a]*$", "^\\d+?$", "^\\d++$",
        "^\\d*$", "^\\d+\\d$", "^\\d+1$", "^[^a]+b$", "^[^a]+(a|b)$",
        "^\\d+(x|)$", "^a$b$", "^a^b$", "^a]$", "^a}$", "^\xc3\xa9$",
        "^a\tb$", "^(a|\\d)$",
        /* Paths through the groups: 4 * 4 * 4 = 64 is the most. */
        "^(a|b|c|d)(a|b|c|d)(a|b|c|d)(a|b|c|d)$",
        /* More pieces than a simple pattern holds. */
        "^a(b)c(d)e(f)g(h)i(j)k(l)m(n)o(p)q$",
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(simple); i++)
        simple_is(simple[i], true);
    for (i = 0; i < NDP_ARRAY_SIZE(not_simple); i++)
        simple_is(not_simple[i], false);
    simple_is("^(a|b|c|d)(a|b|c|d)(a|b|c|d)$", true);
}

/* A small deterministic generator (the same subjects on every run). */
static uint32_t next_random(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7fff;
}

static const char alphabet[] = "aAbBzZ09_.[]=x\\|-$\n\r";

/* Skips the literal character at 'q' and returns it. */
static char take_literal(const char **q)
{
    char c = **q == '\\' ? (*q)[1] : **q;

    *q += **q == '\\' ? 2 : 1;
    return c;
}

/* A byte '[^...]' (at 'q', just after '^') takes, found by trying. */
static char class_byte(const char *q, uint32_t *seed)
{
    const char *end = q;
    char c;
    int tries;

    while (*end != ']')
        end += *end == '\\' ? 2 : 1;
    for (tries = 0; tries < 32; tries++) {
        const char *p = q;
        bool taken = true;

        c = alphabet[next_random(seed) % (sizeof(alphabet) - 3)];
        while (p < end)
            if (take_literal(&p) == c)
                taken = false;
        if (taken)
            return c;
    }
    return 'q';
}

/*
 * A subject the simple pattern 'src' matches, drawn piece by piece: a
 * group's alternative, digits and class bytes one to three times,
 * letters in either case.
 */
static void draw_subject(struct ndp_buf *out, const char *src, uint32_t *seed)
{
    const char *q = src + 1;

    while (*q && !(q[0] == '$' && !q[1])) {
        int times = 1 + (int)(next_random(seed) % 3), i;

        if (*q == '(') {
            const char *alts[64], *a;
            size_t n = 0;

            alts[n++] = ++q;
            while (*q != ')') {
                if (*q == '|' && n == NDP_ARRAY_SIZE(alts))
                    fail_msg("'%s': more alternatives than drawn", src);
                if (*q == '|')
                    alts[n++] = ++q;
                else
                    take_literal(&q);
            }
            q++;
            a = alts[next_random(seed) % n];
            while (*a != '|' && *a != ')')
                ndp_buf_addch(out, take_literal(&a));
        } else if (q[0] == '\\' && q[1] == 'd') {
            q += 2;
            times = *q == '+' ? times : 1;
            for (i = 0; i < times; i++)
                ndp_buf_addch(out, (char)('0' + next_random(seed) % 10));
            q += *q == '+';
        } else if (*q == '[') {
            const char *cls = q + 2;
            while (*q != ']')
                q += *q == '\\' ? 2 : 1;
            q++;
            times = *q == '+' ? times : 1;
            for (i = 0; i < times; i++)
                ndp_buf_addch(out, class_byte(cls, seed));
            q += *q == '+';
        } else {
            char c = take_literal(&q);
            if (next_random(seed) % 4 == 0 && c >= 'a' && c <= 'z')
                c = (char)(c - 32);
            ndp_buf_addch(out, c);
        }
    }
}

/* 'subject' with one byte changed, dropped or added at random. */
static void mutate(struct ndp_buf *subject, uint32_t *seed)
{
    size_t at = subject->len ? next_random(seed) % subject->len : 0;
    char c = alphabet[next_random(seed) % (sizeof(alphabet) - 1)];

    switch (next_random(seed) % 3) {
    case 0:
        if (subject->len)
            subject->buf[at] = c;
        break;
    case 1:
        if (subject->len) {
            memmove(subject->buf + at, subject->buf + at + 1,
                    subject->len - at);
            subject->len--;
        }
        break;
    default:
        ndp_buf_addch(subject, c);
        memmove(subject->buf + at + 1, subject->buf + at,
                subject->len - at - 1);
        subject->buf[at] = c;
        break;
    }
}

struct tally {
    size_t asked, matched, left_to_pcre2;
};

static void same_answer(const struct ndp_simple *s, const char *src,
                        bool caseless, const char *subject, struct tally *t)
{
    int got = ndp_simple_match(s, subject);

    t->asked++;
    if (got < 0) {
        /* Only a subject with a line end is left to PCRE2. */
        if (!strpbrk(subject, "\r\n"))
            fail_msg("'%s' left '%s' to PCRE2", src, subject);
        t->left_to_pcre2++;
        return;
    }
    if ((got == 1) != pcre2_says(src, caseless, subject))
        fail_msg("'%s'%s on '%s': %d, PCRE2 %d", src,
                 caseless ? " (caseless)" : "", subject, got,
                 pcre2_says(src, caseless, subject));
    t->matched += got == 1;
}

/* Drawn subjects and their mutations, for one pattern in both cases. */
static void compare_on_drawn_subjects(const char *src, struct tally *t)
{
    uint32_t seed = 7;
    int caseless, round, step;

    for (caseless = 0; caseless < 2; caseless++) {
        struct ndp_simple *s = ndp_simple_compile(src, caseless);

        if (!s)
            fail_msg("'%s' is not simple", src);
        for (round = 0; round < 60; round++) {
            struct ndp_buf subject = NDP_BUF_INIT;

            ndp_buf_adds(&subject, "");
            draw_subject(&subject, src, &seed);
            for (step = 0; step < 4; step++) {
                same_answer(s, src, caseless, subject.buf, t);
                mutate(&subject, &seed);
            }
            ndp_buf_release(&subject);
        }
        ndp_simple_free(s);
    }
}

static void answers_as_pcre2_on_drawn_subjects(void **state)
{
    static const char *const patterns[] = {
        "^$", "^a$", "^aB\\.b$", "^x\\[\\d+\\]\\.y$", "^x\\[\\d\\]$",
        "^p\\[name=[^\\]]+\\]\\.q$", "^(a|b)$", "^a\\.(b|cd|)$",
        "^(a|ab)b$", "^(ab|a)b$", "^[^.]+$", "^[^.]$", "^[^\\]\\\\]+\\]$",
        "^\\d+$", "^[^A]+$", "^(a|b|z)(a|b)_\\d+=[^\\[]+\\[$",
        "^[^\\\\]+\\\\$", "^[^\\|]+\\|$", "^(|Z)a$",
    };
    struct tally t = { 0, 0, 0 };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(patterns); i++)
        compare_on_drawn_subjects(patterns[i], &t);
    /* The comparisons met matches, misses and line ends alike. */
    assert_true(t.matched > t.asked / 10);
    assert_true(t.matched < t.asked - t.asked / 10);
    assert_true(t.left_to_pcre2 > 0);
}

/*
 * Every built-in pattern is simple, so a run never compiles one, and
 * answers as PCRE2 on subjects drawn from it.
 */
static void every_builtin_pattern_is_simple(void **state)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    struct tally t = { 0, 0, 0 };
    size_t i;

    (void)state;
    assert_int_equal(ndp_rules_load_embedded(&rs, &err), 0);
    for (i = 0; i < rs->nr_patterns; i++)
        compare_on_drawn_subjects(rs->patterns[i].src, &t);
    assert_true(t.matched > t.asked / 10);
    ndp_ruleset_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(only_these_pieces_are_simple),
        cmocka_unit_test(answers_as_pcre2_on_drawn_subjects),
        cmocka_unit_test(every_builtin_pattern_is_simple),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
