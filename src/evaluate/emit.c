/*
 * SPDX-License-Identifier: Apache-2.0
 * emit.c - the one way a finding of the evaluator is made: every stage
 * (verdict.c, overrun.c) and every check (check_*.c) hands its finding
 * here, and this file calls none of them back.  It fills in what the
 * evaluator knows of the cluster (its id, whether it is frozen now, the
 * advice for a change refused now, a renamed resource), says that
 * Terraform deferred a change, and shows values as reports may print
 * them: redacted under a sensitive mask and for a rule whose values are
 * secret, credentials cut out of a proxy URL.
 *
 * The checks build their findings with struct ndp_check_finding
 * (evaluate_internal.h): begun at a change or a cluster, its path, values,
 * message and help filled in, then emitted, which releases it.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "jsonutil.h"
#include "linker.h"
#include "policy.h"
#include "rules.h"
#include "timeutil.h"
#include "window.h"

/* ---- values as reports print them ---- */

/*
 * "https://user:pass@proxy:8080" -> "https://(sensitive)@proxy:8080".
 * Everything up to the last '@' goes: a password may itself hold '@' or
 * '/', and a proxy URL has no path that could.
 */
static void hide_userinfo(struct ndp_buf *out, const char *s)
{
    const char *scheme = strstr(s, "://");
    const char *host = scheme ? scheme + 3 : s;
    const char *at = strrchr(host, '@');
    struct ndp_buf plain = NDP_BUF_INIT;

    if (!at) {
        ndp_buf_add_json_string(out, s);
        return;
    }
    ndp_buf_add(&plain, s, (size_t)(host - s));
    ndp_buf_adds(&plain, "(sensitive)");
    ndp_buf_adds(&plain, at);
    ndp_buf_add_json_string(out, plain.buf);
    ndp_buf_release(&plain);
}

char *ndp_emit_json_value(const struct json_object *v, bool sensitive,
                          bool unknown, const struct ndp_rule *rule)
{
    struct ndp_buf b = NDP_BUF_INIT;

    if (unknown)
        ndp_buf_adds(&b, "\"(known after apply)\"");
    else if (ndp_json_is_unset(v))
        ndp_buf_adds(&b, "null");
    else if (sensitive || (rule && rule->secret))
        ndp_buf_adds(&b, "\"(sensitive)\"");
    else if (rule && rule->userinfo_secret &&
             json_object_is_type(v, json_type_string))
        hide_userinfo(&b, json_object_get_string(
                              ndp_json_unconst(v)));
    else
        ndp_json_to_buf(&b, v);
    return ndp_buf_detach(&b);
}

void ndp_emit_text(struct ndp_buf *out, const char *s, bool sensitive,
                   const struct ndp_rule *rule)
{
    if (!s)
        ndp_buf_adds(out, "null");
    else if (sensitive || (rule && rule->secret))
        ndp_buf_adds(out, "\"(sensitive)\"");
    else
        ndp_buf_add_json_string(out, s);
}

void ndp_emit_number(struct ndp_buf *out, bool has, long n, bool sensitive)
{
    if (!has)
        ndp_buf_adds(out, "null");
    else if (sensitive)
        ndp_buf_adds(out, "\"(sensitive)\"");
    else
        ndp_buf_addf(out, "%ld", n);
}

/* ---- findings ---- */

/*
 * Spec §10: what the user does about a change the cluster refuses now
 * (ndp_verdict_refused_now()).  Under AllowDuringMaintenanceWindow that
 * is to wait for the next window, named when it is known and not
 * sensitive; otherwise (Block, or no window to wait for) to lift the
 * policy for this change.
 */
static char *help_text(const struct ndp_resolution *c)
{
    struct ndp_buf b = NDP_BUF_INIT;

    if (c->profile == NDP_PROFILE_WINDOW && c->window &&
        c->window_sensitive) {
        ndp_buf_adds(&b, "wait for the window");
    } else if (c->profile == NDP_PROFILE_WINDOW && c->window &&
               c->has_next_window) {
        ndp_buf_adds(&b, ndp_window_phase_unknown(c->window)
                             ? "wait for the window, which may open at "
                             : "wait for the window at ");
        ndp_time_format_utc(&b, c->next_window_start);
    } else {
        ndp_buf_adds(&b, "lift the policy for this change: az aks update "
                     "--node-disruption-policy Allow, then restore it");
    }
    return ndp_buf_detach(&b);
}

/*
 * A finding about a resource a moved block renamed says so, unless it is
 * the cluster's own resource (the cluster's note says it there).
 */
static void renamed_resource_note(struct ndp_buf *msg,
                                  struct ndp_finding_spec *spec,
                                  const struct ndp_change *ch,
                                  const struct ndp_cluster *cluster)
{
    if (strcmp(ch->address, cluster->id) == 0)
        return;
    ndp_buf_addf(msg, "%s; the input renames this resource from %s (a moved "
                 "block): a waiver must name the old address or its ARM id, "
                 "and an inline ignore suppresses nothing until the rename "
                 "has been applied", spec->message ? spec->message : "",
                 ch->previous_address);
    spec->message = msg->buf;
}

