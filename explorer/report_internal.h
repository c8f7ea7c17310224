/* The fixed parts of report.html (report_page.c), which report.c puts around the study's data. */
#ifndef WT_REPORT_INTERNAL_H
#define WT_REPORT_INTERNAL_H

extern const char report_css[];
extern const char report_js[];

#endif
