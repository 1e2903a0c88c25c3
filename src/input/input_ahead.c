/*
 * SPDX-License-Identifier: Apache-2.0
 * input_ahead.c - a walk's reading ahead (input_internal.h): a mapped
 * file is read ahead of each thread's walk and given back behind it
 * (src/util/readahead.h), each thread doing so for what it reads.  The
 * scanner's fast walk calls back as it goes, and the pruner after each
 * element.
 */
#include "common.h"
#include "input_internal.h"

static void reach_ahead(struct ndp_jscan_ahead *hook, size_t pos)
{
    struct ndp_prune_ahead *a = (struct ndp_prune_ahead *)(void *)hook;

    hook->at = ndp_readahead_reach(&a->cursor, pos);
}

void ndp_prune_ahead_start(struct ndp_pruner *p, struct ndp_jscan *s)
{
    ndp_readahead_stop(&p->ahead.cursor);
    ndp_readahead_start(&p->ahead.cursor, p->ra);
    p->ahead.hook.reach = reach_ahead;
    p->ahead.hook.at = p->ra ? 0 : SIZE_MAX;
    s->ahead = p->ra ? &p->ahead.hook : NULL;
}

void ndp_prune_read_ahead(struct ndp_pruner *p, size_t pos)
{
    if (pos >= p->ahead.hook.at)
        reach_ahead(&p->ahead.hook, pos);
}

void ndp_prune_ahead_stop(struct ndp_pruner *p)
{
    ndp_readahead_stop(&p->ahead.cursor);
}
