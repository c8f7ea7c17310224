/* Space files: the top-level object and its checks, loading by name or path, --set
 * overrides, and the errors that name the file and the JSON path (explorer/space_internal.h). */
#include "explorer/space_internal.h"

#include <errno.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <nlopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "explorer/sensitivity.h"
#include "core/util/embedded.h"
#include "core/config/preset.h"
#include "core/util/kv.h"
#include "core/util/textfile.h"

/* ---------------------------------------------------------------- errors and JSON paths */

int space_fail(space_ctx *c, const char *path, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (path && path[0])
        snprintf(c->err, c->errlen, "%s: %s: %s", c->file, path, msg);
    else
        snprintf(c->err, c->errlen, "%s: %s", c->file, msg);
    return -1;
}

/* path of a member: base.key, or base."key" when the key has dots */
void space_path_key(char *out, size_t n, const char *base, const char *key)
{
    int quote = strchr(key, '.') != NULL || strchr(key, ' ') != NULL;
    const char *parts[5] = {base, base[0] ? "." : "", quote ? "\"" : "", key, quote ? "\"" : ""};
    size_t used = 0;
    for (int i = 0; i < 5; i++)
        for (const char *c = parts[i]; *c && used + 1 < n; c++)
            out[used++] = *c;
    out[used] = '\0';
}

void space_path_index(char *out, size_t n, const char *base, size_t i)
{
    snprintf(out, n, "%s[%zu]", base, i);
}

static int given_twice(space_ctx *c, const char *path, const char *key)
{
    char p[512];
    space_path_key(p, sizeof p, path, key);
    return space_fail(c, p, "given twice (expected each key once)");
}

int space_check_unique(space_ctx *c, const cJSON *obj, const char *path)
{
    const cJSON *dup = json_first_duplicate(obj);
    return dup ? given_twice(c, path, dup->string) : 0;
}

int space_check_keys(space_ctx *c, const cJSON *obj, const char *path, const char *const *allowed)
{
    for (const cJSON *it = obj->child; it; it = it->next) {
        int ok = 0;
        for (size_t i = 0; allowed[i]; i++)
            ok |= !strcmp(it->string, allowed[i]);
        if (!ok) {
            char list[512] = "";
            size_t used = 0;
            for (size_t i = 0; allowed[i] && used < sizeof list; i++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                         allowed[i]);
            char p[512];
            space_path_key(p, sizeof p, path, it->string);
            return space_fail(c, p, "unknown key (expected one of: %s)", list);
        }
        for (const cJSON *jt = it->next; jt; jt = jt->next)
            if (!strcmp(it->string, jt->string)) return given_twice(c, path, it->string);
    }
    return 0;
}

int space_get_number(space_ctx *c, const cJSON *obj, const char *key, const char *path, double *out,
                     int integer, double lo, double hi)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) return 0;
    char p[512];
    space_path_key(p, sizeof p, path, key);
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) ||
        (integer && it->valuedouble != floor(it->valuedouble)))
        return space_fail(c, p, "expected %s", integer ? "an integer" : "a number");
    if (it->valuedouble < lo || it->valuedouble > hi)
        return space_fail(c, p, "expected a value in [%.10g, %.10g], got %.17g", lo, hi,
                          it->valuedouble);
    *out = it->valuedouble;
    return 1;
}

int space_get_string(space_ctx *c, const cJSON *obj, const char *key, const char *path,
                     const char **out)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) return 0;
    if (!cJSON_IsString(it)) {
        char p[512];
        space_path_key(p, sizeof p, path, key);
        return space_fail(c, p, "expected a string");
    }
    *out = it->valuestring;
    return 1;
}

/* ---------------------------------------------------------------- text */

/* The offset of the first byte of s[0..n) that does not begin or continue a well-formed UTF-8
 * sequence (no overlong forms, surrogates or code points above U+10FFFF), or n when there is
 * none. */
