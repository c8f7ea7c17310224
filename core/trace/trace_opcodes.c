/* The SASS opcode tables of the trace reader: the text files in core/trace/opcodes, compiled into
 * the binary, each mapping the opcodes of some binary versions to warptune classes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/embedded.h"
#include "core/trace/trace.h"

#define OP_NAME_MAX  24
#define MAX_VERSIONS 8

typedef struct op_entry {
    char name[OP_NAME_MAX];
    int cls;
} op_entry;

typedef struct op_table {
    int versions[MAX_VERSIONS];
    int nversions;
    op_entry *ops; /* sorted by name */
    size_t nops;
} op_table;

struct trace_opcodes {
    op_table *tables;
    size_t ntables;
};

static const char *const CLASS_NAMES[TRACE_OP_CLASS_COUNT] = {
    [IC_INT] = "int",
    [IC_FP] = "fp",
    [IC_SFU] = "sfu",
    [IC_LD_GLOBAL] = "ld_global",
    [IC_ST_GLOBAL] = "st_global",
    [IC_LD_SHARED] = "ld_shared",
    [IC_ST_SHARED] = "st_shared",
    [IC_ATOMIC] = "atomic",
    [IC_BRANCH] = "branch",
    [IC_BARRIER] = "barrier",
    [IC_EXIT] = "exit",
    [TRACE_OP_LD_GENERIC] = "ld_generic",
    [TRACE_OP_ST_GENERIC] = "st_generic",
};

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const op_entry *)a)->name, ((const op_entry *)b)->name);
}

/* Parses one table. Returns 0, or -1 with err naming the table's line. */
static int parse_table(const embedded_file *f, op_table *t, char *err, size_t errlen)
{
    size_t cap = 0;
    int line = 0;
    const char *p = f->text;
    while (*p) {
        const char *end = strchr(p, '\n');
        if (!end) end = p + strlen(p);
        line++;
        char buf[256];
        size_t n = (size_t)(end - p);
        if (n >= sizeof buf) n = sizeof buf - 1;
        memcpy(buf, p, n);
        buf[n] = '\0';
        p = *end ? end + 1 : end;
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        char *tok[MAX_VERSIONS + 2];
        int ntok = 0;
        for (char *s = strtok(buf, " \t\r"); s && ntok < MAX_VERSIONS + 2;
             s = strtok(NULL, " \t\r"))
            tok[ntok++] = s;
        if (ntok == 0) continue;
        if (!strcmp(tok[0], "versions")) {
            for (int i = 1; i < ntok && t->nversions < MAX_VERSIONS; i++)
                t->versions[t->nversions++] = atoi(tok[i]);
            continue;
        }
        int cls = -1;
        for (int c = 0; ntok == 2 && c < TRACE_OP_CLASS_COUNT; c++)
            if (!strcmp(tok[1], CLASS_NAMES[c])) cls = c;
        if (cls < 0 || strlen(tok[0]) >= OP_NAME_MAX) {
            snprintf(err, errlen, "trace_opcodes/%s.txt:%d: expected 'OPCODE class'", f->name,
                     line);
            return -1;
        }
        if (t->nops == cap) {
            cap = cap ? cap * 2 : 128;
            op_entry *o = realloc(t->ops, cap * sizeof *o);
            if (!o) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            t->ops = o;
        }
        snprintf(t->ops[t->nops].name, OP_NAME_MAX, "%s", tok[0]);
        t->ops[t->nops++].cls = cls;
    }
    if (t->nversions == 0) {
        snprintf(err, errlen, "trace_opcodes/%s.txt: no 'versions' line", f->name);
        return -1;
    }
    qsort(t->ops, t->nops, sizeof *t->ops, cmp_entry);
    return 0;
}

void trace_opcodes_free(trace_opcodes *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ntables; i++)
        free(t->tables[i].ops);
    free(t->tables);
    free(t);
}

int trace_opcodes_load(trace_opcodes **out, char *err, size_t errlen)
{
    *out = NULL;
    trace_opcodes *t = calloc(1, sizeof *t);
    if (t) t->tables = calloc(wt_embedded_opcodes_count + 1, sizeof *t->tables);
    if (!t || !t->tables) {
        free(t);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < wt_embedded_opcodes_count; i++) {
        t->ntables++;
        if (parse_table(&wt_embedded_opcodes[i], &t->tables[i], err, errlen) != 0) {
            trace_opcodes_free(t);
            return -1;
        }
    }
    *out = t;
    return 0;
}

static const op_table *table_of(const trace_opcodes *t, int version)
{
    for (size_t i = 0; i < t->ntables; i++)
        for (int v = 0; v < t->tables[i].nversions; v++)
            if (t->tables[i].versions[v] == version) return &t->tables[i];
    return NULL;
}

int trace_opcodes_supports(const trace_opcodes *t, int binary_version)
{
    return table_of(t, binary_version) != NULL;
}

int trace_opcode_class(const trace_opcodes *t, int binary_version, const char *name, size_t len)
{
    const op_table *tb = table_of(t, binary_version);
    if (!tb) return -1;
    op_entry key;
    size_t n = 0;
    while (n < len && name[n] != '.')
        n++;
    if (n == 0 || n >= OP_NAME_MAX) return -1;
    memcpy(key.name, name, n);
    key.name[n] = '\0';
    const op_entry *e = bsearch(&key, tb->ops, tb->nops, sizeof *tb->ops, cmp_entry);
    return e ? e->cls : -1;
}

int trace_opcode_width(const char *name, size_t len)
{
    size_t i = 0;
    while (i < len && name[i] != '.')
        i++;
    while (i < len) {
        size_t start = ++i; /* past the dot */
        while (i < len && name[i] != '.')
            i++;
        size_t s = start;
        if (s < i && name[s] == 'U') s++;
        if (s == i) continue;
        unsigned bits = 0;
        size_t k = s;
        while (k < i && name[k] >= '0' && name[k] <= '9' && bits < 100000)
            bits = bits * 10 + (unsigned)(name[k++] - '0');
        if (k == i) return bits / 8 ? (int)(bits / 8) : 1;
    }
    return 4;
}
