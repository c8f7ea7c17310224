/* The table of warptune's commands, and what is made from it: the usage texts and the manual
 * page. A command added here is dispatched, listed in the usage and documented in warptune.1. */
#include "explorer/cli/commands.h"

#include <ctype.h>
#include <string.h>

#include "core/config/preset.h"
#include "explorer/cli/cli.h"
#include "explorer/version.h"

#define WIDTH        79 /* the longest line of a usage text */
#define SUMMARY_COL  27 /* where the summaries of warptune's usage start */
#define MAX_FLAG_COL 22 /* the furthest the option texts of a command's usage start */

static int run_version(int argc, char **argv);
static int run_man(int argc, char **argv);

/* the options several commands share */
#define PRESET_DOC "a built-in preset or a preset file (default: " WT_DEFAULT_PRESET ")"
#define SET_DOC    "set a parameter, once each (warptune params lists them)"
#define WPARAM_DOC "set a .param of the workloads, once each"

static const cli_option explore_options[] = {
    {"SPACE", "a space file, or a built-in space name (default: default)"},
    {"--resume", "continue the study in the output folder (SPACE optional; a different space "
                 "or --set list is refused)"},
    {"--force", "with --resume: start the changed study in the folder, keeping the journal's "
                "simulations"},
    {"--threads N", "OpenMP threads, 0 for every core (default: the space's search.threads)"},
    {"--out DIR", "output folder (default: the space's output)"},
    {"--set k=v", "fix a parameter, or override search.strategy, search.seed, "
                  "search.evaluations, search.seconds, search.threads, "
                  "search.scalarisations, output"},
    {"--quiet", "no progress and no report"},
    {"--validate", "check the space (every bundled space when none is named)"},
    {"--shard K/N", "simulate only shard K of N of a grid, random, lhs, morris or sobol study into "
                    "journal.K-of-N; a later --resume merges the shards (docs/cluster.md)"},
    {"--mpi", "under mpirun -n P: rank 0 runs the study, the other ranks simulate (a build "
              "with WT_MPI)"},
    {NULL, NULL}};

static const cli_option sim_options[] = {
    {"--preset P", PRESET_DOC},
    {"--workload W", "a built-in workload or a .wl file (default: kmeans)"},
    {"--trace DIR/kernelslist.g", "an Accel-Sim trace, as a workload"},
    {"--wparam k=v", WPARAM_DOC},
    {"--set k=v", SET_DOC},
    {"--json", "print the metrics as JSON, with the settings that differ from the preset's"},
    {"--config", "with --json, also print every parameter's value"},
    {"--sample", "sampled simulation: --set sample.kernels=true --set sample.intra=true; a "
                 "projected result says so, with its detailed share (docs/sampling.md)"},
    {"--belady", "also count the Belady-optimal misses of each run's L1D stream"},
    {"--l1-trace FILE", "write every L1D access as CSV (one workload only)"},
    {"--issue-trace FILE",
     "write every warp instruction issued as CSV: sm,cycle,warp,pc,scheduler (one workload "
     "only)"},
    {"--cta-trace FILE",
     "write the CTA limit of every SM at every sample as CSV (one workload only)"},
    {"--per-sm FILE", "write the statistics of each SM as CSV (one workload only)"},
    {"--threads N", "step the SMs of each cycle on N threads (same results at every N; one "
                    "thread with --l1-trace, --issue-trace or --belady)"},
    {NULL, NULL}};

static const cli_option front_options[] = {
    {"FILE.csv", "a CSV table with a header, such as a study's points.csv"},
    {"--objective COL:min|max", "a column to minimise or maximise, each once (default: those of "
                                "ipc:max, mpki:min, energy_j:min in the table)"},
    {"--out FILE.csv", "write the front there (default: the standard output)"},
    {NULL, NULL}};

static const cli_option characterize_options[] = {
    {"--workload W", "a built-in workload or a .wl file (default: every built-in)"},
    {"--preset P", PRESET_DOC},
    {"--set k=v", SET_DOC},
    {"--wparam k=v", WPARAM_DOC},
    {"--csv FILE", "also write the table as CSV"},
    {NULL, NULL}};

static const cli_option export_trace_options[] = {
    {"--workload W", "the workload: a built-in workload or a .wl file"},
    {"--out DIR", "where to write kernelslist.g and a kernel-N.traceg per launch"},
    {"--preset P", PRESET_DOC},
    {"--set k=v", SET_DOC},
    {"--wparam k=v", WPARAM_DOC},
    {NULL, NULL}};

