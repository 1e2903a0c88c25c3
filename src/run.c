/*
 * SPDX-License-Identifier: Apache-2.0
 * run.c - one run, stage by stage (architecture §2): the files it reads
 * checked against the working tree, readers, linker,
 * rule engine, evaluator, then what decides which findings count (source
 * lines and inline ignores, waivers, severity overrides), the report
 * order, and the baseline.  See run.h.
 */
#include "common.h"
#include "run.h"
#include "engine.h"
#include "locate.h"
#include "overrides.h"
#include "triage.h"
#include "worktree.h"

/* Keeps 'err' among the reasons the run stops; returns its code. */
static int keep_error(struct ndp_result *r, const struct ndp_error *err)
{
    r->errors = ndp_xrealloc(r->errors, (r->nr_errors + 1) *
                                            sizeof(*r->errors));
    r->errors[r->nr_errors++] = *err;
    return err->code;
}

/* Refuses 'path' (NULL: none) into 'r' when a link of 'tree' leads it
 * out; '*rc' keeps the first refusal's code. */
static void check_link(struct ndp_result *r, const struct ndp_worktree *tree,
                       const char *path, int *rc)
{
    struct ndp_error err = NDP_ERROR_INIT;
    int code;

    if (!path || ndp_worktree_check_link(tree, path, &err) == 0)
        return;
    code = keep_error(r, &err);
    if (!*rc)
        *rc = code;
}

/*
 * Every file the run reads from the command line, refused when a symbolic
 * link of the working tree (the source root) leads it outside the tree,
 * unless --follow-links: a committed template.json linking to a
 * credentials file is not read.  Each is named, before any is read.
 */
static int refuse_links_out(struct ndp_result *r,
                            const struct ndp_run_options *o)
{
    struct ndp_worktree tree;
    size_t i;
    int rc = 0;

    if (o->follow_links)
        return 0;
    ndp_worktree_open(&tree, o->source_root);
    for (i = 0; i < o->nr_inputs; i++)
        if (!o->inputs[i].bytes)
            check_link(r, &tree, o->inputs[i].path, &rc);
    for (i = 0; i < o->nr_cluster_states; i++)
        check_link(r, &tree, o->cluster_states[i], &rc);
    check_link(r, &tree, o->template_path, &rc);
    check_link(r, &tree, o->baseline, &rc);
    ndp_worktree_release(&tree);
    return rc;
}

/* Every input, each tried even after one fails, so that each is named. */
static int read_inputs(struct ndp_result *r, const struct ndp_run_options *o)
{
    size_t i;
    int rc = 0;

    for (i = 0; i < o->nr_inputs; i++) {
        const struct ndp_run_input *in = &o->inputs[i];
        struct ndp_error err = NDP_ERROR_INIT;
        int one = in->bytes
                      ? ndp_input_read_bytes(&r->set, in->path, in->bytes,
                                             in->size, &o->input, &err)
                      : ndp_input_read(&r->set, in->path, &o->input, &err);
        if (one && !rc)
            rc = keep_error(r, &err);
        else if (one)
            keep_error(r, &err);
    }
    return rc;
}

static int read_states(struct ndp_result *r, const struct ndp_run_options *o)
{
    size_t i;
    int rc = 0;

    for (i = 0; i < o->nr_cluster_states; i++) {
        struct ndp_error err = NDP_ERROR_INIT;
        int one = ndp_state_read(&r->states, o->cluster_states[i],
                                 o->input.max_bytes, &err);
        if (one && !rc)
            rc = keep_error(r, &err);
        else if (one)
            keep_error(r, &err);
    }
    return rc;
}

/* State that describes no cluster of the input is worth a word. */
static void warn_unmatched_states(const struct ndp_states *states)
{
    size_t i;

    for (i = 0; i < states->nr; i++)
        if (!states->items[i].matched)
            ndp_warn("warning: --cluster-state '%s' describes cluster '%s', "
                     "which is not in the input", states->items[i].sources,
                     states->items[i].id);
    for (i = 0; i < states->nr_unmatched; i++)
        ndp_warn("warning: --cluster-state '%s' is an empty list and "
                 "describes no cluster", states->unmatched_files[i]);
}

void ndp_result_judge(struct ndp_result *r, const struct ndp_ruleset *rs,
                      const struct ndp_eval_options *eo)
{
    struct ndp_hits hits = NDP_HITS_INIT;

    r->at = eo->at;
    r->next_window = eo->next_window;
    ndp_link(&r->clusters, &r->set);
    ndp_facts_fill_linked(&r->set);
    ndp_engine_run(&hits, rs, &r->set);
    ndp_evaluate(&r->findings, &r->resolved, &r->impacts, &r->clusters,
                 &r->set, &hits, rs, eo);
    ndp_hits_release(&hits);
}

/* The baseline: written first when asked, then what it lists left out. */
static int baseline(struct ndp_result *r, const struct ndp_run_options *o)
{
    struct ndp_error err = NDP_ERROR_INIT;
    size_t known = 0;

    /* Every current finding, those the old baseline lists too: a
     * baseline refreshed in place keeps what it knew. */
    if (o->write_baseline &&
        ndp_baseline_write(o->write_baseline, &r->findings, &err) != 0)
        return keep_error(r, &err);
    if (o->baseline) {
        if (ndp_baseline_apply(&r->findings, o->baseline, &known, &err) != 0)
            return keep_error(r, &err);
        if (known)
            ndp_warn("%zu finding%s listed in the baseline '%s' not "
                     "reported", known, known == 1 ? "" : "s", o->baseline);
        r->baseline_known = known;
    }
    return 0;
}

int ndp_run(struct ndp_result *out, const struct ndp_run_options *o,
            const struct ndp_ruleset *rs)
{
    struct ndp_eval_options eo;
    int rc = refuse_links_out(out, o);

    if (!rc)
        rc = read_inputs(out, o);
    if (!rc)
        rc = read_states(out, o);
    if (rc)
        return rc;
    memset(&eo, 0, sizeof(eo));
    eo.at = o->at;
    eo.next_window = o->at_next_window;
    eo.have_profile = o->have_profile;
    eo.profile = o->profile;
    eo.states = &out->states;
    eo.config = o->config;
    ndp_result_judge(out, rs, &eo);
    warn_unmatched_states(&out->states);
    /* Located first: an inline ignore suppresses before waivers and the
     * baseline look. */
    ndp_locate_sources(&out->findings, &out->set, o->source_root,
                       o->template_path, rs);
    if (o->config && !o->no_waivers)
        ndp_triage_waivers(&out->findings, &out->clusters, o->config, rs,
                           o->at);
    ndp_overrides_apply(&out->findings, o->config);
    ndp_findings_sort(&out->findings);
    return baseline(out, o);
}

void ndp_result_release(struct ndp_result *r)
{
    ndp_findings_release(&r->findings);
    ndp_impacts_release(&r->impacts);
    ndp_resolutions_release(&r->resolved);
    ndp_clusters_release(&r->clusters);
    ndp_states_release(&r->states);
    ndp_changeset_release(&r->set);
    free(r->errors);
    r->errors = NULL;
    r->nr_errors = 0;
    r->baseline_known = 0;
    r->at = 0;
    r->next_window = false;
}
