/*
 * SPDX-License-Identifier: Apache-2.0
 * test_config.c - the settings file (config.c): every key read into its
 * field, every refusal and its whole message (top-level keys, formats,
 * clusters, waivers, severity overrides, the cap on literal-free
 * patterns, and files that are missing, empty, not JSON, cut short or
 * too large), the first refusal standing, the fixtures of
 * fixtures/config/, discovery from a directory up to the repository
 * root, the glob used for clusters and waivers, and where a bracket
 * expression ends.
 */
#include "test_common.h"
#include "test_files.h"
#include "config.h"
#include "error.h"
#include "finding.h"
#include "policy.h"
#include "timeutil.h"

/* ---- refusals: the whole message, "FILE" for the file's path ---- */

struct refusal {
    const char *name;
    const char *text;       /* the file, ' for " */
    const char *message;
};

#define CHOICES_SEVERITY "must be error, warning, note or never"
#define CHOICES_PROFILE "must be Allow, AllowDuringMaintenanceWindow or Block"
#define W(body) "{'waivers': [" body "]}"
#define C(body) "{'clusters': [" body "]}"
#define OK_WAIVER "{'rule': 'NDP101', 'reason': 'r', 'expires': '2030-01-01'}"

static const struct refusal refusals[] = {
    /* The file as a whole. */
    { "top: an array is not a settings object", "[]",
      "config 'FILE': must be a JSON object" },
    { "top: a string is not a settings object", "'x'",
      "config 'FILE': must be a JSON object" },
    { "top: null is not a settings object", "null",
      "config 'FILE': must be a JSON object" },
    { "top: an unknown key", "{'colour': 'blue'}",
      "config 'FILE': colour: unknown key" },
    { "top: keys compare in their case", "{'Fail_On': 'error'}",
      "config 'FILE': Fail_On: unknown key" },
    { "top: an unknown key holding hostile text",
      "{'\\n::error file=main.tf::FORGED': 1}",
      "config 'FILE': \n::error file=main.tf::FORGED: unknown key" },
    /* fail_on, profile, rules, formats. */
    { "fail_on: a number", "{'fail_on': 1}",
      "config 'FILE': fail_on: must be a non-empty string" },
    { "fail_on: empty", "{'fail_on': ''}",
      "config 'FILE': fail_on: must be a non-empty string" },
    { "fail_on: null", "{'fail_on': null}",
      "config 'FILE': fail_on: must be a non-empty string" },
    { "fail_on: not a severity", "{'fail_on': 'fatal'}",
      "config 'FILE': fail_on: " CHOICES_SEVERITY },
    { "fail_on: a severity in another case", "{'fail_on': 'Error'}",
      "config 'FILE': fail_on: " CHOICES_SEVERITY },
    { "profile: not a profile", "{'profile': 'Freeze'}",
      "config 'FILE': profile: " CHOICES_PROFILE },
    { "profile: an array", "{'profile': ['Block']}",
      "config 'FILE': profile: must be a non-empty string" },
    { "at: a number", "{'at': 1796524200}",
      "config 'FILE': at: must be a non-empty string" },
    { "at: a relative offset", "{'at': '+6h'}",
      "config 'FILE': at: must be \"now\", \"next-window\" or an RFC 3339 "
      "instant (2026-12-06T02:30:00Z)" },
    { "at: another case", "{'at': 'Next-Window'}",
      "config 'FILE': at: must be \"now\", \"next-window\" or an RFC 3339 "
      "instant (2026-12-06T02:30:00Z)" },
    { "at: no time zone", "{'at': '2026-12-06T02:30:00'}",
      "config 'FILE': at: must be \"now\", \"next-window\" or an RFC 3339 "
      "instant (2026-12-06T02:30:00Z)" },
    { "rules: empty", "{'rules': ''}",
      "config 'FILE': rules: must be a non-empty string" },
    { "rules: an object", "{'rules': {}}",
      "config 'FILE': rules: must be a non-empty string" },
    { "formats: a string", "{'formats': 'text'}",
      "config 'FILE': formats: must be an array" },
    { "formats: null", "{'formats': null}",
      "config 'FILE': formats: must be an array" },
    { "formats: a number in the list", "{'formats': ['text', 3]}",
      "config 'FILE': formats[1]: must be a string FMT or FMT:PATH" },
    /* clusters[]. */
    { "clusters: an object", "{'clusters': {}}",
      "config 'FILE': clusters: must be an array" },
    { "clusters: an entry that is not an object", C("'*'"),
      "config 'FILE': clusters[0]: must be an object" },
    { "clusters: an unknown key", C("{'match': '*', 'name': 'x'}"),
      "config 'FILE': clusters[0].name: unknown key" },
    { "clusters: match is required", C("{'profile': 'Block'}"),
      "config 'FILE': clusters[0].match: is required" },
    { "clusters: match empty", C("{'match': ''}"),
      "config 'FILE': clusters[0].match: must be a non-empty string" },
    { "clusters: match null", C("{'match': null}"),
      "config 'FILE': clusters[0].match: must be a non-empty string" },
    { "clusters: the entry's index is named",
      C("{'match': 'a'}, {'match': 'b', 'profile': 'block-all'}"),
      "config 'FILE': clusters[1].profile: " CHOICES_PROFILE },
    { "clusters: profile null", C("{'match': 'a', 'profile': null}"),
      "config 'FILE': clusters[0].profile: must be a non-empty string" },
    { "clusters: until not a day", C("{'match': 'a', 'until': '2026-13-01'}"),
      "config 'FILE': clusters[0].until: must be a date YYYY-MM-DD" },
    { "clusters: until a day February does not have",
      C("{'match': 'a', 'until': '2026-02-29'}"),
      "config 'FILE': clusters[0].until: must be a date YYYY-MM-DD" },
    { "clusters: until with a time", C("{'match': 'a', 'until': "
                                       "'2026-12-31T00:00:00Z'}"),
      "config 'FILE': clusters[0].until: must be a date YYYY-MM-DD" },
    { "clusters: until null", C("{'match': 'a', 'until': null}"),
      "config 'FILE': clusters[0].until: must be a non-empty string" },
    { "clusters: window an array", C("{'match': 'a', 'window': []}"),
      "config 'FILE': clusters[0].window: must be an ARM MaintenanceWindow "
      "object" },
    { "clusters: window a string", C("{'match': 'a', 'window': 'Sunday'}"),
      "config 'FILE': clusters[0].window: must be an ARM MaintenanceWindow "
      "object" },
    { "clusters: window null", C("{'match': 'a', 'window': null}"),
      "config 'FILE': clusters[0].window: must be an ARM MaintenanceWindow "
      "object" },
    /* waivers[]. */
    { "waivers: an object", "{'waivers': {}}",
      "config 'FILE': waivers: must be an array" },
    { "waivers: an entry that is not an object", W("[]"),
      "config 'FILE': waivers[0]: must be an object" },
    { "waivers: an unknown key", W("{'rule': 'NDP101', 'until': 'x'}"),
      "config 'FILE': waivers[0].until: unknown key" },
    { "waivers: reason is required", W("{'rule': 'NDP101', 'expires': "
                                       "'2030-01-01'}"),
      "config 'FILE': waivers[0].reason: is required" },
    { "waivers: reason empty", W("{'rule': 'NDP101', 'reason': '', "
                                 "'expires': '2030-01-01'}"),
      "config 'FILE': waivers[0].reason: must be a non-empty string" },
    { "waivers: expires is required", W("{'rule': 'NDP101', 'reason': 'r'}"),
      "config 'FILE': waivers[0].expires: is required" },
    { "waivers: expires not a day", W("{'rule': 'NDP101', 'reason': 'r', "
                                      "'expires': '2030-1-5'}"),
      "config 'FILE': waivers[0].expires: must be a date YYYY-MM-DD" },
    { "waivers: expires a number", W("{'rule': 'NDP101', 'reason': 'r', "
                                     "'expires': 20300101}"),
      "config 'FILE': waivers[0].expires: must be a non-empty string" },
    { "waivers: neither rule nor category", W("{'match': '*', 'reason': "
                                              "'r', 'expires': '2030-01-01'}"),
      "config 'FILE': waivers[0]: needs a 'rule' or a 'category'" },
    { "waivers: rule a number", W("{'rule': 101, 'reason': 'r', "
                                  "'expires': '2030-01-01'}"),
      "config 'FILE': waivers[0].rule: must be a non-empty string" },
    { "waivers: category empty", W("{'category': '', 'reason': 'r', "
                                   "'expires': '2030-01-01'}"),
      "config 'FILE': waivers[0].category: must be a non-empty string" },
    { "waivers: match null does not widen the waiver",
      W("{'rule': 'NDP101', 'match': null, 'reason': 'r', "
        "'expires': '2030-01-01'}"),
      "config 'FILE': waivers[0].match: must be a non-empty string" },
    { "waivers: match empty", W("{'rule': 'NDP101', 'match': '', "
                                "'reason': 'r', 'expires': '2030-01-01'}"),
      "config 'FILE': waivers[0].match: must be a non-empty string" },
    { "waivers: the entry's index is named",
      W(OK_WAIVER ", " OK_WAIVER ", {'rule': 'NDP101'}"),
      "config 'FILE': waivers[2].reason: is required" },
    /* severity_overrides[]: the messages unit_overrides checks in part. */
    { "severity_overrides: an object", "{'severity_overrides': {}}",
      "config 'FILE': severity_overrides: must be an array" },
    /* Not a verdict: overrides__every_verdict_by_name. */
    { "severity_overrides: severity never",
      "{'severity_overrides': [{'rule': 'NDP101', 'severity': 'never', "
      "'reason': 'r'}]}",
      "config 'FILE': severity_overrides[0].severity: must be error, "
      "warning, note or off" },
    { "severity_overrides: neither rule nor verdict",
      "{'severity_overrides': [{'severity': 'note', 'reason': 'r'}]}",
      "config 'FILE': severity_overrides[0]: needs exactly one of 'rule' "
      "and 'verdict'" },
    /* The first refusal stands. */
    { "first: an unknown key before a bad value",
      "{'fail_on': 'fatal', 'zzz': 1}", "config 'FILE': zzz: unknown key" },
    { "first: fail_on before profile", "{'profile': 'x', 'fail_on': 'x'}",
      "config 'FILE': fail_on: " CHOICES_SEVERITY },
    { "first: clusters before waivers",
      "{'waivers': [1], 'clusters': [1]}",
      "config 'FILE': clusters[0]: must be an object" },
    { "first: waivers before severity_overrides",
      "{'severity_overrides': [1], 'waivers': [1]}",
      "config 'FILE': waivers[0]: must be an object" },
    /* Files that are no settings object at all. */
    { "file: empty", "", "'FILE' is empty; expected an .ndplint.json "
                         "settings object" },
    { "file: blank", " \n\t ", "'FILE' is empty; expected an .ndplint.json "
                               "settings object" },
    { "file: text", "fail_on = error\n",
      "'FILE' is not JSON (it begins with a word, as text output, an error "
      "message or a configuration file does); expected an "
      ".ndplint.json settings object, not text output or an error "
      "message" },
    { "file: cut short", "{'fail_on': 'error'",
      "'FILE' ends in the middle of the JSON document (truncated at line 1, "
      "byte 19)" },
    { "file: data after the object", "{} {}",
      "'FILE' is not valid JSON: unexpected character at line 1 (byte 3)" },
};

