/* attr_copy_err: an attribute copy callback that fails makes MPI_Comm_dup,
 * MPI_Comm_dup_with_info and MPI_Type_dup fail with the callback's own error code — one the
 * application added (MPI_Add_error_class / MPI_Add_error_code) or a predefined one — whose
 * MPI_Error_class is the class it was added to; the new handle is the null one, the old
 * object keeps its attribute, and a dup whose callback succeeds works again. Under
 * MPI_ERRORS_RETURN. (MPICH 4.0.2 passes every one of these.) */
#include "check.h"

static int fail_with; /* what the copy callbacks return */

static int comm_copy(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)key, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return fail_with;
}

static int type_copy(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)key, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return fail_with;
}

/* `rc` must be `code` (what the callback returned), of class `cls`. */
static void expect(const char *call, const char *name, int rc, int code, int cls)
{
    int got = -1;
    CHECK(rc != MPI_SUCCESS, "%s succeeded though its copy callback returned %s", call, name);
    CHECK_MPI(MPI_Error_class(rc, &got));
    CHECK(rc == code && got == cls,
          "%s returned %d (class %d), not the callback's %s %d (class %d)", call, rc, got,
          name, code, cls);
}

int main(int argc, char **argv)
{
    int user_cls, user_code, arg_code, key, tkey, flag;
    void *v;
    MPI_Comm base, dup;
    MPI_Datatype t, tdup;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base)); /* MPI_ERRORS_RETURN too */
    CHECK_MPI(MPI_Add_error_class(&user_cls));
    CHECK_MPI(MPI_Add_error_code(user_cls, &user_code));
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &arg_code));
    CHECK_MPI(MPI_Comm_create_keyval(comm_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(base, key, (void *)(MPI_Aint)5));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_keyval(type_copy, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL));
    CHECK_MPI(MPI_Type_set_attr(t, tkey, (void *)(MPI_Aint)6));

    const struct {
        int code, cls;
        const char *name;
    } fails[] = {
        {user_code, user_cls, "an added code"},
        {user_cls, user_cls, "an added class"},
        {arg_code, MPI_ERR_ARG, "a code added to MPI_ERR_ARG"},
        {MPI_ERR_OTHER, MPI_ERR_OTHER, "MPI_ERR_OTHER"},
        {MPI_ERR_NO_MEM, MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM"},
    };
    for (size_t i = 0; i < sizeof(fails) / sizeof(fails[0]); i++) {
        fail_with = fails[i].code;
        dup = MPI_COMM_WORLD;
        expect("MPI_Comm_dup", fails[i].name, MPI_Comm_dup(base, &dup), fails[i].code,
               fails[i].cls);
        CHECK(dup == MPI_COMM_NULL, "MPI_Comm_dup failed but newcomm is not MPI_COMM_NULL");
        dup = MPI_COMM_WORLD;
        expect("MPI_Comm_dup_with_info", fails[i].name,
               MPI_Comm_dup_with_info(base, MPI_INFO_NULL, &dup), fails[i].code, fails[i].cls);
        CHECK(dup == MPI_COMM_NULL, "MPI_Comm_dup_with_info: newcomm is not MPI_COMM_NULL");
        tdup = MPI_INT;
        expect("MPI_Type_dup", fails[i].name, MPI_Type_dup(t, &tdup), fails[i].code,
               fails[i].cls);
        CHECK(tdup == MPI_DATATYPE_NULL, "MPI_Type_dup: newtype is not MPI_DATATYPE_NULL");
    }

    /* The originals keep their attributes; a callback that succeeds copies again. */
    CHECK_MPI(MPI_Comm_get_attr(base, key, &v, &flag));
    CHECK(flag && v == (void *)(MPI_Aint)5, "communicator's attribute after the failed dups");
    CHECK_MPI(MPI_Type_get_attr(t, tkey, &v, &flag));
    CHECK(flag && v == (void *)(MPI_Aint)6, "datatype's attribute after the failed dups");
    fail_with = MPI_SUCCESS;
    CHECK_MPI(MPI_Comm_dup(base, &dup));
    CHECK_MPI(MPI_Comm_get_attr(dup, key, &v, &flag));
    CHECK(flag && v == (void *)(MPI_Aint)5, "attribute copied by a succeeding callback");
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Type_dup(t, &tdup));
    CHECK_MPI(MPI_Type_get_attr(tdup, tkey, &v, &flag));
    CHECK(flag && v == (void *)(MPI_Aint)6, "type attribute copied by a succeeding callback");
    CHECK_MPI(MPI_Type_free(&tdup));

    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free_keyval(&tkey));
    CHECK_MPI(MPI_Comm_free(&base));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    ct_ok("attr_copy_err");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
