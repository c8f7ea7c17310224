/* Output files that never appear half-written: each is written to a temporary beside it and
 * renamed into place. */
#ifndef WT_OUTFILE_H
#define WT_OUTFILE_H

#include <stddef.h>

/* Where an output file named `path` is written through a temporary renamed into place. A
 * symbolic link is followed to the file it names, so that the rename replaces that file and not
 * the link; *direct is set when that file exists and is not a regular file (a device, a FIFO):
 * it is then written in place, never renamed over. Returns the path to write (heap; the caller
 * frees it), or NULL with err. */
char *wt_out_target(const char *path, int *direct, char *err, size_t errlen);

#endif