static void refusal_test(void **state)
{
    const struct refusal *row = *state;
    char *path = test_write_json("refused.ndplint.json", row->text);
    char *want = test_with_path(row->message, path);
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;
    int rc = ndp_config_load(&c, path, &err);

    if (rc == 0)
        fail_msg("accepted; want '%s'", want);
    assert_true(rc < 0);
    assert_string_equal(err.msg, want);
    /* Refused: nothing is left to free. */
    assert_null(c.path);
    assert_null(c.root);
    assert_int_equal(c.nr_clusters + c.nr_waivers + c.nr_overrides, 0);
    ndp_config_release(&c);
    free(want);
    free(path);
}

/* The error code of each kind of refusal: the file, or what it says. */
static void refusals__codes_say_file_or_settings(void **state)
{
    static const struct {
        const char *text;
        int code;
    } codes[] = {
        { "{'colour': 1}", NDP_ECONFIG },
        { "[]", NDP_ECONFIG },
        { "", NDP_ESCHEMA },
        { "text", NDP_EPARSE },
        { "{", NDP_EPARSE },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(codes); i++) {
        char *path = test_write_json("code.ndplint.json", codes[i].text);
        struct ndp_error err = NDP_ERROR_INIT;
        struct ndp_config c;

        if (ndp_config_load(&c, path, &err) != codes[i].code)
            fail_msg("'%s': code %d, want %d (%s)", codes[i].text, err.code,
                     codes[i].code, err.msg);
        free(path);
    }
}

