/* mpi_misc: the small MPI calls real programs link: added error classes, codes and strings
 * (and MPI_LASTUSEDCODE), MPI_Pcontrol, datatype attributes with their copy and delete
 * callbacks, MPI_Pack_external / MPI_Unpack_external ("external32": big-endian, checked
 * byte for byte), MPI_Type_create_f90_*, MPI_Info_get_string and MPI_Info_create_env. */
#include "check.h"
#include <unistd.h>

static int copies, deletes;

static int type_copy(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    (void)t;
    (void)key;
    CHECK(extra == (void *)&copies, "extra state %p", extra);
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int key, void *val, void *extra)
{
    (void)t;
    (void)key;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    (void)t;
    (void)key;
    (void)extra;
    (void)in;
    (void)out;
    (void)flag;
    return MPI_ERR_OTHER;
}

static int handler_calls;

static void count_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    handler_calls++;
}

/* The MPI-1 names of the error-handler calls. */
static void errhandler_mpi1(void)
{
    MPI_Errhandler eh, got;
    CHECK_MPI(MPI_Errhandler_create(count_handler, &eh));
    CHECK_MPI(MPI_Errhandler_set(MPI_COMM_SELF, eh));
    CHECK_MPI(MPI_Errhandler_get(MPI_COMM_SELF, &got));
    CHECK(got == eh, "MPI_Errhandler_get");
    CHECK(MPI_Send(NULL, -1, MPI_INT, 0, 0, MPI_COMM_SELF) == MPI_ERR_COUNT, "error code");
    CHECK(handler_calls == 1, "handler ran %d times", handler_calls);
    CHECK_MPI(MPI_Errhandler_set(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Errhandler_free(&eh));
}

static void errors_added(void)
{
    int cls, code, code2, c, len, last = 0, flag = 0, *lastp;
    char s[MPI_MAX_ERROR_STRING];

    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK(cls > MPI_ERR_LASTCODE, "new class %d not above MPI_ERR_LASTCODE", cls);
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &code2));
    CHECK(code != code2 && code != cls, "codes %d %d class %d", code, code2, cls);
    CHECK_MPI(MPI_Add_error_string(cls, "my class"));
    CHECK_MPI(MPI_Add_error_string(code, "my code"));
    CHECK_MPI(MPI_Error_class(code, &c));
    CHECK(c == cls, "class of code %d is %d, want %d", code, c, cls);
    CHECK_MPI(MPI_Error_class(code2, &c));
    CHECK(c == MPI_ERR_ARG, "class of code2 is %d", c);
    CHECK_MPI(MPI_Error_class(cls, &c));
    CHECK(c == cls, "a class is its own class");
    CHECK_MPI(MPI_Error_string(code, s, &len));
    CHECK(strcmp(s, "my code") == 0 && len == 7, "string \"%s\" len %d", s, len);
    CHECK_MPI(MPI_Error_string(cls, s, &len));
    CHECK(strcmp(s, "my class") == 0, "string \"%s\"", s);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp, &flag));
    last = *lastp;
    CHECK(flag && last >= code && last >= code2 && last >= cls, "MPI_LASTUSEDCODE %d", last);
    /* Errors: a code is not a class; predefined strings cannot change. */
    CHECK(MPI_Add_error_code(code, &c) == MPI_ERR_ARG, "code as a class accepted");
    CHECK(MPI_Add_error_string(MPI_ERR_TYPE, "x") == MPI_ERR_ARG, "predefined string changed");
    /* The handler sees the added code, and the class stays reachable. */
    CHECK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code) == MPI_SUCCESS, "call_errhandler");
}