static const cli_option report_options[] = {
    {"DIR", "a study's output folder, as explore left it (summary.json and the files it names)"},
    {NULL, NULL}};

static const cli_option params_options[] = {
    {"PREFIX", "only the parameters whose names start with PREFIX"}, {NULL, NULL}};

const cli_command cli_commands[] = {
    {.name = "explore",
     .args = "[SPACE] [--resume [--force]] [--threads N] [--out DIR] [--set k=v]... [--quiet] "
             "[--validate] [--shard K/N] [--mpi]",
     .summary = "run a study (default: the built-in default space)",
     .options = explore_options,
     .run = cli_explore},
    {.name = "report",
     .args = "DIR",
     .summary = "write a study's report.html again from its output folder",
     .details = "One self-contained page: the front in every pair of objectives, parallel "
                "coordinates, the selected point's metrics per workload against the reference "
                "configuration's, the sensitivity indices when the folder has sensitivity.csv, "
                "and the study's provenance. explore writes it with the other outputs; the "
                "files it reads must match summary.json.",
     .options = report_options,
     .run = cli_report},
    {.name = "sim",
     .args = "[--preset P] [--workload W | --trace DIR/kernelslist.g]... [--wparam k=v]... "
             "[--set k=v]... [--json [--config]] [--sample] [--belady] [--l1-trace FILE] "
             "[--issue-trace FILE] [--cta-trace FILE] [--per-sm FILE] [--threads N]",
     .summary = "simulate one configuration, print every metric",
     .options = sim_options,
     .run = cli_sim},
    {.name = "front",
     .args = "FILE.csv [--objective COL:min|max]... [--out FILE.csv]",
     .summary = "the Pareto front of any table of results",
     .details = "Prints the non-dominated rows of the table, and their hypervolume against the "
                "worst value of each objective in the file.",
     .options = front_options,
     .run = cli_front},
    {.name = "characterize",
     .args = "[--workload W]... [--preset P] [--set k=v]... [--wparam k=v]... [--csv FILE]",
     .summary = "cache sensitivity, locality, TLP and criticality",
     .details = "Measures each workload (default: every built-in) at its preset's L1D, at "
                "16/32/64/128 KB and with an unbounded L1D; prints a table, and CSV with --csv.",
     .options = characterize_options,
     .run = cli_characterize},
    {.name = "export-trace",
     .args = "--workload W --out DIR [--preset P] [--set k=v]... [--wparam k=v]...",
     .summary = "write a workload as an Accel-Sim trace",
     .options = export_trace_options,
     .run = cli_export_trace},
    {.name = "params",
     .args = "[PREFIX]",
     .summary = "every parameter: type, default, range, unit, doc",
     .options = params_options,
     .run = cli_params},
    {.name = "workloads", .summary = "the built-in workloads", .run = cli_workloads},
    {.name = "presets", .summary = "the built-in presets", .run = cli_presets},
    {.name = "policies",
     .summary = "warp schedulers, L1D policies, CTA schedulers",
     .run = cli_policies},
    {.name = "version", .alias = "--version", .summary = "print the version", .run = run_version},
    {.name = "man",
     .alias = "--man",
     .summary = "print the manual page (warptune man | man -l -)",
     .run = run_man},
};
const size_t cli_ncommands = sizeof cli_commands / sizeof cli_commands[0];

static const struct {
    int code;
    const char *meaning;
} exit_statuses[] = {
    {WT_EXIT_OK, "success"},
    {WT_EXIT_BAD_INPUT, "bad input"},
    {WT_EXIT_INTERNAL, "a failed simulation or internal error"},
    {WT_EXIT_INTERRUPTED, "explore interrupted (outputs written for what finished)"},
};
#define NSTATUSES (sizeof exit_statuses / sizeof exit_statuses[0])

static int run_version(int argc, char **argv)
{
    int rc = cli_check_operands(argc, argv, 0);
    if (rc != WT_EXIT_OK) return rc;
    printf("warptune %s\n", wt_version());
    return WT_EXIT_OK;
}

static int run_man(int argc, char **argv)
{
    int rc = cli_check_operands(argc, argv, 0);
    if (rc != WT_EXIT_OK) return rc;
    cli_man(stdout);
    return WT_EXIT_OK;
}

const cli_command *cli_command_find(const char *name)
{
    for (size_t i = 0; i < cli_ncommands; i++) {
        const cli_command *c = &cli_commands[i];
        if (!strcmp(c->name, name) || (c->alias && !strcmp(c->alias, name))) return c;
    }
    return NULL;
}

