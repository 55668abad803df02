/* Shared helpers for the c_tests programs (header only; each .c is compiled on its own).
 *
 * CHECK(cond, fmt, ...)  on failure prints "file:line: rank R: CHECK(cond) failed: msg" to
 *                        stderr and exits with code 1 (the launcher then ends the job).
 * CHECK_MPI(call)        the call must return MPI_SUCCESS (meaningful with MPI_ERRORS_RETURN;
 *                        under the default handler errors never return).
 * ct_fill / ct_verify    deterministic byte patterns keyed by a seed; ct_verify reports the
 *                        first wrong byte.
 * ct_ok(name)            barrier on MPI_COMM_WORLD, then rank 0 prints "ok NAME [library]".
 */
#ifndef CT_CHECK_H
#define CT_CHECK_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int ct_rank(void)
{
    int init = 0, fin = 0, r = -1;
    MPI_Initialized(&init);
    if (init)
        MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

#define CHECK(cond, ...)                                                              \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: rank %d: CHECK(%s) failed: ", __FILE__, __LINE__, \
                    ct_rank(), #cond);                                                \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
            fflush(stdout);                                                           \
            fflush(stderr);                                                           \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

#define CHECK_MPI(call)                                                               \
    do {                                                                              \
        int ct_rc_ = (call);                                                          \
        if (ct_rc_ != MPI_SUCCESS) {                                                  \
            char ct_msg_[MPI_MAX_ERROR_STRING];                                       \
            int ct_len_ = 0;                                                          \
            ct_msg_[0] = 0;                                                           \
            MPI_Error_string(ct_rc_, ct_msg_, &ct_len_);                              \
            CHECK(ct_rc_ == MPI_SUCCESS, "%s returned %d (%s)", #call, ct_rc_, ct_msg_); \
        }                                                                             \
    } while (0)

/* Byte i of the pattern for `seed`: cheap, position dependent, seed dependent. */
static inline unsigned char ct_byte(uint32_t seed, size_t i)
{
    uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u + (uint32_t)(i >> 16);
    return (unsigned char)(x ^ (x >> 13) ^ (x >> 24));
}

static inline void ct_fill(void *buf, size_t n, uint32_t seed)
{
    unsigned char *p = (unsigned char *)buf;
    for (size_t i = 0; i < n; i++)
        p[i] = ct_byte(seed, i);
}

/* Returns 1 if buf matches the pattern, else prints the first mismatch and returns 0. */
static inline int ct_verify(const void *buf, size_t n, uint32_t seed, const char *what)
{
    const unsigned char *p = (const unsigned char *)buf;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != ct_byte(seed, i)) {
            fprintf(stderr, "rank %d: %s: byte %zu of %zu is 0x%02x, expected 0x%02x\n",
                    ct_rank(), what, i, n, p[i], ct_byte(seed, i));
            return 0;
        }
    }
    return 1;
}

static inline void ct_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Barrier, then rank 0 prints "ok NAME [first line of MPI_Get_library_version]". */
static inline void ct_ok(const char *name)
{
    char ver[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (ct_rank() == 0) {
        ver[0] = 0;
        MPI_Get_library_version(ver, &len);
        ver[strcspn(ver, "\r\n")] = 0;
        printf("ok %s [%s]\n", name, ver);
        fflush(stdout);
    }
}

#endif