static void type_attrs(void)
{
    int key, flag = 0;
    void *v;
    MPI_Datatype t, d;

    CHECK_MPI(MPI_Type_create_keyval(type_copy, type_delete, &key, &copies));
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_get_attr(t, key, &v, &flag));
    CHECK(!flag, "attribute before set");
    CHECK_MPI(MPI_Type_set_attr(t, key, (void *)100));
    CHECK_MPI(MPI_Type_get_attr(t, key, &v, &flag));
    CHECK(flag && v == (void *)100, "get after set: %d %p", flag, v);
    /* dup runs the copy callback: the new value is old + 1 */
    CHECK_MPI(MPI_Type_dup(t, &d));
    CHECK(copies == 1, "copies %d", copies);
    CHECK_MPI(MPI_Type_get_attr(d, key, &v, &flag));
    CHECK(flag && v == (void *)101, "dup's attribute %p", v);
    /* replacing runs delete on the old value; free runs it on what is left */
    CHECK_MPI(MPI_Type_set_attr(t, key, (void *)200));
    CHECK(deletes == 1, "deletes %d after replace", deletes);
    CHECK_MPI(MPI_Type_delete_attr(t, key));
    CHECK(deletes == 2, "deletes %d after delete", deletes);
    CHECK_MPI(MPI_Type_get_attr(t, key, &v, &flag));
    CHECK(!flag, "attribute after delete");
    CHECK_MPI(MPI_Type_free(&d));
    CHECK(deletes == 3, "deletes %d after free", deletes);
    /* predefined types carry attributes too */
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, key, (void *)7));
    CHECK_MPI(MPI_Type_get_attr(MPI_INT, key, &v, &flag));
    CHECK(flag && v == (void *)7, "attribute on MPI_INT");
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, key));
    CHECK_MPI(MPI_Type_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID, "keyval not reset");
    /* a failing copy callback fails MPI_Type_dup and leaves MPI_DATATYPE_NULL */
    CHECK_MPI(MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Type_set_attr(t, key, (void *)1));
    d = MPI_INT;
    CHECK(MPI_Type_dup(t, &d) != MPI_SUCCESS, "dup with a failing copy callback");
    CHECK(d == MPI_DATATYPE_NULL, "newtype not MPI_DATATYPE_NULL");
    CHECK(MPI_Type_set_attr(t, MPI_KEYVAL_INVALID, NULL) == MPI_ERR_KEYVAL, "invalid keyval");
    CHECK(MPI_Type_get_attr(MPI_DATATYPE_NULL, key, &v, &flag) == MPI_ERR_TYPE, "null type");
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free_keyval(&key));
}

