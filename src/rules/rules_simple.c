/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_simple.c - anchored patterns simple enough to match without PCRE2.
 *
 * The watches of the built-in rules are written '^literal$' or with a few
 * plain pieces: '\d+' (an index), '[^\]]+' (a pool's name) and a group of
 * literal alternatives ('(enableVTPM|enableSecureBoot)').  Compiling such
 * a pattern with PCRE2 costs more than a small plan's whole walk, so a
 * pattern made only of these pieces is matched here, with PCRE2's
 * meaning: ASCII case folded for a caseless pattern, bytes as characters
 * (no UTF mode), '\d' the ASCII digits.  Anything else, and any subject
 * with a line end ('$' may match before one; PCRE2's newline convention
 * decides), is left to PCRE2.  A repeated piece must be followed by a
 * byte it cannot take, so that taking all it can is the only way to
 * match, and the groups' alternatives multiply to a small number of
 * paths, so a match costs a pass over the subject per path at most.
 * The answer is PCRE2's without its match limits, which only stop a
 * match that runs away (and then count as no match): a simple pattern
 * cannot.  test_rules_simple.c and fuzz_pattern.c compare every answer
 * with PCRE2's.
 */
#include "common.h"
#include "rules_internal.h"

/* Pieces a simple pattern holds at most, and paths through its groups. */
#define MAX_PIECES 16
#define MAX_PATHS 64

enum piece_kind {
    PIECE_TEXT,   /* the bytes 'text' */
    PIECE_DIGIT,  /* \d */
    PIECE_NOT_IN, /* [^...]: a byte not among 'text' */
    PIECE_CHOICE  /* (a|b|...): one of the NUL-separated strings of 'text' */
};

struct piece {
    enum piece_kind kind;
    bool repeat;      /* '+' after it: one or more */
    const char *text; /* in the pattern's store */
    size_t len;       /* TEXT, NOT_IN: bytes; CHOICE: alternatives */
};

struct ndp_simple {
    bool caseless;
    size_t nr;
    struct piece pieces[MAX_PIECES];
    char store[]; /* the pieces' bytes, never longer than the source */
};

/* The pattern being read, and where its pieces' bytes go. */
struct reader {
    const char *q;
    struct ndp_simple *out;
    size_t used; /* of out->store */
    bool bad;    /* not simple */
};

static bool is_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

static bool is_quantifier(char c)
{
    return c == '?' || c == '*' || c == '+' || c == '{';
}

/* Printable ASCII: what a simple piece may hold (no folding questions). */
static bool is_plain_byte(unsigned char c)
{
    return c >= 0x20 && c < 0x7f;
}

/*
 * One literal character at the cursor: a plain one, or '\' and a
 * printable character that is neither a letter nor a digit.  'meta' are
 * the characters that are not literal where the cursor is.  Returns the
 * byte, or -1 (the cursor unmoved) when there is none.
 */
static int literal(struct reader *r, const char *meta)
{
    unsigned char c = (unsigned char)r->q[0];

    if (c == '\\') {
        unsigned char e = (unsigned char)r->q[1];

        if (!is_plain_byte(e) || is_alnum(e))
            return -1;
        r->q += 2;
        return e;
    }
    if (!c || !is_plain_byte(c) || strchr(meta, c))
        return -1;
    r->q++;
    return c;
}

static void store(struct reader *r, char c)
{
    r->out->store[r->used++] = c;
}

static struct piece *new_piece(struct reader *r, enum piece_kind kind)
{
    struct piece *p;

    if (r->out->nr == MAX_PIECES) {
        r->bad = true;
        return NULL;
    }
    p = &r->out->pieces[r->out->nr++];
    p->kind = kind;
    p->repeat = false;
    p->text = r->out->store + r->used;
    p->len = 0;
    return p;
}

/* Plain characters outside groups and classes. */
#define META "^$.|?*+()[]{}\\"

/* A run of literal characters, none of them quantified. */
static void read_text(struct reader *r)
{
    struct piece *p = new_piece(r, PIECE_TEXT);
    int c;

    while (p && (c = literal(r, META)) >= 0) {
        if (is_quantifier(r->q[0])) {
            r->bad = true;
            return;
        }
        store(r, (char)c);
        p->len++;
    }
}

/* '(' literal alternatives separated by '|' ')', no quantifier after. */
static void read_choice(struct reader *r)
{
    struct piece *p = new_piece(r, PIECE_CHOICE);
    int c;

    if (!p || *++r->q == '?') {
        r->bad = true;
        return;
    }
    for (;;) {
        while ((c = literal(r, META)) >= 0)
            store(r, (char)c);
        store(r, '\0');
        p->len++;
        if (*r->q != '|')
            break;
        r->q++;
    }
    if (*r->q != ')' || is_quantifier(r->q[1])) {
        r->bad = true;
        return;
    }
    r->q++;
}

/* '[^' literal bytes ']' (no ranges, no POSIX classes), then '+' or not. */
static void read_class(struct reader *r)
{
    struct piece *p = new_piece(r, PIECE_NOT_IN);
    int c;

    if (!p || r->q[1] != '^') {
        r->bad = true;
        return;
    }
    r->q += 2;
    while ((c = literal(r, "[]-^\\")) >= 0) {
        store(r, (char)c);
        p->len++;
    }
    if (*r->q != ']' || !p->len) {
        r->bad = true;
        return;
    }
    r->q++;
}

/* '\d', then '+' or not. */
static void read_digit(struct reader *r)
{
    if (new_piece(r, PIECE_DIGIT))
        r->q += 2;
}

/* '+' after a class or \d; any other quantifier is PCRE2's. */
static void read_repeat(struct reader *r)
{
    struct piece *p = &r->out->pieces[r->out->nr - 1];

    if (r->q[0] == '+' && !is_quantifier(r->q[1])) {
        p->repeat = true;
        r->q++;
    } else if (is_quantifier(r->q[0])) {
        r->bad = true;
    }
}

static void read_piece(struct reader *r)
{
    if (r->q[0] == '(') {
        read_choice(r);
    } else if (r->q[0] == '[') {
        read_class(r);
        if (!r->bad)
            read_repeat(r);
    } else if (r->q[0] == '\\' && r->q[1] == 'd') {
        read_digit(r);
        if (!r->bad)
            read_repeat(r);
    } else {
        read_text(r);
        if (!r->bad && !r->out->pieces[r->out->nr - 1].len)
            r->bad = true; /* a character no piece reads */
    }
}

static char fold(const struct ndp_simple *s, char c)
{
    if (s->caseless && c >= 'A' && c <= 'Z')
        return (char)(c + ('a' - 'A'));
    return c;
}

/* Does piece 'p' (a \d or a class) take the byte 'c'? */
static bool class_takes(const struct ndp_simple *s, const struct piece *p,
                        char c)
{
    size_t i;

    if (p->kind == PIECE_DIGIT)
        return c >= '0' && c <= '9';
    for (i = 0; i < p->len; i++)
        if (fold(s, p->text[i]) == fold(s, c))
            return false;
    return c != '\0';
}

/* The alternative after 'alt' in a choice's store. */
static const char *next_alternative(const char *alt)
{
    return alt + strlen(alt) + 1;
}

/*
 * Could the piece after a repeated one begin with a byte the repeated one
 * takes?  Then taking all it can might not be the only match: PCRE2's.
 */
static bool boundary_unsure(const struct ndp_simple *s, const struct piece *rep,
                            const struct piece *next)
{
    const char *alt = next->text;
    size_t i;

    switch (next->kind) {
    case PIECE_TEXT:
        return class_takes(s, rep, next->text[0]);
    case PIECE_CHOICE:
        for (i = 0; i < next->len; i++, alt = next_alternative(alt))
            if (!*alt || class_takes(s, rep, *alt))
                return true;
        return false;
    default:
        return true;
    }
}

/* Repeats followed by what they cannot take, and few paths. */
static bool matchable(const struct ndp_simple *s)
{
    size_t i, paths = 1;

    for (i = 0; i < s->nr; i++) {
        const struct piece *p = &s->pieces[i];

        if (p->repeat && i + 1 < s->nr &&
            boundary_unsure(s, p, &s->pieces[i + 1]))
            return false;
        if (p->kind == PIECE_CHOICE && (paths *= p->len) > MAX_PATHS)
            return false;
    }
    return true;
}

/* Does 'src' ('n' bytes) begin with '^' and end with a '$' not escaped? */
static bool anchored(const char *src, size_t n)
{
    size_t slashes = 0;

    if (n < 2 || src[0] != '^' || src[n - 1] != '$')
        return false;
    while (slashes < n - 2 && src[n - 2 - slashes] == '\\')
        slashes++;
    return slashes % 2 == 0;
}

struct ndp_simple *ndp_simple_compile(const char *src, bool caseless)
{
    size_t n = strlen(src);
    struct reader r = { src + 1, NULL, 0, false };

    if (!anchored(src, n))
        return NULL;
    r.out = ndp_xcalloc(1, sizeof(*r.out) + n);
    r.out->caseless = caseless;
    while (!r.bad && r.q < src + n - 1)
        read_piece(&r);
    if (r.bad || r.q != src + n - 1 || !matchable(r.out)) {
        free(r.out);
        return NULL;
    }
    return r.out;
}

void ndp_simple_free(struct ndp_simple *s)
{
    free(s);
}

static bool text_at(const struct ndp_simple *s, const char *subject,
                    const char *text, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (!subject[i] || fold(s, subject[i]) != fold(s, text[i]))
            return false;
    return true;
}

/* Do pieces 'i'.. match all of 'subject'? */
static bool match_from(const struct ndp_simple *s, size_t i,
                       const char *subject)
{
    const struct piece *p;
    const char *alt;
    size_t k;

    for (; i < s->nr; i++) {
        p = &s->pieces[i];
        switch (p->kind) {
        case PIECE_TEXT:
            if (!text_at(s, subject, p->text, p->len))
                return false;
            subject += p->len;
            break;
        case PIECE_CHOICE:
            for (k = 0, alt = p->text; k < p->len;
                 k++, alt = next_alternative(alt))
                if (text_at(s, subject, alt, strlen(alt)) &&
                    match_from(s, i + 1, subject + strlen(alt)))
                    return true;
            return false;
        default:
            if (!class_takes(s, p, *subject))
                return false;
            subject++;
            /* All it can: the next piece begins with a byte it cannot
             * take (matchable()). */
            while (p->repeat && class_takes(s, p, *subject))
                subject++;
            break;
        }
    }
    return !*subject;
}

int ndp_simple_match(const struct ndp_simple *s, const char *subject)
{
    if (strpbrk(subject, "\r\n"))
        return -1;
    return match_from(s, 0, subject);
}
