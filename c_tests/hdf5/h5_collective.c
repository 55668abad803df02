/* h5_collective: parallel HDF5 (Debian's libhdf5-mpich, built with h5pcc.mpich) on
 * railmpi swapped in for MPICH. A 2-D dataset of doubles, block-distributed over a process
 * grid, written collectively (H5Pset_fapl_mpio, H5Pset_dxpl_mpio H5FD_MPIO_COLLECTIVE, one
 * hyperslab per rank), then the file reopened and every rank reading the whole dataset
 * (collectively) and checking every value; an attribute too. Rank 0 prints "ok h5_collective
 * [library]". usage: h5_collective FILE */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR 101
#define NC 67

#define CHECK(cond, what)                                                         \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "rank %d: %s:%d: %s failed\n", rank, __FILE__, __LINE__, what); \
            MPI_Abort(MPI_COMM_WORLD, 1);                                         \
        }                                                                         \
    } while (0)

static double value(int r, int c) { return r * 1000.0 + c + 0.25; }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc > 1, "usage: h5_collective FILE");
    const char *path = argv[1];
    int dims[2] = {0, 0};
    MPI_Dims_create(size, 2, dims);
    int pr = rank / dims[1], pc = rank % dims[1];
    hsize_t r0 = (hsize_t)NR * pr / dims[0], r1 = (hsize_t)NR * (pr + 1) / dims[0];
    hsize_t c0 = (hsize_t)NC * pc / dims[1], c1 = (hsize_t)NC * (pc + 1) / dims[1];
    hsize_t count[2] = {r1 - r0, c1 - c0}, start[2] = {r0, c0}, gdims[2] = {NR, NC};
    double *mine = malloc(sizeof(double) * (count[0] * count[1] + 1));
    for (hsize_t i = 0; i < count[0]; i++)
        for (hsize_t j = 0; j < count[1]; j++)
            mine[i * count[1] + j] = value((int)(r0 + i), (int)(c0 + j));

    /* write */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    CHECK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "H5Pset_fapl_mpio");
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECK(file >= 0, "H5Fcreate");
    hid_t fspace = H5Screate_simple(2, gdims, NULL);
    hid_t dset = H5Dcreate2(file, "grid", H5T_NATIVE_DOUBLE, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(dset >= 0, "H5Dcreate2");
    int version = 7;
    hid_t aspace = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(dset, "version", H5T_NATIVE_INT, aspace, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(attr >= 0 && H5Awrite(attr, H5T_NATIVE_INT, &version) >= 0, "attribute");
    H5Aclose(attr);
    H5Sclose(aspace);
    CHECK(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) >= 0, "hyperslab");
    hid_t mspace = H5Screate_simple(2, count, NULL);
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    CHECK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) >= 0, "H5Pset_dxpl_mpio");
    CHECK(H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, mine) >= 0, "H5Dwrite");
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Dclose(dset);
    H5Fclose(file);

    /* read back: the whole dataset on every rank, collectively */
    file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    CHECK(file >= 0, "H5Fopen");
    dset = H5Dopen2(file, "grid", H5P_DEFAULT);
    CHECK(dset >= 0, "H5Dopen2");
    attr = H5Aopen(dset, "version", H5P_DEFAULT);
    version = 0;
    CHECK(attr >= 0 && H5Aread(attr, H5T_NATIVE_INT, &version) >= 0 && version == 7, "attribute read");
    H5Aclose(attr);
    double *all = malloc(sizeof(double) * NR * NC);
    memset(all, 0, sizeof(double) * NR * NC);
    CHECK(H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, all) >= 0, "H5Dread");
    for (int r = 0; r < NR; r++)
        for (int c = 0; c < NC; c++)
            if (all[r * NC + c] != value(r, c)) {
                fprintf(stderr, "rank %d: [%d][%d] = %g, not %g\n", rank, r, c, all[r * NC + c], value(r, c));
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
    /* and this rank's block through a hyperslab, independently */
    H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_INDEPENDENT);
    fspace = H5Dget_space(dset);
    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL);
    mspace = H5Screate_simple(2, count, NULL);
    double *back = calloc(count[0] * count[1] + 1, sizeof(double));
    CHECK(H5Dread(dset, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, back) >= 0, "H5Dread hyperslab");
    CHECK(memcmp(back, mine, sizeof(double) * count[0] * count[1]) == 0, "hyperslab data");
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Dclose(dset);
    H5Pclose(dxpl);
    H5Fclose(file);
    H5Pclose(fapl);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        char *nl = strchr(lib, '\n');
        if (nl)
            *nl = 0;
        printf("ok h5_collective [%s]\n", lib);
        remove(path);
    }
    free(mine);
    free(all);
    free(back);
    MPI_Finalize();
    return 0;
}
