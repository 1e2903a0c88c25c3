/*
 * SPDX-License-Identifier: Apache-2.0
 * source_scan.c - the stretches of a .tf file or template that are not
 * code (see source_scan.h).
 *
 * The scanner walks the text once.  A string is one stretch from its
 * opening quote to its closing one, interpolations included: what they
 * hold is never a resource block or an ignore comment, but they may hold
 * quotes of their own, so they are followed with a small stack of open
 * strings and braces to find where the outer string really ends.
 */
#include "common.h"
#include "source_scan.h"
#include "compat.h"

#include <ctype.h>

struct scanner {
    const char *text;
    size_t len, i;
    enum ndp_source_lang lang;
    struct ndp_source_map *out;
};

static void add_span(struct scanner *s, size_t start, size_t end,
                     enum ndp_source_kind kind)
{
    struct ndp_source_map *m = s->out;

    if (end <= start)
        return;
    NDP_GROW(m->spans, m->alloc, m->nr + 1);
    m->spans[m->nr].start = start;
    m->spans[m->nr].end = end;
    m->spans[m->nr++].kind = kind;
}

static bool at(const struct scanner *s, size_t i, const char *word)
{
    size_t n = strlen(word);

    return i + n <= s->len && memcmp(s->text + i, word, n) == 0;
}

/* The end of the line holding 'i' (its '\n', or the end of the text). */
static size_t line_end(const struct scanner *s, size_t i)
{
    const char *nl = memchr(s->text + i, '\n', s->len - i);

    return nl ? (size_t)(nl - s->text) : s->len;
}

static size_t block_comment_end(const struct scanner *s, size_t i)
{
    for (i += 2; i + 1 < s->len; i++)
        if (s->text[i] == '*' && s->text[i + 1] == '/')
            return i + 2;
    return s->len;
}

/* A quote that opens a string here, or '\0'. */
static char opening_quote(const struct scanner *s, size_t i)
{
    char c = s->text[i];

    if (c == '"' || (c == '\'' && s->lang == NDP_SOURCE_TEMPLATE))
        return c;
    return '\0';
}

/* Does an interpolation open at 'i' inside a string ('${', HCL '%{')? */
static bool interpolation_at(const struct scanner *s, size_t i)
{
    if (i + 1 >= s->len || s->text[i + 1] != '{')
        return false;
    if (s->text[i] == '$')
        return true;
    return s->text[i] == '%' && s->lang == NDP_SOURCE_HCL;
}

/*
 * The end of the string opening at 'i' with 'quote': one past its
 * closing quote.  A line ends a string (neither language lets one span
 * lines); an interpolation is walked brace by brace, its own strings
 * with it.  Nested too deep, the rest of the text is the string.
 */
static size_t string_end(const struct scanner *s, size_t i, char quote)
{
    char quotes[NDP_SOURCE_MAX_DEPTH];
    int braces[NDP_SOURCE_MAX_DEPTH];
    int top = 0;

    quotes[0] = quote;
    braces[0] = 0;
    for (i++; i < s->len; i++) {
        char c = s->text[i];
        if (braces[top] == 0) {         /* inside the string's text */
            if (c == '\\' && i + 1 < s->len)
                i++;
            else if (c == '\n')
                return i;
            else if (c == quotes[top] && top == 0)
                return i + 1;
            else if (c == quotes[top])
                top--; /* back in the interpolation that opened it */
            else if (interpolation_at(s, i))
                braces[top] = 1, i++;
            continue;
        }
        /* inside an interpolation of string 'top' */
        if (c == '{') {
            braces[top]++;
        } else if (c == '}') {
            braces[top]--;
        } else if (opening_quote(s, i)) {
            if (top + 1 == NDP_SOURCE_MAX_DEPTH)
                return s->len;
            quotes[++top] = opening_quote(s, i);
            braces[top] = 0;
        } else if (c == '\n') {
            return i;
        }
    }
    return s->len;
}

/*
 * An HCL heredoc opening at 'i' ("<<EOT" or "<<-EOT" and the end of the
 * line): one past the line that holds only the marker (leading blanks
 * allowed), or the end of the text; 0 when 'i' opens none.
 */
