/* warptune characterize: the papers' characterisation of workloads on one preset.
 *
 * Per workload it runs the preset itself, an unbounded L1D (l1d.sets=4096, l1d.ways=64: 32 MiB
 * with 128-byte lines, beyond any workload's footprint) and the L1D sizes 16, 32, 64 and
 * 128 KB (the preset's ways and line size, sets scaled), and reports:
 *   L1D MPKI at the preset's L1D and unbounded; intra- and inter-warp hits per thousand warp
 *   instructions with the unbounded L1D (CCWS Fig. 1 and 12); the shares of coherent and
 *   divergent loads, MPLI, the mean L1D accesses per load (DaCache calls a load divergent when
 *   it makes more than two) and the share of each kind of load that was fully cached (DaCache
 *   Fig. 2: the simulator exports these, not a per-load histogram of misses); RACT, the C_mem and
 * C_idle shares (DYNCTA Fig. 3, Type-X); the largest and mean warp execution-time disparity within
 * a CTA (CAWA Fig. 1); IPC at each L1D size and unbounded, normalised to 32 KB (CCWS Fig. 2).
 * Simulations run in parallel with OpenMP when it is built in; results do not depend on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/config.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"
#include "core/util/textfile.h"
#include "explorer/cli/cli.h"
#include "explorer/cli/commands.h"
#include "explorer/cli/common.h"
#include "explorer/table.h"

#define MAX_ITEMS 64
#define MAX_WL    256

/* The L1D configurations of one workload: the preset, the four sizes, unbounded. */
enum { RUN_PRESET, RUN_16K, RUN_32K, RUN_64K, RUN_128K, RUN_UNBOUNDED, NRUNS };
static const int size_kb[NRUNS] = {0, 16, 32, 64, 128, 0};

typedef struct ch_args {
    const char *preset;
    const char *sets[MAX_ITEMS];
    int nsets;
    const char *workloads[MAX_WL];
    int nworkloads;
    cli_wparams wparams;
    const char *csv;
} ch_args;

typedef struct ch_job {
    int wl, run;
    int same_as; /* -1, or the run of the same workload whose configuration this one equals */
    param_set *cfg;
    sim_status status;
    char error[512];
    sim_metrics m;
} ch_job;

static int parse_args(int argc, char **argv, ch_args *a)
{
    memset(a, 0, sizeof *a);
    a->preset = WT_DEFAULT_PRESET;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(o, "--preset") && has_value) {
            a->preset = argv[++i];
        } else if (!strcmp(o, "--set") && has_value) {
            if (a->nsets == MAX_ITEMS) goto too_many;
            a->sets[a->nsets++] = argv[++i];
        } else if (!strcmp(o, "--workload") && has_value) {
            if (a->nworkloads == MAX_WL) goto too_many;
            a->workloads[a->nworkloads++] = argv[++i];
        } else if (!strcmp(o, "--wparam") && has_value) {
            int r = cli_wparams_add(&a->wparams, "characterize", argv[++i]);
            if (r > 0) goto too_many;
            if (r < 0) return -1;
        } else if (!strcmp(o, "--csv") && has_value) {
            a->csv = argv[++i];
            if (!*a->csv) {
                fprintf(stderr, "warptune characterize: --csv: expected a file name\n");
                return -1;
            }
        } else if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            cli_command_usage(stdout, "characterize");
            exit(WT_EXIT_OK);
        } else {
            fprintf(stderr, "warptune characterize: unknown or incomplete option '%s'\n", o);
            return -1;
        }
    }
    if (a->nworkloads == 0) {
        size_t n = workload_builtin_count();
        for (size_t i = 0; i < n && i < MAX_WL; i++)
            a->workloads[a->nworkloads++] = workload_builtin_name(i);
    }
    return 0;
too_many:
    fprintf(stderr, "warptune characterize: too many of one option (at most %d)\n", MAX_ITEMS);
    return -1;
}

