/* What every registered policy must do, checked the same way for each: the suite walks the
 * registry's tables (policies/registry.h), so that a policy added to policies/list.h is checked
 * with no edit here. Each policy is driven through tests/support/policy_harness.h, without an
 * SM.
 *
 * Every policy: created with its defaults and destroyed (ASan reports a leak); its name is the
 * registry's, its doc is not empty, and docs/policies.md has a section headed with its name
 * under its kind's chapter; each parameter is named <policy>.<x>, registered, documented (a doc
 * here, and in docs/policies.md), with a default inside its range; each metric has a name of its
 * own within the policy and a doc, is documented in docs/metrics.md, and they are at most
 * WT_POLICY_METRICS_MAX; collect adds into the sums of its metrics and touches no other.
 *
 * Each policy also runs in random, seeded rounds, with its defaults and with each parameter at
 * each other value of its type (every other choice, the other truth value, the two ends of a
 * number's range; create may refuse one of these, with a message), and a second instance
 * replaying the same rounds must do exactly the same:
 *
 * - warp schedulers, one SM's instances at a time (shared state included) over slot counts and
 *   scheduler counts: random ready lists (random subsets of the live warps, with random ages,
 *   classes and stall states) and warp starts, issues, L1D events, branches, stalls, exits and
 *   cycles in the order the SM makes them; pick returns -1 or an index into the ready list.
 *   When every live warp is ready and none waits on anything, a scheduler without
 *   retry_declined never declines (the SM would sleep until an event that may never come),
 *   and one with it issues within as many cycles as it has warp slots;
 * - L1D policies (and the aliases of their variants), each in a whole L1D of several
 *   geometries: random loads, stores, fills in any order and finished loads; victim answers an
 *   unreserved way, L1_BYPASS or L1_STALL (debug builds assert it too; this checks it in every
 *   build), on_fill and on_hit see the way that holds the request's line, on_evict a valid
 *   line, and a line just filled hits;
 * - CTA schedulers, over SM counts: kernel starts of random N and random samples every period;
 *   the limit of every SM stays within 1..N, and period() never changes.
 *
 * The hand-checkable cases: a lone ready warp in slot 0 issues at once under every scheduler, and
 * eight warps in the highest slots, all ready, at once or (retry_declined) within as many cycles
 * as there are slots; a kernel whose resources allow one CTA gets a limit of 1 everywhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/isource.h"
#include "core/policy.h"
#include "core/sim/l1d.h"
#include "policies/registry.h"
#include "tests/support/policy_harness.h"
#include "tests/support/support.h"

/* Every policy can be created with default parameters and destroyed. */
static void test_create_all(void **state)
{
    (void)state;
    char err[256];
    for (size_t i = 0; sched_policies[i]; i++) {
        ph_sched s;
        sched_env env = {0, 0, 48, 2, NULL, NULL, NULL, NULL};
        assert_int_equal(ph_sched_try(&s, sched_policies[i]->name, env, 3, NULL, err, sizeof err),
                         0);
        ph_sched_free(&s);
    }
    for (size_t i = 0; l1_policies[i]; i++) {
        ph_l1 c;
        ph_l1_make(&c, l1_policies[i]->name, (l1_env){{8, 16, 128}, 0, 48, NULL, false}, 3, NULL);
        ph_l1_free(&c);
    }
    for (size_t i = 0; cta_policies[i]; i++) {
        ph_cta c;
        ph_cta_make(&c, cta_policies[i]->name, (cta_env){15, NULL}, 3, NULL);
        ph_cta_free(&c);
    }
}

/* ------------------------------------------------------- the registry's policies ---- */

enum { SCHED, L1, CTA };
static const char *const kind_names[] = {"warp scheduler", "L1D policy", "CTA scheduler"};
/* The chapter of docs/policies.md each kind's sections are in. */
static const char *const kind_chapters[] = {"## Warp schedulers", "## L1D policies",
                                            "## CTA schedulers"};

/* What every policy declares, whatever its kind. */
typedef struct policy {
    int kind;
    size_t index;            /* in its kind's table */
    const char *registered;  /* the registry's name at that index */
    const void *ops, *found; /* its operations, and what the registry finds by its name */
    const char *name, *doc;
    const param_def *params;
    size_t nparams;
    const metric_def *metrics;
    size_t nmetrics;
    bool collects; /* has collect */
} policy;

#define MAX_POLICIES 64

/* Every policy of one kind's table, as a `policy`. */
#define ADD_KIND(KIND, table, names, find)                                                         \
    for (size_t i = 0; table[i]; i++) {                                                            \
        assert_in_range(n, 0, MAX_POLICIES - 1);                                                   \
        out[n++] = (policy){KIND,                                                                  \
                            i,                                                                     \
                            names[i],                                                              \
                            table[i],                                                              \
                            find(table[i]->name),                                                  \
                            table[i]->name,                                                        \
                            table[i]->doc,                                                         \
                            table[i]->params,                                                      \
                            table[i]->nparams,                                                     \
                            table[i]->metrics,                                                     \
                            table[i]->nmetrics,                                                    \
                            table[i]->collect != NULL};                                            \
    }

static size_t all_policies(policy *out)
{
    size_t n = 0;
    ADD_KIND(SCHED, sched_policies, sched_policy_names, sched_policy_find);
    ADD_KIND(L1, l1_policies, l1_policy_names, l1_policy_find);
    ADD_KIND(CTA, cta_policies, cta_policy_names, cta_policy_find);
    return n;
}
#undef ADD_KIND

/* A documentation page, read once (the tests run in the repository root). */
static const char *doc_page(const char *path)
{
    static struct {
        const char *path;
        char *text;
    } pages[4];
    for (size_t i = 0; i < 4; i++) {
        if (pages[i].path && strcmp(pages[i].path, path) == 0) return pages[i].text;
        if (!pages[i].path) {
            size_t len;
            pages[i].text = test_read_file(path, &len);
            if (!pages[i].text) fail_msg("cannot read %s", path);
            pages[i].path = path;
            return pages[i].text;
        }
    }
    fail_msg("too many pages");
    return NULL;
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
}

/* Does text name `name` as code: `name` or `name=...` (not a longer name it begins)? */
static bool names_as_code(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = strstr(text, name); at; at = strstr(at + 1, name))
        if (at > text && at[-1] == '`' && !name_char(at[len])) return true;
    return false;
}

/* The offset of the line "### <name>" or "### <name> ...", or -1. */
static long section_of(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = strstr(text, "\n### "); at; at = strstr(at + 1, "\n### "))
        if (strncmp(at + 5, name, len) == 0 && (at[5 + len] == ' ' || at[5 + len] == '\n'))
            return at + 1 - text;
    return -1;
}

