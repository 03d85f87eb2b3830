/* SPDX-License-Identifier: BSD-3-Clause */
/* transparency.c (2 processes): calls MPI where the results are easy to get wrong for a
 * wrapper (sentinel-filled statuses, MPI_ERRORS_RETURN error paths, null, inactive and
 * persistent requests, all-null Waitany/Testany/Waitsome/Testsome, probes that find nothing)
 * and writes everything it observes to PREFIX.RANK; test_mpi_transparency.sh asserts the files
 * are identical uninstrumented, linked with the adapter and under scorep-run. */
#include "mpi_test.h"

#include <string.h>

static FILE *out;
static int rank;

/* A status whose every byte MPI may leave alone is recognisable. */
static void sentinel(MPI_Status *st)
{
    memset(st, 0x5a, sizeof *st);
    st->MPI_SOURCE = -77;
    st->MPI_TAG = -88;
    st->MPI_ERROR = -99;
}

static void show_status(const char *what, const MPI_Status *st)
{
    const unsigned char *b = (const unsigned char *)st;
    fprintf(out, "%s: source=%d tag=%d error=%d bytes=", what, st->MPI_SOURCE, st->MPI_TAG,
            st->MPI_ERROR);
    for (size_t i = 0; i < sizeof *st; i++)
        fprintf(out, "%02x", b[i]);
    fputc('\n', out);
}

static void show_rc(const char *what, int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    fprintf(out, "%s: rc=%d class=%d\n", what, rc, cls);
}

static const char *req_name(MPI_Request r, MPI_Request was)
{
    return r == MPI_REQUEST_NULL ? "NULL" : r == was ? "unchanged" : "other";
}

/* ERRORS_RETURN: invalid peers and tags return an error, and no message is lost */
static void error_paths(int peer)
{
    MPI_Status st;
    int v = 1, big[4] = {0};
    MPI_Request r = MPI_REQUEST_NULL;
    show_rc("send to rank 7", MPI_Send(&v, 1, MPI_INT, 7, 1, MPI_COMM_WORLD));
    show_rc("send with tag -5", MPI_Send(&v, 1, MPI_INT, peer, -5, MPI_COMM_WORLD));
    show_rc("send count -1", MPI_Send(&v, -1, MPI_INT, peer, 1, MPI_COMM_WORLD));
    sentinel(&st);
    show_rc("recv from rank 7", MPI_Recv(&v, 1, MPI_INT, 7, 1, MPI_COMM_WORLD, &st));
    show_status("recv from rank 7 status", &st);
    show_rc("isend to rank 7", MPI_Isend(&v, 1, MPI_INT, 7, 1, MPI_COMM_WORLD, &r));
    fprintf(out, "isend to rank 7 request: %s\n", req_name(r, MPI_REQUEST_NULL));
    sentinel(&st);
    show_rc("sendrecv to rank 7",
            MPI_Sendrecv(&v, 1, MPI_INT, 7, 1, &v, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &st));
    show_status("sendrecv to rank 7 status", &st);
    show_rc("bcast from rank 7", MPI_Bcast(&v, 1, MPI_INT, 7, MPI_COMM_WORLD));
    show_rc("allreduce of MPI_DATATYPE_NULL",
            MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD));
    /* truncation: the message is received (and recorded), the call fails */
    int two[2] = {rank + 10, rank + 20};
    sentinel(&st);
    int rc = rank == 0 ? MPI_Send(two, 2, MPI_INT, peer, 2, MPI_COMM_WORLD)
                       : MPI_Recv(big, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &st);
    show_rc("truncated recv", rc);
    show_status("truncated recv status", &st);
    fprintf(out, "truncated recv data: %d %d\n", big[0], big[1]);
}

