/*
 * SPDX-License-Identifier: Apache-2.0
 * report_markdown.c - the Markdown summary: per cluster the profile, the
 * aksManagedNodeOSUpgradeSchedule window and its next opening, and a table
 * of findings.  '--format markdown' writes it as a document for a pull
 * request comment; '--format github' appends it to GITHUB_STEP_SUMMARY.
 * Waived findings are counted in the heading and listed, with their
 * waiver, under their cluster; findings a --baseline left out are counted.
 *
 * Text from the input never becomes Markdown: values, addresses and paths
 * are code spans, prose is backslash-escaped, '@' cannot mention anyone,
 * a scheme's ':' and the '.' of "www." are escaped so that GFM's autolink
 * extension finds no bare URL ("https\://", "www\."), invalid UTF-8 is
 * U+FFFD and control characters are shown as \xNN, so no input can break
 * a table or add a link, an image or HTML.  GitHub links its own
 * references after rendering, where no backslash is left: an issue or
 * pull request ("#1", "GH-3", "owner/repo#2", which also posts a
 * "mentioned this" note on it), a user's commit ("user@sha", broken with
 * '@') and a commit SHA (seven or more hex digits).  In prose a zero width
 * space follows the '#' and the '-' before a number, and one goes after
 * every sixth digit of a run of seven or more hex digits, so none of them
 * is found; code spans are never linked.
 *
 * Every part counts against the size budget (GitHub's limits: 65,536
 * characters for a comment, 1 MiB for a step summary): names (clusters,
 * inputs, resources, paths) are cut to MAX_NAME_WIDTH bytes, values to
 * MAX_VALUE_WIDTH and prose to MAX_PROSE_WIDTH, the list of
 * inputs stops at a quarter of the budget, and a cluster whose header or a
 * finding whose row would pass the budget is left out and counted.
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_internal.h"
#include "report_util.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "evaluate.h"
#include "impact.h"
#include "report_impact.h"
#include "linker.h"
#include "report_apply.h"
#include "report_window.h"
#include "safe.h"
#include "timeutil.h"

#define MAX_VALUE_WIDTH 80
#define MAX_NAME_WIDTH 256       /* a cluster, an input in a header */
#define MAX_PROSE_WIDTH 2048     /* a note, a window, a message */
#define COMMENT_BUDGET 60000     /* GitHub comments: 65,536 characters */
#define TRAILER_RESERVE 1024     /* room for the "left out" note and the
                                    closing sentence */

/* U+200B ZERO WIDTH SPACE after '@': "@name" mentions nobody. */
#define ZWSP "\xe2\x80\x8b"
#define NO_MENTION "@" ZWSP
#define SHA_RUN 7 /* GitHub links a commit SHA from this many hex digits */

/* Appends a control character as \xNN; returns whether 'c' was one. */
static bool add_control(struct ndp_buf *out, const unsigned char *p)
{
    if (*p < 0x20 || *p == 0x7f) {
        ndp_buf_addf(out, "\\x%02x", *p);
        return true;
    }
    return false;
}

/* Whether 'p' (inside 's') ends a URL scheme: "https:" before "//", or a
 * word's ':' right before a non-space ("mailto:x").  GFM autolinks after
 * the ':', so escaping it is enough. */
static bool scheme_colon(const unsigned char *s, const unsigned char *p)
{
    return *p == ':' && p > s && (p[-1] | 0x20) >= 'a' &&
           (p[-1] | 0x20) <= 'z' && p[1] > ' ';
}

