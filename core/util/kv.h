/* "name=value" text, as --set, --wparam and the tests take it. */
#ifndef WT_KV_H
#define WT_KV_H

#include <stddef.h>

/* Splits text at its first '=': copies the name before it into name (namelen bytes, NUL
 * included) and points *value just past it, into text. Returns 0, or -1 with name and *value
 * untouched when text has no '=', the name is empty, or the name does not fit in namelen. */
int wt_split_kv(const char *text, char *name, size_t namelen, const char **value);

#endif