/* MPI_Waitall with a truncated receive: MPI_ERR_IN_STATUS */
static void error_in_status(int peer)
{
    int two[2] = {31, 32}, one[2] = {0, 0}, ok = 0, v = 33;
    MPI_Request r[3];
    MPI_Status st[3];
    for (int i = 0; i < 3; i++)
        sentinel(&st[i]);
    if (rank == 0) {
        /* the good message first: MPI may return from the failed Waitall before it arrived */
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 4, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(two, 2, MPI_INT, peer, 3, MPI_COMM_WORLD));
        return;
    }
    CHECK_MPI(MPI_Irecv(one, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Irecv(&ok, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &r[1]));
    r[2] = MPI_REQUEST_NULL;
    show_rc("waitall with truncation", MPI_Waitall(3, r, st));
    for (int i = 0; i < 3; i++) {
        char what[64];
        snprintf(what, sizeof what, "waitall status %d", i);
        show_status(what, &st[i]);
        fprintf(out, "waitall request %d: %s\n", i, req_name(r[i], MPI_REQUEST_NULL));
    }
    fprintf(out, "waitall data: %d %d %d\n", one[0], one[1], ok);
}

/* null requests: empty statuses, MPI_UNDEFINED indices and counts */
static void null_requests(void)
{
    MPI_Request r = MPI_REQUEST_NULL,
                rs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st, sts[3];
    int flag = -5, index = -5, outcount = -5, indices[3] = {-5, -5, -5};
    sentinel(&st);
    show_rc("wait null", MPI_Wait(&r, &st));
    show_status("wait null status", &st);
    sentinel(&st);
    show_rc("test null", MPI_Test(&r, &flag, &st));
    fprintf(out, "test null flag=%d\n", flag);
    show_status("test null status", &st);
    sentinel(&st);
    show_rc("waitany null", MPI_Waitany(3, rs, &index, &st));
    fprintf(out, "waitany null index=%d\n", index);
    show_status("waitany null status", &st);
    sentinel(&st);
    flag = index = -5;
    show_rc("testany null", MPI_Testany(3, rs, &index, &flag, &st));
    fprintf(out, "testany null index=%d flag=%d\n", index, flag);
    show_status("testany null status", &st);
    index = -5;
    show_rc("waitany count 0", MPI_Waitany(0, rs, &index, MPI_STATUS_IGNORE));
    fprintf(out, "waitany count 0 index=%d\n", index);
    for (int i = 0; i < 3; i++)
        sentinel(&sts[i]);
    show_rc("waitsome null", MPI_Waitsome(3, rs, &outcount, indices, sts));
    fprintf(out, "waitsome null outcount=%d indices=%d %d %d\n", outcount, indices[0], indices[1],
            indices[2]);
    show_status("waitsome null status 0", &sts[0]);
    outcount = -5;
    show_rc("testsome null", MPI_Testsome(3, rs, &outcount, indices, MPI_STATUSES_IGNORE));
    fprintf(out, "testsome null outcount=%d\n", outcount);
    flag = -5;
    for (int i = 0; i < 3; i++)
        sentinel(&sts[i]);
    show_rc("testall null", MPI_Testall(3, rs, &flag, sts));
    fprintf(out, "testall null flag=%d\n", flag);
    for (int i = 0; i < 3; i++)
        show_status("testall null status", &sts[i]);
    sentinel(&st);
    flag = -5;
    show_rc("request_get_status null", MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
    fprintf(out, "request_get_status null flag=%d\n", flag);
    show_status("request_get_status null status", &st);
}

/* a receive that is not yet matched: Test, Testany, Testall, Testsome, Request_get_status
 * leave flag 0, the request and the status alone */
static void pending(int peer)
{
    int v = 0, flag = -5, index = -5, outcount = -5, indices[1] = {-5};
    MPI_Request r, was;
    MPI_Status st;
    if (rank == 0) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        v = 42;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 5, MPI_COMM_WORLD));
        return;
    }
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &r));
    was = r;
    sentinel(&st);
    show_rc("test pending", MPI_Test(&r, &flag, &st));
    fprintf(out, "test pending flag=%d request=%s\n", flag, req_name(r, was));
    show_status("test pending status", &st);
    sentinel(&st);
    show_rc("testany pending", MPI_Testany(1, &r, &index, &flag, &st));
    fprintf(out, "testany pending flag=%d index=%d request=%s\n", flag, index, req_name(r, was));
    show_status("testany pending status", &st);
    sentinel(&st);
    show_rc("testall pending", MPI_Testall(1, &r, &flag, &st));
    fprintf(out, "testall pending flag=%d request=%s\n", flag, req_name(r, was));
    show_status("testall pending status", &st);
    sentinel(&st);
    show_rc("testsome pending", MPI_Testsome(1, &r, &outcount, indices, &st));
    fprintf(out, "testsome pending outcount=%d request=%s\n", outcount, req_name(r, was));
    show_status("testsome pending status", &st);
    sentinel(&st);
    show_rc("request_get_status pending", MPI_Request_get_status(r, &flag, &st));
    fprintf(out, "request_get_status pending flag=%d\n", flag);
    show_status("request_get_status pending status", &st);
    sentinel(&st);
    flag = -5;
    show_rc("iprobe nothing", MPI_Iprobe(peer, 6, MPI_COMM_WORLD, &flag, &st));
    fprintf(out, "iprobe nothing flag=%d\n", flag);
    show_status("iprobe nothing status", &st);
    MPI_Message m = MPI_MESSAGE_NO_PROC;
    sentinel(&st);
    show_rc("improbe nothing", MPI_Improbe(peer, 6, MPI_COMM_WORLD, &flag, &m, &st));
    fprintf(out, "improbe nothing flag=%d message=%s\n", flag,
            m == MPI_MESSAGE_NULL      ? "NULL"
            : m == MPI_MESSAGE_NO_PROC ? "NO_PROC"
                                       : "other");
    show_status("improbe nothing status", &st);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    sentinel(&st);
    show_rc("wait pending", MPI_Wait(&r, &st));
    fprintf(out, "wait pending request=%s data=%d\n", req_name(r, was), v);
    show_status("wait pending status", &st);
}