/* The chapter ("## ..." line) the offset lies in, as a pointer into text. */
static const char *chapter_at(const char *text, long offset)
{
    const char *chapter = NULL;
    for (const char *at = strstr(text, "\n## "); at && at - text < offset;
         at = strstr(at + 1, "\n## "))
        chapter = at + 1;
    return chapter;
}

static void test_names_and_docs(void **state)
{
    (void)state;
    policy all[MAX_POLICIES];
    size_t n = all_policies(all);
    const char *page = doc_page("docs/policies.md");
    for (size_t i = 0; i < n; i++) {
        const policy *p = &all[i];
        assert_non_null(p->name);
        assert_non_null(p->registered);
        assert_string_equal(p->name, p->registered);
        assert_ptr_equal(p->found, p->ops);
        if (!p->doc || !p->doc[0]) fail_msg("%s %s has no doc", kind_names[p->kind], p->name);
        long at = section_of(page, p->name);
        if (at < 0) fail_msg("docs/policies.md has no section \"### %s\"", p->name);
        const char *chapter = chapter_at(page, at);
        size_t want = strlen(kind_chapters[p->kind]);
        if (!chapter || strncmp(chapter, kind_chapters[p->kind], want) != 0 ||
            chapter[want] != '\n')
            fail_msg("docs/policies.md: the section of %s %s is not under \"%s\"",
                     kind_names[p->kind], p->name, kind_chapters[p->kind]);
    }
    /* the hooks each kind requires, and those that come in pairs */
    for (size_t i = 0; sched_policies[i]; i++) {
        const sched_ops *o = sched_policies[i];
        assert_non_null(o->create);
        assert_non_null(o->destroy);
        assert_non_null(o->pick);
        assert_int_equal(o->create_shared != NULL, o->destroy_shared != NULL);
    }
    for (size_t i = 0; l1_policies[i]; i++) {
        assert_non_null(l1_policies[i]->create);
        assert_non_null(l1_policies[i]->destroy);
        assert_non_null(l1_policies[i]->victim);
    }
    for (size_t i = 0; cta_policies[i]; i++) {
        assert_non_null(cta_policies[i]->create);
        assert_non_null(cta_policies[i]->destroy);
        assert_non_null(cta_policies[i]->limit);
    }
}

static size_t count_choices(const char *const *choices)
{
    size_t n = 0;
    while (choices[n])
        n++;
    return n;
}

static void test_parameters(void **state)
{
    (void)state;
    policy all[MAX_POLICIES];
    size_t n = all_policies(all);
    const char *page = doc_page("docs/policies.md");
    param_set *defaults = param_set_new();
    for (size_t i = 0; i < n; i++) {
        const policy *p = &all[i];
        if (p->nparams) assert_non_null(p->params);
        size_t plen = strlen(p->name);
        for (size_t k = 0; k < p->nparams; k++) {
            const param_def *d = &p->params[k];
            assert_non_null(d->name);
            /* <policy>.<x>, x a name of its own */
            if (strncmp(d->name, p->name, plen) != 0 || d->name[plen] != '.' ||
                !d->name[plen + 1] || strchr(d->name + plen + 1, '.'))
                fail_msg("%s: parameter %s is not named %s.<x>", p->name, d->name, p->name);
            for (const char *c = d->name + plen + 1; *c; c++)
                if (!name_char(*c))
                    fail_msg("%s: parameter %s: character '%c'", p->name, d->name, *c);
            for (size_t j = 0; j < k; j++)
                if (strcmp(p->params[j].name, d->name) == 0)
                    fail_msg("%s: parameter %s twice", p->name, d->name);
            int id = param_lookup(d->name);
            if (id < 0) fail_msg("%s: parameter %s is not registered", p->name, d->name);
            assert_string_equal(param_def_at((size_t)id)->name, d->name);
            if (!d->doc || !d->doc[0]) fail_msg("%s: parameter %s has no doc", p->name, d->name);
            assert_non_null(d->unit);
            switch (d->type) {
            case PT_INT:
                assert_double_near(d->def, floor(d->def), 0);
                /* fall through */
            case PT_REAL:
                if (!(d->lo <= d->hi)) fail_msg("%s: range [%g, %g]", d->name, d->lo, d->hi);
                if (!(d->def >= d->lo && d->def <= d->hi))
                    fail_msg("%s: default %g outside [%g, %g]", d->name, d->def, d->lo, d->hi);
                break;
            case PT_BOOL:
                if (d->def != 0 && d->def != 1) fail_msg("%s: default %g", d->name, d->def);
                break;
            case PT_CHOICE: {
                if (!d->choices) fail_msg("%s: a choice without choices", d->name);
                size_t nc = count_choices(d->choices);
                if (nc < 2) fail_msg("%s: %zu choices", d->name, nc);
                for (size_t c = 0; c < nc; c++) {
                    if (!d->choices[c][0]) fail_msg("%s: an empty choice", d->name);
                    for (size_t e = 0; e < c; e++)
                        if (strcmp(d->choices[c], d->choices[e]) == 0)
                            fail_msg("%s: choice %s twice", d->name, d->choices[c]);
                }
                assert_double_near(d->def, floor(d->def), 0);
                if (!(d->def >= 0 && d->def < (double)nc))
                    fail_msg("%s: default %g is no choice of %zu", d->name, d->def, nc);
                break;
            }
            default:
                fail_msg("%s: type %d", d->name, (int)d->type);
            }
            /* a new configuration holds the default */
            assert_double_near(param_get(defaults, id), d->def, 0);
            if (!names_as_code(page, d->name))
                fail_msg("docs/policies.md does not document %s (as `%s`)", d->name, d->name);
        }
    }
    param_set_free(defaults);
}

static void test_metrics(void **state)
{
    (void)state;
    policy all[MAX_POLICIES];
    size_t n = all_policies(all);
    const char *page = doc_page("docs/metrics.md");
    for (size_t i = 0; i < n; i++) {
        const policy *p = &all[i];
        assert_in_range(p->nmetrics, 0, WT_POLICY_METRICS_MAX);
        if (p->nmetrics) {
            assert_non_null(p->metrics);
            if (!p->collects) fail_msg("%s declares metrics and has no collect", p->name);
        }
        for (size_t k = 0; k < p->nmetrics; k++) {
            const metric_def *m = &p->metrics[k];
            if (!m->name || !m->name[0]) fail_msg("%s: metric %zu has no name", p->name, k);
            for (size_t j = 0; j < k; j++)
                if (strcmp(p->metrics[j].name, m->name) == 0)
                    fail_msg("%s declares metric %s twice", p->name, m->name);
            if (!m->doc || !m->doc[0]) fail_msg("%s: metric %s has no doc", p->name, m->name);
            if (!names_as_code(page, m->name))
                fail_msg("docs/metrics.md does not document %s's metric %s", p->name, m->name);
        }
    }
}

