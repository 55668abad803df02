/* attrs: environment queries and basic datatypes. MPI_TAG_UB >= 32767, MPI_WTIME_IS_GLOBAL
 * present, MPI_Get_version >= 3, library version string sane, MPI_Wtime monotone and
 * MPI_Wtick > 0, MPI_Alloc_mem/MPI_Free_mem, sizes/extents/names of predefined types, a
 * committed contiguous type used in a self-send, MPI_Get_address, Initialized/Finalized. */
#include "check.h"
#include <limits.h>

static void check_type(MPI_Datatype t, int size, const char *name)
{
    int sz = -1, len = -1;
    MPI_Aint lb = -1, extent = -1;
    char got[MPI_MAX_OBJECT_NAME];
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK(sz == size, "MPI_Type_size(%s) = %d, expected %d", name, sz, size);
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK(lb == 0 && extent == size, "MPI_Type_get_extent(%s): lb %ld extent %ld", name, (long)lb,
          (long)extent);
    got[0] = 0;
    CHECK_MPI(MPI_Type_get_name(t, got, &len));
    CHECK(len == (int)strlen(got) && len > 0, "MPI_Type_get_name(%s): len %d for \"%s\"", name,
          len, got);
    /* MPI_LONG_LONG and MPI_LONG_LONG_INT are one handle: either name is right. */
    if (strcmp(name, "MPI_LONG_LONG") == 0)
        CHECK(strcmp(got, name) == 0 || strcmp(got, "MPI_LONG_LONG_INT") == 0,
              "MPI_Type_get_name(MPI_LONG_LONG) = \"%s\"", got);
    else
        CHECK(strcmp(got, name) == 0, "MPI_Type_get_name: \"%s\", expected \"%s\"", got, name);
}