/* a persistent receive that fails with MPI_ERR_TRUNCATE took its message (tag 14). (Open
 * MPI 4.1 refuses to start such a request again: MPI_Start fails.) */
static void persistent_truncated(int peer)
{
    int v[2] = {rank + 60, rank + 61}, got = 0;
    MPI_Request r, was;
    MPI_Status st;
    if (rank == 0) {
        CHECK_MPI(MPI_Send(v, 2, MPI_INT, peer, 14, MPI_COMM_WORLD));
        return;
    }
    CHECK_MPI(MPI_Recv_init(&got, 1, MPI_INT, peer, 14, MPI_COMM_WORLD, &r));
    was = r;
    CHECK_MPI(MPI_Start(&r));
    sentinel(&st);
    show_rc("wait persistent truncated", MPI_Wait(&r, &st));
    fprintf(out, "wait persistent truncated request=%s data=%d\n", req_name(r, was), got);
    show_status("wait persistent truncated status", &st);
    show_rc("request_free persistent truncated", MPI_Request_free(&r));
    fprintf(out, "request_free persistent truncated request=%s\n", req_name(r, was));
}

/* persistent requests: inactive ones complete at once with an empty status; completion
 * leaves the handle; MPI_Request_free sets it to MPI_REQUEST_NULL */