/* ----------------------------------------------------------- what every run logs ---- */

/* The decisions of a run, to compare with a replay of the same run. */
typedef struct run_log {
    int64_t *v;
    size_t n, cap;
} run_log;

static void log_put(run_log *l, int64_t x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4096;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        assert_non_null(l->v);
    }
    l->v[l->n++] = x;
}

static void log_free(run_log *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* The same decisions in the same order. */
static void check_replay(const char *what, const run_log *a, const run_log *b)
{
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++)
        if (a->v[i] != b->v[i])
            fail_msg("%s: not deterministic: decision %zu of %zu is %lld, replayed %lld", what, i,
                     a->n, (long long)a->v[i], (long long)b->v[i]);
    if (a->n != b->n)
        fail_msg("%s: not deterministic: %zu decisions, replayed %zu", what, a->n, b->n);
    if (a->n == 0) fail_msg("%s: nothing to compare", what);
}

/* A policy's statistics: collect(self, sums) adds into sums[0..nmetrics) and touches nothing
 * else. Every instance collects into two arrays, one of zeros and one of 1000s (past the
 * metrics too, where nothing may change); the sums are logged. */
typedef struct collected {
    double zero[WT_POLICY_METRICS_MAX + 4], base[WT_POLICY_METRICS_MAX + 4];
} collected;

static void collected_init(collected *c)
{
    for (size_t i = 0; i < WT_POLICY_METRICS_MAX + 4; i++) {
        c->zero[i] = 0;
        c->base[i] = 1000;
    }
}

/* After collect (and finish, when the policy has it: `finished`) into both arrays. */
static void collected_check(const char *what, const collected *c, size_t nmetrics, bool finished,
                            run_log *rec)
{
    for (size_t i = 0; i < WT_POLICY_METRICS_MAX + 4; i++) {
        if (i >= nmetrics) {
            if (c->zero[i] != 0 || c->base[i] != 1000)
                fail_msg("%s: collect wrote sums[%zu], past its %zu metrics", what, i, nmetrics);
            continue;
        }
        if (!isfinite(c->zero[i])) fail_msg("%s: metric %zu sums to %g", what, i, c->zero[i]);
        /* it adds: what it added to 1000 is what it added to 0 (finish may scale them) */
        double tol = 1e-9 * fabs(c->zero[i]) + 1e-9;
        if (!finished && fabs(c->base[i] - 1000 - c->zero[i]) > tol)
            fail_msg("%s: metric %zu: collect into 0 gives %.17g, into 1000 gives %.17g", what, i,
                     c->zero[i], c->base[i]);
        log_put(rec, (int64_t)llround(c->zero[i] * 1024));
    }
}

/* A policy's configurations: its defaults (""), then each parameter at each other value of its
 * type, as "name=value". */
#define MAX_VARIANTS 128

typedef char variant[160];

static size_t variants_of(const param_def *params, size_t nparams, variant *out)
{
    size_t n = 0;
    out[n++][0] = '\0';
    for (size_t k = 0; k < nparams; k++) {
        const param_def *d = &params[k];
        double values[2] = {d->lo, d->hi};
        switch (d->type) {
        case PT_CHOICE:
            for (size_t c = 0; d->choices[c]; c++)
                if ((double)c != d->def && n < MAX_VARIANTS)
                    snprintf(out[n++], sizeof out[0], "%s=%s", d->name, d->choices[c]);
            break;
        case PT_BOOL:
            if (n < MAX_VARIANTS)
                snprintf(out[n++], sizeof out[0], "%s=%s", d->name, d->def ? "false" : "true");
            break;
        case PT_INT:
        case PT_REAL:
            for (int e = 0; e < 2; e++)
                if (values[e] != d->def && (e == 0 || values[1] != values[0]) && n < MAX_VARIANTS) {
                    /* the shortest text that reads back as the value */
                    int n_written = snprintf(out[n], sizeof out[0], "%s=%g", d->name, values[e]);
                    if (strtod(out[n] + n_written - snprintf(NULL, 0, "%g", values[e]), NULL) !=
                        values[e])
                        snprintf(out[n], sizeof out[0], "%s=%.17g", d->name, values[e]);
                    n++;
                }
            break;
        }
    }
    assert_in_range(n, 1, MAX_VARIANTS - 1);
    return n;
}

/* The overrides of a variant: none, or the one. */
static void variant_sets(const variant v, const char *sets[2])
{
    sets[0] = v[0] ? v : NULL;
    sets[1] = NULL;
}

/* ------------------------------------------------------------ warp schedulers ---- */

/* The length of each random run: cycles of an SM, accesses and events of an L1D, steps of a
 * CTA scheduler. */
enum { SCHED_CYCLES = 1000, L1_STEPS = 3000, CTA_STEPS = 600 };

#define SW 64 /* warp slots at most */

/* The SM as the schedulers see it: its warps' views and states, and the answers of its stall
 * and criticality queries (a slot without a running warp stalls and waits, as on the SM). */
typedef struct sm_mock {
    int max_warps, nsched;
    bool live[SW], stalled[SW], long_wait[SW], waiting[SW], marked[SW];
    int64_t crit[SW];
    uint64_t last_issue[SW];
    warp_view v[SW];
    int cta_warps[SW]; /* live warps of each CTA slot */
} sm_mock;

static bool mock_stalled(const void *ctx, int w)
{
    const sm_mock *m = ctx;
    assert_in_range(w, 0, m->max_warps - 1);
    return !m->live[w] || m->stalled[w];
}

static bool mock_long_wait(const void *ctx, int w)
{
    const sm_mock *m = ctx;
    assert_in_range(w, 0, m->max_warps - 1);
    return !m->live[w] || m->long_wait[w];
}

static bool mock_waiting(const void *ctx, int w)
{
    const sm_mock *m = ctx;
    assert_in_range(w, 0, m->max_warps - 1);
    return !m->live[w] || m->waiting[w];
}

static bool mock_marked(const void *ctx, int w)
{
    const sm_mock *m = ctx;
    assert_in_range(w, 0, m->max_warps - 1);
    return !m->live[w] || m->marked[w] || m->long_wait[w];
}

static int64_t mock_crit(const void *ctx, int w, uint64_t now)
{
    (void)now;
    const sm_mock *m = ctx;
    assert_in_range(w, 0, m->max_warps - 1);
    return m->crit[w];
}

/* An instruction class: any (a warp's next instruction in the random rounds), or one that
 * neither waits on memory, nor synchronises, nor ends the warp. */
static uint8_t random_class(wt_rng *r, bool any)
{
    static const uint8_t plain[] = {IC_INT, IC_FP, IC_SFU, IC_BRANCH, IC_LD_SHARED, IC_ST_SHARED};
    if (any) return (uint8_t)wt_rng_below(r, IC_COUNT);
    return plain[wt_rng_below(r, sizeof plain)];
}