void ndp_emit(const struct ndp_evaluator *ev, struct ndp_finding_spec *spec)
{
    const struct ndp_resolution *c = &ev->resolved->items[spec->cluster_index];
    const struct ndp_cluster *cluster =
        &ev->clusters->items[spec->cluster_index];
    const struct ndp_change *ch =
        ndp_change_index_find(&ev->changes, spec->input, spec->resource);
    struct ndp_finding_rename rename = { NULL, NULL, cluster->previous_id,
                                         cluster->arm_id };
    struct ndp_buf msg = NDP_BUF_INIT;
    char *help = NULL;

    spec->ruleset = ev->rs; /* the meta rule of a verdict alone */
    spec->cluster = cluster->id;
    spec->frozen_now = c->frozen_now;
    if (!spec->line && ch)
        spec->line = ch->line;
    if (ch && ch->previous_address) {
        rename.resource_from = ch->previous_address;
        rename.resource_arm_id = ch->self_id;
        renamed_resource_note(&msg, spec, ch, cluster);
    }
    spec->rename = &rename;
    if (!spec->help && ndp_verdict_refused_now(spec->verdict, c->frozen_now))
        spec->help = help = help_text(c);
    ndp_findings_add(ev->out, spec);
    free(help);
    ndp_buf_release(&msg);
}

void ndp_emit_deferred(struct ndp_buf *msg, const struct ndp_change *ch)
{
    if (!ch->deferred_reason)
        return;
    ndp_buf_adds(msg, "; Terraform deferred this change to a later plan "
                 "and apply round");
    if (*ch->deferred_reason)
        ndp_buf_addf(msg, " (reason '%s')", ch->deferred_reason);
}

/* ---- the checks' findings ---- */

static bool check_begin(struct ndp_check_finding *f,
                        const struct ndp_evaluator *ev, const char *id)
{
    memset(f, 0, sizeof(*f));
    f->rule = ndp_ruleset_find(ev->rs, id);
    if (!f->rule)
        return false;
    f->verdict = NDP_VERDICT_REFUSED;
    ndp_buf_init(&f->path);
    ndp_buf_init(&f->before);
    ndp_buf_init(&f->after);
    ndp_buf_init(&f->msg);
    ndp_buf_init(&f->help);
    return true;
}

bool ndp_check_begin(struct ndp_check_finding *f,
                     const struct ndp_evaluator *ev, const char *id,
                     const struct ndp_change *ch)
{
    if (!check_begin(f, ev, id))
        return false;
    f->ch = ch;
    f->input = ch->input;
    f->cluster_index = ch->cluster;
    f->resource = ch->address;
    f->line = ch->line;
    return true;
}

bool ndp_check_begin_cluster(struct ndp_check_finding *f,
                             const struct ndp_evaluator *ev, const char *id,
                             size_t cluster)
{
    if (!check_begin(f, ev, id))
        return false;
    f->input = ev->clusters->items[cluster].input;
    f->cluster_index = cluster;
    f->resource = ev->clusters->items[cluster].id;
    return true;
}

/* A JSON value text as a secret rule's: "(sensitive)", null kept. */
static void hide_value(struct ndp_buf *value)
{
    if (!value->len || strcmp(value->buf, "null") == 0)
        return;
    ndp_buf_reset(value);
    ndp_buf_adds(value, "\"(sensitive)\"");
}

void ndp_check_emit(struct ndp_check_finding *f,
                    const struct ndp_evaluator *ev)
{
    struct ndp_finding_spec spec;

    if (f->ch)
        ndp_emit_deferred(&f->msg, f->ch);
    /* A rule whose values are secret shows none, whatever built them. */
    if (f->rule->secret) {
        hide_value(&f->before);
        hide_value(&f->after);
    }
    spec = (struct ndp_finding_spec){
        .rule = f->rule,
        .verdict = f->verdict,
        .scope = f->rule->scope,
        .pools = NDP_POOLS_NONE,
        .input = f->input,
        .cluster_index = f->cluster_index,
        .resource = f->resource,
        .path = f->path.buf,
        .before = f->before.len ? f->before.buf : "null",
        .after = f->after.len ? f->after.buf : "null",
        .pool = f->pool,
        .line = f->line,
        .message = f->msg.buf,
        .help = f->help.len ? f->help.buf : NULL,
    };
    ndp_emit(ev, &spec);
    ndp_buf_release(&f->path);
    ndp_buf_release(&f->before);
    ndp_buf_release(&f->after);
    ndp_buf_release(&f->msg);
    ndp_buf_release(&f->help);
}