static void persistent(int peer)
{
    int v = 0, flag = -5, index = -5;
    MPI_Request r, was;
    MPI_Status st;
    if (rank == 0)
        CHECK_MPI(MPI_Send_init(&v, 1, MPI_INT, peer, 8, MPI_COMM_WORLD, &r));
    else
        CHECK_MPI(MPI_Recv_init(&v, 1, MPI_INT, peer, 8, MPI_COMM_WORLD, &r));
    was = r;
    sentinel(&st);
    show_rc("test inactive", MPI_Test(&r, &flag, &st));
    fprintf(out, "test inactive flag=%d request=%s\n", flag, req_name(r, was));
    show_status("test inactive status", &st);
    sentinel(&st);
    show_rc("wait inactive", MPI_Wait(&r, &st));
    fprintf(out, "wait inactive request=%s\n", req_name(r, was));
    show_status("wait inactive status", &st);
    sentinel(&st);
    show_rc("waitany inactive", MPI_Waitany(1, &r, &index, &st));
    fprintf(out, "waitany inactive index=%d request=%s\n", index, req_name(r, was));
    show_status("waitany inactive status", &st);
    for (int i = 0; i < 2; i++) {
        v = rank == 0 ? 80 + i : -1;
        CHECK_MPI(MPI_Start(&r));
        sentinel(&st);
        show_rc("wait persistent", MPI_Wait(&r, &st));
        fprintf(out, "wait persistent request=%s data=%d\n", req_name(r, was), v);
        show_status("wait persistent status", &st);
    }
    show_rc("request_free persistent", MPI_Request_free(&r));
    fprintf(out, "request_free persistent request=%s\n", req_name(r, was));
    persistent_truncated(peer);
}

/* completed requests: statuses and handles of Wait*, Test*, probes and matched receives */
static void completed(int peer)
{
    int v[3] = {0, 0, 0}, flag = -5, outcount = -5, indices[3] = {-5, -5, -5}, total = 0;
    MPI_Request r[3];
    MPI_Status st, sts[3];
    if (rank == 0) {
        for (int i = 0; i < 3; i++) {
            v[i] = 90 + i;
            CHECK_MPI(MPI_Send(&v[i], 1, MPI_INT, peer, 9, MPI_COMM_WORLD));
        }
        v[0] = 95;
        CHECK_MPI(MPI_Send(&v[0], 1, MPI_INT, peer, 10, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&v[0], 1, MPI_INT, peer, 11, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&v[0], 1, MPI_INT, peer, 12, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(v, 3, MPI_INT, peer, 13, MPI_COMM_WORLD));
        return;
    }
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Irecv(&v[i], 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &r[i]));
    /* how many complete per call depends on timing: report the union */
    int seen[3] = {0, 0, 0};
    while (total < 3) {
        for (int i = 0; i < 3; i++)
            sentinel(&sts[i]);
        CHECK_MPI(MPI_Waitsome(3, r, &outcount, indices, sts));
        for (int i = 0; i < outcount; i++) {
            seen[indices[i]]++;
            char what[64];
            snprintf(what, sizeof what, "waitsome status of %d", indices[i]);
            show_status(what, &sts[i]);
        }
        total += outcount;
    }
    fprintf(out, "waitsome completed %d %d %d requests=%s %s %s data=%d %d %d\n", seen[0], seen[1],
            seen[2], req_name(r[0], MPI_REQUEST_NULL), req_name(r[1], MPI_REQUEST_NULL),
            req_name(r[2], MPI_REQUEST_NULL), v[0], v[1], v[2]);
    sentinel(&st);
    show_rc("probe", MPI_Probe(peer, 10, MPI_COMM_WORLD, &st));
    show_status("probe status", &st);
    sentinel(&st);
    show_rc("recv", MPI_Recv(v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    show_status("recv status", &st);
    MPI_Message m;
    sentinel(&st);
    show_rc("mprobe", MPI_Mprobe(peer, 11, MPI_COMM_WORLD, &m, &st));
    show_status("mprobe status", &st);
    sentinel(&st);
    show_rc("mrecv", MPI_Mrecv(v, 1, MPI_INT, &m, &st));
    fprintf(out, "mrecv message=%s\n", m == MPI_MESSAGE_NULL ? "NULL" : "other");
    show_status("mrecv status", &st);
    CHECK_MPI(MPI_Irecv(v, 1, MPI_INT, peer, 12, MPI_COMM_WORLD, &r[0]));
    do {
        sentinel(&st);
        CHECK_MPI(MPI_Request_get_status(r[0], &flag, &st));
    } while (!flag);
    fprintf(out, "request_get_status done request=%s\n", req_name(r[0], MPI_REQUEST_NULL));
    show_status("request_get_status done status", &st);
    sentinel(&st);
    show_rc("wait after get_status", MPI_Wait(&r[0], &st));
    show_status("wait after get_status status", &st);
    sentinel(&st);
    show_rc("recv 3 ints", MPI_Recv(v, 3, MPI_INT, peer, 13, MPI_COMM_WORLD, &st));
    int count = -5;
    MPI_Get_count(&st, MPI_INT, &count);
    fprintf(out, "recv 3 ints count=%d data=%d %d %d\n", count, v[0], v[1], v[2]);
    show_status("recv 3 ints status", &st);
}

static void proc_null(void)
{
    MPI_Status st;
    MPI_Request r;
    int v = 5;
    sentinel(&st);
    show_rc("recv proc_null", MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    show_status("recv proc_null status", &st);
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    sentinel(&st);
    show_rc("wait proc_null", MPI_Wait(&r, &st));
    fprintf(out, "wait proc_null request=%s data=%d\n", req_name(r, MPI_REQUEST_NULL), v);
    show_status("wait proc_null status", &st);
    sentinel(&st);
    show_rc("probe proc_null", MPI_Probe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    show_status("probe proc_null status", &st);
}

/* cancelled receive: the status says so */
static void cancelled(int peer)
{
    int v = 0, flag = -5;
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, peer, 77, MPI_COMM_WORLD, &r));
    show_rc("cancel", MPI_Cancel(&r));
    sentinel(&st);
    show_rc("wait cancelled", MPI_Wait(&r, &st));
    MPI_Test_cancelled(&st, &flag);
    fprintf(out, "wait cancelled request=%s cancelled=%d\n", req_name(r, MPI_REQUEST_NULL), flag);
    show_status("wait cancelled status", &st);
}

/* handles the program creates have the values they have without measurement */
static void handles(void)
{
    MPI_Comm dup;
    MPI_Datatype t;
    MPI_Group g;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Comm_group(dup, &g));
    fprintf(out, "fortran handles: comm=%d type=%d group=%d\n", (int)MPI_Comm_c2f(dup),
            (int)MPI_Type_c2f(t), (int)MPI_Group_c2f(g));
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Comm_free(&dup));
    fprintf(out, "freed handles: comm=%s type=%s group=%s\n",
            dup == MPI_COMM_NULL ? "NULL" : "other", t == MPI_DATATYPE_NULL ? "NULL" : "other",
            g == MPI_GROUP_NULL ? "NULL" : "other");
}