static size_t utf8_bad_offset(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char b = s[i];
        size_t len;
        unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
        if (b < 0x80) {
            i++;
            continue;
        } else if (b >= 0xC2 && b <= 0xDF) {
            len = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            if (b == 0xE0) lo = 0xA0; /* overlong */
            if (b == 0xED) hi = 0x9F; /* surrogates */
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            if (b == 0xF0) lo = 0x90; /* overlong */
            if (b == 0xF4) hi = 0x8F; /* above U+10FFFF */
        } else {
            return i;
        }
        if (i + 1 >= n || s[i + 1] < lo || s[i + 1] > hi) return i;
        for (size_t k = 2; k < len; k++)
            if (i + k >= n || (s[i + k] & 0xC0) != 0x80) return i;
        i += len;
    }
    return n;
}

/* Every key and string of the space must be UTF-8: they reach summary.json, study.json and the
 * CSVs, whose readers expect it. Depth is bounded by cJSON's nesting limit. Returns 0 or -1. */
static int check_utf8(space_ctx *c, const cJSON *node, const char *path)
{
    if (cJSON_IsString(node)) {
        size_t n = strlen(node->valuestring);
        size_t bad = utf8_bad_offset((const unsigned char *)node->valuestring, n);
        if (bad < n)
            return space_fail(c, path, "byte %zu (0x%02x) is not UTF-8 (expected UTF-8 text)",
                              bad + 1, (unsigned char)node->valuestring[bad]);
        return 0;
    }
    size_t i = 0;
    for (const cJSON *it = node->child; it; it = it->next, i++) {
        char p[512];
        if (cJSON_IsObject(node)) {
            size_t n = strlen(it->string);
            size_t bad = utf8_bad_offset((const unsigned char *)it->string, n);
            if (bad < n)
                return space_fail(c, path[0] ? path : "(top level)",
                                  "a key's byte %zu (0x%02x) is not UTF-8 (expected UTF-8 keys)",
                                  bad + 1, (unsigned char)it->string[bad]);
            space_path_key(p, sizeof p, path, it->string);
        } else {
            space_path_index(p, sizeof p, path, i);
        }
        if (check_utf8(c, it, p)) return -1;
    }
    return 0;
}

/* The study's name names its default output folder, results/NAME: one folder name, which
 * stays inside results/. from_file: the name is the space file's, not a "name" key. */
static int check_name(space_ctx *c, const char *name, int from_file)
{
    const char *given = from_file ? " (the space file's name, without \"name\")" : "";
    size_t n = strlen(name);
    if (n == 0) return space_fail(c, "name", "expected a non-empty name");
    if (n > SPACE_MAX_NAME)
        return space_fail(c, "name", "%zu bytes long%s (expected at most %d)", n, given,
                          SPACE_MAX_NAME);
    size_t bad = utf8_bad_offset((const unsigned char *)name, n);
    if (bad < n)
        return space_fail(c, "name", "byte %zu (0x%02x) is not UTF-8%s (expected UTF-8 text)",
                          bad + 1, (unsigned char)name[bad], given);
    if (strchr(name, '/') || strchr(name, '\\') || !strcmp(name, ".") || !strcmp(name, ".."))
        return space_fail(c, "name",
                          "\"%s\"%s would name a folder outside results/ (expected a name "
                          "without '/', '\\' and not \".\" or \"..\")",
                          name, given);
    return 0;
}

/* ---------------------------------------------------------------- the space */

/* The most rows a sensitivity design may have (docs/spaces.md). */
#define SPACE_MAX_DESIGN 10000000

/* A Morris or Sobol study needs parameters, every point of its design in full detail (no
 * screening) and a design of a size that can be simulated. Returns 0, or -1 with the message
 * against path. */
static int check_sensitivity(space_ctx *c, const space *s, const char *path)
{
    const space_search *q = &s->search;
    if (!search_is_sensitivity(q->kind)) return 0;
    if (s->ndims == 0)
        return space_fail(c, path,
                          "expected grid, random or lhs: a %s study measures the effect of "
                          "parameters, and there are none to explore",
                          search_kind_name(q->kind));
    if (q->screen > 0)
        return space_fail(c, path,
                          "expected search.screen 0 with %s: its indices need every point of its "
                          "design simulated in full detail",
                          search_kind_name(q->kind));
    size_t n = sens_design_points(q->kind == SEARCH_MORRIS ? SENS_MORRIS : SENS_SOBOL, s->ndims,
                                  q->max_evaluations);
    if (n > SPACE_MAX_DESIGN)
        return space_fail(c, path,
                          "expected a design of at most %d points: %zu %s over %zu parameter%s "
                          "make %s",
                          SPACE_MAX_DESIGN, q->max_evaluations,
                          q->kind == SEARCH_MORRIS ? "trajectories" : "base samples", s->ndims,
                          s->ndims == 1 ? "" : "s", n == SIZE_MAX ? "more than 2^64" : "more");
    return 0;
}