/* A missing file, a directory, a NUL byte, a file past 1 MiB. */
static void refusals__unreadable_files_name_the_file(void **state)
{
    char *missing = test_path("missing.ndplint.json");
    char *dir = test_path("dir.ndplint.json");
    char *want;
    char nul[] = "{\"fail_on\": \"error\"}\0";
    char *big = calloc(1, (1 << 20) + 2);
    char *path;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;

    (void)state;
    assert_int_equal(ndp_config_load(&c, missing, &err), NDP_EIO);
    want = test_with_path("cannot open 'FILE': No such file or directory",
                          missing);
    assert_string_equal(err.msg, want);
    free(want);

    test_mkdir("dir.ndplint.json");
    ndp_error_clear(&err);
    assert_int_equal(ndp_config_load(&c, dir, &err), NDP_EIO);
    assert_non_null(strstr(err.msg, dir));
    assert_non_null(strstr(err.msg, "is a directory"));

    path = test_write_bytes("nul.ndplint.json", nul, sizeof(nul) - 1);
    ndp_error_clear(&err);
    assert_int_equal(ndp_config_load(&c, path, &err), NDP_EPARSE);
    want = test_with_path("'FILE' contains a NUL byte at offset 20; not a "
                          "JSON text file", path);
    assert_string_equal(err.msg, want);
    free(want);
    free(path);

    /* An object of blanks one byte past the limit. */
    memset(big, ' ', (1 << 20) + 1);
    big[0] = '{';
    big[1 << 20] = '}';
    path = test_write_bytes("big.ndplint.json", big, (1 << 20) + 1);
    ndp_error_clear(&err);
    assert_int_equal(ndp_config_load(&c, path, &err), NDP_ELIMIT);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "larger than the input limit of "
                                    "1048576 bytes"));
    free(path);
    /* At the limit it is read. */
    big[(1 << 20) - 1] = '}';
    big[1 << 20] = '\0';
    path = test_write_bytes("big.ndplint.json", big, 1 << 20);
    ndp_error_clear(&err);
    assert_int_equal(ndp_config_load(&c, path, &err), 0);
    ndp_config_release(&c);
    free(path);
    free(big);
    free(dir);
    free(missing);
}

