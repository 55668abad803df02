/* attr_keyvals: communicator attributes and their callbacks.
 * set/get/delete with created keyvals; a counting copy callback run by MPI_Comm_dup (and
 * MPI_Comm_idup), MPI_COMM_NULL_COPY_FN (not copied), MPI_COMM_DUP_FN (same value), a copy
 * callback that declines (flag 0); delete callbacks counted on replace, delete_attr,
 * MPI_Comm_free, and on MPI_COMM_SELF during MPI_Finalize (checked after it returns);
 * extra_state passed through; a keyval freed while in use keeps working for the attributes
 * it has; the MPI-1 names (MPI_Keyval_create, MPI_Attr_put/get/delete, MPI_Keyval_free);
 * predefined attributes still there. */
#include "check.h"

static int copies, deletes, last_deleted, finalize_deletes, finalized_inside = -1;
static int extra_a = 11, extra_b = 22;

static int copy_inc(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    CHECK(extra == &extra_a, "copy callback got extra_state %p", extra);
    copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_decline(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out,
                        int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra;
    (void)in;
    (void)out;
    copies++;
    *flag = 0;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm;
    (void)keyval;
    CHECK(extra == &extra_a || extra == &extra_b || extra == NULL,
          "delete callback got extra_state %p", extra);
    deletes++;
    last_deleted = (int)(intptr_t)val;
    return MPI_SUCCESS;
}

static int self_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval;
    (void)extra;
    CHECK(comm == MPI_COMM_SELF, "MPI_COMM_SELF delete callback on another communicator");
    CHECK((intptr_t)val == 4242, "MPI_COMM_SELF attribute value %ld", (long)(intptr_t)val);
    int fin = -1;
    MPI_Finalized(&fin);
    finalized_inside = fin;
    finalize_deletes++;
    return MPI_SUCCESS;
}

static void *get(MPI_Comm c, int k, int *flag)
{
    void *v = NULL;
    *flag = -1;
    CHECK_MPI(MPI_Comm_get_attr(c, k, &v, flag));
    return v;
}

