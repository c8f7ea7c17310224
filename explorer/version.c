#include "explorer/version.h"

const char *wt_version(void)
{
    return WT_VERSION;
}