/* ---- what is read ---- */

static int64_t last_second_of(const char *day)
{
    int64_t days;

    assert_int_equal(ndp_date_parse(&days, day), 0);
    return days * 86400 + 86399;
}

static void load_text(struct ndp_config *c, const char *text)
{
    char *path = test_write_json("read.ndplint.json", text);
    struct ndp_error err = NDP_ERROR_INIT;

    if (ndp_config_load(c, path, &err) != 0)
        fail_msg("refused: %s", err.msg);
    assert_string_equal(c->path, path);
    free(path);
}

/* "at": now (nothing set), next-window, or an instant. */
static void at__now_next_window_or_an_instant(void **state)
{
    struct ndp_config c;

    (void)state;
    load_text(&c, "{'at': 'now'}");
    assert_false(c.has_at);
    assert_false(c.at_next_window);
    ndp_config_release(&c);
    load_text(&c, "{'at': 'next-window'}");
    assert_false(c.has_at);
    assert_true(c.at_next_window);
    ndp_config_release(&c);
    load_text(&c, "{'at': '2026-12-05T21:30:00-05:00'}");
    assert_true(c.has_at);
    assert_false(c.at_next_window);
    assert_int_equal(c.at, 1796524200);
    ndp_config_release(&c);
    load_text(&c, "{}");
    assert_false(c.has_at);
    assert_false(c.at_next_window);
    ndp_config_release(&c);
}

/* Every key of the file, read into its field. */
static void every_key__read_into_its_field(void **state)
{
    struct ndp_config c;

    (void)state;
    load_text(&c,
        "{'fail_on': 'warning', 'profile': 'allowduringmaintenancewindow',"
        " 'rules': 'ci/rules', 'formats': ['text', 'sarif:out.sarif'],"
        " 'clusters': ["
        "  {'match': 'module.prod*', 'profile': 'Block', 'until': "
        "'2024-02-29', 'window': {'durationHours': 4}},"
        "  {'match': '/subscriptions/*'}],"
        " 'waivers': ["
        "  {'rule': 'NDP101', 'match': 'a.b', 'reason': 'why', 'expires': "
        "'2026-12-05'},"
        "  {'category': 'rotate', 'reason': 'because', 'expires': "
        "'2027-01-01'},"
        "  {'rule': 'NDP502', 'category': 'rotate', 'reason': 'r', "
        "'expires': '1970-01-01'}],"
        " 'severity_overrides': [{'verdict': 'rotate', 'severity': 'off', "
        "'reason': 'later'}]}");
    assert_int_equal(c.fail_on, NDP_SEVERITY_WARNING);
    assert_int_equal(c.profile, NDP_PROFILE_WINDOW);
    assert_string_equal(c.rules_dir, "ci/rules");
    assert_int_equal(c.nr_formats, 2);
    assert_string_equal(c.formats[0], "text");
    assert_string_equal(c.formats[1], "sarif:out.sarif");

    assert_int_equal(c.nr_clusters, 2);
    assert_string_equal(c.clusters[0].match, "module.prod*");
    assert_int_equal(c.clusters[0].profile, NDP_PROFILE_BLOCK);
    assert_true(c.clusters[0].has_until);
    assert_string_equal(c.clusters[0].until_text, "2024-02-29");
    assert_int_equal(c.clusters[0].until, last_second_of("2024-02-29"));
    assert_non_null(c.clusters[0].window);
    assert_int_equal(json_object_get_int(json_object_object_get(
                         c.clusters[0].window, "durationHours")), 4);
    assert_string_equal(c.clusters[1].match, "/subscriptions/*");
    assert_int_equal(c.clusters[1].profile, -1);
    assert_false(c.clusters[1].has_until);
    assert_null(c.clusters[1].until_text);
    assert_null(c.clusters[1].window);

    assert_int_equal(c.nr_waivers, 3);
    assert_string_equal(c.waivers[0].rule, "NDP101");
    assert_null(c.waivers[0].category);
    assert_string_equal(c.waivers[0].match, "a.b");
    assert_string_equal(c.waivers[0].reason, "why");
    assert_string_equal(c.waivers[0].expires_text, "2026-12-05");
    assert_int_equal(c.waivers[0].expires, last_second_of("2026-12-05"));
    assert_int_equal(c.waivers[0].index, 0);
    assert_null(c.waivers[1].rule);
    assert_string_equal(c.waivers[1].category, "rotate");
    assert_null(c.waivers[1].match);
    assert_int_equal(c.waivers[1].index, 1);
    assert_int_equal(c.waivers[2].expires, 86399);
    assert_int_equal(c.waivers[2].index, 2);

    assert_int_equal(c.nr_overrides, 1);
    assert_true(c.overrides[0].off);
    ndp_config_release(&c);
    assert_null(c.path);
    assert_null(c.root);
    ndp_config_release(&c); /* twice: nothing left to free */
}