int main(int argc, char **argv)
{
    int rank, flag, k1, k2, k3, k4, k5, kself;
    void *v;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    CHECK_MPI(MPI_Comm_create_keyval(copy_inc, count_delete, &k1, &extra_a));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &k2, &extra_b));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k3, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(copy_decline, count_delete, &k4, NULL));
    CHECK(k1 != k2 && k2 != k3 && k3 != k4 && k1 != MPI_KEYVAL_INVALID, "keyvals not distinct");

    MPI_Comm c, d, e;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    v = get(c, k1, &flag);
    CHECK(flag == 0, "attribute present before it was set (flag %d)", flag);

    /* set / get / replace / delete */
    CHECK_MPI(MPI_Comm_set_attr(c, k1, (void *)(intptr_t)100));
    CHECK_MPI(MPI_Comm_set_attr(c, k2, (void *)(intptr_t)200));
    CHECK_MPI(MPI_Comm_set_attr(c, k3, (void *)(intptr_t)300));
    CHECK_MPI(MPI_Comm_set_attr(c, k4, (void *)(intptr_t)400));
    v = get(c, k1, &flag);
    CHECK(flag == 1 && (intptr_t)v == 100, "k1: flag %d value %ld", flag, (long)(intptr_t)v);
    v = get(c, k2, &flag);
    CHECK(flag == 1 && (intptr_t)v == 200, "k2: flag %d value %ld", flag, (long)(intptr_t)v);
    CHECK(deletes == 0, "delete callback ran %d times too early", deletes);
    CHECK_MPI(MPI_Comm_set_attr(c, k2, (void *)(intptr_t)201));
    CHECK(deletes == 1 && last_deleted == 200, "replace: %d deletes, last value %d", deletes,
          last_deleted);
    v = get(c, k2, &flag);
    CHECK(flag == 1 && (intptr_t)v == 201, "k2 after replace: %ld", (long)(intptr_t)v);
    /* The attribute is on c only. */
    v = get(MPI_COMM_WORLD, k2, &flag);
    CHECK(flag == 0, "attribute of a dup visible on MPI_COMM_WORLD");

    /* Dup: k1 copied through copy_inc (value + 1), k2 not (NULL copy), k3 same value,
     * k4 declined. */
    CHECK_MPI(MPI_Comm_dup(c, &d));
    CHECK(copies == 2, "Comm_dup ran %d copy callbacks, expected 2", copies);
    v = get(d, k1, &flag);
    CHECK(flag == 1 && (intptr_t)v == 101, "dup k1: flag %d value %ld", flag, (long)(intptr_t)v);
    v = get(d, k2, &flag);
    CHECK(flag == 0, "MPI_COMM_NULL_COPY_FN attribute was copied");
    v = get(d, k3, &flag);
    CHECK(flag == 1 && (intptr_t)v == 300, "MPI_COMM_DUP_FN: flag %d value %ld", flag,
          (long)(intptr_t)v);
    v = get(d, k4, &flag);
    CHECK(flag == 0, "declined attribute was copied");
    /* The original keeps its values. */
    v = get(c, k1, &flag);
    CHECK(flag == 1 && (intptr_t)v == 100, "original k1 changed: %ld", (long)(intptr_t)v);

    /* idup copies too. */
    MPI_Request req;
    CHECK_MPI(MPI_Comm_idup(d, &e, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    v = get(e, k1, &flag);
    CHECK(flag == 1 && (intptr_t)v == 102, "idup k1: flag %d value %ld", flag, (long)(intptr_t)v);

    /* delete_attr runs the callback once; deleting an absent attribute is fine. */
    deletes = 0;
    CHECK_MPI(MPI_Comm_delete_attr(c, k1));
    CHECK(deletes == 1 && last_deleted == 100, "delete_attr: %d deletes, value %d", deletes,
          last_deleted);
    v = get(c, k1, &flag);
    CHECK(flag == 0, "attribute still there after delete_attr");
    CHECK_MPI(MPI_Comm_delete_attr(c, k1));
    CHECK(deletes == 1, "deleting an absent attribute ran a callback");

    /* Freeing a keyval in use: the handle becomes MPI_KEYVAL_INVALID, the attributes on d
     * and e stay and their delete callbacks still run. */
    int k1_copy = k1;
    CHECK_MPI(MPI_Comm_free_keyval(&k1_copy));
    CHECK(k1_copy == MPI_KEYVAL_INVALID, "free_keyval did not set MPI_KEYVAL_INVALID");

    /* Comm_free runs the delete callbacks of what is left: c has k2 (201), k4 (400); k3 has
     * none. */
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(deletes == 2, "Comm_free(c): %d delete callbacks, expected 2", deletes);
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&d)); /* k1 = 101 */
    CHECK(deletes == 1 && last_deleted == 101, "Comm_free(d): %d deletes, value %d", deletes,
          last_deleted);
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&e)); /* k1 = 102, through the freed keyval */
    CHECK(deletes == 1 && last_deleted == 102, "Comm_free(e): %d deletes, value %d", deletes,
          last_deleted);
    CHECK_MPI(MPI_Comm_free_keyval(&k2));
    CHECK_MPI(MPI_Comm_free_keyval(&k3));
    CHECK_MPI(MPI_Comm_free_keyval(&k4));

    /* MPI-1 names. */
    CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, count_delete, &k5, &extra_b));
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k5, (void *)(intptr_t)55));
    v = NULL;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, k5, &v, &flag));
    CHECK(flag == 1 && (intptr_t)v == 55, "Attr_get: flag %d value %ld", flag, (long)(intptr_t)v);
    deletes = 0;
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k5));
    CHECK(deletes == 1 && last_deleted == 55, "Attr_delete: %d deletes", deletes);
    CHECK_MPI(MPI_Keyval_free(&k5));
    CHECK(k5 == MPI_KEYVAL_INVALID, "Keyval_free did not set MPI_KEYVAL_INVALID");

    /* Predefined attributes, through both names. */
    int *ip = NULL;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag));
    CHECK(flag && ip && *ip >= 32767, "MPI_TAG_UB via Attr_get");
    ip = NULL;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &ip, &flag));
    CHECK(flag && ip && *ip >= 32767, "MPI_TAG_UB on MPI_COMM_SELF");

    /* Many attributes on one communicator, set and read back, then freed. */
    int ks[20];
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    for (int i = 0; i < 20; i++) {
        CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &ks[i], NULL));
        CHECK_MPI(MPI_Comm_set_attr(c, ks[i], (void *)(intptr_t)(1000 + i)));
    }
    CHECK_MPI(MPI_Comm_dup(c, &d));
    for (int i = 0; i < 20; i++) {
        v = get(d, ks[i], &flag);
        CHECK(flag == 1 && (intptr_t)v == 1000 + i, "attribute %d on the dup: %ld", i,
              (long)(intptr_t)v);
    }
    deletes = 0;
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(deletes == 40, "%d delete callbacks for 2 x 20 attributes", deletes);
    for (int i = 0; i < 20; i++)
        CHECK_MPI(MPI_Comm_free_keyval(&ks[i]));

    /* MPI_COMM_SELF: its delete callback must run inside MPI_Finalize, before it is done. */
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &kself, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, kself, (void *)(intptr_t)4242));
    CHECK_MPI(MPI_Comm_free_keyval(&kself));

    ct_ok("attr_keyvals");
    CHECK_MPI(MPI_Finalize());
    CHECK(finalize_deletes == 1, "MPI_COMM_SELF delete callback ran %d times in MPI_Finalize",
          finalize_deletes);
    CHECK(finalized_inside == 0, "MPI_Finalized was %d inside the callback", finalized_inside);
    return 0;
}