int main(int argc, char **argv)
{
    int rank, n, flag = 0, *ip = NULL;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));

    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag));
    CHECK(flag && ip && *ip >= 32767, "MPI_TAG_UB: flag %d value %d", flag, ip ? *ip : -1);
    int tag_ub = *ip;
    ip = NULL;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &ip, &flag));
    CHECK(flag && ip && (*ip == 0 || *ip == 1), "MPI_WTIME_IS_GLOBAL: flag %d value %d", flag,
          ip ? *ip : -1);
    /* The largest tag is usable. */
    int v = -1, w = 31337;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&w, 1, MPI_INT, rank, tag_ub, &v, 1, MPI_INT, rank, tag_ub,
                           MPI_COMM_WORLD, &st));
    CHECK(v == 31337 && st.MPI_TAG == tag_ub, "message with tag MPI_TAG_UB: %d tag %d", v,
          st.MPI_TAG);

    int ver = -1, sub = -1;
    CHECK_MPI(MPI_Get_version(&ver, &sub));
    CHECK(ver >= 3 && sub >= 0, "MPI_Get_version %d.%d", ver, sub);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    CHECK_MPI(MPI_Get_library_version(lib, &len));
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && (int)strlen(lib) == len,
          "library version: len %d strlen %zu", len, strlen(lib));
    char host[MPI_MAX_PROCESSOR_NAME];
    CHECK_MPI(MPI_Get_processor_name(host, &len));
    CHECK(len > 0 && (int)strlen(host) == len, "processor name len %d", len);

    int prov = -1;
    CHECK_MPI(MPI_Query_thread(&prov));
    CHECK(prov >= MPI_THREAD_SINGLE && prov <= MPI_THREAD_MULTIPLE, "MPI_Query_thread %d", prov);
    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag, "MPI_Is_thread_main false in the main thread");

    /* Wtime / Wtick. */
    double tick = MPI_Wtick();
    CHECK(tick > 0 && tick <= 0.01, "MPI_Wtick %g", tick);
    double t = MPI_Wtime(), t0 = t;
    for (int i = 0; i < 100000; i++) {
        double u = MPI_Wtime();
        CHECK(u >= t, "MPI_Wtime went backwards: %.9f after %.9f", u, t);
        t = u;
    }
    ct_sleep_ms(50);
    double el = MPI_Wtime() - t0;
    CHECK(el >= 0.045 && el < 10, "50 ms sleep measured as %.4f s", el);

    /* Alloc_mem / Free_mem. */
    unsigned char *mem = NULL;
    CHECK_MPI(MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &mem));
    CHECK(mem != NULL, "MPI_Alloc_mem gave NULL");
    ct_fill(mem, 1 << 20, 5);
    CHECK(ct_verify(mem, 1 << 20, 5, "alloc_mem"), "MPI_Alloc_mem memory not usable");
    unsigned char *mem2 = NULL;
    CHECK_MPI(MPI_Alloc_mem(4096, MPI_INFO_NULL, &mem2));
    ct_fill(mem2, 4096, 6);
    /* Alloc_mem memory works as a message buffer. */
    CHECK_MPI(MPI_Sendrecv(mem2, 4096, MPI_BYTE, rank, 1, mem, 4096, MPI_BYTE, rank, 1,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(ct_verify(mem, 4096, 6, "alloc_mem message"), "message into MPI_Alloc_mem memory");
    CHECK_MPI(MPI_Free_mem(mem));
    CHECK_MPI(MPI_Free_mem(mem2));

    /* Predefined types. */
    check_type(MPI_CHAR, 1, "MPI_CHAR");
    check_type(MPI_SIGNED_CHAR, 1, "MPI_SIGNED_CHAR");
    check_type(MPI_UNSIGNED_CHAR, 1, "MPI_UNSIGNED_CHAR");
    check_type(MPI_BYTE, 1, "MPI_BYTE");
    check_type(MPI_SHORT, (int)sizeof(short), "MPI_SHORT");
    check_type(MPI_INT, (int)sizeof(int), "MPI_INT");
    check_type(MPI_UNSIGNED, (int)sizeof(unsigned), "MPI_UNSIGNED");
    check_type(MPI_LONG, (int)sizeof(long), "MPI_LONG");
    check_type(MPI_UNSIGNED_LONG, (int)sizeof(unsigned long), "MPI_UNSIGNED_LONG");
    check_type(MPI_LONG_LONG, (int)sizeof(long long), "MPI_LONG_LONG");
    check_type(MPI_FLOAT, (int)sizeof(float), "MPI_FLOAT");
    check_type(MPI_DOUBLE, (int)sizeof(double), "MPI_DOUBLE");

    /* Contiguous derived type: 10 ints. */
    MPI_Datatype t10;
    int sz = -1;
    MPI_Aint lb = -1, extent = -1;
    CHECK_MPI(MPI_Type_contiguous(10, MPI_INT, &t10));
    CHECK_MPI(MPI_Type_commit(&t10));
    CHECK_MPI(MPI_Type_size(t10, &sz));
    CHECK_MPI(MPI_Type_get_extent(t10, &lb, &extent));
    CHECK(sz == 40 && lb == 0 && extent == 40, "contiguous(10, INT): size %d lb %ld extent %ld",
          sz, (long)lb, (long)extent);
    char name[MPI_MAX_OBJECT_NAME];
    name[0] = 'x';
    name[1] = 0;
    CHECK_MPI(MPI_Type_get_name(t10, name, &len));
    CHECK(len == 0 && name[0] == 0, "derived type has a name: \"%s\"", name);
    int out[20], in[21];
    for (int i = 0; i < 20; i++)
        out[i] = rank * 100 + i;
    in[20] = -7;
    MPI_Request req;
    CHECK_MPI(MPI_Isend(out, 2, t10, rank, 2, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Recv(in, 20, MPI_INT, rank, 2, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    int cnt = -1;
    CHECK_MPI(MPI_Get_count(&st, t10, &cnt));
    CHECK(cnt == 2, "Get_count(contiguous) %d", cnt);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &cnt));
    CHECK(cnt == 20, "Get_count(MPI_INT) %d", cnt);
    for (int i = 0; i < 20; i++)
        CHECK(in[i] == rank * 100 + i, "contiguous-type message element %d: %d", i, in[i]);
    CHECK(in[20] == -7, "wrote past the buffer");
    CHECK_MPI(MPI_Type_free(&t10));
    CHECK(t10 == MPI_DATATYPE_NULL, "MPI_Type_free did not set MPI_DATATYPE_NULL");

    /* Get_address. */
    MPI_Aint a0, a1;
    double arr[4];
    CHECK_MPI(MPI_Get_address(&arr[0], &a0));
    CHECK_MPI(MPI_Get_address(&arr[3], &a1));
    CHECK(a1 - a0 == 3 * (MPI_Aint)sizeof(double), "MPI_Get_address difference %ld",
          (long)(a1 - a0));
    CHECK(a0 == (MPI_Aint)(intptr_t)&arr[0], "MPI_Get_address is not the address");

    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(!flag, "MPI_Finalized true before MPI_Finalize");
    ct_ok("attrs");
    CHECK_MPI(MPI_Finalize());
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag, "MPI_Finalized false after MPI_Finalize");
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag, "MPI_Initialized false after MPI_Finalize");
    return 0;
}
