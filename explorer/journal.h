/* The journal: every finished simulation of a study, one line each, appended and flushed as
 * it finishes, so a study killed at any moment loses only the simulations in flight.
 *
 * Line format (tab-separated, one record per line):
 *   KEY STATUS LABEL METRICS ERROR CHECK
 * KEY is the 16-hex-digit memo key (configuration hash and workload identity), STATUS "ok",
 * "failed" or "bad", LABEL the workload's label (for people), METRICS every metric as
 * %.17g separated by commas in the order of the header, ERROR the message (tabs and
 * newlines replaced by spaces), CHECK an 8-hex-digit FNV-1a hash of everything before it.
 * The first line is a header, "# warptune journal V" and a tab, then the metrics' names, so a
 * journal written before a metric was added still replays (the new metric reads as NaN). V is
 * the version of the keys: 2, the configuration hash of param_set_hash (the parameters that
 * differ from their defaults), for every journal this build starts; 1 for one written before,
 * keyed by param_set_hash_all (every parameter). A journal keeps its version as it grows: the
 * evaluator keys its records as the journal it appends to does. A line without its newline or with
 * a wrong check (a write torn by a kill) is ignored, and a torn last line is cut off before
 * anything new is appended.
 *
 * A journal of a study that samples (docs/sampling.md) also has the columns
 * detailed_warp_insts and projected_warp_insts after the metrics, so that a replayed projected
 * result still says so; they read as 0 where a header lacks them. */
#ifndef WT_JOURNAL_H
#define WT_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/config/metrics.h"

/* The version of the journals this build starts. */
#define JOURNAL_VERSION 2

typedef struct journal journal;

typedef struct journal_record {
    uint64_t key;
    int status; /* sim_status: SIM_OK, SIM_FAILED or SIM_BAD_CONFIG */
    const char *label;
    sim_metrics m;
    const char *error; /* "" when none */
} journal_record;

typedef void (*journal_replay_fn)(void *ctx, const journal_record *r);

typedef struct journal_stats {
    size_t replayed; /* records read back */
    size_t skipped;  /* lines ignored: torn, garbled or from another format */
    int truncated;   /* a torn last line was cut off */
    int version;     /* of the journal's keys (journal_version) */
    /* when journal_open fails: 1 when the file could not be read, cut or written (output that
     * cannot be written), 0 when it is no journal (bad input) */
    int io_failed;
} journal_stats;

/* Opens (creating if needed) the journal at path, calls replay for every complete record
 * already in it, and positions it for appending. Returns NULL with err on failure, and
 * st->io_failed saying which kind. */
journal *journal_open(const char *path, journal_replay_fn replay, void *ctx, journal_stats *st,
                      char *err, size_t errlen);
/* journal_open, for a study that samples: a journal it starts has the sampling columns. */
journal *journal_open_sampled(const char *path, journal_replay_fn replay, void *ctx,
                              journal_stats *st, char *err, size_t errlen);
/* Appends one record and flushes it to the operating system. Not thread-safe: the caller
 * serialises appends. Returns 0, or -1 with errno (a full disk: ENOSPC). After a failure the
 * journal takes nothing more (-1, EIO): the records before it stay whole, and a part of the
 * failed one is cut off when the journal is next opened. */
int journal_append(journal *j, const journal_record *r);
/* The path the journal was opened at. */
const char *journal_path(const journal *j);
/* The version of the journal's keys: its header's, JOURNAL_VERSION for a journal just started. */
int journal_version(const journal *j);
void journal_close(journal *j);

#endif