/* An empty object, and empty lists: every default. */
static void empty__every_default(void **state)
{
    static const char *const texts[] = {
        "{}",
        "{'formats': [], 'clusters': [], 'waivers': [], "
        "'severity_overrides': []}",
        "\xef\xbb\xbf{}", /* a UTF-8 byte order mark */
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(texts); i++) {
        struct ndp_config c;
        load_text(&c, texts[i]);
        assert_int_equal(c.fail_on, -1);
        assert_int_equal(c.profile, -1);
        assert_null(c.rules_dir);
        assert_int_equal(c.nr_formats, 0);
        assert_int_equal(c.nr_clusters, 0);
        assert_int_equal(c.nr_waivers, 0);
        assert_int_equal(c.nr_overrides, 0);
        ndp_config_release(&c);
    }
}

/* fail_on and profile: every name each takes. */
static void names__every_severity_and_profile(void **state)
{
    static const struct {
        const char *text;
        int fail_on, profile;
    } names[] = {
        { "{'fail_on': 'error', 'profile': 'Allow'}", NDP_SEVERITY_ERROR,
          NDP_PROFILE_ALLOW },
        { "{'fail_on': 'warning', 'profile': 'AllowDuringMaintenanceWindow'}",
          NDP_SEVERITY_WARNING, NDP_PROFILE_WINDOW },
        { "{'fail_on': 'note', 'profile': 'Block'}", NDP_SEVERITY_NOTE,
          NDP_PROFILE_BLOCK },
        { "{'fail_on': 'never', 'profile': 'BLOCK'}", NDP_SEVERITY_NEVER,
          NDP_PROFILE_BLOCK },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(names); i++) {
        struct ndp_config c;
        load_text(&c, names[i].text);
        assert_int_equal(c.fail_on, names[i].fail_on);
        assert_int_equal(c.profile, names[i].profile);
        ndp_config_release(&c);
    }
}

/*
 * An override names any verdict of the table, and one that names none is
 * refused with every name the table holds, in its order.
 */
static void overrides__every_verdict_by_name(void **state)
{
    struct ndp_buf text = NDP_BUF_INIT, want = NDP_BUF_INIT;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_config c;
    const char *name;
    char *path, *msg;
    size_t i;

    (void)state;
    for (i = 0; (name = ndp_verdict_choice(i)); i++) {
        ndp_buf_reset(&text);
        ndp_buf_addf(&text, "{'severity_overrides': [{'verdict': '%s', "
                     "'severity': 'note', 'reason': 'r'}]}", name);
        load_text(&c, text.buf);
        assert_int_equal(c.nr_overrides, 1);
        assert_int_equal(c.overrides[0].verdict, (int)i);
        ndp_config_release(&c);
    }
    assert_int_equal(i, NDP_VERDICT_COUNT);
    path = test_write_json("verdict.ndplint.json",
                           "{'severity_overrides': [{'verdict': 'reimage', "
                           "'severity': 'error', 'reason': 'r'}]}");
    ndp_buf_adds(&want, "config 'FILE': severity_overrides[0].verdict: "
                 "must be a verdict: ");
    ndp_buf_add_names(&want, ndp_verdict_choice, " or ");
    msg = test_with_path(want.buf, path);
    assert_true(ndp_config_load(&c, path, &err) < 0);
    assert_string_equal(err.msg, msg);
    free(msg);
    free(path);
    ndp_buf_release(&want);
    ndp_buf_release(&text);
}

