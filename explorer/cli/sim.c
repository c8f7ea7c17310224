/* warptune sim: one configuration, one or more workloads, every metric. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/analysis/belady.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"
#include "core/trace/trace.h"
#include "explorer/cli/cli.h"
#include "explorer/cli/common.h"

#define MAX_ITEMS 64

typedef struct sim_args {
    const char *preset;
    const char *sets[MAX_ITEMS];
    int nsets;
    const char *workloads[MAX_ITEMS];
    unsigned char is_trace[MAX_ITEMS]; /* workloads[i] is a kernelslist.g */
    int nworkloads;
    cli_wparams wparams;
    int json;
    int config;              /* --config: the JSON lists every parameter too */
    const char *l1_trace;    /* every L1D access, CSV */
    const char *issue_trace; /* every warp instruction issued, CSV */
    const char *cta_trace;   /* the CTA limit n of every SM at every sample, CSV */
    const char *per_sm;      /* the per-SM statistics, CSV */
    int belady;              /* --belady: Belady-optimal misses of each run's L1D stream */
    int threads;             /* --threads: the SMs of a cycle step on this many threads */
} sim_args;

static int parse_args(int argc, char **argv, sim_args *a)
{
    memset(a, 0, sizeof *a);
    a->preset = WT_DEFAULT_PRESET;
    a->threads = 1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(o, "--json")) {
            a->json = 1;
        } else if (!strcmp(o, "--config")) {
            a->config = 1;
        } else if (!strcmp(o, "--preset") && has_value) {
            a->preset = argv[++i];
        } else if (!strcmp(o, "--set") && has_value) {
            if (a->nsets == MAX_ITEMS) goto too_many;
            a->sets[a->nsets++] = argv[++i];
        } else if (!strcmp(o, "--workload") && has_value) {
            if (a->nworkloads == MAX_ITEMS) goto too_many;
            a->workloads[a->nworkloads++] = argv[++i];
        } else if (!strcmp(o, "--trace") && has_value) {
            if (a->nworkloads == MAX_ITEMS) goto too_many;
            a->is_trace[a->nworkloads] = 1;
            a->workloads[a->nworkloads++] = argv[++i];
        } else if (!strcmp(o, "--wparam") && has_value) {
            int r = cli_wparams_add(&a->wparams, "sim", argv[++i]);
            if (r > 0) goto too_many;
            if (r < 0) return -1;
        } else if (!strcmp(o, "--sample")) { /* as two --set, which later ones may override */
            if (a->nsets + 2 > MAX_ITEMS) goto too_many;
            a->sets[a->nsets++] = "sample.kernels=true";
            a->sets[a->nsets++] = "sample.intra=true";
        } else if (!strcmp(o, "--belady")) {
            a->belady = 1;
        } else if (!strcmp(o, "--l1-trace") && has_value) {
            a->l1_trace = argv[++i];
        } else if (!strcmp(o, "--issue-trace") && has_value) {
            a->issue_trace = argv[++i];
        } else if (!strcmp(o, "--cta-trace") && has_value) {
            a->cta_trace = argv[++i];
        } else if (!strcmp(o, "--per-sm") && has_value) {
            a->per_sm = argv[++i];
        } else if (!strcmp(o, "--threads") && has_value) {
            if (cli_threads_arg("sim", argv[++i], 1, &a->threads) != 0) return -1;
        } else {
            fprintf(stderr, "warptune sim: unknown or incomplete option '%s'\n", o);
            return -1;
        }
    }
    const char *const files[][2] = {{"--l1-trace", a->l1_trace},
                                    {"--issue-trace", a->issue_trace},
                                    {"--cta-trace", a->cta_trace},
                                    {"--per-sm", a->per_sm}};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
        if (files[k][1] && !*files[k][1]) {
            fprintf(stderr, "warptune sim: %s: expected a file name\n", files[k][0]);
            return -1;
        }
    if (a->config && !a->json) {
        fprintf(stderr, "warptune sim: --config lists the configuration in the JSON output: it "
                        "needs --json\n");
        return -1;
    }
    if (a->nworkloads == 0) { /* the default, said so: a run of kmeans is not what was asked */
        a->workloads[a->nworkloads++] = "kmeans";
        fprintf(stderr, "warptune sim: no --workload or --trace given: simulating kmeans\n");
    }
    if ((a->l1_trace || a->issue_trace || a->cta_trace || a->per_sm) && a->nworkloads > 1) {
        fprintf(stderr,
                "warptune sim: --l1-trace, --issue-trace, --cta-trace and --per-sm record one "
                "workload; %d given\n",
                a->nworkloads);
        return -1;
    }
    return 0;
