/*
 * SPDX-License-Identifier: Apache-2.0
 * report_azure.h - the escaping of the Azure Pipelines reporter, for its
 * unit test.
 */
#ifndef NDP_REPORT_AZURE_H
#define NDP_REPORT_AZURE_H

#ifndef NDP_INSIDE_REPORT
#error "report_azure.h is internal to src/report/ and its tests"
#endif

#include <stdbool.h>

struct ndp_buf;

/*
 * Appends 's' to 'out' escaped as azure-pipelines-task-lib escapes a
 * logging command's message ('%' as "%AZP25", CR, LF) or, with 'property',
 * a property value (also ';' and ']').  Other control characters are shown
 * as \xNN, and "##" as "#%23", so that no "##vso[" or "##[" can follow.
 */
void ndp_report_azure_escape(struct ndp_buf *out, const char *s,
                             bool property);

#endif