static int finish(space_ctx *c, space *s)
{
    if (s->search.kind == SEARCH_NLOPT && s->ndims == 0)
        return space_fail(c, "search.strategy",
                          "expected grid, random or lhs: there is nothing to "
                          "explore (no parameters)");
    if (s->search.kind == SEARCH_NLOPT && s->ndims < 2 &&
        (s->search.nlopt_algorithm == NLOPT_LN_BOBYQA ||
         s->search.nlopt_algorithm == NLOPT_LN_NEWUOA_BOUND))
        return space_fail(c, "search.strategy",
                          "expected another algorithm: %s needs at least two "
                          "parameters to explore",
                          s->search.algorithm);
    if (s->search.kind == SEARCH_GRID && space_grid_size(s) > 1000000)
        return space_fail(c, "search.strategy",
                          "expected a grid of at most 1000000 points, this one has %s; use random, "
                          "lhs or an NLopt algorithm",
                          space_grid_size(s) == SIZE_MAX ? "more than 2^64" : "more");
    if (s->search.screen > 0 && s->search.kind == SEARCH_NLOPT)
        return space_fail(c, "search.screen",
                          "expected a grid, random or lhs search: screening judges a batch of "
                          "configurations, an NLopt search asks for one at a time");
    if (s->search.scalarisations == 0)
        s->search.scalarisations = s->nobjectives == 1 ? 1 : (s->nobjectives == 2 ? 5 : 6);
    if (s->search.max_evaluations == 0 && s->search.kind != SEARCH_GRID)
        s->search.max_evaluations = 100;
    return check_sensitivity(c, s, "search.strategy");
}

void space_free(space *s)
{
    if (!s) return;
    free(s->file);
    free(s->name);
    free(s->description);
    free(s->preset);
    param_set_free(s->base);
    for (size_t i = 0; i < s->ndims; i++)
        space_dim_free(&s->dims[i]);
    free(s->dims);
    for (size_t i = 0; i < s->nconstraints; i++) {
        free(s->constraints[i].text);
        cexpr_free(s->constraints[i].expr);
    }
    free(s->constraints);
    for (size_t i = 0; i < s->nworkloads; i++) {
        space_workload *w = &s->workloads[i];
        free(w->name);
        free(w->label);
        for (size_t j = 0; j < 2 * w->nov; j++)
            free(w->ov_text[j]);
        free(w->ov_text);
        free(w->ov);
    }
    free(s->workloads);
    for (size_t i = 0; i < s->nobjectives; i++)
        free(s->objectives[i].name);
    free(s->objectives);
    free(s->search.algorithm);
    free(s->output);
    free(s->canonical);
    free(s);
}

static char *base_name(const char *file)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    char *n = strdup(b);
    if (n) {
        size_t l = strlen(n);
        if (l > 5 && !strcmp(n + l - 5, ".json")) n[l - 5] = '\0';
    }
    return n;
}

/* The top-level strings: name (default: the file's base name), description and preset, and
 * the base configuration the preset gives. */
static int parse_identity(space_ctx *c, space *s, const cJSON *root)
{
    const char *str = NULL;
    if (space_get_string(c, root, "name", "", &str) < 0) return -1;
    s->name = str ? strdup(str) : base_name(c->file);
    if (s->name && check_name(c, s->name, !str)) return -1;
    str = "";
    if (space_get_string(c, root, "description", "", &str) < 0) return -1;
    s->description = strdup(str);
    str = WT_DEFAULT_PRESET;
    if (space_get_string(c, root, "preset", "", &str) < 0) return -1;
    s->preset = strdup(str);
    s->base = param_set_new();
    if (!s->name || !s->description || !s->preset || !s->base)
        return space_fail(c, "", "out of memory");
    char msg[1024];
    if (preset_apply(s->base, s->preset, msg, sizeof msg) != 0)
        return space_fail(c, "preset", "%s", msg);
    return 0;
}