/* Whether 'p' is the '.' of "www." (any case). */
static bool www_dot(const unsigned char *s, const unsigned char *p)
{
    return *p == '.' && p - s >= 3 && (p[-1] | 0x20) == 'w' &&
           (p[-2] | 0x20) == 'w' && (p[-3] | 0x20) == 'w';
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static bool is_hex(unsigned char c)
{
    return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* Whether 'p' (inside 's') is the '#' of "#12" or the '-' of "GH-12" (any
 * case): GitHub's issue and pull request references. */
static bool reference_mark(const unsigned char *s, const unsigned char *p)
{
    if (!is_digit(p[1]))
        return false;
    return *p == '#' || (*p == '-' && p - s >= 2 && (p[-1] | 0x20) == 'h' &&
                         (p[-2] | 0x20) == 'g');
}

/* A character of a word, as a regular expression's \w reads ASCII. */
static bool is_word(unsigned char c)
{
    return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
           c == '_';
}

/*
 * Appends the run of hex digits at 'p' (which no word character comes
 * before) with a zero width space after every SHA_RUN - 1 of them when it
 * could be taken for a commit SHA: a word of its own, SHA_RUN digits or
 * more.  Returns its length.
 */
static size_t add_hex_run(struct ndp_buf *out, const unsigned char *p)
{
    size_t n = 0, i;
    bool sha;

    while (is_hex(p[n]))
        n++;
    sha = n >= SHA_RUN && !is_word(p[n]);
    for (i = 0; i < n; i++) {
        if (sha && i && i % (SHA_RUN - 1) == 0)
            ndp_buf_adds(out, ZWSP);
        ndp_buf_addch(out, (char)p[i]);
    }
    return n;
}

/*
 * Copies 's' into 'fixed' repaired to valid UTF-8 and cut to 'width' bytes
 * (0: no cut) on a character boundary; returns whether it was cut.
 */
static bool md_prepare(struct ndp_buf *fixed, const char *s, size_t width)
{
    size_t len;

    ndp_utf8_repair(fixed, s, strlen(s), 0);
    if (!width || fixed->len <= width)
        return false;
    len = width > 3 ? width - 3 : 0;
    while (len && ((unsigned char)fixed->buf[len] & 0xC0) == 0x80)
        len--; /* do not cut a UTF-8 sequence */
    ndp_buf_setlen(fixed, len);
    return true;
}

/* Prose from the input, inline, at most about 'width' bytes of it (0: all):
 * Markdown punctuation escaped, no mention, no autolink, no reference. */
static void md_prose(struct ndp_buf *out, const char *s, size_t width)
{
    struct ndp_buf fixed = NDP_BUF_INIT;
    bool cut = md_prepare(&fixed, s, width);
    const unsigned char *start = (const unsigned char *)fixed.buf, *p;

    for (p = start; *p; p++) {
        if (add_control(out, p))
            continue;
        if (is_hex(*p) && (p == start || !is_word(p[-1])))
            p += add_hex_run(out, p) - 1;
        else if (reference_mark(start, p))
            ndp_buf_addf(out, "%c" ZWSP, *p);
        else if (*p == '@')
            ndp_buf_adds(out, NO_MENTION);
        else if (strchr("\\`*_[]<>|~&$", *p) || scheme_colon(start, p) ||
                 www_dot(start, p))
            ndp_buf_addf(out, "\\%c", *p);
        else
            ndp_buf_addch(out, (char)*p);
    }
    ndp_buf_adds(out, cut ? "..." : "");
    ndp_buf_release(&fixed);
}

static void md_text(struct ndp_buf *out, const char *s)
{
    md_prose(out, s, 0);
}

/*
 * Holds 'b' from byte 'from' (which starts a line) to the command rule as
 * rendering will (safe.h), so that a size budget counts what is written.
 */
static void md_defuse(struct ndp_buf *b, size_t from)
{
    ndp_safe_lines(b, from, ndp_report_markdown.commands,
                   ndp_report_markdown.defuse);
}

static size_t longest_backtick_run(const char *s)
{
    size_t run = 0, longest = 0;

    for (; *s; s++) {
        run = *s == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    return longest;
}

/*
 * A code span of 's' (at most 'width' bytes when 'width' > 0).  In a table
 * cell ('cell') '|' is escaped, as GFM tables require even inside code.
 */
static void md_code_span(struct ndp_buf *out, const char *text,
                         size_t width, bool cell)
{
    struct ndp_buf fixed = NDP_BUF_INIT;
    bool cut = md_prepare(&fixed, text, width);
    const char *s = fixed.buf;
    size_t fence = longest_backtick_run(s) + 1, i, len = fixed.len;
    bool pad = len && (s[0] == '`' || s[len - 1] == '`' || s[0] == ' ');
    const unsigned char *p = (const unsigned char *)s;

    for (i = 0; i < fence; i++)
        ndp_buf_addch(out, '`');
    ndp_buf_adds(out, pad ? " " : "");
    for (i = 0; i < len; i++) {
        if (add_control(out, p + i))
            continue;
        if (cell && p[i] == '|')
            ndp_buf_adds(out, "\\|");
        else
            ndp_buf_addch(out, (char)p[i]);
    }
    ndp_buf_adds(out, cut ? "..." : "");
    ndp_buf_adds(out, pad ? " " : "");
    for (i = 0; i < fence; i++)
        ndp_buf_addch(out, '`');
    ndp_buf_release(&fixed);
}

/* A name in a header or the list of inputs: a code span, cut. */
static void md_code(struct ndp_buf *out, const char *s)
{
    md_code_span(out, s, MAX_NAME_WIDTH, false);
}

static void md_cell(struct ndp_buf *out, const char *s, size_t width)
{
    md_code_span(out, s, width, true);
}

static void write_heading(struct ndp_buf *out, const struct ndp_report *r,
                          size_t budget)
{
    size_t failing = ndp_report_failing(r), i;

    ndp_buf_addf(out, "## ndplint: %d error%s, %d warning%s, %d note%s",
                 r->counts.errors, r->counts.errors == 1 ? "" : "s",
                 r->counts.warnings, r->counts.warnings == 1 ? "" : "s",
                 r->counts.notes, r->counts.notes == 1 ? "" : "s");
    if (r->counts.suppressed)
        ndp_buf_addf(out, ", %d waived", r->counts.suppressed);
    ndp_buf_adds(out, "\n\n");
    if (r->options.fail_on == NDP_SEVERITY_NEVER)
        ndp_buf_adds(out, "**Passes**: `--fail-on never`.");
    else if (failing)
        ndp_buf_addf(out,
                     "**Fails**: %zu finding%s at or above "
                     "`--fail-on %s`.",
                     failing, failing == 1 ? "" : "s",
                     ndp_severity_name((enum ndp_severity)r->options.fail_on));
    else
        ndp_buf_addf(out,
                     "**Passes**: no finding at or above "
                     "`--fail-on %s`.",
                     ndp_severity_name((enum ndp_severity)r->options.fail_on));
    if (r->counts.suppressed)
        ndp_buf_addf(out,
                     " %d finding%s waived by the settings file (listed "
                     "under %s cluster).",
                     r->counts.suppressed, r->counts.suppressed == 1 ? "" : "s",
                     r->counts.suppressed == 1 ? "its" : "each");
    if (r->result->baseline_known)
        ndp_buf_addf(out,
                     " %zu finding%s known from the baseline (not "
                     "listed).",
                     r->result->baseline_known,
                     r->result->baseline_known == 1 ? "" : "s");
    ndp_buf_adds(out, " Maintenance windows ");
    ndp_report_add_judged(out, r);
    ndp_buf_adds(out, ".\n\nInputs:");
    for (i = 0; i < r->result->set.nr_inputs; i++) {
        if (out->len > budget / 4) {
            ndp_buf_addf(out, ", and %zu more", r->result->set.nr_inputs - i);
            break;
        }
        ndp_buf_adds(out, i ? ", " : " ");
        md_code(out, r->result->set.inputs[i].path);
        ndp_buf_addf(out, " (%s)", r->result->set.inputs[i].format);
    }
    ndp_buf_adds(out, "\n\n");
}

/*
 * The instant cluster 'c' is judged at: the run's, or with --at
 * next-window its window's opening, not shown when the window is
 * sensitive (the opening would give its settings away).
 */
static void write_cluster_instant(struct ndp_buf *out,
                                  const struct ndp_report *r,
                                  const struct ndp_resolution *c)
{
    if (c->window_sensitive && c->at != r->result->at) {
        ndp_buf_adds(out, "its next opening (--at next-window; not shown: "
                          "sensitive)");
        return;
    }
    ndp_time_format_utc(out, c->at);
}

static void write_window(struct ndp_buf *out, const struct ndp_report *r,
                         const struct ndp_resolution *c)
{
    struct ndp_buf words = NDP_BUF_INIT;

    ndp_buf_adds(out, "- Window (aksManagedNodeOSUpgradeSchedule): ");
    if (!c->window) {
        ndp_buf_adds(out, "none");
        if (c->other_windows) {
            ndp_buf_adds(out, " (not the node OS window: ");
            md_prose(out, c->other_windows, MAX_PROSE_WIDTH);
            ndp_buf_addch(out, ')');
        }
        ndp_buf_addch(out, '\n');
        return;
    }
    ndp_report_window_words(&words, c);
    md_prose(out, words.buf, MAX_PROSE_WIDTH);
    ndp_buf_release(&words);
    ndp_buf_adds(out, c->window_changes && !c->new_window
                          ? " (in force before this change)" : "");
    ndp_buf_addch(out, '\n');
    if (c->in_window == 1) {
        ndp_buf_adds(out, "- Open at ");
        write_cluster_instant(out, r, c);
        if (!c->window_sensitive) { /* its times would tell its settings */
            ndp_buf_adds(out, "; closes ");
            ndp_time_format_utc(out, c->window_closes_at);
        }
        ndp_buf_addch(out, '\n');
    } else if (c->in_window == 0) {
        ndp_buf_adds(out, "- Closed at ");
        write_cluster_instant(out, r, c);
        if (c->has_next_window && !c->window_sensitive) {
            ndp_buf_adds(out, "; next opening ");
            ndp_report_window_opening(out, c, c->next_window_start);
        }
        ndp_buf_addch(out, '\n');
    }
}

static void write_impact(struct ndp_buf *out, const struct ndp_impact *impact)
{
    struct ndp_buf words = NDP_BUF_INIT;

    if (!impact->rebuilds)
        return;
    ndp_report_impact_words(&words, impact);
    ndp_buf_adds(out, "- Impact: ");
    md_prose(out, words.buf, MAX_PROSE_WIDTH);
    ndp_buf_addch(out, '\n');
    ndp_buf_release(&words);
}

static void write_cluster_header(struct ndp_buf *out,
                                 const struct ndp_report *r, size_t index)
{
    const struct ndp_cluster *cluster = &r->result->clusters.items[index];
    const struct ndp_resolution *c = &r->result->resolved.items[index];

    struct ndp_buf names = NDP_BUF_INIT;

    ndp_buf_adds(out, "### ");
    md_code(out, cluster->id);
    ndp_report_cluster_names(&names, cluster);
    if (names.len) {
        ndp_buf_adds(out, " (");
        md_prose(out, names.buf, MAX_NAME_WIDTH);
        ndp_buf_addch(out, ')');
    }
    ndp_buf_release(&names);
    ndp_buf_adds(out, "\n\n- Input: ");
    md_code(out, cluster->input);
    ndp_buf_addf(out, "\n- Profile: **%s** (%s)\n",
                 ndp_profile_name(c->profile),
                 ndp_report_profile_source_words(c->profile_source));
    if (c->profile_note) {
        ndp_buf_adds(out, "- Note: ");
        md_prose(out, c->profile_note, MAX_PROSE_WIDTH);
        ndp_buf_addch(out, '\n');
    }
    write_window(out, r, c);
    write_impact(out, &r->result->impacts.items[index]);
    ndp_buf_addch(out, '\n');
}

static void write_row(struct ndp_buf *out, const struct ndp_finding *f)
{
    ndp_buf_addf(out, "| %s | %s | %s ", ndp_severity_name(f->severity),
                 ndp_verdict_name(f->verdict), f->rule_id);
    md_text(out, f->category);
    ndp_buf_adds(out, " | ");
    md_cell(out, f->resource, MAX_NAME_WIDTH);
    ndp_buf_adds(out, " | ");
    if (*f->path) {
        md_cell(out, f->path, MAX_NAME_WIDTH);
        ndp_buf_adds(out, " | ");
        md_cell(out, f->before, MAX_VALUE_WIDTH);
        ndp_buf_adds(out, " " NDP_ARROW " ");
        md_cell(out, f->after, MAX_VALUE_WIDTH);
    } else {
        ndp_buf_adds(out, " | ");
    }
    ndp_buf_adds(out, " | ");
    md_prose(out, f->message ? f->message : "", MAX_PROSE_WIDTH);
    if (f->help) {
        ndp_buf_adds(out, ". What to do: ");
        md_prose(out, f->help, MAX_PROSE_WIDTH);
    }
    ndp_buf_adds(out, " |\n");
}

/* A finding of cluster 'c' that counts (waived findings are left out). */
static bool belongs(const struct ndp_finding *f, const struct ndp_cluster *c)
{
    return !f->suppression && strcmp(f->input, c->input) == 0 &&
           strcmp(f->cluster, c->id) == 0;
}

static void write_waived(struct ndp_buf *out, const struct ndp_finding *f)
{
    ndp_buf_addf(out, "- %s %s ", ndp_severity_name(f->severity), f->rule_id);
    md_text(out, f->category);
    ndp_buf_adds(out, ": ");
    if (*f->path) {
        md_code(out, f->path);
        ndp_buf_adds(out, " in ");
    }
    md_code(out, f->resource);
    ndp_buf_adds(out, ", ");
    md_text(out, f->suppression);
    ndp_buf_addch(out, '\n');
}

/* The cluster's waived findings under its table; returns those left out. */
static size_t write_waived_list(struct ndp_buf *out,
                                const struct ndp_report *r,
                                const struct ndp_cluster *c, size_t budget)
{
    struct ndp_buf line = NDP_BUF_INIT;
    size_t i, shown = 0, left_out = 0;

    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        if (!f->suppression || strcmp(f->input, c->input) != 0 ||
            strcmp(f->cluster, c->id) != 0)
            continue;
        ndp_buf_reset(&line);
        write_waived(&line, f);
        md_defuse(&line, 0);
        if (out->len + line.len > budget) {
            left_out++;
            continue;
        }
        if (!shown++)
            ndp_buf_adds(out, "\nWaived:\n\n");
        ndp_buf_add(out, line.buf, line.len);
    }
    ndp_buf_release(&line);
    return left_out;
}

static size_t count_waived(const struct ndp_report *r,
                           const struct ndp_cluster *c)
{
    size_t i, n = 0;

    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        n += f->suppression && strcmp(f->input, c->input) == 0 &&
             strcmp(f->cluster, c->id) == 0;
    }
    return n;
}

static size_t count_findings(const struct ndp_report *r,
                             const struct ndp_cluster *c)
{
    size_t i, n = 0;

    for (i = 0; i < r->result->findings.nr; i++)
        n += belongs(&r->result->findings.items[i], c);
    return n;
}

/*
 * Writes one cluster's section; returns the findings left out.  A header
 * that would pass 'budget' leaves the whole cluster out ('*cluster_out').
 */
static size_t write_cluster(struct ndp_buf *out, const struct ndp_report *r,
                            size_t index, size_t budget, bool *cluster_out)
{
    const struct ndp_cluster *c = &r->result->clusters.items[index];
    struct ndp_buf row = NDP_BUF_INIT;
    size_t i, shown = 0, left_out = 0;

    write_cluster_header(&row, r, index);
    md_defuse(&row, 0);
    *cluster_out = out->len + row.len > budget;
    if (*cluster_out) {
        ndp_buf_release(&row);
        return count_findings(r, c) + count_waived(r, c);
    }
    ndp_buf_add(out, row.buf, row.len);
    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        if (!belongs(f, c))
            continue;
        ndp_buf_reset(&row);
        write_row(&row, f);
        md_defuse(&row, 0);
        if (out->len + row.len > budget) {
            left_out++;
            continue;
        }
        if (!shown++)
            ndp_buf_adds(out, "| severity | verdict | rule | resource | "
                              "path | before " NDP_ARROW " after | why |\n"
                              "|---|---|---|---|---|---|---|\n");
        ndp_buf_add(out, row.buf, row.len);
    }
    if (!shown && !left_out)
        ndp_buf_addf(out, "No %sreimaging change%s.\n",
                     count_waived(r, c) ? "unwaived " : "",
                     r->result->baseline_known ? " outside the baseline" : "");
    left_out += write_waived_list(out, r, c, budget);
    ndp_buf_adds(out, "\n");
    ndp_buf_release(&row);
    return left_out;
}