/*
 * At most 256 waivers whose match has no literal text; a bracket
 * expression that holds a ']' is read whole ('[!]]*' has no literal).
 */
static void literal_free__at_most_256(void **state)
{
    static const struct {
        const char *pattern;
        size_t n;
        bool refused;
    } cases[] = {
        { "[a]*", 256, false },
        { "[a]*", 257, true },
        { "?*", 257, true },
        { "[!]]*", 257, true },
        { "[]a]?", 257, true },
        { "[\\]]*", 257, true },
        { "a*", 300, false },
        { "*a", 300, false },
        { "[a", 300, true },        /* '[' unclosed: not known to be literal */
        { "[[:alpha:]]x", 300, true }, /* a class: nothing known past it */
    };
    size_t i, k;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(cases); i++) {
        struct ndp_buf text = NDP_BUF_INIT;
        struct ndp_error err = NDP_ERROR_INIT;
        struct ndp_config c;
        char *path;
        int rc;

        ndp_buf_adds(&text, "{\"waivers\": [");
        for (k = 0; k < cases[i].n; k++) {
            ndp_buf_addf(&text, "%s{\"rule\": \"NDP101\", \"match\": ",
                         k ? ", " : "");
            ndp_buf_add_json_string(&text, cases[i].pattern);
            ndp_buf_adds(&text, ", \"reason\": \"r\", \"expires\": "
                                "\"2030-01-01\"}");
        }
        ndp_buf_adds(&text, "]}");
        path = test_write_bytes("many.ndplint.json", text.buf, text.len);
        rc = ndp_config_load(&c, path, &err);
        if (cases[i].refused) {
            char *want = test_with_path("config 'FILE': waivers: more than "
                                        "256 'match' patterns without "
                                        "literal text (each is tried on "
                                        "every finding); name the resources",
                                        path);
            if (rc != NDP_ECONFIG)
                fail_msg("%zu x '%s' accepted", cases[i].n,
                         cases[i].pattern);
            assert_string_equal(err.msg, want);
            free(want);
        } else {
            if (rc)
                fail_msg("%zu x '%s' refused: %s", cases[i].n,
                         cases[i].pattern, err.msg);
            assert_int_equal(c.nr_waivers, cases[i].n);
            ndp_config_release(&c);
        }
        free(path);
        ndp_buf_release(&text);
    }
}

/* ---- the fixtures of fixtures/config/ ---- */

static void fixtures__read_as_written(void **state)
{
    struct ndp_config c;
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    assert_int_equal(ndp_config_load(&c, NDP_FIXTURES_DIR
                                     "/config/waivers.ndplint.json", &err), 0);
    assert_int_equal(c.fail_on, NDP_SEVERITY_ERROR);
    assert_int_equal(c.nr_clusters, 2);
    assert_int_equal(c.clusters[0].until, last_second_of("2026-12-31"));
    assert_int_equal(c.clusters[1].profile, NDP_PROFILE_WINDOW);
    assert_non_null(c.clusters[1].window);
    assert_int_equal(c.nr_waivers, 2);
    assert_string_equal(c.waivers[1].category, "outbound-type");
    assert_string_equal(c.waivers[1].match, "azurerm_kubernetes_cluster.*");
    ndp_config_release(&c);

    assert_int_equal(ndp_config_load(&c, NDP_FIXTURES_DIR
                                     "/config/freeze.ndplint.json", &err), 0);
    assert_int_equal(c.profile, NDP_PROFILE_BLOCK);
    assert_int_equal(c.nr_formats, 2);
    assert_string_equal(c.formats[1], "json:ndplint-report.json");
    ndp_config_release(&c);

    /* Hostile text in a reason is kept as written. */
    assert_int_equal(ndp_config_load(&c, NDP_FIXTURES_DIR
                                     "/config/hostile-waiver.ndplint.json",
                                     &err), 0);
    assert_non_null(strstr(c.waivers[0].reason, "\n::error file=a,line=1::"
                                                "FORGED\n"));
    ndp_config_release(&c);

    assert_int_equal(ndp_config_load(&c, NDP_FIXTURES_DIR
                                     "/config/bad-key.ndplint.json", &err),
                     NDP_ECONFIG);
    assert_string_equal(err.msg, "config '" NDP_FIXTURES_DIR
                                 "/config/bad-key.ndplint.json': "
                                 "clusters[0].profil: unknown key");
    ndp_error_clear(&err);
    assert_int_equal(ndp_config_load(&c, NDP_FIXTURES_DIR
                                     "/config/literal-free-waivers.ndplint."
                                     "json", &err), NDP_ECONFIG);
    assert_non_null(strstr(err.msg, "waivers: more than 256 'match' "
                                    "patterns"));
}

