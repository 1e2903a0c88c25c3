/*
 * SPDX-License-Identifier: Apache-2.0
 * outfile.h - writing a report or a baseline to a path the user named.
 *
 * A path that is, or will be, a regular file is replaced atomically: the
 * text goes to a temporary that mkstemp creates (O_EXCL, so a link planted
 * at its name is never followed) in the same directory, and the temporary
 * is renamed over the path; a reader sees the old file or the new one,
 * never a part, and a failed write leaves the old file and no temporary.
 * Anything else (a FIFO, a character device, /dev/stdout, ndplint's own
 * standard output or error, written through its descriptor) is written
 * straight, never replaced.  A symbolic link is followed: the file it
 * names is replaced in that file's directory and the link itself stays; a
 * link to nothing is refused.
 */
#ifndef NDP_OUTFILE_H
#define NDP_OUTFILE_H

#include <stddef.h>

struct ndp_error;

/*
 * Writes 'len' bytes of 'data' to 'path' as described above.  'what'
 * names the file in messages ("the baseline"), or is NULL.  Returns 0, or
 * NDP_EIO with 'err' set.
 */
int ndp_outfile_write(const char *path, const void *data, size_t len,
                      const char *what, struct ndp_error *err);

#endif
