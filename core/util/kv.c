#include "core/util/kv.h"

#include <string.h>

int wt_split_kv(const char *text, char *name, size_t namelen, const char **value)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || (size_t)(eq - text) >= namelen) return -1;
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    *value = eq + 1;
    return 0;
}
