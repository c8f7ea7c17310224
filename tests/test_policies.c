/* Tests of the policy registry and of the baseline policies: LRR and GTO warp scheduling, LRU
 * victim selection, the max-TLP CTA limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/catalog.h"
#include "core/params.h"
#include "core/policy.h"
#include "core/rng.h"
#include "policies/registry.h"

/* ---------------------------------------------------------------- registry ---- */

static size_t count_names(const char *const *names)
{
    size_t n = 0;
    while (names[n])
        n++;
    return n;
}

static void check_params(const char *policy, const param_def *params, size_t nparams)
{
    if (nparams) assert_non_null(params);
    for (size_t i = 0; i < nparams; i++) {
        if (param_lookup(params[i].name) < 0)
            fail_msg("policy %s: parameter %s not registered", policy, params[i].name);
        /* a policy's parameters are named after it */
        if (strncmp(params[i].name, policy, strlen(policy)) != 0 ||
            params[i].name[strlen(policy)] != '.')
            fail_msg("policy %s: parameter %s outside its namespace", policy, params[i].name);
    }
}

static void test_registry_tables(void **state)
{
    (void)state;
    size_t ns = count_names(sched_policy_names);
    size_t nl = count_names(l1_policy_names);
    size_t nc = count_names(cta_policy_names);
    assert_true(ns >= 2 && nl >= 1 && nc >= 1);
    for (size_t i = 0; i < ns; i++) {
        const sched_ops *o = sched_policies[i];
        assert_non_null(o);
        assert_string_equal(o->name, sched_policy_names[i]);
        assert_ptr_equal(sched_policy_find(o->name), o);
        assert_non_null(o->doc);
        assert_non_null(o->create);
        assert_non_null(o->destroy);
        assert_non_null(o->pick);
        check_params(o->name, o->params, o->nparams);
    }
    assert_null(sched_policies[ns]);
    for (size_t i = 0; i < nl; i++) {
        const l1_policy_ops *o = l1_policies[i];
        assert_non_null(o);
        assert_string_equal(o->name, l1_policy_names[i]);
        assert_ptr_equal(l1_policy_find(o->name), o);
        assert_non_null(o->doc);
        assert_non_null(o->create);
        assert_non_null(o->destroy);
        assert_non_null(o->victim);
        check_params(o->name, o->params, o->nparams);
    }
    assert_null(l1_policies[nl]);
    for (size_t i = 0; i < nc; i++) {
        const cta_ops *o = cta_policies[i];
        assert_non_null(o);
        assert_string_equal(o->name, cta_policy_names[i]);
        assert_ptr_equal(cta_policy_find(o->name), o);
        assert_non_null(o->doc);
        assert_non_null(o->create);
        assert_non_null(o->destroy);
        assert_non_null(o->limit);
        check_params(o->name, o->params, o->nparams);
    }
    assert_null(cta_policies[nc]);
    assert_null(sched_policy_find("nope"));
    assert_null(l1_policy_find("nope"));
    assert_null(cta_policy_find("nope"));
    assert_null(sched_policy_find(""));
    assert_non_null(sched_policy_find("lrr"));
    assert_non_null(sched_policy_find("gto"));
    assert_non_null(l1_policy_find("lru"));
    assert_non_null(cta_policy_find("max_tlp"));

    /* one parameter group per policy, in table order */
    assert_int_equal(policy_param_group_count(), ns + nl + nc);
    for (size_t i = 0; i < ns + nl + nc; i++) {
        param_group g = policy_param_group(i);
        const char *want = i < ns        ? sched_policy_names[i]
                           : i < ns + nl ? l1_policy_names[i - ns]
                                         : cta_policy_names[i - ns - nl];
        assert_string_equal(g.name, want);
    }
}

/* Every policy can be created with default parameters and destroyed. */
static void test_create_all(void **state)
{
    (void)state;
    param_set *p = param_set_new();
    wt_rng rng;
    wt_rng_seed(&rng, 3);
    char err[256];
    for (size_t i = 0; sched_policies[i]; i++) {
        sched_env env = {0, 0, 48, 2, &rng, NULL, NULL, NULL};
        void *self = NULL;
        assert_int_equal(sched_policies[i]->create(&self, &env, p, err, sizeof err), 0);
        sched_policies[i]->destroy(self);
    }
    for (size_t i = 0; l1_policies[i]; i++) {
        l1_env env = {{8, 16, 128}, 0, 48, &rng};
        void *self = NULL;
        assert_int_equal(l1_policies[i]->create(&self, &env, p, err, sizeof err), 0);
        l1_policies[i]->destroy(self);
    }
    for (size_t i = 0; cta_policies[i]; i++) {
        cta_env env = {15, &rng};
        void *self = NULL;
        assert_int_equal(cta_policies[i]->create(&self, &env, p, err, sizeof err), 0);
        cta_policies[i]->destroy(self);
    }
    param_set_free(p);
}