static void pack_external(void)
{
    struct {
        int i;
        double d;
        short s;
    } in[2] = {{0x01020304, 1.0, 0x0506}, {-2, -0.5, 0x0708}},
      out[2];
    int bl[3] = {1, 1, 1};
    MPI_Aint disp[3] = {offsetof(__typeof__(in[0]), i), offsetof(__typeof__(in[0]), d),
                        offsetof(__typeof__(in[0]), s)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT}, st, rt;
    unsigned char buf[64];
    MPI_Aint size = 0, pos = 0;
    const unsigned char one_be[8] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0};

    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &st));
    CHECK_MPI(MPI_Type_create_resized(st, 0, sizeof(in[0]), &rt));
    CHECK_MPI(MPI_Type_commit(&rt));
    CHECK_MPI(MPI_Pack_external_size("external32", 2, rt, &size));
    CHECK(size == 2 * (4 + 8 + 2), "external32 size %ld", (long)size);
    CHECK_MPI(MPI_Pack_external("external32", in, 2, rt, buf, sizeof buf, &pos));
    CHECK(pos == size, "position %ld", (long)pos);
    /* big-endian: int 0x01020304, then 1.0 as IEEE double, then the short */
    CHECK(buf[0] == 1 && buf[1] == 2 && buf[2] == 3 && buf[3] == 4, "int not big-endian");
    CHECK(memcmp(buf + 4, one_be, 8) == 0, "double not big-endian");
    CHECK(buf[12] == 5 && buf[13] == 6, "short not big-endian");
    CHECK(buf[14] == 0xff && buf[17] == 0xfe, "-2 not big-endian");
    memset(out, 0, sizeof out);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, size, &pos, out, 2, rt));
    CHECK(pos == size && out[0].i == in[0].i && out[0].d == 1.0 && out[0].s == 0x0506 &&
              out[1].i == -2 && out[1].d == -0.5 && out[1].s == 0x0708,
          "round trip");
    pos = 0;
    CHECK(MPI_Pack_external("native", in, 1, rt, buf, sizeof buf, &pos) == MPI_ERR_ARG,
          "unknown representation accepted");
    pos = 0;
    CHECK(MPI_Pack_external("external32", in, 2, rt, buf, 10, &pos) == MPI_ERR_TRUNCATE,
          "short buffer accepted");
    CHECK_MPI(MPI_Type_free(&rt));
    CHECK_MPI(MPI_Type_free(&st));

    /* MPI_LONG and MPI_UNSIGNED_LONG are 4 bytes in external32 (MPI-3.1 Table 13.2), also
     * inside a derived type and in MPI_LONG_INT; values come back sign- or zero-extended;
     * a long that does not fit 32 bits is MPI_ERR_CONVERSION. */
    long l[3] = {1, -2, 0x7fffffff}, lback[3];
    unsigned long ul = 0xfffffffful, ulback = 0;
    const unsigned char l_be[12] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0x7f, 0xff, 0xff, 0xff};
    CHECK_MPI(MPI_Pack_external_size("external32", 3, MPI_LONG, &size));
    CHECK(size == 12, "external32 size of 3 MPI_LONG: %ld", (long)size);
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", l, 3, MPI_LONG, buf, sizeof buf, &pos));
    CHECK(pos == 12 && memcmp(buf, l_be, 12) == 0, "MPI_LONG in external32");
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 12, &pos, lback, 3, MPI_LONG));
    CHECK(pos == 12 && lback[0] == 1 && lback[1] == -2 && lback[2] == 0x7fffffff,
          "MPI_LONG back from external32");
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &ul, 1, MPI_UNSIGNED_LONG, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 4, &pos, &ulback, 1, MPI_UNSIGNED_LONG));
    CHECK(pos == 4 && ulback == 0xfffffffful, "MPI_UNSIGNED_LONG round trip: %lx", ulback);
    MPI_Datatype lv;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_LONG, &lv));
    CHECK_MPI(MPI_Type_commit(&lv));
    long strided[4] = {7, 99, -7, 99}, sback[4] = {0, 0, 0, 0};
    CHECK_MPI(MPI_Pack_external_size("external32", 1, lv, &size));
    CHECK(size == 8, "external32 size of a vector of 2 MPI_LONG: %ld", (long)size);
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", strided, 1, lv, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 8, &pos, sback, 1, lv));
    CHECK(sback[0] == 7 && sback[2] == -7 && sback[1] == 0, "vector of MPI_LONG round trip");
    CHECK_MPI(MPI_Type_free(&lv));
    struct { long v; int i; } li = {-3, 9}, liback = {0, 0};
    CHECK_MPI(MPI_Pack_external_size("external32", 1, MPI_LONG_INT, &size));
    CHECK(size == 8, "external32 size of MPI_LONG_INT: %ld", (long)size);
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &li, 1, MPI_LONG_INT, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 8, &pos, &liback, 1, MPI_LONG_INT));
    CHECK(liback.v == -3 && liback.i == 9, "MPI_LONG_INT round trip");
    long huge = 1L << 40;
    pos = 0;
    int rc = MPI_Pack_external("external32", &huge, 1, MPI_LONG, buf, sizeof buf, &pos), cls = -1;
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_CONVERSION, "a 41-bit long in external32: class %d", cls);
}

/* An f90 type (MPI-4.1 §19.1.9): size `size`, envelope (ni, 0, 0, combiner) and contents
 * `ints` (§5.1.13: MPI_COMBINER_F90_INTEGER gives r, _REAL and _COMPLEX p and r). */