int cli_check_operands(int argc, char **argv, int operands)
{
    const cli_command *c = cli_command_find(argv[0]);
    const char *name = c ? c->name : argv[0];
    int seen = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "warptune %s: unknown or incomplete option '%s'\n", name, argv[i]);
        } else if (++seen > operands) {
            if (operands)
                fprintf(stderr, "warptune %s: unexpected argument '%s' (expected at most %d)\n",
                        name, argv[i], operands);
            else
                fprintf(stderr, "warptune %s: unexpected argument '%s' (expected none)\n", name,
                        argv[i]);
        } else {
            continue;
        }
        cli_command_usage(stderr, name);
        return WT_EXIT_BAD_INPUT;
    }
    return WT_EXIT_OK;
}

/* ------------------------------------------------------------------- the usage texts ---- */

/* The length of the word at s. In a synopsis a word ends at a space outside brackets, and an
 * option's value stays with its option ("--out DIR"). */
static size_t word_len(const char *s, int synopsis)
{
    if (!synopsis) return strcspn(s, " \n");
    size_t n = 0;
    int depth = 0;
    for (; s[n] && s[n] != '\n'; n++) {
        if (s[n] == '[') depth++;
        if (s[n] == ']') depth--;
        if (s[n] == ' ' && depth == 0 && !(s[0] == '-' && s[n + 1] != '-' && s[n + 1] != '['))
            break;
    }
    return n;
}

/* Prints text from column at (the cursor is there), filling lines up to WIDTH columns; the
 * lines after the first start at column col, and '\n' in text starts one. Returns the column
 * the text ends at, the line not ended. */
static int print_filled(FILE *f, const char *text, int at, int col, int synopsis)
{
    int start = at;
    for (const char *s = text; *s;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        if (*s == '\n') {
            fprintf(f, "\n%*s", col, "");
            at = start = col;
            s++;
            continue;
        }
        int n = (int)word_len(s, synopsis);
        if (at > start && at + 1 + n > WIDTH) {
            fprintf(f, "\n%*s", col, "");
            at = start = col;
        } else if (at > start) {
            fputc(' ', f);
            at++;
        }
        fprintf(f, "%.*s", n, s);
        at += n;
        s += n;
    }
    return at;
}

void cli_usage(FILE *f)
{
    fprintf(f, "usage: warptune COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < cli_ncommands; i++) {
        const cli_command *c = &cli_commands[i];
        int at = fprintf(f, "  %s", c->name);
        if (c->args) {
            fputc(' ', f);
            at = print_filled(f, c->args, at + 1, at + 1, 1);
        }
        if (at + 2 > SUMMARY_COL) {
            fputc('\n', f);
            at = 0;
        }
        fprintf(f, "%*s%s\n", SUMMARY_COL - at, "", c->summary);
    }
    char text[512] = "exit status:";
    for (size_t i = 0; i < NSTATUSES; i++) {
        size_t n = strlen(text);
        snprintf(text + n, sizeof text - n, " %d %s%s", exit_statuses[i].code,
                 exit_statuses[i].meaning, i + 1 < NSTATUSES ? "," : "");
    }
    fputc('\n', f);
    print_filled(f, text, 0, 0, 0);
    fputc('\n', f);
}

void cli_command_usage(FILE *f, const char *name)
{
    const cli_command *c = cli_command_find(name);
    if (!c) return;
    int at = fprintf(f, "usage: warptune %s", c->name);
    if (c->args) {
        fputc(' ', f);
        print_filled(f, c->args, at + 1, at + 1, 1);
    }
    fputc('\n', f);
    if (c->details) {
        print_filled(f, c->details, 0, 0, 0);
        fputc('\n', f);
    }
    /* the texts start after the longest option that is not too long; longer ones have a line
     * of their own */
    int col = 0;
    for (const cli_option *o = c->options; o && o->flag; o++) {
        int n = 2 + (int)strlen(o->flag) + 2;
        if (n <= MAX_FLAG_COL && n > col) col = n;
    }
    for (const cli_option *o = c->options; o && o->flag; o++) {
        at = fprintf(f, "  %s", o->flag);
        if (at + 2 > col) {
            fputc('\n', f);
            at = 0;
        }
        fprintf(f, "%*s", col - at, "");
        print_filled(f, o->doc, col, col, 0);
        fputc('\n', f);
    }
}

/* ------------------------------------------------------------------ the manual page ---- */

/* Prints the n characters at s as roff text: a backslash and every '-' escaped (an option is
 * typed as written), a line that would start with a control character made plain, and with
 * nbsp the spaces unbreakable. */
