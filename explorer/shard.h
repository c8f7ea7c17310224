/* Sharded studies: the simulations of a non-adaptive search (grid, random, LHS) split over N
 * independent processes (a job array), each appending to its own journal in the shared output
 * folder, journal.K-of-N; a later run in that folder (--resume) replays every shard's journal
 * and writes the study's outputs, as a run on one machine would (docs/cluster.md). */
#ifndef WT_SHARD_H
#define WT_SHARD_H

#include <stddef.h>

#include "explorer/evaluator.h"
#include "explorer/space.h"

/* The most shards of one study. */
#define SHARD_MAX 100000

/* Parses "K/N" with 1 <= K <= N <= SHARD_MAX. Returns 0, or -1 when it is not that. */
int shard_parse(const char *text, int *k, int *n);

/* Before shard k of n opens its journal: refuses an adaptive search, and an output folder that
 * holds another study (a study.json that differs from this study's, or the journals of a split
 * into another number of shards); then writes study.json (the same for every shard). The
 * journal's path goes to journal (folder/journal.K-of-N). Returns 0, or -1 with err. */
int shard_prepare(const space *s, const char *const *sets, size_t nsets, int k, int n,
                  char *journal, size_t journal_len, char *err, size_t errlen);

/* How many shard journals (journal.K-of-N) the folder holds. */
size_t shard_journals(const char *folder);

/* Replays every shard journal of the folder into the evaluator, in name order. Returns 0, or
 * -1 or -2 with err as evaluator_replay. */
int shard_merge(evaluator *e, const char *folder, char *err, size_t errlen);

#endif
