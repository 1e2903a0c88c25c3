/*
 * SPDX-License-Identifier: Apache-2.0
 * map_guard.c - a mapped file that shrinks while it is read
 * (util_internal.h).
 *
 * Reading a page of a mapped file that another process has truncated
 * raises SIGBUS, whose default action ends the process.  While load.c has
 * a file mapped, a handler of SIGBUS is installed instead: when the fault
 * is in a guarded mapping, the handler maps zero pages over it, from the
 * page that faulted to the end of the file's pages, marks the mapping,
 * and returns; the faulting read runs again and reads zeros, as does
 * every later one, so the scan ends (a NUL byte is never JSON) and
 * load.c says the file changed while it was read.  A SIGBUS anywhere
 * else (another mapping, a kill(1)) gets the action SIGBUS had before,
 * and is raised again: it ends the process as it always did.
 *
 * The scan may run in two threads (src/input/input_split.c), and a fault
 * is handled in the thread that made it, so the guards are lock-free
 * atomics the handler only reads.  It calls system calls alone, never a
 * lock or the heap: mmap() through ndp_map_zeros_over() (with open() and
 * close() of /dev/zero where there are no anonymous mappings),
 * sigaction() and raise().  POSIX lists all but mmap() as async-signal-safe; mmap() is a
 * plain system call on Linux, macOS and the BSDs.  A guard is taken and
 * given back in the thread that loads, before any scanning thread starts
 * and after the last is joined.
 */
#include "common.h"
#include "util_internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

/* Files mapped at once: load.c maps one at a time; tests a few. */
#define MAX_GUARDS 16

_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2 && ATOMIC_BOOL_LOCK_FREE == 2,
               "the SIGBUS handler reads the guards without a lock");

/* One mapped file: its pages [start, end), and whether one vanished. */
struct guard {
    _Atomic(char *) start; /* NULL: the slot is free */
    _Atomic(char *) end;
    atomic_bool tripped;
};

static struct guard guards[MAX_GUARDS];
/* Taking and giving back guards; never taken by the handler. */
static pthread_mutex_t guards_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t guards_taken;            /* under 'guards_lock' */
static struct sigaction sigbus_before; /* set while guards_taken > 0 */
static uintptr_t page_bytes;           /* set before the handler is */

/* A fault of the memory system, not a SIGBUS another process sent. */
static bool is_fault(const siginfo_t *info)
{
    return info->si_code == BUS_ADRERR || info->si_code == BUS_OBJERR ||
           info->si_code == BUS_ADRALN;
}

/*
 * Zero pages from the page of 'addr' to the end of the guarded mapping
 * that holds it, which is marked; false when no guard holds 'addr' or the
 * zeros could not be mapped.
 */
static bool zero_from(const char *addr)
{
    uintptr_t at = (uintptr_t)addr;
    size_t i;

    for (i = 0; i < MAX_GUARDS; i++) {
        uintptr_t start = (uintptr_t)atomic_load(&guards[i].start);
        uintptr_t end = (uintptr_t)atomic_load(&guards[i].end);
        uintptr_t from = at & ~(page_bytes - 1);

        if (!start || at < start || at >= end)
            continue;
        if (!ndp_map_zeros_over((void *)from, (size_t)(end - from)))
            return false;
        atomic_store(&guards[i].tripped, true);
        return true;
    }
    return false;
}

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;

    (void)context;
    if (is_fault(info) && zero_from(info->si_addr)) {
        errno = saved_errno;
        return;
    }
    /* Not ours: what SIGBUS did before, once this handler returns. */
    sigaction(SIGBUS, &sigbus_before, NULL);
    raise(sig);
    errno = saved_errno;
}

/* The handler, for the first guard; false when it cannot be installed. */
static bool install_handler(void)
{
    struct sigaction act;

    page_bytes = (uintptr_t)sysconf(_SC_PAGESIZE);
    memset(&act, 0, sizeof(act));
    act.sa_sigaction = on_sigbus;
    act.sa_flags = SA_SIGINFO;
    sigemptyset(&act.sa_mask);
    return sigaction(SIGBUS, &act, &sigbus_before) == 0;
}

int ndp_guard_mapping(void *addr, size_t len)
{
    int id = -1;
    size_t i;

    pthread_mutex_lock(&guards_lock);
    for (i = 0; i < MAX_GUARDS && id < 0; i++)
        if (!atomic_load(&guards[i].start))
            id = (int)i;
    if (id >= 0 && (guards_taken > 0 || install_handler())) {
        uintptr_t end = (uintptr_t)addr + len;

        end = (end + page_bytes - 1) & ~(page_bytes - 1);
        atomic_store(&guards[id].tripped, false);
        atomic_store(&guards[id].end, (char *)end);
        atomic_store(&guards[id].start, (char *)addr);
        guards_taken++;
    } else {
        id = -1;
    }
    pthread_mutex_unlock(&guards_lock);
    return id;
}

bool ndp_guard_tripped(int id)
{
    return id >= 0 && atomic_load(&guards[id].tripped);
}

void ndp_guard_release(int id)
{
    if (id < 0)
        return;
    pthread_mutex_lock(&guards_lock);
    atomic_store(&guards[id].start, NULL);
    if (--guards_taken == 0)
        sigaction(SIGBUS, &sigbus_before, NULL);
    pthread_mutex_unlock(&guards_lock);
}