/* "settings" and "parameters": a parameter is either fixed or explored, never both. */
static int parse_settings_and_parameters(space_ctx *c, space *s, const cJSON *root)
{
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(root, "settings");
    if (settings && space_parse_settings(c, s, settings)) return -1;
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "parameters");
    if (params && space_parse_parameters(c, s, params)) return -1;
    if (!settings) return 0;
    for (size_t i = 0; i < s->ndims; i++)
        if (cJSON_GetObjectItemCaseSensitive(settings, s->dims[i].name)) {
            char p[512];
            space_path_key(p, sizeof p, "settings", s->dims[i].name);
            return space_fail(c, p, "is also explored in parameters (expected one or the other)");
        }
    return 0;
}

/* "constraints": an array of conditions, each parsed now so that a mistake names its path. */
static int parse_constraints(space_ctx *c, space *s, const cJSON *cons)
{
    if (!cJSON_IsArray(cons))
        return space_fail(c, "constraints", "expected an array of conditions (strings)");
    size_t n = (size_t)cJSON_GetArraySize(cons);
    s->constraints = calloc(n ? n : 1, sizeof *s->constraints);
    if (!s->constraints) return space_fail(c, "", "out of memory");
    size_t i = 0;
    for (const cJSON *it = cons->child; it; it = it->next, i++) {
        char p[64], msg[768];
        space_path_index(p, sizeof p, "constraints", i);
        if (!cJSON_IsString(it))
            return space_fail(c, p, "expected a condition (a string such as \"a < b\")");
        struct cexpr *e = cexpr_parse(it->valuestring, msg, sizeof msg);
        if (!e) {
            /* a long condition is quoted by its start: the column locates the problem */
            int len = (int)strlen(it->valuestring);
            return space_fail(c, p, "\"%.*s%s\": %s", len > 80 ? 72 : len, it->valuestring,
                              len > 80 ? " ..." : "", msg);
        }
        s->constraints[s->nconstraints].expr = e;
        s->constraints[s->nconstraints].text = strdup(it->valuestring);
        s->nconstraints++;
    }
    return 0;
}

/* "objectives", or without them the default: ipc (max, geomean). */
static int parse_objectives_or_default(space_ctx *c, space *s, const cJSON *root)
{
    const cJSON *objs = cJSON_GetObjectItemCaseSensitive(root, "objectives");
    if (objs) return space_parse_objectives(c, s, objs);
    cJSON *def = cJSON_Parse("[\"ipc\"]");
    int rc = def ? space_parse_objectives(c, s, def) : -1;
    cJSON_Delete(def);
    return rc;
}

/* "output": the folder, by default results/<name>. */
static int parse_output(space_ctx *c, space *s, const cJSON *root)
{
    const char *str = NULL;
    if (space_get_string(c, root, "output", "", &str) < 0) return -1;
    if (str && !str[0]) return space_fail(c, "output", "expected a folder name");
    if (str && strlen(str) > SPACE_MAX_OUTPUT)
        return space_fail(c, "output", "%zu bytes long (expected a folder name of at most %d)",
                          strlen(str), SPACE_MAX_OUTPUT);
    if (str) {
        s->output = strdup(str);
    } else {
        char out[512];
        snprintf(out, sizeof out, "results/%s", s->name);
        s->output = strdup(out);
    }
    return s->output ? 0 : space_fail(c, "", "out of memory");
}

/* The sections of a space, in the order their checks depend on: parameters before the
 * constraints over them, workloads and objectives before the search that uses them. */