static void f90_check(MPI_Datatype t, int size, int combiner, int ni, const int *ints)
{
    int sz, n_i, n_a, n_d, comb, got[2] = {-1, -1};
    MPI_Aint a;
    MPI_Datatype d;
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK(sz == size, "size %d, want %d", sz, size);
    CHECK_MPI(MPI_Type_get_envelope(t, &n_i, &n_a, &n_d, &comb));
    CHECK(comb == combiner && n_i == ni && n_a == 0 && n_d == 0,
          "envelope (%d, %d, %d, combiner %d), want (%d, 0, 0, %d)", n_i, n_a, n_d, comb, ni,
          combiner);
    CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, got, &a, &d));
    for (int i = 0; i < ni; i++)
        CHECK(got[i] == ints[i], "contents[%d] = %d, want %d", i, got[i], ints[i]);
}

static void f90_types(void)
{
    MPI_Datatype t, t2, t9, t10, tc;
    CHECK_MPI(MPI_Type_create_f90_integer(9, &t9));
    f90_check(t9, 4, MPI_COMBINER_F90_INTEGER, 1, (int[]){9});
    CHECK_MPI(MPI_Type_create_f90_integer(10, &t10));
    f90_check(t10, 8, MPI_COMBINER_F90_INTEGER, 1, (int[]){10});
    /* r = 8 is INTEGER*4 as r = 9 is, but its contents say 8: a handle of its own. The same
     * arguments give the same handle again. */
    CHECK_MPI(MPI_Type_create_f90_integer(8, &t));
    f90_check(t, 4, MPI_COMBINER_F90_INTEGER, 1, (int[]){8});
    CHECK(t != t9, "r=8 and r=9 gave one handle");
    CHECK_MPI(MPI_Type_create_f90_integer(8, &t2));
    CHECK(t2 == t, "r=8 twice gave two handles");
    CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t));
    f90_check(t, 4, MPI_COMBINER_F90_REAL, 2, (int[]){6, MPI_UNDEFINED});
    CHECK_MPI(MPI_Type_create_f90_real(MPI_UNDEFINED, 300, &t));
    f90_check(t, 8, MPI_COMBINER_F90_REAL, 2, (int[]){MPI_UNDEFINED, 300});
    CHECK_MPI(MPI_Type_create_f90_complex(15, 307, &tc));
    f90_check(tc, 16, MPI_COMBINER_F90_COMPLEX, 2, (int[]){15, 307});
    CHECK_MPI(MPI_Type_create_f90_complex(15, 307, &t2));
    CHECK(t2 == tc, "complex (15, 307) twice gave two handles");
    /* Committed already; commit is allowed; usable like the kind's named type. */
    CHECK_MPI(MPI_Type_commit(&t10));
    {
        long long v = 0x0102030405060708LL, w = 0;
        CHECK_MPI(MPI_Sendrecv(&v, 1, t10, 0, 7, &w, 1, t10, 0, 7, MPI_COMM_SELF,
                               MPI_STATUS_IGNORE));
        CHECK(w == v, "f90 integer r=10 sendrecv");
    }
    CHECK(MPI_Type_create_f90_integer(40, &t) == MPI_ERR_ARG, "r=40 accepted");
    CHECK(MPI_Type_create_f90_real(40, 5000, &t) == MPI_ERR_ARG, "p=40 accepted");
}