static void sched_start_cta(const ph_sched_sm *s, sm_mock *m, wt_rng *r, uint64_t *next_age,
                            uint32_t *next_cta, uint64_t now)
{
    int cs = -1;
    for (int c = 0; c < m->max_warps && cs < 0; c++)
        if (m->cta_warps[c] == 0) cs = c;
    if (cs < 0) return;
    int want = 1 + (int)wt_rng_below(r, 4), k = 0;
    uint64_t oracle = wt_rng_below(r, 4) ? 0 : 1 + wt_rng_below(r, 5000);
    for (int w = 0; w < m->max_warps && k < want; w++) {
        if (m->live[w] || wt_rng_below(r, 3) == 0) continue;
        m->live[w] = true;
        m->stalled[w] = m->long_wait[w] = m->waiting[w] = m->marked[w] = false;
        m->last_issue[w] = now;
        m->cta_warps[cs]++;
        m->v[w] = (warp_view){.slot = w,
                              .cta_slot = cs,
                              .cta_id = *next_cta,
                              .warp_in_cta = k++,
                              .age = (*next_age)++,
                              .pc = (uint32_t)wt_rng_below(r, 64),
                              .cls = random_class(r, true),
                              .oracle_cycles = oracle ? oracle + wt_rng_below(r, 1000) : 0};
        if (s->ops->on_warp_start) s->ops->on_warp_start(ph_sched_sm_of(s, w), &m->v[w], now);
    }
    if (k) (*next_cta)++;
}

/* Issues warp w as the SM does: the stall it ends, the issue, a branch's outcome, the
 * warp's exit; then the warp moves on to its next instruction. */
static void sched_issue(const ph_sched_sm *s, sm_mock *m, wt_rng *r, int w, uint64_t now,
                        bool phase)
{
    void *self = ph_sched_sm_of(s, w);
    const sched_ops *o = s->ops;
    if (now > m->last_issue[w] + 1 && o->on_stall)
        o->on_stall(self, w, (uint32_t)(now - m->last_issue[w] - 1));
    m->last_issue[w] = now;
    if (o->on_issue) o->on_issue(self, &m->v[w], now);
    if (m->v[w].cls == IC_BRANCH && o->on_branch) {
        uint32_t active = (uint32_t)wt_rng_next(r) | 1u, taken = active & (uint32_t)wt_rng_next(r);
        uint32_t pc = m->v[w].pc, target = (uint32_t)wt_rng_below(r, 64);
        branch_event b = {w,
                          pc,
                          target,
                          pc + 1,
                          target > pc ? target + 1 : pc + 2,
                          active,
                          taken,
                          taken && taken != active,
                          now};
        o->on_branch(self, &b);
    }
    if (m->v[w].cls == IC_EXIT) {
        m->live[w] = false;
        m->cta_warps[m->v[w].cta_slot]--;
        if (o->on_warp_exit) o->on_warp_exit(self, w, now);
        return;
    }
    m->v[w].pc++;
    m->v[w].cls = random_class(r, !phase);
}

/* One run: `cycles` cycles of an SM of max_warps slots and nsched schedulers under scheduler
 * `name` with the overrides in sets. Returns create's status (its message in err); the picks,
 * vetoes, ranks and statistics go to rec. */