/* ---- discovery ---- */

/*
 * A tree under the group's directory:
 *   repo/.git/  repo/.ndplint.json  repo/a/b/c/  repo/a/.ndplint.json
 *   repo/sub/.git (a file, as a worktree has)  repo/sub/d/
 *   top/.ndplint.json  top/inner/.git/  top/inner/e/
 */
static void find__nearest_file_up_to_the_repository_root(void **state)
{
    static const char *const dirs[] = {
        "repo", "repo/.git", "repo/a", "repo/a/b", "repo/a/b/c", "repo/sub",
        "repo/sub/d", "top", "top/inner", "top/inner/.git", "top/inner/e",
    };
    static const struct {
        const char *start;      /* under the group's directory */
        const char *found;      /* the same, or NULL */
    } cases[] = {
        { "repo", "repo/.ndplint.json" },
        { "repo/", "repo//.ndplint.json" },
        { "repo/a", "repo/a/.ndplint.json" },
        { "repo/a/b/c", "repo/a/.ndplint.json" },
        { "repo/sub/d", NULL },          /* .git as a file stops it too */
        { "repo/.git", "repo/.ndplint.json" },
        { "top/inner/e", NULL },         /* not past the repository root */
        { "top", "top/.ndplint.json" },
    };
    size_t i;
    char *f;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(dirs); i++)
        test_mkdir(dirs[i]);
    free(test_write_json("repo/.ndplint.json", "{}"));
    free(test_write_json("repo/a/.ndplint.json", "{}"));
    free(test_write_json("repo/sub/.git", "gitdir: elsewhere\n"));
    free(test_write_json("top/.ndplint.json", "{}"));
    for (i = 0; i < NDP_ARRAY_SIZE(cases); i++) {
        char *start = test_path(cases[i].start);
        char *want = cases[i].found ? test_path(cases[i].found) : NULL;
        char *got = ndp_config_find(start);

        if (!want != !got || (want && strcmp(want, got) != 0))
            fail_msg("from '%s': found '%s', want '%s'", start,
                     got ? got : "(none)", want ? want : "(none)");
        free(start);
        free(want);
        free(got);
    }
    /* The root directory, and a relative start with no slash. */
    f = ndp_config_find("/");
    if (f)
        assert_string_equal(f, "//" NDP_CONFIG_NAME);
    free(f);
    assert_null(ndp_config_find("no-such-directory"));
}

/* ---- the glob over cluster and resource ids ---- */

struct glob_row {
    const char *pattern, *text;
    bool match;
};

static const struct glob_row globs[] = {
    { "azurerm_kubernetes_cluster.*", "azurerm_kubernetes_cluster.main", true },
    { "azurerm_kubernetes_cluster.*", "azurerm_kubernetes_cluster_node_pool.x",
      false },
    { "*", "", true },
    { "", "", true },
    { "", "x", false },
    { "?", "", false },
    { "module.*.azurerm_kubernetes_cluster.main",
      "module.a.module.b.azurerm_kubernetes_cluster.main", true },
    { "AZURERM_*", "azurerm_kubernetes_cluster.main", false },
    { "pool[\"p1\"]", "pool[\"p1\"]", false },
    { "pool[[]\"p1\"]", "pool[\"p1\"]", true },
    { "pool?\"p1\"?", "pool[\"p1\"]", true },
    { "*/managedClusters/AKS1", "/subscriptions/S/resourceGroups/G/providers/"
      "Microsoft.ContainerService/managedclusters/aks1", true },
    { "/SUBSCRIPTIONS/s/*", "/subscriptions/S/x", true },
    { "*/[A]ks1", "/x/aks1", true },
    { "*/[a]ks1", "/X/AKS1", true },
    { "\\*", "*", true },
    { "\\*", "x", false },
    { "a[!]]b", "acb", true },
    { "a[!]]b", "a]b", false },
};

static void glob_match__table(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(globs); i++)
        if (ndp_glob_match(globs[i].pattern, globs[i].text) != globs[i].match)
            fail_msg("'%s' on '%s': want %s", globs[i].pattern,
                     globs[i].text, globs[i].match ? "match" : "no match");
}