/* The closing note: what was left out, and why. */
static void write_left_out(struct ndp_buf *out, size_t findings,
                           size_t clusters, size_t budget)
{
    if (!findings && !clusters)
        return;
    ndp_buf_adds(out, "_");
    if (clusters)
        ndp_buf_addf(out, "%zu cluster%s and ", clusters,
                     clusters == 1 ? "" : "s");
    ndp_buf_addf(out, "%zu finding%s%s left out to keep this summary under "
                 "%zu bytes; the text, JSON and SARIF reports list every "
                 "finding._\n", findings, findings == 1 ? "" : "s",
                 clusters ? "" : findings == 1 ? " is" : " are", budget);
}

/* A cluster in the closing sentence: a code span, never cut. */
static void md_name(struct ndp_buf *out, const char *s)
{
    md_code_span(out, s, 0, false);
}

/* The closing sentence naming at most 'max_names' clusters, as written;
 * returns its length. */
static size_t apply_sentence(struct ndp_buf *sentence,
                             const struct ndp_report *r, size_t max_names)
{
    ndp_buf_reset(sentence);
    ndp_report_apply_sentence_names(sentence, r, md_name, max_names);
    md_defuse(sentence, 0);
    return sentence->len;
}

/*
 * "When can this apply?", last: the whole sentence while it fits in what
 * is left of 'budget', else naming as many clusters as fit and counting
 * the others.  A name is never cut and the advice is always there.
 */
