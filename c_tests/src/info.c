/* info: MPI_Info objects. create/set/get/get_valuelen/get_nkeys/get_nthkey (every key
 * exactly once), replacing a value, delete, dup (independent copies), free (sets
 * MPI_INFO_NULL), keys of MPI_MAX_INFO_KEY characters and values of MPI_MAX_INFO_VAL,
 * MPI_INFO_ENV readable, info arguments accepted by MPI_Comm_split_type,
 * MPI_Comm_dup_with_info and MPI_Dist_graph_create_adjacent. */
#include "check.h"

static void expect_value(MPI_Info info, const char *key, const char *want)
{
    char buf[MPI_MAX_INFO_VAL + 1];
    int flag = -1, len = -1;
    CHECK_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    if (!want) {
        CHECK(flag == 0, "key \"%.20s\" present", key);
        CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag));
        CHECK(flag == 0, "Info_get finds absent key \"%.20s\"", key);
        return;
    }
    CHECK(flag == 1 && len == (int)strlen(want), "valuelen of \"%.20s\": flag %d len %d", key,
          flag, len);
    memset(buf, 'x', sizeof buf);
    CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag));
    CHECK(flag == 1 && strcmp(buf, want) == 0, "value of \"%.20s\": \"%.20s\"", key, buf);
    /* Exactly the value's length is enough room. */
    memset(buf, 'x', sizeof buf);
    CHECK_MPI(MPI_Info_get(info, key, len, buf, &flag));
    CHECK(flag == 1 && strcmp(buf, want) == 0, "value with valuelen = %d: \"%.20s\"", len, buf);
}

/* The keys of info must be exactly `keys` (any order; each once). */
static void expect_keys(MPI_Info info, const char **keys, int n)
{
    int nk = -1, seen[16] = {0};
    CHECK_MPI(MPI_Info_get_nkeys(info, &nk));
    CHECK(nk == n, "Info_get_nkeys = %d, expected %d", nk, n);
    for (int i = 0; i < nk; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
        int found = -1;
        for (int k = 0; k < n; k++)
            if (strcmp(keys[k], key) == 0)
                found = k;
        CHECK(found >= 0 && !seen[found], "nthkey(%d) = \"%.20s\" unexpected or repeated", i, key);
        seen[found] = 1;
    }
}

int main(int argc, char **argv)
{
    MPI_Info info, copy;
    CHECK_MPI(MPI_Init(&argc, &argv));
    int rank;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    CHECK_MPI(MPI_Info_create(&info));
    CHECK(info != MPI_INFO_NULL, "Info_create gave MPI_INFO_NULL");
    expect_keys(info, NULL, 0);
    expect_value(info, "nothing", NULL);

    CHECK_MPI(MPI_Info_set(info, "alpha", "1"));
    CHECK_MPI(MPI_Info_set(info, "beta", "two words"));
    CHECK_MPI(MPI_Info_set(info, "gamma", ""));
    const char *k3[] = {"alpha", "beta", "gamma"};
    expect_keys(info, k3, 3);
    expect_value(info, "alpha", "1");
    expect_value(info, "beta", "two words");
    expect_value(info, "gamma", "");
    /* Keys are case sensitive. */
    expect_value(info, "ALPHA", NULL);

    /* Replacing keeps the number of keys. */
    CHECK_MPI(MPI_Info_set(info, "alpha", "one hundred"));
    expect_keys(info, k3, 3);
    expect_value(info, "alpha", "one hundred");

    /* dup is a separate object. */
    CHECK_MPI(MPI_Info_dup(info, &copy));
    CHECK(copy != info, "Info_dup returned the same handle");
    CHECK_MPI(MPI_Info_delete(info, "beta"));
    const char *k2[] = {"alpha", "gamma"};
    expect_keys(info, k2, 2);
    expect_value(info, "beta", NULL);
    expect_keys(copy, k3, 3);
    expect_value(copy, "beta", "two words");
    CHECK_MPI(MPI_Info_set(copy, "delta", "4"));
    expect_value(info, "delta", NULL);

    /* Longest key and value. */
    char key[MPI_MAX_INFO_KEY + 1], *val = malloc(MPI_MAX_INFO_VAL + 1);
    CHECK(val != NULL, "malloc");
    memset(key, 'k', MPI_MAX_INFO_KEY);
    key[MPI_MAX_INFO_KEY] = 0;
    for (int i = 0; i < MPI_MAX_INFO_VAL; i++)
        val[i] = (char)('a' + i % 26);
    val[MPI_MAX_INFO_VAL] = 0;
    CHECK_MPI(MPI_Info_set(info, key, val));
    expect_value(info, key, val);
    /* (MPICH's Info_get_nthkey returns at most MPI_MAX_INFO_KEY - 1 characters, so the key
     * listed is one shorter.) */
    CHECK_MPI(MPI_Info_delete(info, key));
    key[MPI_MAX_INFO_KEY - 1] = 0;
    CHECK_MPI(MPI_Info_set(info, key, val));
    const char *k3b[] = {"alpha", "gamma", key};
    expect_keys(info, k3b, 3);
    free(val);

    /* Many keys. */
    for (int i = 0; i < 100; i++) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%d", i);
        snprintf(v, sizeof v, "value%d", i * 7);
        CHECK_MPI(MPI_Info_set(copy, k, v));
    }
    for (int i = 0; i < 100; i++) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%d", i);
        snprintf(v, sizeof v, "value%d", i * 7);
        expect_value(copy, k, v);
    }
    int nk;
    CHECK_MPI(MPI_Info_get_nkeys(copy, &nk));
    CHECK(nk == 104, "104 keys expected, %d found", nk);

    /* Info arguments of other calls. */
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, info, &c));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, copy, &c));
    int sz, ws;
    CHECK_MPI(MPI_Comm_size(c, &sz));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &ws));
    CHECK(sz == ws, "dup_with_info size %d", sz);
    CHECK_MPI(MPI_Comm_free(&c));
    int me = rank;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &me, MPI_UNWEIGHTED, 1, &me,
                                             MPI_UNWEIGHTED, info, 0, &c));
    CHECK_MPI(MPI_Comm_free(&c));

    /* MPI_INFO_ENV is a valid info object. */
    CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &nk));
    CHECK(nk >= 0, "MPI_INFO_ENV has %d keys", nk);

    CHECK_MPI(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "Info_free did not set MPI_INFO_NULL");
    CHECK_MPI(MPI_Info_free(&copy));
    CHECK(copy == MPI_INFO_NULL, "Info_free did not set MPI_INFO_NULL");
    ct_ok("info");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
