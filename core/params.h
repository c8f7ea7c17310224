/* The parameter registry: every knob of the simulator and of every policy, registered once.
 *
 * A parameter has a dotted name ("l1d.ways", "ccws.k_throttle"), a type, a default, a legal
 * range or list of choices, a unit and a one-line doc. The registry is a constant table built
 * from groups: the core's own group and one group per policy (a policy brings its parameters
 * with it). A param_set holds one value for every registered parameter; it is what a preset,
 * a space file and `--set name=value` write into, and what the simulator reads. */
#ifndef WT_PARAMS_H
#define WT_PARAMS_H

#include <stddef.h>
#include <stdint.h>

typedef enum param_type { PT_INT, PT_REAL, PT_BOOL, PT_CHOICE } param_type;

typedef struct param_def {
    const char *name;
    param_type type;
    double def;                 /* default; the index into choices for PT_CHOICE */
    double lo, hi;              /* legal range (inclusive) for PT_INT and PT_REAL */
    const char *const *choices; /* NULL-terminated, PT_CHOICE only */
    const char *unit;           /* "" when unitless */
    const char *doc;
} param_def;

typedef struct param_group {
    const char *name; /* "core", "gto", "ccws", ... */
    const param_def *defs;
    size_t count;
} param_group;

/* Number of registered parameters and the definition of parameter id. */
size_t param_count(void);
const param_def *param_def_at(size_t id);
/* Id of a parameter by name, or -1. */
int param_lookup(const char *name);
/* Writes up to `n` comma-separated names close to `name` (edit distance or shared prefix) into
 * buf, for "did you mean" messages. */
void param_suggest(const char *name, char *buf, size_t buflen);

typedef struct param_set param_set;

param_set *param_set_new(void); /* every parameter at its default */
param_set *param_set_clone(const param_set *p);
void param_set_free(param_set *p);

/* Parses `text` for the parameter `name` and stores it. Returns 0, or -1 with a message in err
 * that names the parameter and what was expected. */
int param_set_parse(param_set *p, const char *name, const char *text, char *err, size_t errlen);
/* Stores a numeric value (choices by index) after range checking; same contract. */
int param_set_value(param_set *p, const char *name, double v, char *err, size_t errlen);

double param_get(const param_set *p, int id);
int64_t param_get_int(const param_set *p, const char *name);
double param_get_real(const param_set *p, const char *name);
const char *param_get_choice(const param_set *p, const char *name);
/* Formats the value of parameter id as text ("32", "0.5", "true", "gto") into buf. */
void param_format(const param_set *p, int id, char *buf, size_t buflen);
/* 64-bit FNV-1a hash over every parameter's name and value: the canonical hash of a
 * configuration. */
uint64_t param_set_hash(const param_set *p);

#endif