static int sched_run(const char *name, const char *const *sets, int max_warps, int nsched,
                     uint64_t seed, int cycles, run_log *rec, char *err, size_t errlen)
{
    sm_mock *m = calloc(1, sizeof *m);
    assert_non_null(m);
    m->max_warps = max_warps;
    m->nsched = nsched;
    warp_stalls stalls = {m, mock_stalled, mock_long_wait, mock_waiting, mock_marked};
    warp_criticality crit = {m, mock_crit};
    ph_sched_sm s;
    if (ph_sched_sm_try(&s, name, max_warps, nsched, &crit, &stalls, seed, sets, err, errlen) !=
        0) {
        free(m);
        return -1;
    }
    const sched_ops *o = s.ops;
    char what[256];
    snprintf(what, sizeof what, "%s [%s] with %d warps, %d schedulers, seed %llu", name,
             sets && sets[0] ? sets[0] : "defaults", max_warps, nsched, (unsigned long long)seed);
    wt_rng r;
    wt_rng_seed(&r, seed * 7919 + 1);
    uint64_t now = 0, clock = 0, next_age = 0;
    uint32_t next_cta = 0;
    /* blocks of 60 random cycles, then a phase of max_warps + 2 cycles where every live warp
     * is ready and none waits */
    const int block = 60 + max_warps + 2;
    int issued[PH_MAX_SCHEDULERS] = {0}, live_in_phase[PH_MAX_SCHEDULERS] = {0};
    for (int cyc = 0; cyc < cycles; cyc++) {
        bool phase = cyc % block >= 60;
        now += 1 + (!phase && wt_rng_below(&r, 4) == 0 ? wt_rng_below(&r, 40) : 0);
        if (o->on_cycles)
            for (int k = 0; k < nsched; k++)
                o->on_cycles(s.self[k], clock, now);
        clock = now;
        if (cyc % block == 60) { /* the phase starts: nothing waits, nobody is paused */
            for (int w = 0; w < max_warps; w++) {
                m->stalled[w] = m->long_wait[w] = m->waiting[w] = m->marked[w] = false;
                m->v[w].paused = false;
                if (m->live[w] && (m->v[w].cls == IC_EXIT || m->v[w].cls == IC_BARRIER ||
                                   m->v[w].cls == IC_LD_GLOBAL))
                    m->v[w].cls = random_class(&r, false);
            }
            for (int k = 0; k < nsched; k++) {
                issued[k] = 0;
                live_in_phase[k] = 0;
            }
            for (int w = 0; w < max_warps; w++)
                live_in_phase[w % nsched] += m->live[w];
        }
        if (!phase) {
            if (wt_rng_below(&r, 6) == 0) sched_start_cta(&s, m, &r, &next_age, &next_cta, now);
            /* states move on */
            for (int w = 0; w < max_warps; w++) {
                if (!m->live[w] || wt_rng_below(&r, 4)) continue;
                m->stalled[w] = wt_rng_below(&r, 3) == 0;
                m->long_wait[w] = wt_rng_below(&r, 4) == 0;
                m->waiting[w] = wt_rng_below(&r, 8) == 0;
                m->marked[w] = wt_rng_below(&r, 4) == 0;
                m->crit[w] = (int64_t)wt_rng_below(&r, 200) - 100;
            }
            if (wt_rng_below(&r, 20) == 0) { /* the CTA scheduler pauses or resumes a CTA */
                int cs = (int)wt_rng_below(&r, (uint64_t)max_warps);
                bool pause = wt_rng_below(&r, 2);
                for (int w = 0; w < max_warps; w++)
                    if (m->live[w] && m->v[w].cta_slot == cs) m->v[w].paused = pause;
            }
            /* L1D events of the warps' accesses */
            for (int e = (int)wt_rng_below(&r, 3); e > 0 && o->on_l1_event; e--) {
                int w = (int)wt_rng_below(&r, (uint64_t)max_warps);
                uint8_t kind = (uint8_t)wt_rng_below(&r, 3);
                if (kind != L1E_EVICT && !m->live[w]) continue;
                l1_event ev = {kind, w, wt_rng_below(&r, 48) * 128, (uint32_t)wt_rng_below(&r, 64),
                               now};
                o->on_l1_event(ph_sched_sm_of(&s, w), &ev);
            }
        }
        int live_total = 0;
        for (int w = 0; w < max_warps; w++)
            live_total += m->live[w];
        for (int i = 0; i < nsched; i++) {
            int k = (int)((uint64_t)i + now) % nsched;
            void *self = s.self[k];
            const warp_view *ready[SW], *paused[SW];
            int n = 0, np = 0;
            for (int w = k; w < max_warps; w += nsched) {
                if (!m->live[w]) continue;
                if (o->priority) {
                    int rank = o->priority(self, w);
                    if (rank < 0 || rank >= live_total)
                        fail_msg("%s: warp %d ranked %d of %d live warps", what, w, rank,
                                 live_total);
                    log_put(rec, rank);
                }
                if (!phase && (m->stalled[w] || m->long_wait[w] || wt_rng_below(&r, 2))) continue;
                if (m->v[w].cls == IC_LD_GLOBAL && o->may_issue_load) {
                    bool may = o->may_issue_load(self, w);
                    log_put(rec, may);
                    if (!may) continue;
                }
                if (m->v[w].paused)
                    paused[np++] = &m->v[w];
                else
                    ready[n++] = &m->v[w];
            }
            const warp_view *const *list = n ? ready : paused;
            if (!n) n = np;
            if (!n) continue;
            int pick = o->pick(self, list, n, now);
            log_put(rec, pick);
            if (pick < -1 || pick >= n)
                fail_msg("%s, cycle %llu: pick %d of %d ready warps", what, (unsigned long long)now,
                         pick, n);
            if (pick < 0) {
                if (phase && !o->retry_declined)
                    fail_msg("%s, cycle %llu: every live warp of scheduler %d is ready (%d) and "
                             "none waits, and it declines without retry_declined",
                             what, (unsigned long long)now, k, n);
                continue;
            }
            issued[k]++;
            sched_issue(&s, m, &r, list[pick]->slot, now, phase);
        }
        if (phase && cyc % block == block - 1)
            for (int k = 0; k < nsched; k++)
                if (live_in_phase[k] && !issued[k])
                    fail_msg("%s: scheduler %d issued nothing in %d cycles while its %d live "
                             "warps were all ready",
                             what, k, max_warps + 2, live_in_phase[k]);
    }
    /* the statistics of every instance, into the same sums */
    collected c;
    collected_init(&c);
    if (o->collect)
        for (int k = 0; k < nsched; k++) {
            o->collect(s.self[k], c.zero);
            o->collect(s.self[k], c.base);
        }
    if (o->finish) {
        o->finish(c.zero);
        o->finish(c.base);
    }
    collected_check(what, &c, o->nmetrics, o->finish != NULL, rec);
    /* the oracle a scheduler asks for comes from a registered scheduler that needs none */
    if (o->profile_policy) {
        const char *by = o->profile_policy(s.p);
        if (by) {
            const sched_ops *prof = sched_policy_find(by);
            if (!prof) fail_msg("%s: profile from %s, no scheduler", what, by);
            if (prof->profile_policy && prof->profile_policy(s.p))
                fail_msg("%s: profile from %s, which wants a profile itself", what, by);
        }
    }
    ph_sched_sm_free(&s);
    free(m);
    return 0;
}

/* Every scheduler, every variant, over SMs of several shapes: each run and its replay. */
static void test_sched_random_rounds(void **state)
{
    (void)state;
    static const int shapes[][2] = {{48, 2}, {64, 4}, {7, 2}, {8, 1}};
    variant *vs = calloc(MAX_VARIANTS, sizeof *vs);
    assert_non_null(vs);
    for (size_t i = 0; sched_policies[i]; i++) {
        const sched_ops *o = sched_policies[i];
        size_t nv = variants_of(o->params, o->nparams, vs), refused = 0;
        for (size_t v = 0; v < nv; v++) {
            const char *sets[2];
            variant_sets(vs[v], sets);
            /* the defaults on every shape, the variants on two */
            for (size_t sh = 0; sh < (v ? 2 : sizeof shapes / sizeof shapes[0]); sh++) {
                uint64_t seed = 1 + 31 * v + sh;
                run_log a = {0}, b = {0};
                char err[512] = "";
                int rc = sched_run(o->name, sets, shapes[sh][0], shapes[sh][1], seed, SCHED_CYCLES,
                                   &a, err, sizeof err);
                if (rc != 0) {
                    if (!v) fail_msg("%s with its defaults: create: %s", o->name, err);
                    if (!err[0])
                        fail_msg("%s [%s]: create refused without a message", o->name, vs[v]);
                    print_message("  %s refused: %s\n", vs[v], err);
                    refused++;
                    break;
                }
                assert_int_equal(sched_run(o->name, sets, shapes[sh][0], shapes[sh][1], seed,
                                           SCHED_CYCLES, &b, err, sizeof err),
                                 0);
                char what[256];
                snprintf(what, sizeof what, "%s [%s], %d warps", o->name, vs[v][0] ? vs[v] : "",
                         shapes[sh][0]);
                check_replay(what, &a, &b);
                log_free(&a);
                log_free(&b);
            }
        }
        print_message("%-17s %zu configurations (%zu refused by create)\n", o->name, nv, refused);
    }
    free(vs);
}

/* A lone ready warp in slot 0 issues at once, whatever the scheduler. */
static void test_sched_lone_warp(void **state)
{
    (void)state;
    for (size_t i = 0; sched_policies[i]; i++) {
        sm_mock *m = calloc(1, sizeof *m);
        assert_non_null(m);
        m->max_warps = 48;
        m->nsched = 2;
        warp_stalls stalls = {m, mock_stalled, mock_long_wait, mock_waiting, mock_marked};
        warp_criticality crit = {m, mock_crit};
        ph_sched_sm s;
        char err[512];
        if (ph_sched_sm_try(&s, sched_policies[i]->name, 48, 2, &crit, &stalls, 1, NULL, err,
                            sizeof err) != 0)
            fail_msg("%s: %s", sched_policies[i]->name, err);
        m->live[0] = true;
        m->v[0] = (warp_view){.slot = 0, .cls = IC_INT};
        if (s.ops->on_warp_start) s.ops->on_warp_start(s.self[0], &m->v[0], 0);
        if (s.ops->on_cycles) s.ops->on_cycles(s.self[0], 0, 1);
        const warp_view *ready[] = {&m->v[0]};
        if (s.ops->pick(s.self[0], ready, 1, 1) != 0)
            fail_msg("%s: a lone ready warp does not issue", sched_policies[i]->name);
        ph_sched_sm_free(&s);
        free(m);
    }
}

