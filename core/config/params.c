#include "core/config/params.h"

#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "core/util/hash.h"

struct param_set {
    const param_catalog *cat;
    size_t n;
    double v[];
};

/* Ids are positions in the catalogue's sequence of groups. Walking it is cheap and only
 * happens at configuration time. */
size_t param_catalog_count(const param_catalog *c)
{
    size_t n = 0;
    for (size_t g = 0; g < c->group_count(); g++)
        n += c->group_at(g).count;
    return n;
}

const param_def *param_catalog_def(const param_catalog *c, size_t id)
{
    for (size_t g = 0; g < c->group_count(); g++) {
        param_group grp = c->group_at(g);
        if (id < grp.count) return &grp.defs[id];
        id -= grp.count;
    }
    return NULL;
}

int param_catalog_lookup(const param_catalog *c, const char *name)
{
    size_t base = 0;
    for (size_t g = 0; g < c->group_count(); g++) {
        param_group grp = c->group_at(g);
        for (size_t i = 0; i < grp.count; i++)
            if (strcmp(grp.defs[i].name, name) == 0) return (int)(base + i);
        base += grp.count;
    }
    return -1;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 64;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            if (up + 1 < best) best = up + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* Up to five names near `name`, nearest first (table order among equals): those within an edit
 * distance of about a third of its length, then those with the same field after the dot. */
void param_catalog_suggest(const param_catalog *c, const char *name, char *buf, size_t buflen)
{
    size_t used = 0, found = 0;
    size_t limit = strlen(name) / 3 + 1;
    if (limit < 2) limit = 2;
    buf[0] = '\0';
    const char *dot = strchr(name, '.');
    size_t n = param_catalog_count(c);
    for (size_t rank = 0; rank <= limit + 1 && found < 5; rank++) {
        for (size_t id = 0; id < n && found < 5; id++) {
            const char *cand = param_catalog_def(c, id)->name;
            const char *cdot = strchr(cand, '.');
            int same_field = dot && cdot && strcmp(dot, cdot) == 0;
            size_t d = edit_distance(name, cand);
            size_t r = d <= limit ? d : same_field ? limit + 1 : SIZE_MAX;
            if (r != rank) continue;
            int w = snprintf(buf + used, buflen - used, "%s%s", found ? ", " : "", cand);
            if (w < 0 || (size_t)w >= buflen - used) return;
            used += (size_t)w;
            found++;
        }
    }
}

param_set *param_set_new_in(const param_catalog *c)
{
    size_t n = param_catalog_count(c);
    param_set *p = malloc(sizeof *p + n * sizeof(double));
    if (!p) return NULL;
    p->cat = c;
    p->n = n;
    for (size_t i = 0; i < n; i++)
        p->v[i] = param_catalog_def(c, i)->def;
    return p;
}

const param_catalog *param_set_catalog(const param_set *p)
{
    return p->cat;
}

param_set *param_set_clone(const param_set *p)
{
    size_t bytes = sizeof *p + p->n * sizeof(double);
    param_set *q = malloc(bytes);
    if (q) memcpy(q, p, bytes);
    return q;
}

void param_set_copy(param_set *dst, const param_set *src)
{
    assert(dst->cat == src->cat && dst->n == src->n);
    memcpy(dst->v, src->v, src->n * sizeof src->v[0]);
}

void param_set_free(param_set *p)
{
    free(p);
}

static size_t choice_count(const param_def *d)
{
    size_t n = 0;
    while (d->choices[n])
        n++;
    return n;
}

/* The k-th alias of the parameter named `param`, or NULL. */
static const param_alias *alias_of(const param_catalog *c, const char *param, size_t k)
{
    for (const param_alias *a = c->aliases; a && a->param; a++)
        if (strcmp(a->param, param) == 0 && k-- == 0) return a;
    return NULL;
}

size_t param_choice_count(const param_catalog *c, size_t id)
{
    const param_def *d = param_catalog_def(c, id);
    if (!d || d->type != PT_CHOICE) return 0;
    size_t k = 0;
    while (alias_of(c, d->name, k))
        k++;
    return choice_count(d) + k;
}

const char *param_choice_name(const param_catalog *c, size_t id, size_t k)
{
    const param_def *d = param_catalog_def(c, id);
    if (!d || d->type != PT_CHOICE) return NULL;
    size_t n = choice_count(d);
    if (k < n) return d->choices[k];
    const param_alias *a = alias_of(c, d->name, k - n);
    return a ? a->name : NULL;
}

int param_choice_index(const param_catalog *c, size_t id, const char *name)
{
    const char *s;
    for (size_t k = 0; (s = param_choice_name(c, id, k)); k++)
        if (strcmp(s, name) == 0) return (int)k;
    return -1;
}

static void list_choices(const param_catalog *c, size_t id, char *buf, size_t buflen)
{
    size_t used = 0;
    const char *s;
    buf[0] = '\0';
    for (size_t i = 0; (s = param_choice_name(c, id, i)); i++) {
        int w = snprintf(buf + used, buflen - used, "%s%s", i ? ", " : "", s);
        if (w < 0 || (size_t)w >= buflen - used) break;
        used += (size_t)w;
    }
}

static int unknown_param(const param_set *p, const char *name, char *err, size_t errlen)
{
    char near[256];
    param_catalog_suggest(p->cat, name, near, sizeof near);
    if (near[0])
        snprintf(err, errlen, "unknown parameter '%s' (did you mean: %s?)", name, near);
    else
        snprintf(err, errlen, "unknown parameter '%s' (see `warptune params`)", name);
    return -1;
}

/* The name of the choice parameter id's value (a choice, never an alias). */
static const char *choice_of(const param_set *p, size_t id)
{
    return param_catalog_def(p->cat, id)->choices[(size_t)p->v[id]];
}

/* Stores what alias a of parameter id stands for: its choice, and its implied parameter's
 * value. */
static int store_alias(param_set *p, int id, const param_alias *a, char *err, size_t errlen)
{
    const param_def *d = param_catalog_def(p->cat, (size_t)id);
    for (size_t i = 0; d->choices[i]; i++)
        if (strcmp(d->choices[i], a->choice) == 0) {
            if (param_set_parse(p, a->implied, a->value, err, errlen) != 0) return -1;
            p->v[id] = (double)i;
            return 0;
        }
    snprintf(err, errlen, "%s: alias %s names no choice '%s'", d->name, a->name, a->choice);
    return -1;
}

static int check_and_store(param_set *p, int id, double v, char *err, size_t errlen)
{
    const param_def *d = param_catalog_def(p->cat, (size_t)id);
    switch (d->type) {
    case PT_INT:
        if (v != floor(v)) {
            snprintf(err, errlen, "%s: expected an integer, got %g", d->name, v);
            return -1;
        }
        /* fall through */
    case PT_REAL:
        if (!isfinite(v) || v < d->lo || v > d->hi) {
            snprintf(err, errlen, "%s: expected a value in [%.17g, %.17g], got %.17g", d->name,
                     d->lo, d->hi, v);
            return -1;
        }
        break;
    case PT_BOOL:
        if (v != 0 && v != 1) {
            snprintf(err, errlen, "%s: expected true or false, got %g", d->name, v);
            return -1;
        }
        break;
    case PT_CHOICE:
        if (v != floor(v) || v < 0 || v >= (double)param_choice_count(p->cat, (size_t)id)) {
            char list[512];
            list_choices(p->cat, (size_t)id, list, sizeof list);
            snprintf(err, errlen, "%s: expected one of %s, got index %g", d->name, list, v);
            return -1;
        }
        if (v >= (double)choice_count(d))
            return store_alias(p, id, alias_of(p->cat, d->name, (size_t)v - choice_count(d)), err,
                               errlen);
        break;
    }
    p->v[id] = v;
    return 0;
}

int param_set_value(param_set *p, const char *name, double v, char *err, size_t errlen)
{
    int id = param_catalog_lookup(p->cat, name);
    if (id < 0) return unknown_param(p, name, err, errlen);
    return check_and_store(p, id, v, err, errlen);
}

static int parse_number(const char *text, double *out)
{
    char *end;
    while (isspace((unsigned char)*text))
        text++;
    if (!*text) return -1;
    double v = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (*end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int param_set_parse(param_set *p, const char *name, const char *text, char *err, size_t errlen)
{
    int id = param_catalog_lookup(p->cat, name);
    if (id < 0) return unknown_param(p, name, err, errlen);
    const param_def *d = param_catalog_def(p->cat, (size_t)id);
    double v;
    switch (d->type) {
    case PT_INT:
    case PT_REAL:
        if (parse_number(text, &v) != 0) {
            snprintf(err, errlen, "%s: expected %s, got '%s'", name,
                     d->type == PT_INT ? "an integer" : "a number", text);
            return -1;
        }
        return check_and_store(p, id, v, err, errlen);
    case PT_BOOL:
        if (!strcmp(text, "true") || !strcmp(text, "1") || !strcmp(text, "yes") ||
            !strcmp(text, "on"))
            v = 1;
        else if (!strcmp(text, "false") || !strcmp(text, "0") || !strcmp(text, "no") ||
                 !strcmp(text, "off"))
            v = 0;
        else {
            snprintf(err, errlen, "%s: expected true or false, got '%s'", name, text);
            return -1;
        }
        return check_and_store(p, id, v, err, errlen);
    case PT_CHOICE: {
        int k = param_choice_index(p->cat, (size_t)id, text);
        if (k >= 0) return check_and_store(p, id, (double)k, err, errlen);
        char list[512];
        list_choices(p->cat, (size_t)id, list, sizeof list);
        snprintf(err, errlen, "%s: expected one of %s, got '%s'", name, list, text);
        return -1;
    }
    }
    return -1;
}

double param_get(const param_set *p, int id)
{
    return p->v[id];
}

/* Does p hold what alias a stands for? */
static int holds_alias(const param_set *p, const param_alias *a)
{
    int pid = param_catalog_lookup(p->cat, a->param);
    int iid = param_catalog_lookup(p->cat, a->implied);
    return pid >= 0 && iid >= 0 && strcmp(choice_of(p, (size_t)pid), a->choice) == 0 &&
           strcmp(choice_of(p, (size_t)iid), a->value) == 0;
}

double param_get_shown(const param_set *p, int id)
{
    const param_def *d = param_catalog_def(p->cat, (size_t)id);
    if (d->type != PT_CHOICE) return p->v[id];
    const param_alias *a;
    for (size_t k = 0; (a = alias_of(p->cat, d->name, k)); k++)
        if (holds_alias(p, a)) return (double)(choice_count(d) + k);
    return p->v[id];
}

int param_folded(const param_set *p, int id)
{
    const param_def *d = param_catalog_def(p->cat, (size_t)id);
    int implied = 0;
    for (const param_alias *a = p->cat->aliases; a && a->param; a++) {
        if (strcmp(a->implied, d->name) != 0) continue;
        if (holds_alias(p, a)) return 1;
        implied = 1;
    }
    return implied && p->v[id] == d->def;
}

static int must_lookup(const param_set *p, const char *name)
{
    int id = param_catalog_lookup(p->cat, name);
    if (id < 0) {
        /* A misspelt name in the program itself: fail loudly in development. */
        fprintf(stderr, "internal error: parameter '%s' is not registered\n", name);
        abort();
    }
    return id;
}

int64_t param_get_int(const param_set *p, const char *name)
{
    return (int64_t)p->v[must_lookup(p, name)];
}

double param_get_real(const param_set *p, const char *name)
{
    return p->v[must_lookup(p, name)];
}

const char *param_get_choice(const param_set *p, const char *name)
{
    int id = must_lookup(p, name);
    return param_catalog_def(p->cat, (size_t)id)->choices[(size_t)p->v[id]];
}

int param_get_choice_index(const param_set *p, const char *name)
{
    int id = must_lookup(p, name);
    if (param_catalog_def(p->cat, (size_t)id)->type != PT_CHOICE) {
        fprintf(stderr, "internal error: parameter '%s' is not a choice\n", name);
        abort();
    }
    return (int)p->v[id];
}

void param_format(const param_set *p, int id, char *buf, size_t buflen)
{
    const param_def *d = param_catalog_def(p->cat, (size_t)id);
    double v = p->v[id];
    switch (d->type) {
    case PT_INT:
        snprintf(buf, buflen, "%lld", (long long)v);
        break;
    case PT_REAL:
        snprintf(buf, buflen, "%.17g", v);
        break;
    case PT_BOOL:
        snprintf(buf, buflen, "%s", v != 0 ? "true" : "false");
        break;
    case PT_CHOICE:
        snprintf(buf, buflen, "%s",
                 param_choice_name(p->cat, (size_t)id, (size_t)param_get_shown(p, id)));
        break;
    }
}

/* h continued (FNV-1a) over the line "name=value\n" of parameter id. */
static uint64_t hash_line(uint64_t h, const param_set *p, size_t id)
{
    char buf[64];
    const char *name = param_catalog_def(p->cat, id)->name;
    param_format(p, (int)id, buf, sizeof buf);
    h = wt_fnv1a(h, name, strlen(name));
    h = wt_fnv1a(h, "=", 1);
    h = wt_fnv1a(h, buf, strlen(buf));
    return wt_fnv1a(h, "\n", 1);
}

uint64_t param_set_hash(const param_set *p)
{
    uint64_t h = WT_FNV_INIT;
    for (size_t id = 0; id < p->n; id++)
        if (!param_folded(p, (int)id) &&
            param_get_shown(p, (int)id) != param_catalog_def(p->cat, id)->def)
            h = hash_line(h, p, id);
    return h;
}

/* Version 1 started from this number, FNV-1a's offset basis short of its last digit; kept,
 * so that the keys of its journals still match. */
#define HASH_ALL_START 1469598103934665603ULL

uint64_t param_set_hash_all(const param_set *p)
{
    uint64_t h = HASH_ALL_START;
    for (size_t id = 0; id < p->n; id++)
        if (!param_folded(p, (int)id)) h = hash_line(h, p, id);
    return h;
}