too_many:
    fprintf(stderr, "warptune sim: at most %d of each option\n", MAX_ITEMS);
    return -1;
}

typedef struct run_result {
    sim_status status;
    char error[1024];
    sim_metrics m;
} run_result;

static void print_table(const sim_args *a, const run_result *r)
{
    printf("%-30s", "metric");
    for (int w = 0; w < a->nworkloads; w++)
        printf(" %16s", a->workloads[w]);
    printf("\n");
    for (size_t i = 0; i < metric_count(); i++) {
        printf("%-30s", metric_at(i).name);
        for (int w = 0; w < a->nworkloads; w++) {
            /* counts print whole: six digits would round 1987331 cycles to 1.98733e+06 */
            double v = metric_value(&r[w].m, i);
            if (v == floor(v) && fabs(v) < 1e15)
                printf(" %16.0f", v);
            else
                printf(" %16.6g", v);
        }
        printf("\n");
    }
    for (int w = 0; w < a->nworkloads; w++)
        if (r[w].m.projected_warp_insts > 0)
            printf("%s: projected: %.0f of its %.0f warp instructions simulated in detail "
                   "(%.1f%%), the rest run functionally (docs/sampling.md)\n",
                   a->workloads[w], r[w].m.detailed_warp_insts, r[w].m.warp_insts,
                   100.0 * r[w].m.detailed_warp_insts / r[w].m.warp_insts);
    for (int w = 0; w < a->nworkloads; w++)
        if (r[w].status != SIM_OK) printf("%s: FAILED: %s\n", a->workloads[w], r[w].error);
}

/* Adds parameter id of p to obj as a space file's settings write it: a choice by its name (an
 * alias where one shows the configuration), a boolean as true or false, a number. */
static void add_param(cJSON *obj, const param_set *p, size_t id)
{
    const param_def *d = param_def_at(id);
    char buf[64];
    param_format(p, (int)id, buf, sizeof buf);
    if (d->type == PT_CHOICE)
        cJSON_AddStringToObject(obj, d->name, buf);
    else if (d->type == PT_BOOL)
        cJSON_AddBoolToObject(obj, d->name, param_get(p, (int)id) != 0);
    else
        cJSON_AddNumberToObject(obj, d->name, param_get(p, (int)id));
}

/* Does parameter id of p differ from the preset's? An alias's implied parameter that the alias
 * shows is left to the alias; one that is folded because it is at its default, against a
 * preset that sets it, is not, so that the settings give p again on top of the preset. */
static int setting_differs(const param_set *p, const param_set *preset, size_t id)
{
    if (param_get_shown(p, (int)id) == param_get_shown(preset, (int)id)) return 0;
    return !param_folded(p, (int)id) || param_get(p, (int)id) == param_def_at(id)->def;
}

/* "settings": the parameters whose value differs from the preset's alone (the --set ones that
 * change something), in catalogue order: what a space file's settings would hold. With
 * --config, "config": every parameter (the folded ones left out). */