/* The warps of the highest slots are live and every cycle all of them are ready and none waits
 * (the other slots hold no warp): a scheduler issues at once, or, one with retry_declined (whose
 * pool may start among the empty slots), within as many cycles as the SM has warp slots. */
static void test_sched_all_ready_issues(void **state)
{
    (void)state;
    static const int shapes[][2] = {{64, 1}, {48, 2}};
    for (size_t i = 0; sched_policies[i]; i++) {
        const sched_ops *o = sched_policies[i];
        for (size_t sh = 0; sh < 2; sh++) {
            int max_warps = shapes[sh][0], nsched = shapes[sh][1];
            sm_mock *m = calloc(1, sizeof *m);
            assert_non_null(m);
            m->max_warps = max_warps;
            m->nsched = nsched;
            warp_stalls stalls = {m, mock_stalled, mock_long_wait, mock_waiting, mock_marked};
            warp_criticality crit = {m, mock_crit};
            ph_sched_sm s;
            char err[512];
            if (ph_sched_sm_try(&s, o->name, max_warps, nsched, &crit, &stalls, 1, NULL, err,
                                sizeof err) != 0)
                fail_msg("%s: %s", o->name, err);
            for (int w = max_warps - 8; w < max_warps; w++) {
                m->live[w] = true;
                m->v[w] = (warp_view){.slot = w, .age = (uint64_t)w, .cls = IC_INT};
                if (o->on_warp_start) o->on_warp_start(ph_sched_sm_of(&s, w), &m->v[w], 0);
            }
            int first[PH_MAX_SCHEDULERS] = {0};
            for (uint64_t now = 1; now <= (uint64_t)max_warps; now++) {
                if (o->on_cycles)
                    for (int k = 0; k < nsched; k++)
                        o->on_cycles(s.self[k], now - 1, now);
                for (int k = 0; k < nsched; k++) {
                    const warp_view *ready[SW];
                    int n = 0;
                    for (int w = k; w < max_warps; w += nsched)
                        if (m->live[w]) ready[n++] = &m->v[w];
                    int pick = o->pick(s.self[k], ready, n, now);
                    assert_in_range(pick + 1, 0, n);
                    if (pick >= 0 && !first[k]) first[k] = (int)now;
                    if (pick >= 0 && o->on_issue) o->on_issue(s.self[k], ready[pick], now);
                }
            }
            for (int k = 0; k < nsched; k++) {
                if (!first[k])
                    fail_msg("%s, %d warps, %d schedulers: scheduler %d issued nothing in %d "
                             "cycles",
                             o->name, max_warps, nsched, k, max_warps);
                if (first[k] != 1 && !o->retry_declined)
                    fail_msg("%s, %d warps: scheduler %d declined %d cycles without "
                             "retry_declined",
                             o->name, max_warps, k, first[k] - 1);
            }
            print_message("%-17s %d warps, %d schedulers: first issue at cycle %d\n", o->name,
                          max_warps, nsched, first[0]);
            ph_sched_sm_free(&s);
            free(m);
        }
    }
}

/* -------------------------------------------------------------- L1D policies ---- */

/* The policy under test, and its operations with each call checked before it is passed on. */
static const l1_policy_ops *checked;
static l1_policy_ops checking;
static run_log *checking_log;
static struct {
    uint64_t ways, bypasses, stalls, fills, hits, evicts;
} seen;

/* A hook's way: one of the set's; for on_fill and on_hit (r given) the way holds r's line,
 * valid or reserved (with l1d.recency=miss the insertion and a merge's promotion come while it
 * is reserved); for on_evict a valid line. */
static void check_way(const char *hook, const l1_set_view *s, int way, const l1_request *r)
{
    if (way < 0 || way >= s->ways)
        fail_msg("%s: %s of way %d, set %d of %d ways", checked->name, hook, way, s->set, s->ways);
    if (r && (s->tags[way] != r->line_addr || !(s->valid[way] || s->reserved[way])))
        fail_msg("%s: %s of way %d of set %d, which holds %#llx (valid %d, reserved %d), not the "
                 "line %#llx",
                 checked->name, hook, way, s->set, (unsigned long long)s->tags[way], s->valid[way],
                 s->reserved[way], (unsigned long long)r->line_addr);
    if (!r && !s->valid[way])
        fail_msg("%s: %s of way %d of set %d, not valid", checked->name, hook, way, s->set);
}

static int checked_victim(void *self, const l1_request *r, const l1_set_view *s)
{
    int unreserved = 0;
    for (int w = 0; w < s->ways; w++)
        unreserved += !s->reserved[w];
    if (!unreserved) fail_msg("%s: victim asked in a set with every way reserved", checked->name);
    int way = checked->victim(self, r, s);
    log_put(checking_log, way);
    if (way == L1_BYPASS) {
        seen.bypasses++;
    } else if (way == L1_STALL) {
        seen.stalls++;
    } else {
        if (way < 0 || way >= s->ways || s->reserved[way])
            fail_msg("%s: victim %d in set %d of %d ways: neither an unreserved way, L1_BYPASS "
                     "nor L1_STALL",
                     checked->name, way, s->set, s->ways);
        seen.ways++;
    }
    return way;
}

static void checked_fill(void *self, const l1_request *r, const l1_set_view *s, int way)
{
    check_way("on_fill", s, way, r);
    seen.fills++;
    checked->on_fill(self, r, s, way);
}

static void checked_hit(void *self, const l1_request *r, const l1_set_view *s, int way)
{
    check_way("on_hit", s, way, r);
    seen.hits++;
    checked->on_hit(self, r, s, way);
}

static void checked_evict(void *self, const l1_set_view *s, int way)
{
    check_way("on_evict", s, way, NULL);
    seen.evicts++;
    checked->on_evict(self, s, way);
}

static l1_request random_request(wt_rng *r, uint64_t universe, uint64_t step)
{
    uint64_t hot = universe / 4 ? universe / 4 : 1;
    uint64_t blk = wt_rng_below(r, 2) ? wt_rng_below(r, hot) : wt_rng_below(r, universe);
    bool critical = wt_rng_below(r, 2);
    int div = wt_rng_below(r, 3) == 0 ? 1 : 1 + (int)wt_rng_below(r, 32);
    return (l1_request){blk * PH_LINE,
                        (uint32_t)wt_rng_below(r, 16),
                        (int)wt_rng_below(r, 48),
                        (int)wt_rng_below(r, 48),
                        critical ? 1 + (int)wt_rng_below(r, 100) : 0,
                        critical,
                        div,
                        false,
                        step};
}