/* The configuration of one run; NULL with a message if the preset cannot be resized so. */
static param_set *run_config(const param_set *base, int run, char *err, size_t errlen)
{
    param_set *p = param_set_clone(base);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int rc = 0;
    if (run == RUN_UNBOUNDED) {
        rc = param_set_value(p, "l1d.sets", 4096, err, errlen) ||
             param_set_value(p, "l1d.ways", 64, err, errlen);
        /* the Fermi hash is defined for 32 and 64 sets only */
        if (!rc && param_get_choice_index(p, "l1d.hash") == L1D_HASH_fermi)
            rc = param_set_parse(p, "l1d.hash", "xor", err, errlen);
    } else if (run != RUN_PRESET) {
        int64_t ways = param_get_int(base, "l1d.ways"), line = param_get_int(base, "l1d.line");
        int64_t bytes = (int64_t)size_kb[run] * 1024;
        if (bytes % (ways * line) != 0) { /* fall back to 8 ways, as CCWS Fig. 2 */
            ways = 8;
            rc = param_set_value(p, "l1d.ways", 8, err, errlen);
        }
        if (!rc) rc = param_set_value(p, "l1d.sets", (double)(bytes / (ways * line)), err, errlen);
        /* a pseudo-random index needs a power-of-two set count */
        int64_t sets = bytes / (ways * line);
        if (!rc && (sets & (sets - 1)) != 0)
            rc = param_set_parse(p, "l1d.hash", "linear", err, errlen);
        /* the Fermi hash is defined for 32 and 64 sets of 128 bytes; other sizes use xor */
        else if (!rc && param_get_choice_index(p, "l1d.hash") == L1D_HASH_fermi &&
                 ((sets != 32 && sets != 64) || line != 128))
            rc = param_set_parse(p, "l1d.hash", "xor", err, errlen);
    }
    if (rc) {
        param_set_free(p);
        return NULL;
    }
    return p;
}

/* The `# class:` line of a workload's documentation, or "". */
static void declared_class(const char *name, char *out, size_t outlen)
{
    out[0] = '\0';
    char *owned = NULL;
    const char *text = NULL;
    for (size_t i = 0; i < workload_builtin_count(); i++)
        if (!strcmp(workload_builtin_name(i), name)) text = workload_builtin_text(i);
    if (!text) {
        owned = wt_read_file(name, NULL);
        if (!owned) return;
        text = owned;
    }
    for (const char *s = text; s && *s == '#'; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
        if (!strncmp(s, "# class:", 8)) {
            s += 8;
            while (*s == ' ')
                s++;
            size_t n = strcspn(s, "\r\n");
            if (n >= outlen) n = outlen - 1;
            memcpy(out, s, n);
            out[n] = '\0';
            break;
        }
    }
    free(owned);
}

/* ---- the measured row ---- */

enum {
    C_WORKLOAD,
    C_CLASS,
    C_IPC,
    C_MPKI,
    C_MPKI_UNB,
    C_INTRA_PKI,
    C_INTER_PKI,
    C_COH_SHARE,
    C_DIV_SHARE,
    C_MPLI,
    C_APL,
    C_FC_COH,
    C_FC_DIV,
    C_RACT,
    C_CMEM,
    C_CIDLE,
    C_DISP_MAX,
    C_DISP_MEAN,
    C_IPC16,
    C_IPC32,
    C_IPC64,
    C_IPC128,
    C_IPC_UNB,
    NCOLS
};
static const char *const col_names[NCOLS] = {"workload",
                                             "class",
                                             "ipc",
                                             "mpki",
                                             "mpki_unbounded",
                                             "intra_hits_pki",
                                             "inter_hits_pki",
                                             "coherent_share",
                                             "divergent_share",
                                             "mpli",
                                             "accesses_per_load",
                                             "fully_cached_coherent",
                                             "fully_cached_divergent",
                                             "ract",
                                             "c_mem_share",
                                             "c_idle_share",
                                             "disparity_max",
                                             "disparity_mean",
                                             "ipc_16k",
                                             "ipc_32k",
                                             "ipc_64k",
                                             "ipc_128k",
                                             "ipc_unbounded"};
/* Short headers for the table on stdout. */
static const char *const col_short[NCOLS] = {
    "workload", "class",  "ipc",  "mpki",   "mpki_u", "intra", "inter", "coh",
    "div",      "mpli",   "apl",  "fc_coh", "fc_div", "ract",  "c_mem", "c_idle",
    "disp",     "disp_m", "x16k", "x32k",   "x64k",   "x128k", "x_unb"};

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0;
}