static void info_calls(int argc, char **argv)
{
    MPI_Info info;
    char v[8];
    int len = 0, flag = 0;
    char wd[4096];

    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "railmpi_key", "0123456789"));
    CHECK_MPI(MPI_Info_get_string(info, "railmpi_key", &len, v, &flag));
    CHECK(flag && len == 11, "size query: flag %d len %d", flag, len);
    len = sizeof v;
    CHECK_MPI(MPI_Info_get_string(info, "railmpi_key", &len, v, &flag));
    CHECK(flag && len == 11 && strcmp(v, "0123456") == 0, "truncated copy \"%s\" %d", v, len);
    len = sizeof v;
    CHECK_MPI(MPI_Info_get_string(info, "absent", &len, v, &flag));
    CHECK(!flag, "absent key found");
    CHECK_MPI(MPI_Info_free(&info));

    CHECK_MPI(MPI_Info_create_env(argc, argv, &info));
    {
        char val[MPI_MAX_INFO_VAL + 1];
        int size;
        len = sizeof val;
        CHECK_MPI(MPI_Info_get_string(info, "command", &len, val, &flag));
        CHECK(flag && strcmp(val, argv[0]) == 0, "command \"%s\"", val);
        len = sizeof val;
        CHECK_MPI(MPI_Info_get_string(info, "maxprocs", &len, val, &flag));
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        CHECK(flag && atoi(val) == size, "maxprocs \"%s\"", val);
        len = sizeof val;
        CHECK_MPI(MPI_Info_get_string(info, "wdir", &len, val, &flag));
        CHECK(flag && getcwd(wd, sizeof wd) && strcmp(val, wd) == 0, "wdir \"%s\"", val);
    }
    CHECK_MPI(MPI_Info_free(&info));
}

static int keyval_deletes;

static int count_delete(MPI_Comm c, int key, void *val, void *extra)
{
    (void)c;
    (void)key;
    (void)val;
    (void)extra;
    keyval_deletes++;
    return MPI_SUCCESS;
}

/* A keyval freed while attributes use it lives on with its handle: copies of the handle
 * still delete the attribute and may be freed again (MPICH's attr/keyval_double_free). */
static void keyval_refs(void)
{
    int key, copy1, copy2;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &key, NULL));
    copy1 = copy2 = key;
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID, "keyval not reset");
    CHECK_MPI(MPI_Comm_free_keyval(&copy1));
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, copy2));
    CHECK(keyval_deletes == 1, "delete callback ran %d times", keyval_deletes);
    /* the last use is gone: the handle is dead now */
    CHECK(MPI_Comm_free_keyval(&copy2) == MPI_ERR_KEYVAL, "dead keyval freed");
}

/* Window hints: the defaults of MPI-3.1 11.2.1 are reported, unknown keys are not; RMA
 * operations of zero bytes move nothing and need no valid buffer. */
static void window_calls(void)
{
    int rank, size, *mem, v, flag;
    char val[MPI_MAX_INFO_VAL + 1];
    MPI_Info in, used;
    MPI_Win win;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mem = calloc(4, sizeof(int));
    MPI_Info_create(&in);
    MPI_Info_set(in, "railmpi_unknown_hint", "1");
    MPI_Info_set(in, "accumulate_ops", "same_op");
    CHECK_MPI(MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), in, MPI_COMM_WORLD, &win));
    MPI_Info_free(&in);
    CHECK_MPI(MPI_Win_get_info(win, &used));
    CHECK_MPI(MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL, val, &flag));
    CHECK(flag && strcmp(val, "rar,raw,war,waw") == 0, "accumulate_ordering \"%s\"", val);
    CHECK_MPI(MPI_Info_get(used, "accumulate_ops", MPI_MAX_INFO_VAL, val, &flag));
    CHECK(flag && strcmp(val, "same_op") == 0, "accumulate_ops \"%s\"", val);
    CHECK_MPI(MPI_Info_get(used, "no_locks", MPI_MAX_INFO_VAL, val, &flag));
    CHECK(flag && strcmp(val, "false") == 0, "no_locks \"%s\"", val);
    CHECK_MPI(MPI_Info_get(used, "railmpi_unknown_hint", MPI_MAX_INFO_VAL, val, &flag));
    CHECK(!flag, "an unknown hint reported as used");
    MPI_Info_free(&used);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, size - 1, 0, win));
    CHECK_MPI(MPI_Put(NULL, 0, MPI_INT, size - 1, 0, 0, MPI_INT, win));
    CHECK_MPI(MPI_Get(NULL, 0, MPI_INT, size - 1, 1, 0, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(NULL, 0, MPI_INT, size - 1, 2, 0, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, &v, 0, MPI_INT, size - 1, 3, 0, MPI_INT,
                                 MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock(size - 1, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(mem[0] == 0 && mem[1] == 0 && mem[2] == 0 && mem[3] == 0, "zero-byte ops wrote");
    free(mem);
}

/* Atomics on our own attached memory of a dynamic window (served by our own RMA helper:
 * MPICH's rma/linked_list; it was refused as "no such peer"). */
static void dynamic_self(void)
{
    int rank, mem[2] = {10, 20}, one = 1, old = -1, cmp = 20, swap = 7;
    MPI_Aint disp;
    MPI_Win win;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_attach(win, mem, sizeof mem));
    MPI_Get_address(mem, &disp);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, rank, disp, MPI_SUM, win));
    CHECK_MPI(MPI_Win_flush(rank, win));
    CHECK(old == 10, "fetch_and_op fetched %d", old);
    CHECK_MPI(MPI_Compare_and_swap(&swap, &cmp, &old, MPI_INT, rank, disp + sizeof(int), win));
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, rank, disp, 1, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK(old == 20 && mem[0] == 12 && mem[1] == 7, "after: old %d mem (%d,%d)", old, mem[0],
          mem[1]);
    CHECK_MPI(MPI_Win_detach(win, mem));
    CHECK_MPI(MPI_Win_free(&win));
}