static void print_json(const sim_args *a, const param_set *p, const param_set *preset,
                       const run_result *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "preset", a->preset);
    cJSON *settings = cJSON_AddObjectToObject(root, "settings");
    for (size_t id = 0; id < param_count(); id++)
        if (setting_differs(p, preset, id)) add_param(settings, p, id);
    if (a->config) { /* the folded parameters: shown by an alias, or at their default */
        cJSON *cfg = cJSON_AddObjectToObject(root, "config");
        for (size_t id = 0; id < param_count(); id++)
            if (!param_folded(p, (int)id)) add_param(cfg, p, id);
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)param_set_hash(p));
    cJSON_AddStringToObject(root, "config_hash", buf);
    cJSON *arr = cJSON_AddArrayToObject(root, "results");
    for (int w = 0; w < a->nworkloads; w++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "workload", a->workloads[w]);
        cJSON_AddStringToObject(o, "status", r[w].status == SIM_OK ? "ok" : "failed");
        if (r[w].status != SIM_OK) cJSON_AddStringToObject(o, "error", r[w].error);
        cJSON *m = cJSON_AddObjectToObject(o, "metrics");
        for (size_t i = 0; i < metric_count(); i++)
            cJSON_AddNumberToObject(m, metric_at(i).name, metric_value(&r[w].m, i));
        if (r[w].m.projected_warp_insts > 0) { /* a projected result says so, and how much */
            cJSON *sm = cJSON_AddObjectToObject(o, "sampled");
            cJSON_AddNumberToObject(sm, "detailed_warp_insts", r[w].m.detailed_warp_insts);
            cJSON_AddNumberToObject(sm, "projected_warp_insts", r[w].m.projected_warp_insts);
            cJSON_AddNumberToObject(sm, "detailed_share",
                                    r[w].m.detailed_warp_insts / r[w].m.warp_insts);
        }
        cJSON_AddItemToArray(arr, o);
    }
    char *text = cJSON_Print(root);
    if (text) puts(text);
    free(text);
    cJSON_Delete(root);
}

/* A file written beside a run (a trace, a table): to a temporary name, renamed into place
 * only when the run succeeded, so no half-written file is left behind. A link is followed to
 * its file, and a device or FIFO is written in place (wt_out_target). */
typedef struct side_file {
    const char *path;
    char *target; /* the file written: path, or what its links name */
    char tmp[4096];
    int direct; /* target is not a regular file: written in place */
    FILE *f;
} side_file;

static int side_open(side_file *sf, const char *path, const char *header)
{
    memset(sf, 0, sizeof *sf);
    sf->path = path;
    if (!path) return 0;
    char err[4200];
    sf->target = wt_out_target(path, &sf->direct, err, sizeof err);
    if (!sf->target) {
        fprintf(stderr, "warptune sim: %s\n", err);
        return -1;
    }
    snprintf(sf->tmp, sizeof sf->tmp, "%s.tmp", sf->target);
    sf->f = fopen(sf->direct ? sf->target : sf->tmp, "w");
    if (!sf->f) {
        fprintf(stderr, "warptune sim: %s: write failed: %s\n", path, strerror(errno));
        free(sf->target);
        sf->target = NULL;
        return -1;
    }
    if (header) fputs(header, sf->f);
    return 0;
}

/* Closes the file; with keep, renames it into place. Returns 0, or -1 after printing
 * "PATH: write failed: <reason>" (a full disk) with the temporary removed. */
static int side_close(side_file *sf, int keep)
{
    if (!sf->f) return 0;
    int e = 0, rc = 0;
    if (fflush(sf->f) != 0) e = errno;
    if (ferror(sf->f) && !e) e = EIO; /* a failed write whose errno is gone */
    if (fclose(sf->f) != 0 && !e) e = errno;
    sf->f = NULL;
    if (keep && e) {
        fprintf(stderr, "warptune sim: %s: write failed: %s\n", sf->path, strerror(e));
        rc = -1;
    } else if (keep && !sf->direct && rename(sf->tmp, sf->target) != 0) {
        fprintf(stderr, "warptune sim: %s: cannot rename into place: %s\n", sf->path,
                strerror(errno));
        rc = -1;
    }
    if ((!keep || rc != 0) && !sf->direct) remove(sf->tmp);
    free(sf->target);
    sf->target = NULL;
    return rc;
}

