/*
 * SPDX-License-Identifier: Apache-2.0
 * test_report.c - the CI reporters' shared pieces and their promises that
 * golden files cannot show well: SHA-256 against the FIPS 180-4 vectors,
 * workflow-command escaping of hostile input, GitHub's per-step annotation
 * cap, Azure Pipelines logging-command escaping, Markdown and JUnit
 * escaping, the Markdown closing sentence within a size budget, and
 * fingerprints that ignore lines.  Reports are rendered as ndplint writes
 * them (ndp_report_render: repaired, and held to the command rule).
 */
#include "test_common.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "evaluate.h"
#include "impact.h"
#include "linker.h"
#include "report.h"
#include "run.h"
#include "report/report_internal.h"
#include "report/report_azure.h"
#include "report/report_util.h"
#include "safe.h"

struct sha_case {
    const char *name;
    const char *input;
    size_t repeat;
    const char *hex;
};

static const struct sha_case sha_cases[] = {
    { "sha256 empty", "", 1,
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    { "sha256 abc", "abc", 1,
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { "sha256 two blocks",
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
    { "sha256 one million a", "aaaaaaaaaa", 100000,
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};

static void sha256_vectors(void **state)
{
    const struct sha_case *c = *state;
    struct ndp_buf in = NDP_BUF_INIT;
    char hex[NDP_SHA256_HEX_LEN + 1];
    size_t i;

    for (i = 0; i < c->repeat; i++)
        ndp_buf_adds(&in, c->input);
    ndp_sha256_hex(hex, in.buf, in.len);
    assert_string_equal(hex, c->hex);
    ndp_buf_release(&in);
}

/* One input, one cluster named 'cluster', 'n' findings of 'sev'. */
struct fixture {
    struct ndp_result result;
    struct ndp_report report;
};

static void fixture_init(struct fixture *fx, const char *cluster,
                         enum ndp_severity sev, size_t n)
{
    struct ndp_report_options options = { .fail_on = NDP_SEVERITY_ERROR };
    struct ndp_cluster *c;
    struct ndp_resolution *res;
    size_t i;

    memset(fx, 0, sizeof(*fx));
    ndp_changeset_add_input(&fx->result.set, "-");
    fx->result.set.inputs[0].format = "terraform-plan";
    NDP_GROW(fx->result.clusters.items, fx->result.clusters.alloc, 1);
    c = &fx->result.clusters.items[fx->result.clusters.nr++];
    memset(c, 0, sizeof(*c));
    c->id = ndp_xstrdup(cluster);
    c->input = fx->result.set.inputs[0].path;
    fx->result.resolved.items =
        ndp_xcalloc(1, sizeof(*fx->result.resolved.items));
    fx->result.resolved.nr = 1;
    res = &fx->result.resolved.items[0];
    res->profile = NDP_PROFILE_BLOCK;
    res->profile_source = "input";
    res->in_window = -1;
    fx->result.impacts.items =
        ndp_xcalloc(1, sizeof(*fx->result.impacts.items));
    fx->result.impacts.nr = 1;
    for (i = 0; i < n; i++) {
        static const struct ndp_rule rule = { .id = "NDP101",
                                              .category = "network-policy" };
        char path[32];
        struct ndp_finding_spec spec = {
            .rule = &rule,
            .verdict = NDP_VERDICT_REJECTED,
            .input = c->input,
            .cluster = cluster,
            .resource = cluster,
            .path = path,
            .after = "\"azure\"",
            .message = "refused",
            .line = (long)i + 1,
        };
        snprintf(path, sizeof(path), "p%02zu", i);
        /* The severity under test, whatever the verdict's. */
        ndp_findings_add(&fx->result.findings, &spec)->severity = sev;
    }
    ndp_report_init(&fx->report, &fx->result, &options);
}

static void fixture_release(struct fixture *fx)
{
    ndp_result_release(&fx->result);
}

/* The report as ndplint writes it: repaired, and held to the command
 * rule (ndp_report_render). */
static char *render(const struct ndp_reporter *rep, struct fixture *fx)
{
    struct ndp_buf out = NDP_BUF_INIT;

    ndp_report_render(&out, rep, &fx->report);
    return ndp_buf_detach(&out);
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;

    while ((s = strstr(s, needle)) != NULL) {
        n++;
        s += strlen(needle);
    }
    return n;
}

#define HOSTILE "c::add-mask::x\n::set-output name=a::b\r##[add-mask]y%,:"

static void github_hostile_input_is_inert(void **state)
{
    struct fixture fx;
    char *out, *line;

    (void)state;
    fixture_init(&fx, HOSTILE, NDP_SEVERITY_ERROR, 1);
    out = render(&ndp_report_github, &fx);
    /* Every line starts with a command of ours or with "ndplint"/"window". */
    for (line = out; *line; line = strchr(line, '\n') + 1) {
        assert_true(strncmp(line, "::group::", 9) == 0 ||
                    strncmp(line, "::error title=", 14) == 0 ||
                    strncmp(line, "::endgroup::", 12) == 0 ||
                    strncmp(line, "ndplint: ", 9) == 0);
        assert_non_null(strchr(line, '\n'));
    }
    assert_null(strstr(out, "##["));
    assert_null(strchr(out, '\r'));
    assert_non_null(strstr(out, "c::add-mask::x%0A::set-output name=a::b"
                                "%0D#%23[add-mask]y%25,:"));
    free(out);
    fixture_release(&fx);
}

static void github_cap_counts_left_out(void **state)
{
    struct fixture fx;
    char *out;

    (void)state;
    fixture_init(&fx, "aks", NDP_SEVERITY_WARNING, 23);
    out = render(&ndp_report_github, &fx);
    /* 9 annotations, then one that says how many more: 10 in all. */
    assert_int_equal(count(out, "::warning "), 10);
    assert_int_equal(count(out, "(not annotated: over GitHub's"), 14);
    assert_non_null(strstr(out, "::warning title=ndplint%3A 14 more "
                                "warnings not annotated::"));
    free(out);
    fixture_release(&fx);

    fixture_init(&fx, "aks", NDP_SEVERITY_NOTE, 10);
    out = render(&ndp_report_github, &fx);
    assert_int_equal(count(out, "::notice "), 10);
    assert_null(strstr(out, "not annotated"));
    free(out);
    fixture_release(&fx);
}

struct azure_case {
    const char *name;
    const char *input;
    const char *message;  /* escaped as a message */
    const char *property; /* escaped as a property value */
};

/* azure-pipelines-task-lib: '%' -> %AZP25, CR, LF; properties ';', ']'. */
static const struct azure_case azure_cases[] = {
    { "azure plain", "plan.json", "plan.json", "plan.json" },
    { "azure percent", "100%", "100%AZP25", "100%AZP25" },
    { "azure escape lookalike", "%AZP25%0A", "%AZP25AZP25%AZP250A",
      "%AZP25AZP25%AZP250A" },
    { "azure newline command", "x\n##vso[task.setvariable variable=a]b",
      "x%0A#%23vso[task.setvariable variable=a]b",
      "x%0A#%23vso[task.setvariable variable=a%5Db" },
    { "azure carriage return", "a\rb", "a%0Db", "a%0Db" },
    { "azure property end", "a;code=X]msg", "a;code=X]msg",
      "a%3Bcode=X%5Dmsg" },
    { "azure formatting command", "##[error]x", "#%23[error]x",
      "#%23[error%5Dx" },
    { "azure hash run", "###vso[", "#%23#vso[", "#%23#vso[" },
    { "azure control", "a\x1b[2J\x7f\tb", "a\\x1b[2J\\x7f\\x09b",
      "a\\x1b[2J\\x7f\\x09b" },
};

static void azure_escape_table(void **state)
{
    const struct azure_case *c = *state;
    struct ndp_buf out = NDP_BUF_INIT;

    ndp_report_azure_escape(&out, c->input, false);
    assert_string_equal(out.buf, c->message);
    ndp_buf_reset(&out);
    ndp_report_azure_escape(&out, c->input, true);
    assert_string_equal(out.buf, c->property);
    ndp_buf_release(&out);
}

#define AZ_HOSTILE "c\n##vso[task.setvariable variable=x]y;z]%\r##[error]"

static void azure_hostile_input_is_inert(void **state)
{
    struct fixture fx;
    char *out, *line;

    (void)state;
    fixture_init(&fx, AZ_HOSTILE, NDP_SEVERITY_ERROR, 1);
    out = render(&ndp_report_azure, &fx);
    /* Every line is one command of ours or starts with "ndplint: ". */
    for (line = out; *line; line = strchr(line, '\n') + 1) {
        assert_true(strncmp(line, "##vso[task.logissue type=error;", 31) ==
                        0 ||
                    strncmp(line, "##vso[task.complete result=", 27) == 0 ||
                    strncmp(line, "ndplint: ", 9) == 0);
        assert_non_null(strchr(line, '\n'));
    }
    /* "##vso[" only where a line starts: none from the input. */
    for (line = strstr(out, "##vso["); line; line = strstr(line + 1, "##vso["))
        assert_true(line == out || line[-1] == '\n');
    assert_null(strstr(out, "##["));
    assert_null(strchr(out, '\r'));
    assert_int_equal(count(out, "##vso[task.logissue "), 1);
    assert_non_null(strstr(out, "##vso[task.complete result=Failed;]\n"));
    free(out);
    fixture_release(&fx);

    /* Notes are plain log lines, no issues, and leave the step Succeeded. */
    fixture_init(&fx, "aks", NDP_SEVERITY_NOTE, 2);
    out = render(&ndp_report_azure, &fx);
    assert_null(strstr(out, "task.logissue"));
    assert_int_equal(count(out, "ndplint: note: "), 2);
    assert_non_null(strstr(out, "result=Succeeded;]"));
    free(out);
    fixture_release(&fx);

    fixture_init(&fx, "aks", NDP_SEVERITY_WARNING, 2);
    out = render(&ndp_report_azure, &fx);
    assert_int_equal(count(out, "##vso[task.logissue type=warning;"), 2);
    assert_non_null(strstr(out, "result=SucceededWithIssues;]"));
    free(out);
    fixture_release(&fx);

    fixture_init(&fx, "aks", NDP_SEVERITY_ERROR, 0);
    out = render(&ndp_report_azure, &fx);
    assert_null(strstr(out, "task.logissue"));
    assert_non_null(strstr(out, "##vso[task.complete result=Succeeded;]"));
    free(out);
    fixture_release(&fx);
}

static void markdown_input_cannot_make_markup(void **state)
{
    struct fixture fx;
    char *out;

    (void)state;
    fixture_init(&fx, "a|b`c`@team <img>\nx", NDP_SEVERITY_ERROR, 1);
    free(fx.result.findings.items[0].message);
    fx.result.findings.items[0].message = ndp_xstrdup("see @team [x](y) <b>|");
    out = render(&ndp_report_markdown, &fx);
    /* In a table cell the pipe is escaped inside the code span. */
    assert_non_null(strstr(out, "| ``a\\|b`c`@team <img>\\x0ax`` |"));
    /* Prose: no mention, no link, no HTML, no cell break. */
    assert_non_null(strstr(out, "see @\xe2\x80\x8bteam \\[x\\](y) \\<b\\>\\|"));
    free(out);
    fixture_release(&fx);
}

static void junit_escapes_xml(void **state)
{
    struct fixture fx;
    char *out;

    (void)state;
    fixture_init(&fx, "a<b>&\"c'\x01", NDP_SEVERITY_ERROR, 1);
    out = render(&ndp_report_junit, &fx);
    assert_non_null(strstr(out, "classname=\"a&lt;b&gt;&amp;&quot;c&apos;"
                                "\\x01\""));
    assert_null(strchr(out, '\x01'));
    assert_int_equal(count(out, "<failure "), 1);
    free(out);
    fixture_release(&fx);
}

/* GitLab: severities mapped, input text escaped, waived findings left out. */
static void gitlab_maps_escapes_and_skips_waived(void **state)
{
    static const struct {
        enum ndp_severity sev;
        const char *want;
    } sevs[] = {
        { NDP_SEVERITY_ERROR, "\"severity\": \"critical\"" },
        { NDP_SEVERITY_WARNING, "\"severity\": \"major\"" },
        { NDP_SEVERITY_NOTE, "\"severity\": \"info\"" },
    };
    struct ndp_buf fp = NDP_BUF_INIT;
    struct fixture fx;
    char *out;
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(sevs); i++) {
        fixture_init(&fx, "aks", sevs[i].sev, 1);
        out = render(&ndp_report_gitlab, &fx);
        assert_non_null(strstr(out, sevs[i].want));
        free(out);
        fixture_release(&fx);
    }

    fixture_init(&fx, "a\"b\\c\n\x01]", NDP_SEVERITY_ERROR, 3);
    fx.result.findings.items[1].suppression = ndp_xstrdup("waived: reason");
    fx.result.findings.items[2].line = 0;
    out = render(&ndp_report_gitlab, &fx);
    assert_non_null(strstr(out, "in cluster a\\\"b\\\\c\\n\\u0001]."));
    assert_null(strchr(out, '\x01'));
    assert_int_equal(count(out, "\"check_name\": \"NDP101\""), 2);
    assert_null(strstr(out, "p01"));
    /* Standard input has no file: path "-"; no line: line 1. */
    assert_non_null(strstr(out, "\"location\": {\"path\": \"-\", "
                                "\"lines\": {\"begin\": 1}}"));
    ndp_finding_fingerprint(&fp, &fx.result.findings.items[0]);
    assert_int_equal(fp.len, 64);
    assert_non_null(strstr(out, fp.buf));
    assert_int_equal(out[0], '[');
    assert_string_equal(out + strlen(out) - 3, "\n]\n");
    ndp_buf_release(&fp);
    free(out);
    fixture_release(&fx);

    fixture_init(&fx, "aks", NDP_SEVERITY_ERROR, 0);
    out = render(&ndp_report_gitlab, &fx);
    assert_string_equal(out, "[]\n");
    free(out);
    fixture_release(&fx);
}

/* Invalid UTF-8 in every string a report quotes, the input path too. */
#define BAD_UTF8 "k\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xf5\x80\xff\xe2\x82"

static void every_format_is_valid_utf8(void **state)
{
    struct fixture fx;
    struct ndp_finding *f;
    size_t i;

    (void)state;
    fixture_init(&fx, "aks" BAD_UTF8 "\xef\xbf\xbe\x01", NDP_SEVERITY_ERROR,
                 1);
    f = &fx.result.findings.items[0];
    free(f->message);
    f->message = ndp_xstrdup("why " BAD_UTF8);
    free(f->after);
    f->after = ndp_xstrdup("\"" BAD_UTF8 "\"");
    free(fx.result.set.inputs[0].path);
    fx.result.set.inputs[0].path = ndp_xstrdup("plan" BAD_UTF8 ".json");
    fx.result.clusters.items[0].input = fx.result.set.inputs[0].path;
    f->input = fx.result.set.inputs[0].path;
    /* Every reporter of the table. */
    for (i = 0; ndp_reporter_name(i); i++) {
        const struct ndp_reporter *rep =
            ndp_reporter_find(ndp_reporter_name(i));
        struct ndp_buf out = NDP_BUF_INIT, xml = NDP_BUF_INIT;

        ndp_report_render(&out, rep, &fx.report);
        if (!ndp_utf8_valid(out.buf, out.len))
            fail_msg("%s is not UTF-8", rep->name);
        /* Repairing again changes nothing: JUnit holds only XML's Chars. */
        ndp_utf8_repair(&xml, out.buf, out.len, rep->utf8_flags);
        assert_string_equal(xml.buf, out.buf);
        assert_non_null(strstr(out.buf, "\xef\xbf\xbd"));
        ndp_buf_release(&out);
        ndp_buf_release(&xml);
    }
    fixture_release(&fx);
}

static void markdown_bare_urls_do_not_autolink(void **state)
{
    struct fixture fx;
    char *out;

    (void)state;
    fixture_init(&fx, "aks", NDP_SEVERITY_ERROR, 1);
    free(fx.result.findings.items[0].message);
    fx.result.findings.items[0].message =
        ndp_xstrdup("see https://a.example WWW.b.example mailto:c ok: 20:00");
    out = render(&ndp_report_markdown, &fx);
    assert_non_null(strstr(out, "see https\\://a.example WWW\\.b.example "
                                "mailto\\:c ok: 20:00"));
    free(out);
    fixture_release(&fx);
}

/* A cluster whose detail alone passes the budget is left out, counted;
 * its row of the table stays. */
static void markdown_budget_counts_cluster_headers(void **state)
{
    struct fixture fx;
    struct ndp_buf out = NDP_BUF_INIT, note = NDP_BUF_INIT;
    size_t i;

    (void)state;
    for (i = 0; i < 5000; i++)
        ndp_buf_adds(&note, "a long note ");
    fixture_init(&fx, "aks", NDP_SEVERITY_ERROR, 3);
    fx.result.resolved.items[0].profile_note = ndp_buf_detach(&note);
    ndp_report_markdown_summary(&out, &fx.report, 6000);
    assert_true(out.len <= 6000);
    assert_non_null(strstr(out.buf, "a long note a long"));
    assert_non_null(strstr(out.buf, "..."));
    ndp_buf_reset(&out);
    ndp_report_markdown_summary(&out, &fx.report, 1800);
    assert_true(out.len <= 1800);
    assert_null(strstr(out.buf, "<details>"));
    assert_non_null(strstr(out.buf, "| `aks` |")); /* its row stays */
    assert_non_null(strstr(out.buf, "the detail of 1 cluster; 3 findings."));
    ndp_buf_release(&out);
    fixture_release(&fx);
}

/* Adds a cluster 'id' to 'fx', frozen (Block) with one refused finding. */
static void fixture_add_cluster(struct fixture *fx, const char *id)
{
    static const struct ndp_rule rule = { .id = "NDP101",
                                          .category = "network-policy" };
    struct ndp_report_options options = fx->report.options;
    size_t n = fx->result.clusters.nr;
    struct ndp_cluster *c;
    struct ndp_resolution *res;
    struct ndp_finding_spec spec = {
        .rule = &rule,
        .verdict = NDP_VERDICT_REJECTED,
        .input = fx->result.set.inputs[0].path,
        .cluster = id,
        .resource = id,
        .path = "p",
        .after = "\"azure\"",
        .message = "refused",
        .cluster_index = n,
    };

    NDP_GROW(fx->result.clusters.items, fx->result.clusters.alloc, n + 1);
    c = &fx->result.clusters.items[fx->result.clusters.nr++];
    memset(c, 0, sizeof(*c));
    c->id = ndp_xstrdup(id);
    c->input = fx->result.set.inputs[0].path;
    fx->result.resolved.items = ndp_xrealloc(
        fx->result.resolved.items, (n + 1) * sizeof(*res));
    fx->result.resolved.nr = n + 1;
    res = &fx->result.resolved.items[n];
    *res = fx->result.resolved.items[0];
    fx->result.impacts.items = ndp_xrealloc(
        fx->result.impacts.items, (n + 1) * sizeof(*fx->result.impacts.items));
    memset(&fx->result.impacts.items[n], 0,
           sizeof(*fx->result.impacts.items));
    fx->result.impacts.nr = n + 1;
    ndp_findings_add(&fx->result.findings, &spec);
    ndp_report_init(&fx->report, &fx->result, &options);
}

/*
 * The closing sentence of the Markdown summary is whole while the budget
 * has room for it, and otherwise names the clusters that fit, counts the
 * others and keeps its advice: no name is ever cut.
 */
static void markdown_apply_sentence_within_budget(void **state)
{
    struct fixture fx;
    struct ndp_buf out = NDP_BUF_INIT, id = NDP_BUF_INIT;
    static const size_t budgets[] = { 60000, 9000, 6000, 1500 };
    const char *last;
    size_t i, b, named;

    (void)state;
    fixture_init(&fx, "aks-0", NDP_SEVERITY_ERROR, 1);
    for (i = 1; i < 40; i++) {
        ndp_buf_reset(&id);
        ndp_buf_addf(&id, "aks-%zu-", i);
        while (id.len < 200)
            ndp_buf_addch(&id, 'x');
        fixture_add_cluster(&fx, id.buf);
    }
    for (b = 0; b < NDP_ARRAY_SIZE(budgets); b++) {
        ndp_buf_reset(&out);
        ndp_report_markdown_summary(&out, &fx.report, budgets[b]);
        assert_true(out.len <= budgets[b]);
        ndp_buf_setlen(&out, out.len - 1);
        last = strrchr(out.buf, '\n') + 1;
        assert_true(strncmp(last, "Cannot apply: ", 14) == 0);
        assert_non_null(strstr(last, "; to apply, lift it for this change "
                                     "with 'az aks update "
                                     "--node-disruption-policy Allow', then "
                                     "restore it"));
        named = 0;
        for (i = 0; i < fx.result.clusters.nr; i++) {
            ndp_buf_reset(&id);
            ndp_buf_addf(&id, "`%s`", fx.result.clusters.items[i].id);
            named += strstr(last, id.buf) != NULL;
        }
        /* Every name in the sentence is whole: as many spans as names. */
        for (i = 0; (last = strchr(last, '`')); last++)
            i++;
        assert_int_equal(i, 2 * named);
        if (b == 0)
            assert_int_equal(named, 40);
        else
            assert_true(named < 40);
        if (b > 0) {
            ndp_buf_reset(&id);
            ndp_buf_addf(&id, "%s%zu%s clusters are frozen",
                         named ? " and " : "Cannot apply: ", 40 - named,
                         named ? " more" : "");
            assert_non_null(strstr(out.buf, id.buf));
        }
    }
    ndp_buf_release(&out);
    ndp_buf_release(&id);
    fixture_release(&fx);
}

static void fingerprint_ignores_line_and_message(void **state)
{
    struct fixture fx;
    struct ndp_buf a = NDP_BUF_INIT, b = NDP_BUF_INIT;
    struct ndp_finding *f;

    (void)state;
    fixture_init(&fx, "aks", NDP_SEVERITY_ERROR, 1);
    f = &fx.result.findings.items[0];
    ndp_report_fingerprint(&a, f, "plan.json");
    f->line = 999;
    free(f->message);
    f->message = ndp_xstrdup("another message");
    f->verdict = NDP_VERDICT_OUTSIDE_WINDOW;
    ndp_report_fingerprint(&b, f, "plan.json");
    assert_string_equal(a.buf, b.buf);
    assert_int_equal(a.len, NDP_SHA256_HEX_LEN);
    ndp_buf_reset(&b);
    free(f->after);
    f->after = ndp_xstrdup("\"calico\"");
    ndp_report_fingerprint(&b, f, "plan.json");
    assert_string_not_equal(a.buf, b.buf);
    ndp_buf_release(&a);
    ndp_buf_release(&b);
    fixture_release(&fx);
}

int main(void)
{
    static struct test_list list;
    int rc;

    ADD_ROWS(&list, sha_cases, sha256_vectors);
    ADD_TEST(&list, github_hostile_input_is_inert);
    ADD_TEST(&list, github_cap_counts_left_out);
    ADD_ROWS(&list, azure_cases, azure_escape_table);
    ADD_TEST(&list, azure_hostile_input_is_inert);
    ADD_TEST(&list, markdown_input_cannot_make_markup);
    ADD_TEST(&list, junit_escapes_xml);
    ADD_TEST(&list, gitlab_maps_escapes_and_skips_waived);
    ADD_TEST(&list, fingerprint_ignores_line_and_message);
    ADD_TEST(&list, every_format_is_valid_utf8);
    ADD_TEST(&list, markdown_bare_urls_do_not_autolink);
    ADD_TEST(&list, markdown_budget_counts_cluster_headers);
    ADD_TEST(&list, markdown_apply_sentence_within_budget);
    rc = cmocka_run_group_tests_name("report", list.items, NULL, NULL);
    return rc;
}
