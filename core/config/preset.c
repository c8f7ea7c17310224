#include "core/config/preset.h"

#include <errno.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/embedded.h"
#include "core/util/textfile.h"

int json_line_of(const char *text, const char *key, const char *ptr)
{
    const char *at = ptr;
    if (key) {
        size_t n = strlen(key);
        for (const char *s = strchr(text, '"'); s; s = strchr(s + 1, '"')) {
            if (strncmp(s + 1, key, n) == 0 && s[n + 1] == '"') {
                at = s;
                break;
            }
        }
    }
    return at ? wt_line_at(text, (size_t)(at - text)) : 1;
}

typedef struct keyref {
    const cJSON *item;
    size_t at; /* position in the object */
} keyref;

static int keyref_cmp(const void *a, const void *b)
{
    const keyref *x = a, *y = b;
    int c = strcmp(x->item->string, y->item->string);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

const cJSON *json_first_duplicate(const cJSON *obj)
{
    size_t n = 0;
    for (const cJSON *it = obj->child; it; it = it->next)
        n++;
    keyref *r = n > 16 ? malloc(n * sizeof *r) : NULL;
    if (!r) { /* few members (or no memory): compare each with the earlier ones */
        for (const cJSON *it = obj->child; it; it = it->next)
            for (const cJSON *jt = obj->child; jt != it; jt = jt->next)
                if (!strcmp(it->string, jt->string)) return it;
        return NULL;
    }
    /* many: sorted by key then position, every member equal to its predecessor is a repeat;
     * the earliest of those is the answer */
    size_t i = 0;
    for (const cJSON *it = obj->child; it; it = it->next, i++)
        r[i] = (keyref){it, i};
    qsort(r, n, sizeof *r, keyref_cmp);
    const keyref *first = NULL;
    for (i = 1; i < n; i++)
        if (!strcmp(r[i].item->string, r[i - 1].item->string) && (!first || r[i].at < first->at))
            first = &r[i];
    const cJSON *dup = first ? first->item : NULL;
    free(r);
    return dup;
}

/* Line of the second quoted occurrence of key in text, where a duplicated key repeats; of the
 * first when there is no second. */
static int json_line_of_repeat(const char *text, const char *key)
{
    size_t n = strlen(key);
    const char *seen = NULL;
    for (const char *s = strchr(text, '"'); s; s = strchr(s + 1, '"')) {
        if (strncmp(s + 1, key, n) != 0 || s[n + 1] != '"') continue;
        if (seen) return json_line_of(text, NULL, s);
        seen = s;
        s += n + 1; /* the closing quote opens nothing */
    }
    return json_line_of(text, key, NULL);
}

static const embedded_file *builtin(const char *name)
{
    for (size_t i = 0; wt_embedded_presets[i].name; i++)
        if (strcmp(wt_embedded_presets[i].name, name) == 0) return &wt_embedded_presets[i];
    return NULL;
}

size_t preset_builtin_count(void)
{
    return wt_embedded_presets_count;
}

const char *preset_builtin_name(size_t i)
{
    return wt_embedded_presets[i].name;
}

void preset_builtin_describe(size_t i, char *buf, size_t buflen)
{
    buf[0] = '\0';
    cJSON *root = cJSON_Parse(wt_embedded_presets[i].text);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "description");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "source");
    snprintf(buf, buflen, "%s%s%s%s", cJSON_IsString(d) ? d->valuestring : "",
             cJSON_IsString(s) ? " (" : "", cJSON_IsString(s) ? s->valuestring : "",
             cJSON_IsString(s) ? ")" : "");
    cJSON_Delete(root);
}

static int apply_depth(param_set *p, const char *text, const char *filename, int depth, char *err,
                       size_t errlen);

/* A message about the preset reference itself, prefixed with "from:line: " when the reference
 * is the `base` of a preset file. */
static int named_error(const char *from, int from_line, char *err, size_t errlen, const char *msg)
{
    if (from)
        snprintf(err, errlen, "%s:%d: base: %s", from, from_line, msg);
    else
        snprintf(err, errlen, "%s", msg);
    return -1;
}

static int apply_named(param_set *p, const char *name, int depth, const char *from, int from_line,
                       char *err, size_t errlen)
{
    char msg[768];
    if (depth > 8) {
        snprintf(msg, sizeof msg, "preset '%s': too many nested bases (a cycle?)", name);
        return named_error(from, from_line, err, errlen, msg);
    }
    int is_path = strchr(name, '/') != NULL ||
                  (strlen(name) > 5 && strcmp(name + strlen(name) - 5, ".json") == 0);
    if (!is_path) {
        const embedded_file *f = builtin(name);
        if (!f) {
            char list[512] = "";
            size_t used = 0;
            for (size_t i = 0; wt_embedded_presets[i].name && used < sizeof list; i++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                         wt_embedded_presets[i].name);
            snprintf(msg, sizeof msg, "unknown preset '%s' (built-in presets: %s; or give a path)",
                     name, list);
            return named_error(from, from_line, err, errlen, msg);
        }
        char fname[256];
        snprintf(fname, sizeof fname, "%s.json", f->name);
        return apply_depth(p, f->text, fname, depth, err, errlen);
    }
    /* A relative base path is found beside the preset file that names it, as a workload's
     * data files are beside the workload: a preset and its base move together. */
    char path[4096];
    const char *slash = from ? strrchr(from, '/') : NULL;
    if (name[0] != '/' && slash) {
        int n = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - from), from, name);
        if (n < 0 || (size_t)n >= sizeof path) {
            snprintf(msg, sizeof msg, "%s: path too long", name);
            return named_error(from, from_line, err, errlen, msg);
        }
        name = path;
    }
    const char *refused;
    FILE *fp = wt_open_regular(name, &refused);
    if (!fp && refused) { /* as a read that fails: a folder, a FIFO, a device */
        snprintf(err, errlen, "%s: cannot read: %s", name, refused);
        return -1;
    }
    if (!fp) {
        snprintf(msg, sizeof msg, "%.700s: cannot open preset file: %s", name, strerror(errno));
        return named_error(from, from_line, err, errlen, msg);
    }
    size_t len;
    char *text = wt_read_stream_max(fp, &len, WT_TEXT_MAX);
    int saved = errno;
    fclose(fp);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read: %s", name, strerror(saved));
        return -1;
    }
    if (wt_json_refuse_nul(name, text, len, err, errlen)) {
        free(text);
        return -1;
    }
    int rc = apply_depth(p, text, name, depth, err, errlen);
    free(text);
    return rc;
}

