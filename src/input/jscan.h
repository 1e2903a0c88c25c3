/*
 * SPDX-License-Identifier: Apache-2.0
 * jscan.h - a validating, non-allocating cursor over one JSON document.
 *
 * The readers use it to walk a large document held in memory (a Terraform
 * plan of hundreds of megabytes), skip what they do not need at close to
 * memchr speed, and hand only the byte ranges they keep to json-c.  It
 * accepts exactly the documents json-c 0.16 accepts with
 * json_tokener_new_ex(512), JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8
 * and "only whitespace may follow the value" (tests/jscan_diff proves it),
 * quirks included:
 *
 *   - whitespace is space, tab, LF and CR only;
 *   - raw control characters 0x01-0x1f are allowed inside strings, a NUL
 *     byte is refused anywhere;
 *   - UTF-8 is checked for shape only (lead byte C0-F7 followed by the right
 *     number of 80-BF bytes): overlong forms, encoded surrogates and code
 *     points above U+10FFFF pass, stray continuation bytes and F8-FF do not;
 *   - \u escapes may hold any code unit, lone or reversed surrogates too;
 *   - object keys may be quoted with ' as well as " (values may not);
 *   - NaN, Infinity and -Infinity are values; numbers follow RFC 8259 except
 *     that "1.", "-.5", "00", "-01" and "01.5" are accepted ("01" is not);
 *   - a value nested more than max_depth - 1 containers deep is refused
 *     (512 nested empty arrays pass, 512 around a value do not);
 *   - a top-level number or literal must be followed by at least one byte
 *     (json-c cannot tell "12" from the start of "123"); for the same
 *     reason json-c answers json_tokener_continue for a bare number or
 *     literal handed to it with its exact length, so a caller handing such
 *     a range to json-c passes the byte after it too.
 *
 * Usage: ndp_jscan_init() over the whole document, then either
 * ndp_jscan_skip_value() (validate everything) or walk it with the
 * object/array iterators, consuming every member or element with
 * skip_value, string, or a nested begin; finish with ndp_jscan_end().
 *
 * Functions return 0, NDP_EPARSE when the document is not valid JSON, or
 * NDP_ESCHEMA when the value at the cursor is of another type than asked,
 * judged by its first byte (then nothing is consumed; skipping it
 * validates it).  A parse
 * error is sticky: it sets err_pos and err_msg once and every later call
 * returns NDP_EPARSE.  err_pos == len means the document ended early
 * (truncated).  Nothing allocates except ndp_jscan_string's output.
 * Nesting is tracked with a counter and a bit per level, never recursion.
 */
#ifndef NDP_JSCAN_H
#define NDP_JSCAN_H

#ifndef NDP_INSIDE_INPUT
#error "jscan.h is internal to src/input/ and its tests"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ndp_buf;

/* Largest max_depth the cursor can track (one bit per level). */
#define NDP_JSCAN_DEPTH_LIMIT 4096

/*
 * Told as the fast walk over skipped containers goes by: reach() is called
 * with the walk's position once it is at or past 'at', and sets 'at' anew
 * (SIZE_MAX: not again).  What gives a mapped file's pages back behind
 * the walk (struct ndp_load_cursor) listens here, so that a skipped
 * planned_values of a hundred megabytes goes back as it is crossed; it
 * must not change the bytes.
 */
struct ndp_jscan_progress {
    size_t at;
    void (*reach)(struct ndp_jscan_progress *a, size_t pos);
};

struct ndp_jscan {
    const char *buf;     /* the document, borrowed; need not end in NUL */
    size_t len;
    size_t pos;          /* next byte to read */
    int depth;           /* containers opened with *_begin and not closed */
    int max_depth;       /* json-c's depth: values at depth >= it are refused */
    bool first;          /* innermost container has yielded nothing yet */
    size_t err_pos;      /* byte offset of the first parse error */
    const char *err_msg; /* NULL, or a static description of that error */
    uint64_t is_object[NDP_JSCAN_DEPTH_LIMIT / 64]; /* kind of each level */
    size_t newlines_at;  /* the fast walks have counted the '\n' bytes */
    size_t newlines;     /* ... from where the scanner began up to here */
    struct ndp_jscan_progress *progress; /* borrowed, or NULL */
};

/* Kinds of value, as ndp_jscan_peek() sees them from the first byte. */
enum ndp_jscan_type {
    NDP_JSCAN_NONE,   /* end of input or a byte no value starts with */
    NDP_JSCAN_OBJECT,
    NDP_JSCAN_ARRAY,
    NDP_JSCAN_STRING,
    NDP_JSCAN_NUMBER, /* also NaN, Infinity, -Infinity */
    NDP_JSCAN_BOOL,
    NDP_JSCAN_NULL
};

/*
 * Starts a cursor at the beginning of 'buf' ('len' bytes, borrowed for the
 * cursor's lifetime).  'max_depth' is json-c's depth argument (512 in
 * ndplint); values <= 0 mean 512, larger than NDP_JSCAN_DEPTH_LIMIT are
 * clamped.
 */
void ndp_jscan_init(struct ndp_jscan *s, const char *buf, size_t len,
                    int max_depth);

/*
 * Skips whitespace and reports the type of the value at the cursor without
 * consuming or validating it.
 */
