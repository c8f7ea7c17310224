#include "explorer/mpi_eval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WT_MPI
#include <mpi.h>

#include "core/config/params.h"

enum { TAG_TASK = 1, TAG_RESULT = 2, TAG_STOP = 3 };

/* A task: its index in the runner's list, the workload, the configuration's hash (checked by
 * the worker), then every parameter's value as a double. */
typedef struct task_head {
    uint64_t job, w, hash, nvalues;
} task_head;

typedef struct task_result {
    uint64_t job;
    int32_t status;
    char error[256];
    sim_metrics m;
} task_result;

static int g_size, g_released;
static int *g_owner; /* per rank: the job it runs, -1 when idle */

int mpi_eval_available(void)
{
    return 1;
}

int mpi_eval_init(int *rank, int *size, char *err, size_t errlen)
{
    int done = 0;
    MPI_Initialized(&done);
    if (!done && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        snprintf(err, errlen, "--mpi: MPI_Init failed");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    g_size = *size;
    return 0;
}

void mpi_eval_finalize(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
    free(g_owner);
    g_owner = NULL;
}

void mpi_eval_release(void)
{
    if (g_released) return;
    g_released = 1;
    for (int r = 1; r < g_size; r++)
        MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
}

static int send_task(int rank, const eval_job *job, uint64_t index)
{
    size_t nv = param_catalog_count(param_set_catalog(job->cfg));
    size_t len = sizeof(task_head) + nv * sizeof(double);
    unsigned char *buf = malloc(len);
    if (!buf) return -1;
    task_head h = {index, job->w, param_set_hash(job->cfg), nv};
    memcpy(buf, &h, sizeof h);
    for (size_t id = 0; id < nv; id++) {
        double v = param_get(job->cfg, (int)id);
        memcpy(buf + sizeof h + id * sizeof v, &v, sizeof v);
    }
    int rc = MPI_Send(buf, (int)len, MPI_BYTE, rank, TAG_TASK, MPI_COMM_WORLD);
    free(buf);
    return rc == MPI_SUCCESS ? 0 : -1;
}

/* The runner: one task per idle worker, the next one to whichever answers first. */
static void run_jobs(void *ctx, evaluator *e, const eval_job *jobs, size_t n)
{
    (void)ctx;
    size_t next = 0, inflight = 0;
    for (int r = 1; r < g_size && next < n && !evaluator_stopped(e); r++) {
        if (send_task(r, &jobs[next], next) != 0) break;
        g_owner[r] = (int)next++;
        inflight++;
    }
    while (inflight > 0) {
        task_result res;
        MPI_Status st;
        MPI_Recv(&res, (int)sizeof res, MPI_BYTE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
        int r = st.MPI_SOURCE;
        inflight--;
        res.error[sizeof res.error - 1] = '\0';
        if (g_owner[r] >= 0 && (uint64_t)g_owner[r] == res.job)
            evaluator_finish(e, &jobs[res.job], (sim_status)res.status, &res.m, res.error);
        g_owner[r] = -1;
        if (next < n && !evaluator_stopped(e) && send_task(r, &jobs[next], next) == 0) {
            g_owner[r] = (int)next++;
            inflight++;
        }
    }
    for (; next < n; next++)
        evaluator_skip(e, &jobs[next]);
}

int mpi_eval_attach(evaluator *e, char *err, size_t errlen)
{
    if (g_size < 2) {
        snprintf(err, errlen,
                 "--mpi: no worker (expected mpirun -n P with P >= 2: rank 0 runs the study, "
                 "the others simulate)");
        return -1;
    }
    g_owner = malloc((size_t)g_size * sizeof *g_owner);
    if (!g_owner) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int r = 0; r < g_size; r++)
        g_owner[r] = -1;
    evaluator_set_runner(e, run_jobs, NULL);
    return 0;
}

static int work(evaluator *e, const param_set *base, char *err, size_t errlen)
{
    param_set *cfg = param_set_clone(base);
    if (!cfg) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const param_catalog *cat = param_set_catalog(base);
    size_t nv = param_catalog_count(cat);
    unsigned char *buf = malloc(sizeof(task_head) + nv * sizeof(double));
    int rc = buf ? 0 : -1;
    while (rc == 0) {
        MPI_Status st;
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_STOP) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            break;
        }
        int len = 0;
        MPI_Get_count(&st, MPI_BYTE, &len);
        task_result res;
        memset(&res, 0, sizeof res);
        if ((size_t)len != sizeof(task_head) + nv * sizeof(double)) {
            unsigned char *drop = malloc(len > 0 ? (size_t)len : 1);
            if (drop)
                MPI_Recv(drop, len, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            free(drop);
            snprintf(err, errlen, "--mpi: a task of %d bytes (another build of warptune?)", len);
            rc = -1;
            break;
        }
        MPI_Recv(buf, len, MPI_BYTE, 0, TAG_TASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        task_head h;
        memcpy(&h, buf, sizeof h);
        res.job = h.job;
        char msg[200] = "";
        int ok = h.w < evaluator_workloads(e);
        for (size_t id = 0; ok && id < nv; id++) {
            double v;
            memcpy(&v, buf + sizeof h + id * sizeof v, sizeof v);
            ok = param_set_value(cfg, param_catalog_def(cat, id)->name, v, msg, sizeof msg) == 0;
        }
        if (ok && param_set_hash(cfg) != h.hash) {
            snprintf(msg, sizeof msg, "the configuration changed on its way to the worker");
            ok = 0;
        }
        if (ok) {
            res.status =
                evaluator_simulate(e, cfg, (size_t)h.w, &res.m, res.error, sizeof res.error);
        } else {
            res.status = SIM_BAD_CONFIG;
            snprintf(res.error, sizeof res.error, "--mpi: %s", msg);
        }
        MPI_Send(&res, (int)sizeof res, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
    free(buf);
    param_set_free(cfg);
    return rc;
}

int mpi_eval_work(const space *s, char *err, size_t errlen)
{
    evaluator *e = evaluator_new(s, NULL, 1, err, errlen);
    if (!e) return -1;
    int rc = work(e, s->base, err, errlen);
    evaluator_free(e);
    return rc;
}

#else /* no MPI in this build */

int mpi_eval_available(void)
{
    return 0;
}

int mpi_eval_init(int *rank, int *size, char *err, size_t errlen)
{
    *rank = 0;
    *size = 1;
    snprintf(err, errlen,
             "--mpi: this warptune was built without MPI (configure with -DWT_MPI=ON)");
    return -1;
}

void mpi_eval_finalize(void) {}

int mpi_eval_attach(evaluator *e, char *err, size_t errlen)
{
    (void)e;
    snprintf(err, errlen, "--mpi: this warptune was built without MPI");
    return -1;
}

void mpi_eval_release(void) {}

int mpi_eval_work(const space *s, char *err, size_t errlen)
{
    (void)s;
    snprintf(err, errlen, "--mpi: this warptune was built without MPI");
    return -1;
}

#endif