/* ---------------------------------------------------------- warp schedulers ---- */

typedef struct sched {
    const sched_ops *ops;
    void *self;
    param_set *p;
    wt_rng rng;
} sched;

static void sched_make(sched *s, const char *name)
{
    s->ops = sched_policy_find(name);
    assert_non_null(s->ops);
    s->p = param_set_new();
    wt_rng_seed(&s->rng, 5);
    sched_env env = {0, 0, 48, 1, &s->rng, NULL, NULL, NULL};
    char err[256];
    assert_int_equal(s->ops->create(&s->self, &env, s->p, err, sizeof err), 0);
}

static void sched_free(sched *s)
{
    s->ops->destroy(s->self);
    param_set_free(s->p);
}

/* Builds a ready list from slots (ascending) with the given ages; returns the picked slot and
 * reports the issue as the SM does. */
static int pick(sched *s, const int *slots, const uint64_t *ages, int n, uint64_t now)
{
    warp_view v[64];
    memset(v, 0, sizeof v);
    for (int i = 0; i < n; i++) {
        v[i].slot = slots[i];
        v[i].warp_in_cta = slots[i] % 4;
        v[i].age = ages ? ages[i] : (uint64_t)slots[i];
    }
    const warp_view *list[64];
    for (int i = 0; i < n; i++)
        list[i] = &v[i];
    int k = s->ops->pick(s->self, list, n, now);
    assert_true(k >= 0 && k < n);
    if (s->ops->on_issue) s->ops->on_issue(s->self, &v[k], now);
    return v[k].slot;
}

static void test_lrr(void **state)
{
    (void)state;
    sched s;
    sched_make(&s, "lrr");
    const int all[] = {0, 1, 2, 3};
    /* everyone ready: strict turns, wrapping */
    for (int round = 0; round < 3; round++)
        for (int w = 0; w < 4; w++)
            assert_int_equal(pick(&s, all, NULL, 4, 0), w);
    /* last issuer was 3: the first ready slot after it, then wrap to the lowest */
    const int some[] = {0, 2, 5};
    assert_int_equal(pick(&s, some, NULL, 3, 0), 5);
    assert_int_equal(pick(&s, some, NULL, 3, 0), 0);
    assert_int_equal(pick(&s, some, NULL, 3, 0), 2);
    /* warps that cannot issue pass their turn to the next in slot order */
    const int late[] = {1, 3, 5, 7};
    assert_int_equal(pick(&s, late, NULL, 4, 0), 3);
    assert_int_equal(pick(&s, late, NULL, 4, 0), 5);
    const int low[] = {1, 2};
    assert_int_equal(pick(&s, low, NULL, 2, 0), 1); /* nothing after 5: wrap */
    const int one[] = {1};
    assert_int_equal(pick(&s, one, NULL, 1, 0), 1); /* the only ready warp, even if last */
    assert_int_equal(pick(&s, one, NULL, 1, 0), 1);
    const int two[] = {0, 1};
    assert_int_equal(pick(&s, two, NULL, 2, 0), 0);
    /* ages do not matter to LRR */
    const uint64_t ages[] = {9, 1, 5};
    const int three[] = {4, 6, 9};
    assert_int_equal(pick(&s, three, ages, 3, 0), 4);
    sched_free(&s);

    /* property: over random ready sets, LRR picks the first ready slot after the last pick,
     * else the first ready slot */
    sched_make(&s, "lrr");
    wt_rng rng;
    wt_rng_seed(&rng, 11);
    int last = -1;
    for (int it = 0; it < 5000; it++) {
        int slots[48], n = 0;
        uint64_t bits = wt_rng_next(&rng);
        for (int w = 0; w < 48; w++)
            if (bits >> w & 1) slots[n++] = w;
        if (n == 0) continue;
        int want = slots[0];
        for (int i = 0; i < n; i++)
            if (slots[i] > last) {
                want = slots[i];
                break;
            }
        assert_int_equal(pick(&s, slots, NULL, n, (uint64_t)it), want);
        last = want;
    }
    sched_free(&s);
}

