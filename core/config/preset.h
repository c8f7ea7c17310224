/* Presets: named starting configurations, JSON files in spaces/presets/ compiled into the
 * binary. A preset may name a `base` preset whose settings it starts from.
 *
 *   {"name": "...", "description": "...", "source": "...", "base": "fermi-gtx480",
 *    "settings": {"gpu.sms": 30, "l1d.hash": "xor", ...}}
 */
#ifndef WT_PRESET_H
#define WT_PRESET_H

#include <stddef.h>

#include "core/config/params.h"

#define WT_DEFAULT_PRESET "fermi-gtx480"

/* Applies a built-in preset by name, or a preset file by path (anything containing '/' or
 * ending in ".json"). Returns 0, or -1 with "file:line: message" in err. */
int preset_apply(param_set *p, const char *name_or_path, char *err, size_t errlen);
/* Applies preset text; `filename` is used in messages. */
int preset_apply_text(param_set *p, const char *text, const char *filename, char *err,
                      size_t errlen);

size_t preset_builtin_count(void);
const char *preset_builtin_name(size_t i);
/* The preset's description and source, or "" (into buf). */
void preset_builtin_describe(size_t i, char *buf, size_t buflen);

/* Line (1-based) of the first occurrence of "key" (quoted) in text, or of ptr if key is NULL. */
int json_line_of(const char *text, const char *key, const char *ptr);

struct cJSON;
/* The first member of a JSON object (in file order) whose key an earlier member already has, or
 * NULL: cJSON keeps every member of a duplicated key, and lookups would silently take one. */
const struct cJSON *json_first_duplicate(const struct cJSON *obj);

#endif
