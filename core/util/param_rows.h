/* The start of a parameter table (core/config/gpu_params.h, energy_params.h,
 * core/mem/memsys_params.h): each row macro the includer left undefined expands to nothing, so
 * an includer defines only the kinds of row it reads. Macro text only, no include guard: every
 * table includes it, then core/util/param_rows_end.h after its rows. */
#ifndef PARAM_INT
#define PARAM_INT(field, name, def, lo, hi, unit, doc)
#endif
#ifndef PARAM_U64
#define PARAM_U64(field, name, def, lo, hi, unit, doc)
#endif
#ifndef PARAM_REAL
#define PARAM_REAL(field, name, def, lo, hi, unit, doc)
#endif
#ifndef PARAM_BOOL
#define PARAM_BOOL(field, name, def, doc)
#endif
#ifndef PARAM_CHOICE
#define PARAM_CHOICE(field, name, LIST, def, doc)
#endif