/* One run: `steps` accesses and events on a whole L1D of geometry cfg whose l1d.policy is
 * `name` (a policy or an alias) with the overrides in sets, `ops` the policy it resolves to.
 * Returns create's status (its message in err); the outcomes, victims and statistics go to
 * rec. */
static int l1_run(const char *name, const l1_policy_ops *ops, const char *const *sets,
                  l1d_config cfg, uint64_t seed, int steps, run_log *rec, char *err, size_t errlen)
{
    checked = ops;
    checking = *ops;
    checking.victim = checked_victim;
    if (ops->on_fill) checking.on_fill = checked_fill;
    if (ops->on_hit) checking.on_hit = checked_hit;
    if (ops->on_evict) checking.on_evict = checked_evict;
    checking_log = rec;
    ph_l1d f;
    if (ph_l1d_try_ops(&f, name, &checking, cfg, 48, seed, sets, err, errlen) != 0) return -1;
    char what[256];
    snprintf(what, sizeof what, "%s [%s] in %dx%d%s%s, seed %llu", name,
             sets && sets[0] ? sets[0] : "defaults", cfg.sets, cfg.ways, cfg.hash ? " xor" : "",
             cfg.recency_miss ? " recency_miss" : "", (unsigned long long)seed);
    wt_rng r;
    wt_rng_seed(&r, seed * 104729 + 3);
    uint64_t universe = (uint64_t)cfg.sets * (uint64_t)cfg.ways * 3;
    int pend[64], np = 0;
    assert_in_range(cfg.mshrs, 1, 64);
    for (int step = 0; step < steps; step++) {
        uint64_t x = wt_rng_below(&r, 100);
        int mshr = -1, owner = -1, ew = -1;
        uint64_t el = 0;
        if (x < 65) {
            l1_request q = random_request(&r, universe, (uint64_t)step);
            l1_outcome o = l1d_load(f.c, &q, (uint32_t)step, wt_rng_below(&r, 20) != 0, &mshr,
                                    &owner, &ew, &el);
            log_put(rec, o);
            log_put(rec, ew);
            if (o == L1_MISS) {
                assert_in_range(np, 0, cfg.mshrs - 1);
                pend[np++] = mshr;
                log_put(rec, mshr);
            }
            if (o == L1_RESFAIL) log_put(rec, l1d_last_fail(f.c));
        } else if (x < 80 && np) {
            int k = (int)wt_rng_below(&r, (uint64_t)np);
            uint32_t waiters[64];
            uint64_t line;
            log_put(rec, l1d_fill(f.c, pend[k], waiters, &line));
            pend[k] = pend[--np];
            if (wt_rng_below(&r, 2)) { /* a line just filled hits */
                l1_request q = random_request(&r, universe, (uint64_t)step);
                q.line_addr = line;
                l1_outcome o = l1d_load(f.c, &q, (uint32_t)step, 1, &mshr, &owner, &ew, &el);
                if (o != L1_HIT)
                    fail_msg("%s, step %d: line %#llx just filled: %s, not a hit", what, step,
                             (unsigned long long)line, l1_outcome_names[o]);
            }
        } else if (x < 88) {
            log_put(rec, l1d_store(f.c, random_request(&r, universe, 0).line_addr));
        } else if (x < 96) {
            int accesses = 1 + (int)wt_rng_below(&r, 32);
            l1d_load_done(f.c, (int)wt_rng_below(&r, 48), (int)wt_rng_below(&r, 48), accesses,
                          (int)wt_rng_below(&r, (uint64_t)accesses + 1));
        } else if (np == 0) {
            assert_int_equal(l1d_invalidate(f.c), 0);
        }
    }
    while (np) {
        uint32_t waiters[64];
        uint64_t line;
        l1d_fill(f.c, pend[--np], waiters, &line);
    }
    collected c;
    collected_init(&c);
    l1d_collect(f.c, c.zero);
    l1d_collect(f.c, c.base);
    if (ops->finish) {
        ops->finish(c.zero);
        ops->finish(c.base);
    }
    collected_check(what, &c, ops->nmetrics, ops->finish != NULL, rec);
    ph_l1d_free(&f);
    return 0;
}

/* The geometries: a single set, xor indexing, the default 8 x 16, DaCache's 32 x 8, and the
 * insertion at the miss (l1d.recency=miss). */
static const l1d_config l1_shapes[] = {
    {1, 4, PH_LINE, 0, 4, 4, 0, 0, 0},   {4, 8, PH_LINE, 1, 8, 4, 0, 0, 0},
    {8, 16, PH_LINE, 0, 32, 8, 0, 0, 0}, {32, 8, PH_LINE, 1, 32, 8, 0, 0, 0},
    {4, 8, PH_LINE, 0, 8, 4, 0, 1, 0},
};

/* Policy `name` (a policy or alias standing for ops) with the overrides of vs, each on the
 * shapes given, run and replayed. Returns how many variants create refused. */
static size_t l1_check(const char *name, const l1_policy_ops *ops, const variant *vs, size_t nv)
{
    size_t refused = 0;
    for (size_t v = 0; v < nv; v++) {
        const char *sets[2];
        variant_sets(vs[v], sets);
        size_t nshapes = v ? 2 : sizeof l1_shapes / sizeof l1_shapes[0];
        for (size_t sh = 0; sh < nshapes; sh++) {
            /* the variants on the 4 x 8 shapes, with and without the insertion at the miss */
            l1d_config cfg = l1_shapes[v ? 1 + 3 * sh : sh];
            uint64_t seed = 11 + 17 * v + sh;
            run_log a = {0}, b = {0};
            char err[512] = "";
            if (l1_run(name, ops, sets, cfg, seed, L1_STEPS, &a, err, sizeof err) != 0) {
                if (!v) fail_msg("%s with its defaults: create: %s", name, err);
                if (!err[0]) fail_msg("%s [%s]: create refused without a message", name, vs[v]);
                print_message("  %s [%s] refused: %s\n", name, vs[v], err);
                refused++;
                log_free(&a);
                break;
            }
            assert_int_equal(l1_run(name, ops, sets, cfg, seed, L1_STEPS, &b, err, sizeof err), 0);
            char what[256];
            snprintf(what, sizeof what, "%s [%s] in %dx%d", name, vs[v], cfg.sets, cfg.ways);
            check_replay(what, &a, &b);
            log_free(&a);
            log_free(&b);
        }
    }
    return refused;
}