enum ndp_jscan_type ndp_jscan_peek(struct ndp_jscan *s);

/*
 * Skips whitespace, then skips and fully validates one value of any type;
 * the cursor ends just after it.  '*start' and '*end' (either may be NULL)
 * receive the value's byte range [start, end) in 'buf'.
 */
int ndp_jscan_skip_value(struct ndp_jscan *s, size_t *start, size_t *end);

/*
 * The copies of the hot loops (jscan_impl.h): all validate and skip the
 * same way.  By default the widest the CPU runs; NDPLINT_JSCAN
 * ("portable", "sse2", "avx2") names one.  ndp_jscan_use_isa() switches
 * to the one named and is false when this build or CPU has no such copy;
 * ndp_jscan_isa_name() names the one in use.
 */
enum ndp_jscan_isa { NDP_JSCAN_PORTABLE_ISA, NDP_JSCAN_SSE2, NDP_JSCAN_AVX2 };
bool ndp_jscan_use_isa(const char *name);
const char *ndp_jscan_isa_name(void);

/*
 * Inside an object, after one of its members: skips the members left and
 * the closing '}' in one pass where the copy in use can (AVX2), when they
 * are valid and none of their keys is 'key' (NULL: any key will do), and
 * returns 1, the cursor after the '}' as ndp_jscan_object_next() would
 * leave it.  0, the cursor untouched, when the caller must walk them
 * itself: another copy, a key that is 'key' or has an escape, anything the
 * block-wise path does not accept (an error is the walk's to find).
 * NDP_EPARSE when the bytes end inside them with nothing wrong before:
 * the end of data the walk would report, at the same byte.  Returning 1,
 * it notes what it skipped and the newlines in it (walked_*), which
 * count as it goes: a line counter need not read those bytes again.
 */
int ndp_jscan_skip_rest_of_object(struct ndp_jscan *s, const char *key);

/* The '\n' bytes among the 'n' at 'text' (with the copy in use). */
size_t ndp_jscan_count_newlines(const char *text, size_t n);

/*
 * Object iteration.  ndp_jscan_object_begin() consumes the '{' of the value
 * at the cursor (NDP_ESCHEMA if it is another type).  Each
 * ndp_jscan_object_next() then either sets '*done' (the '}' is consumed and
 * the object closed) or yields the next member: '*key' points into 'buf' at
 * the raw key between its quotes (escapes not decoded), '*key_len' is its
 * length, and the cursor is left at the member's value, which the caller
 * must consume (skip_value, string, or a nested begin) before calling next
 * again.  Compare keys with ndp_jscan_key_is().
 */
int ndp_jscan_object_begin(struct ndp_jscan *s);
int ndp_jscan_object_next(struct ndp_jscan *s, const char **key,
                          size_t *key_len, bool *done);

/*
 * Array iteration, as for objects: begin consumes the '[', next either
 * sets '*done' (']' consumed) or leaves the cursor at the next element,
 * which the caller must consume.
 */
int ndp_jscan_array_begin(struct ndp_jscan *s);
int ndp_jscan_array_next(struct ndp_jscan *s, bool *done);

/*
 * Reads the string value at the cursor into 'out' (its previous contents
 * are replaced) with escapes decoded as json-c decodes them: unpaired
 * surrogates become U+FFFD, \u0000 a NUL byte (out->len counts it).
 * NDP_ESCHEMA, consuming nothing, when the value is not a string.  Meant for
 * small values such as "type"; 'out' is the only thing that allocates.
 */
int ndp_jscan_string(struct ndp_jscan *s, struct ndp_buf *out);

/*
 * Input that is still arriving: the cursor is given the bytes there are so
 * far ('len' may grow between calls).  A scan that runs out of them fails
 * as truncated; the caller goes back to a mark taken before it, waits for
 * more bytes and scans again.  The bytes before 'len' never change.
 */
struct ndp_jscan_mark {
    size_t pos;
    int depth;
    bool first;
};
void ndp_jscan_mark(const struct ndp_jscan *s, struct ndp_jscan_mark *m);

/*
 * Starts a cursor in the middle of a document, at 'pos', inside the open
 * containers 'kinds' ("{[" : an array in the top-level object), each past
 * its first member: where another cursor that read the document from the
 * start would be at an element of that array.  Scanning from the same
 * state gives the same results, which is what lets a second thread take
 * the far part of a long list.
 */
void ndp_jscan_init_inside(struct ndp_jscan *s, const char *buf, size_t len,
                           int max_depth, const char *kinds, size_t pos);
/* Back to 'm', the error forgotten (levels below the mark are intact). */
void ndp_jscan_rewind(struct ndp_jscan *s, const struct ndp_jscan_mark *m);
/* Did the scan fail only because it reached 'len'? */
bool ndp_jscan_truncated(const struct ndp_jscan *s);

/*
 * After the top-level value: succeeds when only whitespace remains.
 * Calling it with containers still open is a bug.
 */
int ndp_jscan_end(struct ndp_jscan *s);

/*
 * True when the raw key 'key' ('key_len' bytes, as object_next yields it)
 * decodes to the NUL-terminated 'name'.  Escapes are decoded on the fly
 * without allocating; like json-c, a key is cut at a decoded \u0000.
 */
bool ndp_jscan_key_is(const char *key, size_t key_len, const char *name);

#endif
