/* flood: flow control for unexpected eager messages. Rank 1 sends rank 0 128 MiB of 8 KiB
 * messages (eager-sized) with MPI_Isend while rank 0 receives none of them: it waits only
 * for a last message on another tag. Rank 0's resident memory may grow by less than
 * 96 MiB meanwhile (railmpi holds at most RAILMPI_UNEXPECTED_LIMIT, 32 MiB, from one peer;
 * the rest waits in the sender). Then rank 0 receives the flood with MPI_ANY_TAG: every
 * message in order (the tags count up) and intact. Other ranks only watch. */
#include "check.h"

#define MSG 8192
#define TOTAL (128L << 20)
#define COUNT ((int)(TOTAL / MSG))

/* A /proc/self/status field in KiB. */
static long status_kib(const char *field)
{
    char line[256];
    long v = -1;
    FILE *f = fopen("/proc/self/status", "r");
    CHECK(f != NULL, "cannot open /proc/self/status");
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, strlen(field)) == 0)
            v = atol(line + strlen(field) + 1);
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs 2 ranks");
    unsigned char *buf = malloc(MSG);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1) {
        MPI_Request *rq = malloc(sizeof(MPI_Request) * (COUNT + 1));
        /* One buffer for all (sends only read it); the tag numbers the message. */
        ct_fill(buf, MSG, 77);
        for (int i = 0; i < COUNT; i++)
            CHECK_MPI(MPI_Isend(buf, MSG, MPI_BYTE, 0, i, MPI_COMM_WORLD, &rq[i]));
        int done = 1;
        CHECK_MPI(MPI_Isend(&done, 1, MPI_INT, 0, COUNT, MPI_COMM_WORLD, &rq[COUNT]));
        CHECK_MPI(MPI_Waitall(COUNT + 1, rq, MPI_STATUSES_IGNORE));
        free(rq);
    } else if (rank == 0) {
        long before = status_kib("VmRSS:");
        int done = 0;
        CHECK_MPI(MPI_Recv(&done, 1, MPI_INT, 1, COUNT, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        long peak = status_kib("VmHWM:");
        long grew = (peak - before) / 1024;
        printf("rank 0: resident memory grew by %ld MiB while %ld MiB waited\n", grew,
               TOTAL >> 20);
        CHECK(grew < 96, "resident memory grew by %ld MiB (no flow control?)", grew);
        MPI_Status st;
        for (int i = 0; i < COUNT; i++) {
            memset(buf, 0, MSG);
            CHECK_MPI(MPI_Recv(buf, MSG, MPI_BYTE, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_TAG == i, "message %d arrived as number %d", st.MPI_TAG, i);
            CHECK(ct_verify(buf, MSG, 77, "flood message"), "number %d", i);
        }
    }
    free(buf);
    ct_ok("flood");
    MPI_Finalize();
    return 0;
}