static void fill_row(const ch_job *runs, double *v)
{
    const sim_metrics *p = &runs[RUN_PRESET].m, *u = &runs[RUN_UNBOUNDED].m;
    double loads = p->global_loads;
    double fc_div = p->fully_cached_divergent_loads;
    double fc_coh = p->fully_cached_loads - fc_div;
    double base = runs[RUN_32K].m.ipc;
    v[C_IPC] = p->ipc;
    v[C_MPKI] = p->mpki;
    v[C_MPKI_UNB] = u->mpki;
    v[C_INTRA_PKI] = 1000 * ratio(u->l1d_intra_warp_hits, u->warp_insts);
    v[C_INTER_PKI] = 1000 * ratio(u->l1d_inter_warp_hits, u->warp_insts);
    v[C_COH_SHARE] = ratio(p->coherent_loads, loads);
    v[C_DIV_SHARE] = ratio(p->divergent_loads, loads);
    v[C_MPLI] = p->mpli;
    v[C_APL] = ratio(p->l1d_accesses, loads);
    v[C_FC_COH] = ratio(fc_coh, p->coherent_loads);
    v[C_FC_DIV] = ratio(fc_div, p->divergent_loads);
    v[C_RACT] = p->ract;
    v[C_CMEM] = ratio(p->c_mem, p->cycles);
    v[C_CIDLE] = ratio(p->c_idle, p->cycles);
    v[C_DISP_MAX] = p->warp_disparity_max;
    v[C_DISP_MEAN] = p->warp_disparity_mean;
    v[C_IPC16] = ratio(runs[RUN_16K].m.ipc, base);
    v[C_IPC32] = ratio(runs[RUN_32K].m.ipc, base);
    v[C_IPC64] = ratio(runs[RUN_64K].m.ipc, base);
    v[C_IPC128] = ratio(runs[RUN_128K].m.ipc, base);
    v[C_IPC_UNB] = ratio(u->ipc, base);
}

/* RFC 4180: quote a field that holds a comma, quote, or line break; double inner quotes. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The table is formatted in memory and written through write_file_atomic: a temporary
 * renamed into place, a link followed to its file, write errors reported. */