static void test_gto(void **state)
{
    (void)state;
    sched s;
    sched_make(&s, "gto");
    /* slots 0..3 with ages: slot 2 is the oldest, then 0, 3, 1 */
    const int all[] = {0, 1, 2, 3};
    const uint64_t ages[] = {10, 40, 5, 20};
    assert_int_equal(pick(&s, all, ages, 4, 0), 2); /* oldest */
    assert_int_equal(pick(&s, all, ages, 4, 1), 2); /* greedy */
    assert_int_equal(pick(&s, all, ages, 4, 2), 2);
    /* 2 stalls: the oldest of the rest */
    const int no2[] = {0, 1, 3};
    const uint64_t ages_no2[] = {10, 40, 20};
    assert_int_equal(pick(&s, no2, ages_no2, 3, 3), 0);
    /* 2 is ready again but 0 is now the greedy warp, and stays so while ready */
    assert_int_equal(pick(&s, all, ages, 4, 4), 0);
    assert_int_equal(pick(&s, all, ages, 4, 5), 0);
    /* 0 stalls: back to the oldest, 2 */
    const int no0[] = {1, 2, 3};
    const uint64_t ages_no0[] = {40, 5, 20};
    assert_int_equal(pick(&s, no0, ages_no0, 3, 6), 2);
    /* only the youngest is ready: it becomes greedy */
    const int just1[] = {1};
    const uint64_t age1[] = {40};
    assert_int_equal(pick(&s, just1, age1, 1, 7), 1);
    assert_int_equal(pick(&s, all, ages, 4, 8), 1);
    /* age, not slot order, decides: the oldest is in the highest slot */
    sched_free(&s);
    sched_make(&s, "gto");
    const int slots[] = {3, 7, 11};
    const uint64_t rev[] = {30, 20, 10};
    assert_int_equal(pick(&s, slots, rev, 3, 0), 11);
    assert_int_equal(pick(&s, slots, rev, 3, 1), 11);
    sched_free(&s);

    /* property: the greedy warp while it is ready, else the oldest ready warp */
    sched_make(&s, "gto");
    wt_rng rng;
    wt_rng_seed(&rng, 12);
    uint64_t age[48];
    for (int w = 0; w < 48; w++)
        age[w] = wt_rng_below(&rng, 1000) * 48 + (uint64_t)w; /* distinct */
    int greedy = -1, kept = 0, switched = 0;
    for (int it = 0; it < 5000; it++) {
        int sl[48], n = 0;
        uint64_t ag[48];
        uint64_t bits = wt_rng_next(&rng) & wt_rng_next(&rng); /* about a quarter ready */
        for (int w = 0; w < 48; w++)
            if (bits >> w & 1) {
                sl[n] = w;
                ag[n++] = age[w];
            }
        if (n == 0) continue;
        int want = -1;
        for (int i = 0; i < n; i++)
            if (sl[i] == greedy) want = greedy;
        if (want < 0) {
            want = sl[0];
            for (int i = 1; i < n; i++)
                if (age[sl[i]] < age[want]) want = sl[i];
            switched++;
        } else {
            kept++;
        }
        assert_int_equal(pick(&s, sl, ag, n, (uint64_t)it), want);
        greedy = want;
    }
    assert_true(kept > 100 && switched > 100);
    sched_free(&s);
}

/* ---------------------------------------------------------------- LRU ---- */

typedef struct lru_fixture {
    const l1_policy_ops *ops;
    void *self;
    param_set *p;
    wt_rng rng;
    uint8_t valid[16], reserved[16];
    uint64_t tags[16];
    uint8_t state[16 * 16];
    l1_set_view v;
} lru_fixture;

static void lru_make(lru_fixture *f, int ways)
{
    memset(f, 0, sizeof *f);
    f->ops = l1_policy_find("lru");
    assert_non_null(f->ops);
    assert_true(f->ops->line_state_bytes <= 16);
    f->p = param_set_new();
    wt_rng_seed(&f->rng, 8);
    l1_env env = {{1, ways, 128}, 0, 48, &f->rng};
    char err[256];
    assert_int_equal(f->ops->create(&f->self, &env, f->p, err, sizeof err), 0);
    f->v = (l1_set_view){0, ways, f->valid, f->reserved, f->tags, f->state};
}

static void lru_free(lru_fixture *f)
{
    f->ops->destroy(f->self);
    param_set_free(f->p);
}

static int victim(lru_fixture *f)
{
    l1_request r = {0};
    int w = f->ops->victim(f->self, &r, &f->v);
    assert_true(w >= 0 && w < f->v.ways);
    assert_false(f->reserved[w]);
    return w;
}

/* Fills way w (it must be chosen and reserved first, as the cache does). */
static void fill(lru_fixture *f, int w)
{
    l1_request r = {0};
    f->reserved[w] = 0;
    f->valid[w] = 1;
    f->ops->on_fill(f->self, &r, &f->v, w);
}

static void touch(lru_fixture *f, int w)
{
    l1_request r = {0};
    f->ops->on_hit(f->self, &r, &f->v, w);
}