static void write_apply(struct ndp_buf *out, const struct ndp_report *r,
                        size_t budget)
{
    struct ndp_buf sentence = NDP_BUF_INIT;
    size_t lo = 0, hi = r->result->clusters.nr, mid, room;

    if (r->result->clusters.nr == 0)
        return;
    if (out->len && (out->len < 2 || out->buf[out->len - 2] != '\n'))
        ndp_buf_addch(out, '\n');
    room = budget > out->len + 1 ? budget - out->len - 1 : 0;
    if (apply_sentence(&sentence, r, hi) > room) {
        /* The most names that fit; every cluster is in one list at most. */
        while (lo < hi) {
            mid = lo + (hi - lo + 1) / 2;
            if (apply_sentence(&sentence, r, mid) <= room)
                lo = mid;
            else
                hi = mid - 1;
        }
        apply_sentence(&sentence, r, lo);
    }
    ndp_buf_add(out, sentence.buf, sentence.len);
    ndp_buf_addch(out, '\n');
    ndp_buf_release(&sentence);
}

/* The extra nodes of the whole apply, when more than one cluster rebuilds. */
static void write_plan_impact(struct ndp_buf *out, const struct ndp_report *r)
{
    struct ndp_buf words = NDP_BUF_INIT;

    ndp_report_plan_extra_words(&words, &r->result->impacts);
    if (words.len) {
        ndp_buf_adds(out, "Impact of this apply: ");
        md_prose(out, words.buf, TRAILER_RESERVE / 4);
        ndp_buf_adds(out, "\n\n");
    }
    ndp_buf_release(&words);
}