/* Put and get from one attached region of a dynamic window into the next one adjacent to
 * it (MPICH's rma/win_dynamic_rma_flush_get: "not in an attached region" before). */
static void dynamic_span(void)
{
    static int mem[64];
    int rank, size, i, out[48], back[48];
    MPI_Aint mine, *addrs;
    MPI_Win win;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    addrs = malloc(size * sizeof(MPI_Aint));
    for (i = 0; i < 64; i++)
        mem[i] = -1;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_attach(win, mem, 32 * sizeof(int)));
    CHECK_MPI(MPI_Win_attach(win, mem + 32, 32 * sizeof(int)));
    MPI_Get_address(mem + 8, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    for (i = 0; i < 48; i++)
        out[i] = 1000 * rank + i;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win));
    CHECK_MPI(MPI_Put(out, 48, MPI_INT, to, addrs[to], 48, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(to, win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < 64; i++) {
        int want = i >= 8 && i < 56 ? 1000 * from + i - 8 : -1;
        CHECK(mem[i] == want, "span put: mem[%d] = %d, want %d", i, mem[i], want);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win));
    CHECK_MPI(MPI_Get(back, 48, MPI_INT, to, addrs[to], 48, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(to, win));
    for (i = 0; i < 48; i++)
        CHECK(back[i] == out[i], "span get: [%d] = %d, want %d", i, back[i], out[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_detach(win, mem));
    CHECK_MPI(MPI_Win_detach(win, mem + 32));
    CHECK_MPI(MPI_Win_free(&win));
    free(addrs);
}

/* Calls that complete one operation leave MPI_ERROR alone (MPI-3.1 3.2.5; MPICH's
 * pt2pt/mprobe checks it): Recv, Wait, Probe, Mprobe, Mrecv. */
static void status_error_kept(void)
{
    int x = 5, y = 0;
    MPI_Status st;
    MPI_Request r;
    MPI_Message m;
    st.MPI_ERROR = MPI_ERR_DIMS;
    CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, 0, 3, &y, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &st));
    CHECK(st.MPI_ERROR == MPI_ERR_DIMS && y == 5, "Sendrecv set MPI_ERROR to %d", st.MPI_ERROR);
    CHECK_MPI(MPI_Isend(&x, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &r));
    CHECK_MPI(MPI_Probe(0, 4, MPI_COMM_SELF, &st));
    CHECK(st.MPI_ERROR == MPI_ERR_DIMS, "Probe set MPI_ERROR to %d", st.MPI_ERROR);
    CHECK_MPI(MPI_Mprobe(0, 4, MPI_COMM_SELF, &m, &st));
    CHECK(st.MPI_ERROR == MPI_ERR_DIMS, "Mprobe set MPI_ERROR to %d", st.MPI_ERROR);
    CHECK_MPI(MPI_Mrecv(&y, 1, MPI_INT, &m, &st));
    CHECK(st.MPI_ERROR == MPI_ERR_DIMS, "Mrecv set MPI_ERROR to %d", st.MPI_ERROR);
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_ERROR == MPI_ERR_DIMS, "Wait set MPI_ERROR to %d", st.MPI_ERROR);
    CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &st));
    CHECK(st.MPI_ERROR == MPI_ERR_DIMS && st.MPI_SOURCE == MPI_PROC_NULL, "Recv(PROC_NULL)");
}

