/* rma_swap_sizes: MPI_Compare_and_swap on 1-, 2-, 4- and 8-byte types (MPI_INT8_T,
 * MPI_UINT16_T, MPI_INT, MPI_INT64_T, MPI_BYTE) at aligned and odd byte offsets of a
 * disp_unit-1 window, in a lock epoch (railmpi's latency path where the window is mapped)
 * and in a fence epoch (its general path), a compare that fails and then one that
 * succeeds; the old value returned, the value left and the bytes around the target word
 * (untouched) are checked. Every rank swaps at its right neighbour. */
#include "check.h"

#define WB 64 /* window bytes */
#define FILL 0x5a

static int rank, n;

static void setv(unsigned char *p, int size, unsigned long long v)
{
    for (int i = 0; i < size; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned long long getv(const unsigned char *p, int size)
{
    unsigned long long v = 0;
    for (int i = 0; i < size; i++)
        v |= (unsigned long long)p[i] << (8 * i);
    return v;
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int next = (rank + 1) % n, prev = (rank - 1 + n) % n, calls = 0;
    unsigned char *wmem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(WB, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wmem, &win));
    static const struct {
        MPI_Datatype t;
        int size;
        const char *name;
    } types[] = {{MPI_INT8_T, 1, "MPI_INT8_T"},   {MPI_BYTE, 1, "MPI_BYTE"},
                 {MPI_UINT16_T, 2, "MPI_UINT16_T"}, {MPI_INT, 4, "MPI_INT"},
                 {MPI_INT64_T, 8, "MPI_INT64_T"}};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        for (int at = 0; at < 16; at += types[k].size == 1 ? 5 : 3) /* aligned and odd */
            for (int passive = 0; passive < 2; passive++) {
                int size = types[k].size;
                /* Old value there: depends on the owner; new: on the origin. */
                unsigned long long oldv = 0x1122334455667788ULL ^ (unsigned long long)rank * 0x0101;
                unsigned long long mask = size == 8 ? ~0ULL : (1ULL << (8 * size)) - 1;
                CHECK_MPI(MPI_Win_fence(0, win));
                memset(wmem, FILL, WB);
                setv(wmem + at, size, oldv);
                CHECK_MPI(MPI_Win_fence(0, win));
                unsigned long long theirs = (0x1122334455667788ULL ^ (unsigned long long)next * 0x0101) & mask;
                unsigned char origin[8], compare[8], result[8];
                /* First a compare that fails, then one that succeeds. */
                for (int round = 0; round < 2; round++) {
                    setv(origin, size, (0xA0B0C0D0E0F00010ULL + (unsigned long long)rank) & mask);
                    setv(compare, size, round ? theirs : (theirs ^ 1));
                    memset(result, 0, sizeof result);
                    if (passive)
                        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
                    CHECK_MPI(MPI_Compare_and_swap(origin, compare, result, types[k].t, next,
                                                   at, win));
                    if (passive)
                        CHECK_MPI(MPI_Win_unlock(next, win));
                    else
                        CHECK_MPI(MPI_Win_fence(0, win));
                    CHECK(getv(result, size) == theirs,
                          "%s at %d (%s, round %d): old value 0x%llx, expected 0x%llx",
                          types[k].name, at, passive ? "lock" : "fence", round,
                          getv(result, size), theirs);
                    calls++;
                }
                CHECK_MPI(MPI_Win_fence(0, win));
                /* My window: swapped once (the second round) by prev; the rest untouched. */
                unsigned long long want = (0xA0B0C0D0E0F00010ULL + (unsigned long long)prev) & mask;
                CHECK(getv(wmem + at, size) == want, "%s at %d (%s): window holds 0x%llx, expected 0x%llx",
                      types[k].name, at, passive ? "lock" : "fence", getv(wmem + at, size), want);
                for (int i = 0; i < WB; i++)
                    if (i < at || i >= at + size)
                        CHECK(wmem[i] == FILL, "%s at %d (%s): window byte %d is 0x%x",
                              types[k].name, at, passive ? "lock" : "fence", i, wmem[i]);
            }
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_free(&win));
    char name[64];
    snprintf(name, sizeof name, "rma_swap_sizes n=%d swaps=%d", n, calls);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