static void test_l1_random_streams(void **state)
{
    (void)state;
    variant *vs = calloc(MAX_VARIANTS, sizeof *vs);
    assert_non_null(vs);
    for (size_t i = 0; l1_policies[i]; i++) {
        const l1_policy_ops *o = l1_policies[i];
        memset(&seen, 0, sizeof seen);
        size_t nv = variants_of(o->params, o->nparams, vs);
        size_t refused = l1_check(o->name, o, vs, nv);
        print_message("%-8s %zu configurations (%zu refused by create): %llu ways, %llu bypasses, "
                      "%llu stalls, %llu fills, %llu hits, %llu evictions\n",
                      o->name, nv, refused, (unsigned long long)seen.ways,
                      (unsigned long long)seen.bypasses, (unsigned long long)seen.stalls,
                      (unsigned long long)seen.fills, (unsigned long long)seen.hits,
                      (unsigned long long)seen.evicts);
        /* the runs reached every hook the policy has */
        if (!seen.ways) fail_msg("%s never allocated", o->name);
        if (o->on_fill && !seen.fills) fail_msg("%s: on_fill never called", o->name);
        if (o->on_hit && !seen.hits) fail_msg("%s: on_hit never called", o->name);
        if (o->on_evict && !seen.evicts) fail_msg("%s: on_evict never called", o->name);
    }
    /* the aliases, with their defaults */
    for (size_t k = 0; policy_choice_aliases[k].param; k++) {
        const param_alias *a = &policy_choice_aliases[k];
        const l1_policy_ops *o = l1_policy_find(a->choice);
        assert_non_null(o);
        vs[0][0] = '\0';
        l1_check(a->name, o, vs, 1);
    }
    free(vs);
}

/* ------------------------------------------------------------ CTA schedulers ---- */

/* One run: `steps` kernel starts and samples of `sms` SMs under CTA scheduler `name` with the
 * overrides in sets. Returns create's status (its message in err); the limits go to rec. */
static int cta_run(const char *name, const char *const *sets, int sms, uint64_t seed, int steps,
                   run_log *rec, char *err, size_t errlen)
{
    ph_cta c;
    if (ph_cta_try(&c, name, (cta_env){sms, NULL}, seed, sets, err, errlen) != 0) return -1;
    const cta_ops *o = c.ops;
    char what[256];
    snprintf(what, sizeof what, "%s [%s] on %d SMs, seed %llu", name,
             sets && sets[0] ? sets[0] : "defaults", sms, (unsigned long long)seed);
    wt_rng r;
    wt_rng_seed(&r, seed * 65537 + 5);
    uint32_t period = o->period ? o->period(c.self) : 0;
    int n_max = 1;
    uint64_t now = 0;
    /* a kernel whose resources allow one CTA: one everywhere */
    if (o->on_kernel_start) o->on_kernel_start(c.self, 1);
    for (int sm = 0; sm < sms; sm++)
        if (o->limit(c.self, sm) != 1)
            fail_msg("%s: N = 1 but SM %d may hold %d CTAs", what, sm, o->limit(c.self, sm));
    for (int step = 0; step < steps; step++) {
        if (step == 0 || wt_rng_below(&r, 25) == 0) {
            n_max = wt_rng_below(&r, 4) == 0 ? 1 : 1 + (int)wt_rng_below(&r, 32);
            if (o->on_kernel_start) o->on_kernel_start(c.self, n_max);
            log_put(rec, -n_max);
        } else if (period && o->on_sample) {
            int sm = (int)wt_rng_below(&r, (uint64_t)sms);
            uint32_t span = period < 100000 ? period : 100000;
            cta_sample smp = {(uint32_t)wt_rng_below(&r, (uint64_t)span + 1),
                              (uint32_t)wt_rng_below(&r, (uint64_t)span + 1),
                              (int)wt_rng_below(&r, (uint64_t)n_max + 1)};
            if (wt_rng_below(&r, 4) == 0) smp.c_idle = 0;
            if (wt_rng_below(&r, 4) == 0) smp.c_mem = span;
            now += period;
            o->on_sample(c.self, sm, &smp, now);
        }
        for (int sm = 0; sm < sms; sm++) {
            int lim = o->limit(c.self, sm);
            if (lim < 1 || lim > n_max)
                fail_msg("%s, step %d: SM %d may hold %d CTAs, N = %d", what, step, sm, lim, n_max);
            log_put(rec, lim);
        }
        uint32_t again = o->period ? o->period(c.self) : 0;
        if (again != period)
            fail_msg("%s, step %d: period %u, was %u", what, step, (unsigned)again,
                     (unsigned)period);
    }
    collected cs;
    collected_init(&cs);
    if (o->collect) {
        o->collect(c.self, cs.zero);
        o->collect(c.self, cs.base);
    }
    if (o->finish) {
        o->finish(cs.zero);
        o->finish(cs.base);
    }
    collected_check(what, &cs, o->nmetrics, o->finish != NULL, rec);
    ph_cta_free(&c);
    return 0;
}

static void test_cta_random_samples(void **state)
{
    (void)state;
    static const int sms[] = {1, 4, 15};
    variant *vs = calloc(MAX_VARIANTS, sizeof *vs);
    assert_non_null(vs);
    for (size_t i = 0; cta_policies[i]; i++) {
        const cta_ops *o = cta_policies[i];
        size_t nv = variants_of(o->params, o->nparams, vs), refused = 0;
        for (size_t v = 0; v < nv; v++) {
            const char *sets[2];
            variant_sets(vs[v], sets);
            for (size_t k = 0; k < sizeof sms / sizeof sms[0]; k++) {
                uint64_t seed = 5 + 13 * v + k;
                run_log a = {0}, b = {0};
                char err[512] = "";
                if (cta_run(o->name, sets, sms[k], seed, CTA_STEPS, &a, err, sizeof err) != 0) {
                    if (!v) fail_msg("%s with its defaults: create: %s", o->name, err);
                    if (!err[0])
                        fail_msg("%s [%s]: create refused without a message", o->name, vs[v]);
                    print_message("  %s refused: %s\n", vs[v], err);
                    refused++;
                    break;
                }
                assert_int_equal(
                    cta_run(o->name, sets, sms[k], seed, CTA_STEPS, &b, err, sizeof err), 0);
                char what[256];
                snprintf(what, sizeof what, "%s [%s] on %d SMs", o->name, vs[v], sms[k]);
                check_replay(what, &a, &b);
                log_free(&a);
                log_free(&b);
            }
        }
        print_message("%-13s %zu configurations (%zu refused by create)\n", o->name, nv, refused);
    }
    free(vs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_all),          cmocka_unit_test(test_names_and_docs),
        cmocka_unit_test(test_parameters),          cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_sched_lone_warp),     cmocka_unit_test(test_sched_all_ready_issues),
        cmocka_unit_test(test_sched_random_rounds), cmocka_unit_test(test_l1_random_streams),
        cmocka_unit_test(test_cta_random_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