int cli_sim(int argc, char **argv)
{
    sim_args a;
    if (parse_args(argc, argv, &a) != 0) return WT_EXIT_BAD_INPUT;
    param_set *p = cli_config("sim", a.preset, a.sets, a.nsets);
    if (!p) return WT_EXIT_BAD_INPUT;
    int rc = WT_EXIT_OK;
    run_result *r = calloc((size_t)a.nworkloads, sizeof *r);
    if (!r) {
        param_set_free(p);
        return WT_EXIT_INTERNAL;
    }
    for (int i = 0; i < a.nworkloads && rc == WT_EXIT_OK; i++) {
        workload *w = NULL;
        trace_app *tr = NULL;
        char err[1024];
        if (a.is_trace[i] ? trace_open(a.workloads[i], &tr, err, sizeof err) != 0
                          : workload_load(a.workloads[i], a.wparams.items, (size_t)a.wparams.n, &w,
                                          err, sizeof err) != 0) {
            fprintf(stderr, "warptune sim: %s\n", err);
            rc = WT_EXIT_BAD_INPUT;
            break;
        }
        sim_options opt = {0};
        side_file l1 = {0}, iss = {0}, cta = {0}, per_sm = {0};
        if (side_open(&l1, a.l1_trace, "sm,cycle,warp,pc,line,kind,outcome\n") != 0 ||
            side_open(&iss, a.issue_trace, "sm,cycle,warp,pc,scheduler\n") != 0 ||
            side_open(&cta, a.cta_trace, "sm,cycle,n,n_max,ctas,c_idle,c_mem\n") != 0 ||
            side_open(&per_sm, a.per_sm, NULL) != 0) {
            side_close(&l1, 0);
            side_close(&iss, 0);
            side_close(&cta, 0);
            workload_free(w);
            trace_close(tr);
            rc = WT_EXIT_BAD_INPUT;
            break;
        }
        opt.l1_trace = l1.f;
        opt.issue_trace = iss.f;
        opt.cta_trace = cta.f;
        opt.per_sm = per_sm.f;
        opt.threads = a.threads;
        belady_recorder *rec = a.belady ? belady_recorder_new() : NULL;
        if (rec) {
            opt.l1_observer = belady_observe;
            opt.l1_observer_arg = rec;
        }
        r[i].status = tr ? sim_run_source(p, trace_isource_factory, tr, &opt, &r[i].m, r[i].error,
                                          sizeof r[i].error)
                         : sim_run(p, w, &opt, &r[i].m, r[i].error, sizeof r[i].error);
        /* A malformed kernel file stops the run like a runtime failure would; reading the
         * whole trace again tells the two apart (only after a failure, so a good run pays
         * nothing), and a format error is bad input. */
        int bad_trace = 0;
        if (tr && r[i].status == SIM_FAILED) {
            trace_scan_stats ss;
            bad_trace = trace_scan(tr, &ss, err, sizeof err) != 0;
        }
        workload_free(w);
        trace_close(tr);
        if (a.belady && r[i].status == SIM_OK) {
            belady_result b;
            if (!rec || belady_recorder_result(rec, p, &b, err, sizeof err) != 0) {
                snprintf(r[i].error, sizeof r[i].error, "--belady: %.900s",
                         rec ? err : "out of memory");
                r[i].status = SIM_FAILED;
            } else {
                belady_fill_metrics(&b, &r[i].m);
            }
        }
        belady_recorder_free(rec);
        int keep = r[i].status == SIM_OK, lost = 0;
        lost |= side_close(&l1, keep) != 0;
        lost |= side_close(&iss, keep) != 0;
        lost |= side_close(&cta, keep) != 0;
        lost |= side_close(&per_sm, keep) != 0;
        if (lost) rc = WT_EXIT_INTERNAL;
        if (bad_trace) {
            fprintf(stderr, "warptune sim: %s\n", err);
            rc = WT_EXIT_BAD_INPUT;
        } else if (r[i].status == SIM_BAD_CONFIG) {
            fprintf(stderr, "warptune sim: %s: %s\n", a.workloads[i], r[i].error);
            rc = WT_EXIT_BAD_INPUT;
        } else if (r[i].status == SIM_FAILED) {
            fprintf(stderr, "warptune sim: %s: simulation failed: %s\n", a.workloads[i],
                    r[i].error);
        }
    }
    param_set *preset = NULL;
    if (rc == WT_EXIT_OK && a.json) { /* the preset's own values, which --set may have mended */
        char err[1024];
        preset = param_set_new();
        if (!preset || cli_apply_config(preset, a.preset, NULL, 0, err, sizeof err) != 0)
            rc = WT_EXIT_INTERNAL; /* out of memory: the preset itself was read above */
    }
    if (rc == WT_EXIT_OK) {
        if (a.json)
            print_json(&a, p, preset, r);
        else
            print_table(&a, r);
        for (int i = 0; i < a.nworkloads; i++)
            if (r[i].status != SIM_OK) rc = WT_EXIT_INTERNAL;
    }
    free(r);
    param_set_free(preset);
    param_set_free(p);
    return rc;
}