static void roff_n(FILE *f, const char *s, size_t n, int nbsp)
{
    int line_start = 1;
    for (const char *end = s + n; s < end; s++) {
        if (line_start && (*s == '.' || *s == '\'')) fputs("\\&", f);
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else if (*s == ' ' && nbsp)
            fputs("\\ ", f);
        else
            fputc(*s, f);
        line_start = *s == '\n';
    }
}

static void roff(FILE *f, const char *s)
{
    roff_n(f, s, strlen(s), 0);
}

/* A synopsis: a line breaks only between its items ("[--set k=v]...", "--out DIR"). */
static void roff_synopsis(FILE *f, const char *args)
{
    for (const char *s = args; *s;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        size_t n = word_len(s, 1);
        if (s > args) fputc(' ', f);
        roff_n(f, s, n, 1);
        s += n;
    }
    fputc('\n', f);
}

/* Prints a summary as a sentence: a capital first letter and a full stop. */
static void roff_sentence(FILE *f, const char *s)
{
    fputc(toupper((unsigned char)s[0]), f);
    roff(f, s + 1);
    fputs(".\n", f);
}

/* An option's tag: the option in bold, its value in italics ("--out DIR"); an operand
 * ("SPACE") in italics. */
static void roff_flag(FILE *f, const char *flag)
{
    const char *sp = strchr(flag, ' ');
    fputs(flag[0] == '-' ? "\\fB" : "\\fI", f);
    roff_n(f, flag, sp ? (size_t)(sp - flag) : strlen(flag), 0);
    fputs("\\fR", f);
    if (sp) {
        fputs(" \\fI", f);
        roff(f, sp + 1);
        fputs("\\fR", f);
    }
    fputc('\n', f);
}

void cli_man(FILE *f)
{
    fprintf(f, ".\\\" The manual page of warptune, written by `warptune man` from the table of\n"
               ".\\\" commands in explorer/cli/commands.c.\n");
    fprintf(f, ".TH WARPTUNE 1 \"\" \"warptune %s\" \"User Commands\"\n", wt_version());
    fputs(".nh\n.ad l\n", f); /* no hyphens in names such as search.evaluations, ragged right */
    fputs(".SH NAME\n"
          "warptune \\- design\\-space exploration of GPU warp\\-scheduling, L1D and\n"
          "CTA\\-scheduling policies on a cycle\\-level GPU simulator\n"
          ".SH SYNOPSIS\n"
          ".B warptune\n"
          ".I COMMAND\n"
          ".RI [ OPTIONS ]\n"
          ".SH DESCRIPTION\n"
          ".B warptune\n"
          "explores the design space of GPU warp schedulers, L1D cache policies and\n"
          "CTA schedulers on an embedded, deterministic, cycle\\-level GPU simulator: a study\n"
          "(a space file) names the parameters to vary, the workloads and the objectives,\n"
          "and\n"
          ".B warptune explore\n"
          "searches it and writes every evaluation, the Pareto front and a summary.\n"
          "The same inputs and seed give byte\\-identical results.\n"
          ".SH COMMANDS\n",
          f);
    for (size_t i = 0; i < cli_ncommands; i++) {
        const cli_command *c = &cli_commands[i];
        fputs(".SS ", f);
        roff(f, c->name);
        fputs("\n.B warptune ", f);
        roff(f, c->name);
        fputc('\n', f);
        if (c->args) roff_synopsis(f, c->args);
        if (c->alias) {
            fputs("(or \\fB", f);
            roff(f, c->alias);
            fputs("\\fR)\n", f);
        }
        fputs(".PP\n", f);
        roff_sentence(f, c->summary);
        if (c->details) {
            roff(f, c->details);
            fputc('\n', f);
        }
        for (const cli_option *o = c->options; o && o->flag; o++) {
            fputs(".TP\n", f);
            roff_flag(f, o->flag);
            roff(f, o->doc);
            fputc('\n', f);
        }
    }
    fputs(".SH EXIT STATUS\n", f);
    for (size_t i = 0; i < NSTATUSES; i++) {
        fprintf(f, ".TP\n.B %d\n", exit_statuses[i].code);
        roff(f, exit_statuses[i].meaning);
        fputc('\n', f);
    }
    fputs(".SH FILES\n"
          "The bundled spaces and presets are built into\n"
          ".BR warptune ;\n"
          "copies to read and start from are installed under\n"
          ".I share/warptune/spaces\n"
          "of the installation prefix, and the documentation (the README, the workload\n"
          "language, space files, presets, metrics, policies, traces) under\n"
          ".IR share/doc/warptune .\n",
          f);
}