static void write_summary(struct ndp_buf *out, const struct ndp_report *r,
                          size_t budget)
{
    size_t i, left_out = 0, clusters_out = 0, total = budget, start = out->len;
    bool cluster_out;

    budget = budget > TRAILER_RESERVE ? budget - TRAILER_RESERVE : 0;
    write_heading(out, r, budget);
    md_defuse(out, start);
    if (r->result->clusters.nr == 0)
        ndp_buf_adds(out, "No AKS cluster, node pool or maintenance "
                          "configuration in the input: nothing to judge.\n");
    for (i = 0; i < r->result->clusters.nr; i++) {
        left_out += write_cluster(out, r, i, budget, &cluster_out);
        clusters_out += cluster_out;
    }
    write_left_out(out, left_out, clusters_out, total);
    write_plan_impact(out, r);
    write_apply(out, r, total);
}

void ndp_report_markdown_summary(struct ndp_buf *out,
                                 const struct ndp_report *r, size_t budget)
{
    size_t start = out->len;

    write_summary(out, r, budget);
    ndp_utf8_repair_tail(out, start, 0);
    ndp_safe_lines(out, start, NDP_CMDS_NONE, &ndp_defuse_xml);
}

static void write_markdown(struct ndp_buf *out, const struct ndp_report *r)
{
    write_summary(out, r, COMMENT_BUDGET);
}

const struct ndp_reporter ndp_report_markdown = {
    "markdown", write_markdown, 0, NDP_CMDS_NONE, &ndp_defuse_xml
};