static int parse_sections(space_ctx *c, space *s, const cJSON *root)
{
    static const char *const keys[] = {"name",       "description", "preset",    "settings",
                                       "parameters", "constraints", "workloads", "objectives",
                                       "search",     "output",      "$schema",   NULL};
    if (space_check_keys(c, root, "", keys) || check_utf8(c, root, "") ||
        parse_identity(c, s, root) || parse_settings_and_parameters(c, s, root))
        return -1;
    const cJSON *cons = cJSON_GetObjectItemCaseSensitive(root, "constraints");
    if (cons && parse_constraints(c, s, cons)) return -1;
    const cJSON *wls = cJSON_GetObjectItemCaseSensitive(root, "workloads");
    if (!wls) return space_fail(c, "workloads", "missing (expected an array of workloads)");
    if (space_parse_workloads(c, s, wls) || parse_objectives_or_default(c, s, root) ||
        space_parse_search(c, s, cJSON_GetObjectItemCaseSensitive(root, "search")) ||
        parse_output(c, s, root) || finish(c, s))
        return -1;
    s->canonical = cJSON_PrintUnformatted(root);
    return s->canonical ? 0 : space_fail(c, "", "out of memory");
}

space *space_parse(const char *text, const char *file, char *err, size_t errlen)
{
    space_ctx c = {file, err, errlen};
    space *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "%s: out of memory", file);
        return NULL;
    }
    s->file = strdup(file);
    s->search.kind = SEARCH_GRID;
    s->search.seed = 1;
    s->search.screen_margin = 1.5;
    cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
    int rc = -1;
    if (!root)
        snprintf(err, errlen, "%s:%d: malformed JSON (expected a JSON object)", file,
                 json_line_of(text, NULL, cJSON_GetErrorPtr()));
    else if (!cJSON_IsObject(root))
        space_fail(&c, "", "expected a JSON object at the top level");
    else
        rc = parse_sections(&c, s, root);
    cJSON_Delete(root);
    if (rc == 0) return s;
    space_free(s);
    return NULL;
}

space *space_load(const char *name_or_path, char *err, size_t errlen)
{
    size_t l = strlen(name_or_path);
    int is_path = strchr(name_or_path, '/') || (l > 5 && !strcmp(name_or_path + l - 5, ".json"));
    if (!is_path) {
        for (size_t i = 0; i < space_builtin_count(); i++)
            if (!strcmp(space_builtin_name(i), name_or_path)) {
                char file[256];
                snprintf(file, sizeof file, "spaces/%s.json", name_or_path);
                return space_parse(space_builtin_text(i), file, err, errlen);
            }
        char list[512] = "";
        size_t used = 0;
        for (size_t i = 0; i < space_builtin_count() && used < sizeof list; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                     space_builtin_name(i));
        snprintf(err, errlen, "unknown space '%s' (built-in spaces: %s; or give a path)",
                 name_or_path, list);
        return NULL;
    }
    size_t len;
    const char *refused;
    FILE *f = wt_open_regular(name_or_path, &refused);
    char *text = f ? wt_read_stream_max(f, &len, WT_TEXT_MAX) : NULL;
    int saved = errno;
    if (f) fclose(f);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read the space file: %s", name_or_path,
                 refused ? refused : strerror(saved));
        return NULL;
    }
    if (wt_json_refuse_nul(name_or_path, text, len, err, errlen)) {
        free(text);
        return NULL;
    }
    space *s = space_parse(text, name_or_path, err, errlen);
    free(text);
    return s;
}

