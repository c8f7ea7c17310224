#ifndef WT_EXPLORER_VERSION_H
#define WT_EXPLORER_VERSION_H
/* The program's version string, from the build. */
const char *wt_version(void);
#endif
