/* The end of a parameter table (core/util/param_rows.h): the row macros are undefined again,
 * for the next table or the next reading of this one. */
#undef PARAM_INT
#undef PARAM_U64
#undef PARAM_REAL
#undef PARAM_BOOL
#undef PARAM_CHOICE
