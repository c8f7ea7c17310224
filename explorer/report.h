/* A study's report: report.html, one self-contained page made from the output folder (the front
 * in every pair of objectives, parallel coordinates, the selected point's metrics per workload
 * against the reference configuration's, the provenance and, when the folder has one, the
 * sensitivity indices). The page's style, script and data are inline: it loads nothing. */
#ifndef WT_REPORT_H
#define WT_REPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

typedef enum report_status {
    REPORT_OK,
    REPORT_BAD_INPUT, /* not a study's folder, or a file of it missing, ill-formed or another run's
                       */
    REPORT_FAILED,    /* out of memory, or report.html cannot be written */
} report_status;

/* Writes the report of the study in folder dir to path, through a temporary file renamed into
 * place. summary: the study's summary.json as it will be written (explore, before it closes the
 * set); NULL to read dir/summary.json and check the files the report reads against the sizes
 * and hashes it names. Same folder, same bytes. Returns REPORT_OK, or another status with the
 * message in err. */
report_status report_write(const char *dir, const cJSON *summary, const char *path, char *err,
                           size_t errlen);

#endif
