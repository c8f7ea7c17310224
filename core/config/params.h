/* Parameters: every knob of the simulator and of every policy, registered once.
 *
 * A parameter has a dotted name ("l1d.ways", "ccws.k_throttle"), a type, a default, a legal
 * range or list of choices, a unit and a one-line doc. Parameters come in groups: the core's
 * own, the policy registry's choices, CPL's and one group per policy (a policy brings its
 * parameters with it). A catalogue is a constant sequence of groups; the simulator's
 * catalogue, with every group, is explorer/catalog.h's. A param_set holds one value for every
 * parameter of its catalogue; it is what a preset, a space file and `--set name=value` write
 * into, and what the simulator reads. This layer knows no group: it works on any catalogue. */
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

/* A choice list, declared once as `#define NAME_CHOICES(X, p) X(p, first) X(p, second)` (p
 * passes the prefix through). WT_CHOICE_ENUM(NAME) declares the constants NAME_first = 0,
 * NAME_second = 1, the indices param_get_choice_index returns; WT_CHOICE_NAMES(NAME) is the
 * initializer {"first", "second", NULL} of the names a param_def's choices point to:
 *
 *     #define DYNCTA_START_CHOICES(X, p) X(p, half) X(p, one) X(p, max)
 *     WT_CHOICE_ENUM(DYNCTA_START);
 *     static const char *const dyncta_starts[] = WT_CHOICE_NAMES(DYNCTA_START);
 *     ... s->start = param_get_choice_index(p, "dyncta.start") ... s->start == DYNCTA_START_one */
#define WT_CHOICE_ENUM(NAME) enum { NAME##_CHOICES(WT_CHOICE_CONSTANT_, NAME) }
#define WT_CHOICE_NAMES(NAME)                                                                      \
    {                                                                                              \
        NAME##_CHOICES(WT_CHOICE_NAME_, NAME) NULL                                                 \
    }
#define WT_CHOICE_CONSTANT_(prefix, choice) prefix##_##choice,
#define WT_CHOICE_NAME_(prefix, choice)     #choice,

typedef struct param_group {
    const char *name; /* "core", "cpl", or the name of the policy that brings it */
    const param_def *defs;
    size_t count;
} param_group;

/* Another name of a choice: `param=name` stands for `param=choice` together with
 * `implied=value`. Choices that became one choice with a parameter of its own keep their old
 * names this way (l1d.policy=OLD stands for l1d.policy=NEW with NEW.variant=V: policies/list.h).
 * A configuration that is what an alias stands for shows as the alias (param_format,
 * param_get_shown), and the implied parameter is left out of the configuration's text (the
 * hash, a listing of every parameter) when an alias shows it or it is at its default
 * (param_folded): configurations written before the parameter existed keep their text and
 * their hash. */
typedef struct param_alias {
    const char *param;   /* the choice parameter, l1d.policy */
    const char *name;    /* the alias, OLD */
    const char *choice;  /* one of param's choices, NEW */
    const char *implied; /* another choice parameter, NEW.variant */
    const char *value;   /* one of its choices, V */
} param_alias;

/* A sequence of groups, read through functions because the groups of plug-ins live in other
 * translation units (their tables are not constant expressions here), and the aliases of its
 * choices. */
typedef struct param_catalog {
    size_t (*group_count)(void);
    param_group (*group_at)(size_t g);
    const param_alias *aliases; /* ended by an entry whose param is NULL; NULL: none */
} param_catalog;

/* Number of parameters in a catalogue and the definition of parameter id. */
size_t param_catalog_count(const param_catalog *c);
const param_def *param_catalog_def(const param_catalog *c, size_t id);
/* Id of a parameter by name, or -1. */
int param_catalog_lookup(const param_catalog *c, const char *name);
/* Writes up to five comma-separated names close to `name` (edit distance or the same field)
 * into buf, for "did you mean" messages. */
void param_catalog_suggest(const param_catalog *c, const char *name, char *buf, size_t buflen);
/* The names choice parameter id accepts: its choices, then its aliases; a value as shown
 * (param_get_shown) is an index into them. 0 for a parameter that is not a choice. */
size_t param_choice_count(const param_catalog *c, size_t id);
const char *param_choice_name(const param_catalog *c, size_t id, size_t k);
/* Index of `name` among them, or -1. */
int param_choice_index(const param_catalog *c, size_t id, const char *name);

typedef struct param_set param_set;

/* Every parameter of the catalogue at its default (the simulator's: param_set_new in
 * explorer/catalog.h). */
param_set *param_set_new_in(const param_catalog *c);
/* The catalogue p holds values for. */
const param_catalog *param_set_catalog(const param_set *p);
param_set *param_set_clone(const param_set *p);
/* Gives dst src's values (both of the same catalogue). */
void param_set_copy(param_set *dst, const param_set *src);
void param_set_free(param_set *p);

/* Parses `text` for the parameter `name` and stores it. Returns 0, or -1 with a message in err
 * that names the parameter and what was expected. */
int param_set_parse(param_set *p, const char *name, const char *text, char *err, size_t errlen);
/* Stores a numeric value (choices by index, aliases by their index after the choices) after
 * range checking; same contract. */
int param_set_value(param_set *p, const char *name, double v, char *err, size_t errlen);

double param_get(const param_set *p, int id);
/* The value as the configuration shows it: param_get's, except that a choice parameter whose
 * configuration is what one of its aliases stands for reads as that alias's index. */
double param_get_shown(const param_set *p, int id);
/* Is parameter id left out of the configuration's text (param_set_hash, a listing of every
 * parameter)? Only an alias's implied parameter is, when an alias shows it or it is at its
 * default. */
int param_folded(const param_set *p, int id);
int64_t param_get_int(const param_set *p, const char *name);
double param_get_real(const param_set *p, const char *name);
/* The name of choice parameter `name`'s value: for code that looks a name up (a policy). */
const char *param_get_choice(const param_set *p, const char *name);
/* The index of choice parameter `name`'s value among its choices, to compare with the
 * constants of WT_CHOICE_ENUM (an alias reads as the choice it stands for). */
int param_get_choice_index(const param_set *p, const char *name);
/* Formats the value of parameter id as text ("32", "0.5", "true", "xor") into buf; a choice
 * as shown (an alias where one stands for the configuration). */
void param_format(const param_set *p, int id, char *buf, size_t buflen);
/* The canonical hash of a configuration: 64-bit FNV-1a over the lines "name=value\n" (the
 * value as param_format writes it), in catalogue order, of the parameters whose value as
 * shown differs from the catalogue default, the folded ones left out. The defaults hash
 * nothing (FNV-1a's offset basis), and a parameter added at its default leaves every
 * configuration's hash as it was: studies key their simulations by it (journal version 2). */
uint64_t param_set_hash(const param_set *p);
/* The hash of journal version 1: the same lines for every parameter, at its default or not
 * (the folded ones left out), from the start value version 1 had (params.c). Journals written
 * before version 2 are keyed by it. */
uint64_t param_set_hash_all(const param_set *p);

#endif