static void test_lru_victim(void **state)
{
    (void)state;
    lru_fixture f;
    lru_make(&f, 4);
    /* empty set: free ways in order */
    for (int w = 0; w < 4; w++) {
        assert_int_equal(victim(&f), w);
        f.reserved[w] = 1;
    }
    /* fills in the order 2, 0, 3, 1: LRU order is that order */
    fill(&f, 2);
    fill(&f, 0);
    fill(&f, 3);
    fill(&f, 1);
    assert_int_equal(victim(&f), 2);
    touch(&f, 2); /* 0 3 1 2 */
    assert_int_equal(victim(&f), 0);
    touch(&f, 3); /* 0 1 2 3 */
    touch(&f, 0); /* 1 2 3 0 */
    assert_int_equal(victim(&f), 1);
    /* the LRU way reserved (a miss to it in flight): the next least recent */
    f.reserved[1] = 1;
    f.valid[1] = 0;
    assert_int_equal(victim(&f), 2);
    f.reserved[2] = 1;
    f.valid[2] = 0;
    assert_int_equal(victim(&f), 3);
    f.reserved[3] = 1;
    f.valid[3] = 0;
    assert_int_equal(victim(&f), 0); /* the only unreserved way, even the most recent */
    /* a reserved way is not free even though not valid; an invalid unreserved one is free and
     * goes first, whatever the stamps */
    fill(&f, 1);    /* 0 1 */
    fill(&f, 3);    /* 0 1 3 */
    f.valid[0] = 0; /* dropped by a store */
    assert_int_equal(victim(&f), 0);
    f.valid[0] = 1;
    f.valid[3] = 0;
    assert_int_equal(victim(&f), 3);
    lru_free(&f);

    /* property: random states; the victim is never reserved, the first free way if any, else
     * the least recently used unreserved way */
    lru_make(&f, 8);
    wt_rng rng;
    wt_rng_seed(&rng, 13);
    uint64_t used[8] = {0}, clock = 0;
    int free_cases = 0, lru_cases = 0;
    for (int w = 0; w < 8; w++) {
        f.reserved[w] = 1;
        fill(&f, w);
        used[w] = ++clock;
    }
    for (int it = 0; it < 5000; it++) {
        int w = (int)wt_rng_below(&rng, 8);
        switch (wt_rng_below(&rng, 4)) {
        case 0:
            if (f.valid[w]) {
                touch(&f, w);
                used[w] = ++clock;
            }
            break;
        case 1:
            if (f.reserved[w]) {
                fill(&f, w);
                used[w] = ++clock;
            }
            break;
        case 2:
            if (!f.reserved[w] && wt_rng_below(&rng, 4) == 0) f.valid[w] = 0;
            break;
        default:
            break;
        }
        int unreserved = 0, first_free = -1, lru = -1;
        for (int k = 0; k < 8; k++) {
            if (f.reserved[k]) continue;
            unreserved++;
            if (!f.valid[k] && first_free < 0) first_free = k;
            if (lru < 0 || used[k] < used[lru]) lru = k;
        }
        if (!unreserved) continue;
        int want = first_free >= 0 ? first_free : lru;
        free_cases += first_free >= 0;
        lru_cases += first_free < 0;
        int got = victim(&f);
        if (got != want) fail_msg("step %d: victim %d, expected %d", it, got, want);
        /* allocate it sometimes, as the cache does */
        if (wt_rng_below(&rng, 3) == 0) {
            f.valid[got] = 0;
            f.reserved[got] = 1;
        }
    }
    assert_true(free_cases > 100 && lru_cases > 100);
    lru_free(&f);
}

/* --------------------------------------------------------------- max TLP ---- */

static void test_max_tlp(void **state)
{
    (void)state;
    const cta_ops *o = cta_policy_find("max_tlp");
    assert_non_null(o);
    param_set *p = param_set_new();
    wt_rng rng;
    wt_rng_seed(&rng, 2);
    cta_env env = {15, &rng};
    void *self = NULL;
    char err[256];
    assert_int_equal(o->create(&self, &env, p, err, sizeof err), 0);
    assert_non_null(o->on_kernel_start);
    o->on_kernel_start(self, 6);
    for (int sm = 0; sm < 15; sm++)
        assert_int_equal(o->limit(self, sm), 6);
    if (o->on_sample) {
        cta_sample smp = {1000, 1000, 6};
        o->on_sample(self, 3, &smp, 5000);
        assert_int_equal(o->limit(self, 3), 6);
    }
    assert_true(o->period == NULL || o->period(self) == 0);
    o->on_kernel_start(self, 1); /* a new kernel with other resources */
    for (int sm = 0; sm < 15; sm++)
        assert_int_equal(o->limit(self, sm), 1);
    o->on_kernel_start(self, 32);
    assert_int_equal(o->limit(self, 14), 32);
    o->destroy(self);
    param_set_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_tables),
        cmocka_unit_test(test_create_all),
        cmocka_unit_test(test_lrr),
        cmocka_unit_test(test_gto),
        cmocka_unit_test(test_lru_victim),
        cmocka_unit_test(test_max_tlp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
