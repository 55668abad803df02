/* rma_page_edges: small MPI_Get and MPI_Put (1 to 24 ints) at every displacement around a
 * page boundary of the target's MPI_Win_create memory, and from/into origin buffers that
 * straddle a page boundary too, with fence synchronization; the whole origin buffer and the
 * whole window are checked. soft-iWARP sends a payload of up to 32 bytes that crosses a page
 * wrongly from its own thread (a read's answer always): the verbs rail cuts those requests
 * at the page, and this program is what shows it (every size and alignment near the edge). */
#include "check.h"

#define PAGE 4096
#define NW 64         /* ints in the window */
#define EDGE_INT 24   /* the window's int that starts a page */
#define MAXLEN 24

static int winval(int r, int i) { return r * 100000 + i; }
static int orgval(int r, int i) { return -(r * 100000 + i) - 7; }

int main(int argc, char **argv)
{
    int rank, n, nops = 0;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    int next = (rank + 1) % n, prev = (rank - 1 + n) % n;

    /* Window: ints [0, NW) with int EDGE_INT at the start of a page. */
    char *wpages = NULL, *opages = NULL;
    CHECK(posix_memalign((void **)&wpages, PAGE, 2 * PAGE) == 0, "posix_memalign");
    CHECK(posix_memalign((void **)&opages, PAGE, 2 * PAGE) == 0, "posix_memalign");
    int *w = (int *)(wpages + PAGE - EDGE_INT * (int)sizeof(int));
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(w, NW * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &win));

    for (int op = 0; op < 2; op++)          /* 0 get, 1 put */
        for (int len = 1; len <= MAXLEN; len++)
            for (int d = EDGE_INT - len; d <= EDGE_INT; d++)
                for (int oshift = 0; oshift <= len; oshift += len) {
                    /* Origin: len ints starting oshift ints before a page boundary. */
                    int *o = (int *)(opages + PAGE) - oshift;
                    for (int i = 0; i < NW; i++)
                        w[i] = winval(rank, i);
                    for (int i = -MAXLEN; i < MAXLEN; i++)
                        ((int *)(opages + PAGE))[i] = orgval(rank, i + MAXLEN);
                    CHECK_MPI(MPI_Win_fence(0, win));
                    if (op == 0)
                        CHECK_MPI(MPI_Get(o, len, MPI_INT, next, d, len, MPI_INT, win));
                    else
                        CHECK_MPI(MPI_Put(o, len, MPI_INT, next, d, len, MPI_INT, win));
                    CHECK_MPI(MPI_Win_fence(0, win));
                    for (int i = 0; i < NW; i++) {
                        int want = winval(rank, i);
                        if (op == 1 && i >= d && i < d + len)
                            want = orgval(prev, i - d - oshift + MAXLEN);
                        CHECK(w[i] == want, "%s of %d ints at %d (origin %d before a page): "
                              "window int %d is %d, expected %d", op ? "put" : "get", len, d,
                              oshift, i, w[i], want);
                    }
                    for (int i = -MAXLEN; i < MAXLEN; i++) {
                        int want = orgval(rank, i + MAXLEN);
                        if (op == 0 && i >= -oshift && i < len - oshift)
                            want = winval(next, d + i + oshift);
                        int got = ((int *)(opages + PAGE))[i];
                        CHECK(got == want, "%s of %d ints at %d (origin %d before a page): "
                              "origin int %d is %d, expected %d", op ? "put" : "get", len, d,
                              oshift, i + oshift, got, want);
                    }
                    /* Nobody rewrites a window before every access to it is over. */
                    CHECK_MPI(MPI_Win_fence(0, win));
                    nops++;
                }
    CHECK_MPI(MPI_Win_free(&win));
    free(wpages);
    free(opages);
    char name[64];
    snprintf(name, sizeof name, "rma_page_edges n=%d ops=%d", n, nops);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
