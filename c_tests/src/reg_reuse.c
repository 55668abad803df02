/* reg_reuse: 4 MiB rendezvous messages between ranks 0 and 1 from and into mmapped buffers
 * that are given back and changed between the transfers: munmap then mmap again (most
 * likely at the same address), mremap (moved onto a fresh mapping, then shrunk in place and
 * grown back), madvise(MADV_DONTNEED) (MADV_DONTNEED_LOCKED where the pages are pinned and
 * the kernel knows it). A registration cache that served the old registration for the new
 * memory would show up as wrong bytes; every message is checked byte for byte. The
 * direction alternates, so both sides' buffers go through every change. Other ranks only
 * join the final barrier. */
#define _GNU_SOURCE
#include "check.h"
#include <errno.h>
#include <sys/mman.h>

#define SZ (4u << 20)
#define ITERS 12

#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif

static unsigned char *map_buf(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED, "mmap of %zu bytes: errno %d", len, errno);
    return p;
}

/* One message of SZ bytes from rank `from` to the other, pattern `seed`, checked. */
static void transfer(int rank, int from, unsigned char *buf, uint32_t seed, const char *what)
{
    MPI_Status st;
    int count;
    if (rank == from) {
        ct_fill(buf, SZ, seed);
        CHECK_MPI(MPI_Send(buf, (int)SZ, MPI_BYTE, 1 - rank, 7, MPI_COMM_WORLD));
    } else {
        memset(buf, 0, SZ);
        CHECK_MPI(MPI_Recv(buf, (int)SZ, MPI_BYTE, 1 - rank, 7, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        CHECK(count == (int)SZ, "count %d", count);
        CHECK(ct_verify(buf, SZ, seed, what), "%s: message with seed %u wrong", what, seed);
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");

    if (rank < 2) {
        unsigned char *buf = map_buf(SZ);
        int same_addr = 0, moved = 0, dropped = 0;
        const char *what = "first message";
        for (int it = 0; it < ITERS; it++) {
            transfer(rank, it % 2, buf, 100 + it, what);
            switch (it % 3) {
            case 0: { /* Give it back and map again: likely the same address, new pages. */
                unsigned char *old = buf;
                CHECK(munmap(buf, SZ) == 0, "munmap: errno %d", errno);
                buf = map_buf(SZ);
                same_addr += buf == old;
                what = "after munmap and mmap";
                break;
            }
            case 1: { /* Move it onto a fresh mapping, shrink it in place, grow it back. */
                unsigned char *target = map_buf(SZ);
                void *p = mremap(buf, SZ, SZ, MREMAP_MAYMOVE | MREMAP_FIXED, target);
                CHECK(p == target, "mremap (move): errno %d", errno);
                void *q = mremap(p, SZ, SZ / 2, 0);
                CHECK(q == p, "mremap (shrink in place): errno %d", errno);
                buf = mremap(q, SZ / 2, SZ, MREMAP_MAYMOVE);
                CHECK(buf != MAP_FAILED, "mremap (grow): errno %d", errno);
                moved++;
                what = "after mremap";
                break;
            }
            default: { /* Drop the pages. Pinned (cached) pages refuse plain DONTNEED. */
                int rc = madvise(buf, SZ, MADV_DONTNEED);
                if (rc != 0) {
                    CHECK(errno == EINVAL, "madvise(MADV_DONTNEED): errno %d", errno);
                    rc = madvise(buf, SZ, MADV_DONTNEED_LOCKED);
                    CHECK(rc == 0 || errno == EINVAL, "madvise(MADV_DONTNEED_LOCKED): errno %d",
                          errno);
                }
                if (rc == 0) {
                    dropped++;
                    CHECK(buf[0] == 0 && buf[SZ / 2] == 0 && buf[SZ - 1] == 0,
                          "dropped pages do not read as zero");
                }
                what = "after madvise";
                break;
            }
            }
        }
        transfer(rank, 0, buf, 999, "last message");
        CHECK(munmap(buf, SZ) == 0, "munmap: errno %d", errno);
        if (rank == 0) {
            printf("rank 0: %d of %d new mmaps at the old address, %d moves, %d page drops\n",
                   same_addr, (ITERS + 2) / 3, moved, dropped);
            fflush(stdout);
        }
    }
    ct_ok("reg_reuse");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