static int apply_setting(param_set *p, const cJSON *item, const char *text, const char *filename,
                         char *err, size_t errlen)
{
    char msg[512];
    int rc;
    const char *key = item->string;
    if (cJSON_IsBool(item)) {
        rc = param_set_parse(p, key, cJSON_IsTrue(item) ? "true" : "false", msg, sizeof msg);
    } else if (cJSON_IsNumber(item)) {
        rc = param_set_value(p, key, item->valuedouble, msg, sizeof msg);
        /* a number given for a named choice: say what is expected */
        const param_catalog *cat = param_set_catalog(p);
        if (rc == 0 &&
            param_catalog_def(cat, (size_t)param_catalog_lookup(cat, key))->type == PT_CHOICE) {
            snprintf(msg, sizeof msg, "%s: expected the name of a choice (a string)", key);
            rc = -1;
        }
    } else if (cJSON_IsString(item)) {
        rc = param_set_parse(p, key, item->valuestring, msg, sizeof msg);
    } else {
        snprintf(msg, sizeof msg, "%s: expected a number, a string or true/false", key);
        rc = -1;
    }
    if (rc != 0)
        snprintf(err, errlen, "%s:%d: settings.\"%s\": %s", filename, json_line_of(text, key, NULL),
                 key, msg);
    return rc;
}

static int apply_depth(param_set *p, const char *text, const char *filename, int depth, char *err,
                       size_t errlen)
{
    /* require_null_terminated: text after the top-level value is an error too */
    cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
    if (!root) {
        snprintf(err, errlen, "%s:%d: malformed JSON", filename,
                 json_line_of(text, NULL, cJSON_GetErrorPtr()));
        return -1;
    }
    int rc = -1;
    if (!cJSON_IsObject(root)) {
        const char *start = text + strspn(text, " \t\r\n");
        snprintf(err, errlen, "%s:%d: expected a JSON object at the top level", filename,
                 json_line_of(text, NULL, start));
        goto out;
    }
    const cJSON *dup = json_first_duplicate(root);
    if (dup) {
        snprintf(err, errlen, "%s:%d: \"%s\": given twice (expected each key once)", filename,
                 json_line_of_repeat(text, dup->string), dup->string);
        goto out;
    }
    for (const cJSON *it = root->child; it; it = it->next) {
        const char *k = it->string;
        if (strcmp(k, "name") && strcmp(k, "description") && strcmp(k, "source") &&
            strcmp(k, "base") && strcmp(k, "settings")) {
            snprintf(err, errlen,
                     "%s:%d: unknown key \"%s\" (expected name, description, source, base, "
                     "settings)",
                     filename, json_line_of(text, k, NULL), k);
            goto out;
        }
        if (strcmp(k, "settings") != 0 && !cJSON_IsString(it)) {
            snprintf(err, errlen, "%s:%d: \"%s\": expected a string", filename,
                     json_line_of(text, k, NULL), k);
            goto out;
        }
    }
    const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
    if (base && apply_named(p, base->valuestring, depth + 1, filename,
                            json_line_of(text, "base", NULL), err, errlen) != 0)
        goto out;
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(root, "settings");
    if (!cJSON_IsObject(settings)) {
        snprintf(err, errlen, "%s:%d: \"settings\": expected an object of parameter: value",
                 filename, json_line_of(text, settings ? "settings" : NULL, NULL));
        goto out;
    }
    if ((dup = json_first_duplicate(settings)) != NULL) {
        snprintf(err, errlen, "%s:%d: settings.\"%s\": given twice (expected each key once)",
                 filename, json_line_of_repeat(text, dup->string), dup->string);
        goto out;
    }
    for (const cJSON *it = settings->child; it; it = it->next)
        if (apply_setting(p, it, text, filename, err, errlen) != 0) goto out;
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

int preset_apply_text(param_set *p, const char *text, const char *filename, char *err,
                      size_t errlen)
{
    return apply_depth(p, text, filename, 0, err, errlen);
}

int preset_apply(param_set *p, const char *name_or_path, char *err, size_t errlen)
{
    return apply_named(p, name_or_path, 0, NULL, 0, err, errlen);
}
