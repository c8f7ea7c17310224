/* The Open MPI evaluator (the build option WT_MPI; docs/cluster.md): `mpirun -n P warptune
 * explore SPACE --mpi`. Rank 0 runs the study as usual (search, journal, outputs) with a runner
 * (evaluator_set_runner) that hands each simulation, longest first, to the next idle worker and
 * records each result as it comes back; ranks 1 to P-1 are workers that simulate what they are
 * sent until rank 0 tells them to stop. Results travel as the doubles they are, so the outputs
 * are those of a run on one machine, byte for byte. */
#ifndef WT_MPI_EVAL_H
#define WT_MPI_EVAL_H

#include <stddef.h>

#include "explorer/evaluator.h"
#include "explorer/space.h"

/* 1 when this build has the MPI evaluator. */
int mpi_eval_available(void);

/* Starts MPI (once; the command line calls it before the study) and gives this process's rank
 * and the number of processes. Returns 0, or -1 with err (no MPI in this build, or MPI failed
 * to start). */
int mpi_eval_init(int *rank, int *size, char *err, size_t errlen);
/* Ends MPI (after mpi_eval_release on rank 0). */
void mpi_eval_finalize(void);

/* Rank 0: the runner that sends the evaluator's simulations to the workers. Returns 0, or -1
 * with err when there is no worker (a single process). */
int mpi_eval_attach(evaluator *e, char *err, size_t errlen);
/* Rank 0: tells every worker to stop (once; also when the study failed before it began). */
void mpi_eval_release(void);

/* A worker (rank > 0): loads the space's workloads and simulates what rank 0 sends until told
 * to stop; it writes nothing. Returns 0, or -1 with err. */
int mpi_eval_work(const space *s, char *err, size_t errlen);

#endif