static size_t heredoc_end(const struct scanner *s, size_t i)
{
    size_t j = i + 2, name, n, line;

    if (j < s->len && s->text[j] == '-')
        j++;
    name = j;
    while (j < s->len && (isalnum((unsigned char)s->text[j]) ||
                          s->text[j] == '_' || s->text[j] == '-'))
        j++;
    n = j - name;
    if (!n || line_end(s, j) != j + strspn(s->text + j, " \t\r") ||
        j == s->len)
        return 0;
    for (line = line_end(s, j) + 1; line < s->len;
         line = line_end(s, line) + 1) {
        size_t k = line + strspn(s->text + line, " \t");
        size_t e = line_end(s, line);
        while (e > k && (s->text[e - 1] == '\r' || s->text[e - 1] == ' ' ||
                         s->text[e - 1] == '\t'))
            e--;
        if (e - k == n && memcmp(s->text + k, s->text + name, n) == 0)
            return line_end(s, line);
    }
    return s->len;
}

/* One token of code at s->i: a stretch recorded, or one byte passed. */
static void step(struct scanner *s)
{
    size_t i = s->i, end;
    char c = s->text[i];

    if (c == '#' && s->lang == NDP_SOURCE_HCL) {
        end = line_end(s, i);
        add_span(s, i, end, NDP_SOURCE_LINE_COMMENT);
    } else if (at(s, i, "//")) {
        end = line_end(s, i);
        add_span(s, i, end, NDP_SOURCE_LINE_COMMENT);
    } else if (at(s, i, "/*")) {
        end = block_comment_end(s, i);
        add_span(s, i, end, NDP_SOURCE_BLOCK_COMMENT);
    } else if (s->lang == NDP_SOURCE_TEMPLATE && at(s, i, "'''")) {
        const char *close = i + 3 < s->len
                                ? ndp_memmem(s->text + i + 3,
                                             s->len - i - 3, "'''", 3)
                                : NULL;
        end = close ? (size_t)(close - s->text) + 3 : s->len;
        add_span(s, i, end, NDP_SOURCE_STRING);
    } else if (opening_quote(s, i)) {
        end = string_end(s, i, c);
        add_span(s, i, end, NDP_SOURCE_STRING);
    } else if (s->lang == NDP_SOURCE_HCL && at(s, i, "<<") &&
               (end = heredoc_end(s, i)) != 0) {
        add_span(s, i, end, NDP_SOURCE_STRING);
    } else {
        end = i + 1;
    }
    s->i = end > i ? end : i + 1;
}

void ndp_source_map_build(struct ndp_source_map *out, const char *text,
                          size_t len, enum ndp_source_lang lang)
{
    struct scanner s = { text, len, 0, lang, out };

    while (s.i < s.len)
        step(&s);
}

/* The span holding 'offset', or NULL (code). */
static const struct ndp_source_span *span_at(const struct ndp_source_map *m,
                                             size_t offset)
{
    size_t lo = 0, hi = m->nr;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->spans[mid].end <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->nr && m->spans[lo].start <= offset ? &m->spans[lo] : NULL;
}

enum ndp_source_kind ndp_source_kind_at(const struct ndp_source_map *map,
                                        size_t offset)
{
    const struct ndp_source_span *sp = span_at(map, offset);

    return sp ? sp->kind : NDP_SOURCE_CODE;
}

int ndp_source_token_at(const struct ndp_source_map *map, size_t offset)
{
    const struct ndp_source_span *sp = span_at(map, offset);

    return !sp || (sp->kind == NDP_SOURCE_STRING && sp->start == offset);
}

int ndp_source_line_comment(const struct ndp_source_map *map, size_t offset,
                            size_t *start, size_t *end)
{
    const struct ndp_source_span *sp = span_at(map, offset);

    if (!sp || sp->kind != NDP_SOURCE_LINE_COMMENT)
        return 0;
    *start = sp->start;
    *end = sp->end;
    return 1;
}

void ndp_source_map_release(struct ndp_source_map *map)
{
    free(map->spans);
    map->spans = NULL;
    map->nr = map->alloc = 0;
}
