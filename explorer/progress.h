/* Progress of a long run: a bar with rate and ETA when stderr is a terminal, a plain log line
 * every few seconds otherwise, nothing when quiet. Safe to call from one thread at a time. */
#ifndef WT_PROGRESS_H
#define WT_PROGRESS_H

#include <stddef.h>

typedef struct progress progress;

/* total may be 0 when unknown (a time budget): then no ETA is shown. */
progress *progress_new(const char *label, size_t total, int quiet);
/* done simulations so far, of which `failed` failed. Rate-limited: cheap to call often. */
void progress_update(progress *p, size_t done, size_t failed);
void progress_finish(progress *p, size_t done, size_t failed);
/* The total, once it is known better (a search that finished asked for fewer). */
void progress_set_total(progress *p, size_t total);
void progress_free(progress *p);

#endif