int space_override(space *s, const char *kv, char *err, size_t errlen)
{
    char key[256];
    const char *val;
    if (wt_split_kv(kv, key, sizeof key, &val) != 0) {
        snprintf(err, errlen, "--set %s: expected name=value", kv);
        return -1;
    }
    space_ctx c = {"--set", err, errlen};
    char *end;
    if (!strcmp(key, "search.strategy")) {
        if (space_set_strategy(&c, &s->search, val, key)) return -1;
        if (s->search.kind == SEARCH_NLOPT && s->ndims == 0)
            return space_fail(&c, key, "expected grid, random or lhs: no parameters to explore");
        if (s->search.kind != SEARCH_GRID && s->search.max_evaluations == 0)
            s->search.max_evaluations = 100;
        if (s->search.screen > 0 && s->search.kind == SEARCH_NLOPT)
            return space_fail(&c, key,
                              "expected grid, random or lhs: the study screens "
                              "(search.screen)");
        return check_sensitivity(&c, s, key);
    }
    if (!strcmp(key, "output")) {
        if (!*val) return space_fail(&c, key, "expected a folder name"); /* as in the file */
        if (strlen(val) > SPACE_MAX_OUTPUT)
            return space_fail(&c, key, "%zu bytes long (expected a folder name of at most %d)",
                              strlen(val), SPACE_MAX_OUTPUT);
        free(s->output);
        s->output = strdup(val);
        return s->output ? 0 : space_fail(&c, key, "out of memory");
    }
    if (!strncmp(key, "search.", 7)) {
        /* the ranges of the space file's search keys (space_study.c) */
        static const struct {
            const char *key;
            double lo, hi;
            int integer;
        } keys[] = {{"search.seed", 0, 9007199254740991.0, 1},
                    {"search.evaluations", 1, 1e9, 1},
                    {"search.seconds", 0, 1e9, 0},
                    {"search.threads", 0, 1024, 1},
                    {"search.scalarisations", 1, 1000, 1},
                    {"search.screen", 0, 0.999, 0},
                    {"search.screen_margin", 1, 100, 0}};
        size_t k = 0;
        while (k < sizeof keys / sizeof keys[0] && strcmp(key, keys[k].key) != 0)
            k++;
        if (k == sizeof keys / sizeof keys[0])
            return space_fail(&c, key,
                              "expected search.strategy, search.seed, search.evaluations, "
                              "search.seconds, search.threads, search.scalarisations, "
                              "search.screen or search.screen_margin");
        double v = strtod(val, &end);
        if (!*val || *end || !isfinite(v) || v < 0)
            return space_fail(&c, key, "expected a non-negative number, got '%s'", val);
        if (keys[k].integer && v != floor(v))
            return space_fail(&c, key, "expected an integer, got '%s'", val);
        if (v < keys[k].lo || v > keys[k].hi)
            return space_fail(&c, key, "expected a value in [%.17g, %.17g], got '%s'", keys[k].lo,
                              keys[k].hi, val);
        if (k == 0)
            s->search.seed = (uint64_t)v;
        else if (k == 1)
            s->search.max_evaluations = (size_t)v;
        else if (k == 2)
            s->search.max_seconds = v;
        else if (k == 3)
            s->search.threads = (int)v;
        else if (k == 4)
            s->search.scalarisations = (size_t)v;
        else if (k == 5)
            s->search.screen = v;
        else
            s->search.screen_margin = v;
        if (s->search.screen > 0 && s->search.kind == SEARCH_NLOPT)
            return space_fail(&c, key, "expected a grid, random or lhs search for screening");
        return check_sensitivity(&c, s, key);
    }
    char msg[768];
    if (param_set_parse(s->base, key, val, msg, sizeof msg) != 0)
        return space_fail(&c, key, "%s", msg);
    for (size_t i = 0; i < s->ndims; i++)
        if (!strcmp(s->dims[i].name, key)) {
            space_dim_free(&s->dims[i]);
            memmove(&s->dims[i], &s->dims[i + 1], (s->ndims - i - 1) * sizeof *s->dims);
            s->ndims--;
            break;
        }
    if (s->search.kind == SEARCH_NLOPT && s->ndims == 0)
        return space_fail(&c, key, "leaves nothing to explore; use search.strategy=grid");
    return check_sensitivity(&c, s, key);
}

size_t space_builtin_count(void)
{
    return wt_embedded_spaces_count;
}

const char *space_builtin_name(size_t i)
{
    return wt_embedded_spaces[i].name;
}

const char *space_builtin_text(size_t i)
{
    return wt_embedded_spaces[i].text;
}

int space_samples(const space *s)
{
    if (s->search.screen > 0) return 1;
    const char *names[] = {"sample.kernels", "sample.intra"};
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        int id = param_lookup(names[n]);
        if (id < 0) continue;
        if (param_get(s->base, id) != 0) return 1;
        for (size_t d = 0; d < s->ndims; d++)
            if (s->dims[d].param == id) return 1;
    }
    return 0;
}