/* Where each bracket expression ends (offset past ']'), or -1. */
static void bracket_end__as_fnmatch_reads_it(void **state)
{
    static const struct {
        const char *open;
        int end;
    } cases[] = {
        { "[ab]c", 4 }, { "[]a]", 4 }, { "[!]a]", 5 }, { "[^]]x", 4 },
        { "[\\]]", 4 }, { "[a\\]b]", 6 }, { "[a-]]", 4 }, { "[[]", 3 },
        { "[a", -1 }, { "[", -1 }, { "[]", -1 }, { "[!", -1 },
        { "[!]", -1 }, { "[\\", -1 }, { "[a\\", -1 },
        { "[[:alpha:]]", -1 }, { "[[=a=]]", -1 }, { "[[.a.]]", -1 },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(cases); i++) {
        const char *end = ndp_glob_bracket_end(cases[i].open);
        int got = end ? (int)(end - cases[i].open) : -1;
        if (got != cases[i].end)
            fail_msg("'%s': end %d, want %d", cases[i].open, got,
                     cases[i].end);
    }
}

/* The first entry whose glob matches; none; no settings at all. */
static void cluster_for__first_match_wins(void **state)
{
    struct ndp_config c;

    (void)state;
    load_text(&c, "{'clusters': [{'match': 'module.prod.*', 'profile': "
                  "'Block'}, {'match': 'module.*'}, {'match': "
                  "'*/managedClusters/aks1'}]}");
    assert_ptr_equal(ndp_config_cluster_for(&c, "module.prod.x"),
                     &c.clusters[0]);
    assert_ptr_equal(ndp_config_cluster_for(&c, "module.dev.x"),
                     &c.clusters[1]);
    assert_ptr_equal(ndp_config_cluster_for(&c, "/S/MANAGEDCLUSTERS/AKS1"),
                     &c.clusters[2]);
    assert_null(ndp_config_cluster_for(&c, "azurerm_kubernetes_cluster.x"));
    assert_null(ndp_config_cluster_for(&c, ""));
    assert_null(ndp_config_cluster_for(NULL, "module.prod.x"));
    ndp_config_release(&c);
}

/*
 * A cluster known by several ids (a rename: old address, new address,
 * ARM id) gets the strictest entry any of them matches; a tie goes to the
 * earliest entry; an id matching nothing, or NULL, changes nothing.
 */
static void cluster_strictest__a_rename_never_loosens(void **state)
{
    struct ndp_config c;
    const char *renamed[] = { "azurerm_kubernetes_cluster.prod_v2",
                              "azurerm_kubernetes_cluster.prod",
                              "/s/managedClusters/aks1" };
    const char *plain[] = { "azurerm_kubernetes_cluster.dev", NULL, NULL };
    const char *both_window[] = { "module.a.x", "module.b.x", NULL };

    (void)state;
    load_text(&c, "{'clusters': [{'match': '*_v2', 'profile': 'Allow'}, "
                  "{'match': 'azurerm_kubernetes_cluster.prod', 'profile': "
                  "'Block'}, {'match': 'module.a.*', 'profile': "
                  "'AllowDuringMaintenanceWindow'}, {'match': 'module.b.*', "
                  "'profile': 'AllowDuringMaintenanceWindow'}, {'match': "
                  "'*/managedClusters/aks1', 'profile': "
                  "'AllowDuringMaintenanceWindow'}]}");
    assert_ptr_equal(ndp_config_cluster_strictest(&c, renamed, 3),
                     &c.clusters[1]);
    assert_ptr_equal(ndp_config_cluster_strictest(&c, renamed, 1),
                     &c.clusters[0]);
    assert_null(ndp_config_cluster_strictest(&c, plain, 3));
    assert_ptr_equal(ndp_config_cluster_strictest(&c, both_window, 3),
                     &c.clusters[2]);
    ndp_config_release(&c);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, refusals, refusal_test);
    ADD_TEST(&list, refusals__codes_say_file_or_settings);
    ADD_TEST(&list, refusals__unreadable_files_name_the_file);
    ADD_TEST(&list, at__now_next_window_or_an_instant);
    ADD_TEST(&list, every_key__read_into_its_field);
    ADD_TEST(&list, empty__every_default);
    ADD_TEST(&list, names__every_severity_and_profile);
    ADD_TEST(&list, overrides__every_verdict_by_name);
    ADD_TEST(&list, literal_free__at_most_256);
    ADD_TEST(&list, fixtures__read_as_written);
    ADD_TEST(&list, find__nearest_file_up_to_the_repository_root);
    ADD_TEST(&list, glob_match__table);
    ADD_TEST(&list, bracket_end__as_fnmatch_reads_it);
    ADD_TEST(&list, cluster_for__first_match_wins);
    ADD_TEST(&list, cluster_strictest__a_rename_never_loosens);
    return cmocka_run_group_tests_name("config", list.items, test_dir_make,
                                       test_dir_remove);
}