/* 40 messages of derived types created and freed in turn (handle values get reused with
 * other sizes): the sender's byte count must follow the type, not a cached old size */
static void derived_types(int peer)
{
    int buf[40] = {0}, sum = 0;
    for (int k = 1; k <= 40; k++) {
        MPI_Datatype t;
        CHECK_MPI(MPI_Type_contiguous(k, MPI_INT, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        for (int i = 0; i < k; i++)
            buf[i] = rank == 0 ? k + i : 0;
        if (rank == 0)
            CHECK_MPI(MPI_Send(buf, 1, t, peer, 20, MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Recv(buf, k, MPI_INT, peer, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < k; i++)
            sum += buf[i];
        CHECK_MPI(MPI_Type_free(&t));
    }
    fprintf(out, "derived types: sum=%d\n", sum);
}

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    if (argc < 2 || size != 2) {
        fprintf(stderr, "usage: mpirun -np 2 transparency OUTPUT_PREFIX\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", argv[1], rank);
    out = fopen(path, "w");
    CHECK(out != NULL);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int peer = 1 - rank;
    handles();
    error_paths(peer);
    error_in_status(peer);
    null_requests();
    pending(peer);
    persistent(peer);
    completed(peer);
    proc_null();
    cancelled(peer);
    derived_types(peer);
    CHECK(fclose(out) == 0);
    MPI_Finalize();
    return 0;
}