static int write_csv(const char *path, int n, char (*name)[256], char (*cls)[128],
                     double (*v)[NCOLS], const int *ok, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (int c = 0; c < NCOLS; c++) {
        if (c) fputc(',', f);
        fputs(col_names[c], f);
    }
    fputs(",status\n", f);
    for (int w = 0; w < n; w++) {
        csv_field(f, name[w]);
        fputc(',', f);
        csv_field(f, cls[w]);
        for (int c = C_IPC; c < NCOLS; c++)
            fprintf(f, ",%.6g", v[w][c]);
        fprintf(f, ",%s\n", ok[w] ? "ok" : "failed");
    }
    if (fclose(f) != 0) {
        free(text);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int rc = write_file_atomic(path, text, len, err, errlen);
    free(text);
    return rc;
}

int cli_characterize(int argc, char **argv)
{
    ch_args a;
    if (parse_args(argc, argv, &a) != 0) return WT_EXIT_BAD_INPUT;
    param_set *base = cli_config("characterize", a.preset, a.sets, a.nsets);
    if (!base) return WT_EXIT_BAD_INPUT;
    int rc = WT_EXIT_OK, n = a.nworkloads;
    workload **w = calloc((size_t)n, sizeof *w);
    ch_job *jobs = calloc((size_t)n * NRUNS, sizeof *jobs);
    char(*names)[256] = calloc((size_t)n, sizeof *names);
    char(*cls)[128] = calloc((size_t)n, sizeof *cls);
    double(*vals)[NCOLS] = calloc((size_t)n, sizeof *vals);
    int *ok = calloc((size_t)n, sizeof *ok);
    if (!w || !jobs || !names || !cls || !vals || !ok) {
        rc = WT_EXIT_INTERNAL;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        char err[1024];
        if (workload_load(a.workloads[i], a.wparams.items, (size_t)a.wparams.n, &w[i], err,
                          sizeof err)) {
            fprintf(stderr, "warptune characterize: %s\n", err);
            rc = WT_EXIT_BAD_INPUT;
            goto out;
        }
        snprintf(names[i], sizeof names[i], "%s", a.workloads[i]);
        declared_class(a.workloads[i], cls[i], sizeof cls[i]);
        for (int r = 0; r < NRUNS; r++) {
            ch_job *j = &jobs[i * NRUNS + r];
            j->wl = i;
            j->run = r;
            j->same_as = -1;
            j->cfg = run_config(base, r, err, sizeof err);
            if (!j->cfg) {
                fprintf(stderr, "warptune characterize: %s\n", err);
                rc = WT_EXIT_BAD_INPUT;
                goto out;
            }
            for (int q = 0; q < r; q++)
                if (param_set_hash(jobs[i * NRUNS + q].cfg) == param_set_hash(j->cfg) &&
                    jobs[i * NRUNS + q].same_as < 0)
                    j->same_as = q;
        }
    }
    int njobs = n * NRUNS;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int k = 0; k < njobs; k++) {
        ch_job *j = &jobs[k];
        if (j->same_as >= 0) continue;
        j->status = sim_run(j->cfg, w[j->wl], NULL, &j->m, j->error, sizeof j->error);
    }
    for (int k = 0; k < njobs; k++)
        if (jobs[k].same_as >= 0) {
            const ch_job *src = &jobs[k - jobs[k].run + jobs[k].same_as];
            jobs[k].status = src->status;
            jobs[k].m = src->m;
            memcpy(jobs[k].error, src->error, sizeof jobs[k].error);
        }
    for (int i = 0; i < n; i++) {
        ok[i] = 1;
        for (int r = 0; r < NRUNS; r++) {
            const ch_job *j = &jobs[i * NRUNS + r];
            if (j->status == SIM_OK) continue;
            ok[i] = 0;
            if (r == 0 || j->same_as < 0)
                fprintf(stderr, "warptune characterize: %s (%s): %s: %s\n", names[i],
                        r == RUN_PRESET      ? "preset L1D"
                        : r == RUN_UNBOUNDED ? "unbounded L1D"
                                             : "resized L1D",
                        j->status == SIM_BAD_CONFIG ? "bad configuration" : "simulation failed",
                        j->error);
            if (j->status == SIM_BAD_CONFIG && rc == WT_EXIT_OK) rc = WT_EXIT_BAD_INPUT;
        }
        if (!ok[i] && rc == WT_EXIT_OK) rc = WT_EXIT_INTERNAL;
        fill_row(&jobs[i * NRUNS], vals[i]);
    }
    /* the table */
    printf("%-14s %-36s", col_short[0], col_short[1]);
    for (int c = C_IPC; c < NCOLS; c++)
        printf(" %7s", col_short[c]);
    printf("\n");
    for (int i = 0; i < n; i++) {
        printf("%-14s %-36s", names[i], cls[i]);
        for (int c = C_IPC; c < NCOLS; c++)
            printf(" %7.3g", vals[i][c]);
        printf("%s\n", ok[i] ? "" : "  FAILED");
    }
    printf("(%s; mpki_u, intra, inter: unbounded L1D, hits per 1000 warp instructions; "
           "coh/div: load shares, apl: L1D accesses per load, fc_*: fully cached shares; c_mem, "
           "c_idle: shares of cycles; "
           "x*: IPC normalised to a 32 KB L1D)\n",
           a.preset);
    char werr[1024];
    if (a.csv && write_csv(a.csv, n, names, cls, vals, ok, werr, sizeof werr) != 0) {
        fprintf(stderr, "warptune characterize: %s\n", werr);
        if (rc == WT_EXIT_OK) rc = WT_EXIT_INTERNAL;
    }
out:
    for (int k = 0; jobs && k < n * NRUNS; k++)
        param_set_free(jobs[k].cfg);
    for (int i = 0; w && i < n; i++)
        workload_free(w[i]);
    free(w);
    free(jobs);
    free(names);
    free(cls);
    free(vals);
    free(ok);
    param_set_free(base);
    return rc;
}