/* MPI-4's MPI_Comm_idup_with_info: a congruent communicator once the request completes. */
static void idup_info(void)
{
    MPI_Comm dup;
    MPI_Request r;
    MPI_Info info;
    int result, sum = 0, one = 1, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &dup, &r));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &result));
    CHECK(result == MPI_CONGRUENT, "idup_with_info: compare gave %d", result);
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK(sum == size, "allreduce on the dup: %d", sum);
    CHECK(MPI_Comm_idup_with_info(MPI_COMM_WORLD, (MPI_Info)0x1234, &dup, &r) == MPI_ERR_INFO,
          "an invalid info accepted");
    CHECK_MPI(MPI_Comm_free(&dup));
}

/* A thousand regions attached to one dynamic window (MPICH's rma/window_attach; railmpi
 * refused more than 256), the last one written by the next rank. */
static void many_regions(void)
{
    enum { REGIONS = 1000 };
    int rank, size, i, **bufs = malloc(REGIONS * sizeof(int *)), v;
    MPI_Aint last, *addrs;
    MPI_Win win;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    addrs = malloc(size * sizeof(MPI_Aint));
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (i = 0; i < REGIONS; i++) {
        bufs[i] = calloc(4, sizeof(int));
        CHECK_MPI(MPI_Win_attach(win, bufs[i], 4 * sizeof(int)));
    }
    MPI_Get_address(bufs[REGIONS - 1], &last);
    MPI_Allgather(&last, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
    int to = (rank + 1) % size;
    v = 500 + rank;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, to, addrs[to] + 2 * sizeof(int), 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(to, win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(bufs[REGIONS - 1][2] == 500 + (rank + size - 1) % size, "last region holds %d",
          bufs[REGIONS - 1][2]);
    for (i = 0; i < REGIONS; i++) {
        CHECK_MPI(MPI_Win_detach(win, bufs[i]));
        free(bufs[i]);
    }
    CHECK_MPI(MPI_Win_free(&win));
    free(bufs);
    free(addrs);
}

/* A periodic ring of one or two processes: both neighbours are the same process, and the
 * block sent to the negative neighbour arrives in its positive slot (MPI-4.0 8.6). */
static void ring_neighbors(void)
{
    int rank, n, sbuf[2] = {-1, 1}, rbuf[2] = {0, 0}, periods[1] = {1};
    MPI_Comm pair, ring;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    if (pair == MPI_COMM_NULL)
        return;
    MPI_Comm_size(pair, &n);
    CHECK_MPI(MPI_Cart_create(pair, 1, &n, periods, 0, &ring));
    CHECK_MPI(MPI_Neighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, ring));
    CHECK(rbuf[0] == 1 && rbuf[1] == -1, "ring of %d: got (%d,%d), want (1,-1)", n, rbuf[0],
          rbuf[1]);
    MPI_Comm_free(&ring);
    MPI_Comm_free(&pair);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Pcontrol(1) == MPI_SUCCESS, "MPI_Pcontrol(1)");
    CHECK(MPI_Pcontrol(2, "extra", 3) == MPI_SUCCESS, "variadic MPI_Pcontrol");
    errors_added();
    errhandler_mpi1();
    type_attrs();
    pack_external();
    f90_types();
    info_calls(argc, argv);
    keyval_refs();
    window_calls();
    ring_neighbors();
    dynamic_self();
    dynamic_span();
    status_error_kept();
    idup_info();
    many_regions();
    ct_ok("mpi_misc");
    MPI_Finalize();
    return 0;
}
