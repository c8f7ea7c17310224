/* Tests of the journal: records read back exactly (NaN included), a torn last line ignored and
 * cut off before the next append, a garbled line skipped, an older metric list mapped by name,
 * a file that is not a journal refused, a journal of version 1 (keys over every parameter)
 * replayed by a study resumed on it, and a journal that fills up keeping every record before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/hash.h"
#include "core/workload/workload.h"
#include "explorer/evaluator.h"
#include "explorer/simulate.h"
#include "explorer/journal.h"
#include "explorer/space.h"
#include "tests/support/support.h"

typedef struct seen {
    size_t n;
    uint64_t keys[16];
    int status[16];
    double ipc[16];
    double cycles[16];
    char label[16][32];
    char error[16][64];
} seen;

static void collect(void *ctx, const journal_record *r)
{
    seen *s = ctx;
    if (s->n == 16) return;
    s->keys[s->n] = r->key;
    s->status[s->n] = r->status;
    s->ipc[s->n] = r->m.ipc;
    s->cycles[s->n] = r->m.cycles;
    snprintf(s->label[s->n], sizeof s->label[0], "%s", r->label);
    snprintf(s->error[s->n], sizeof s->error[0], "%s", r->error);
    s->n++;
}

static const char *fresh_path(const char *name)
{
    const char *p = test_write_temp(name, "");
    unlink(p);
    return p;
}

static void write_three(const char *path)
{
    char err[256];
    journal *j = journal_open(path, NULL, NULL, NULL, err, sizeof err);
    assert_non_null(j);
    journal_record r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r.key = 0x1234567890abcdefULL + (uint64_t)i;
        r.status = i == 1 ? SIM_FAILED : SIM_OK;
        r.label = "kmeans";
        r.m.ipc = i == 2 ? NAN : 1.0 / 3.0 + i;
        r.m.cycles = 1000 + i;
        r.error = i == 1 ? "watchdog:\tno progress\nfor 100 cycles" : "";
        assert_int_equal(journal_append(j, &r), 0);
    }
    journal_close(j);
}

static void test_roundtrip(void **state)
{
    (void)state;
    const char *path = fresh_path("j1");
    write_three(path);
    seen s = {0};
    journal_stats st;
    char err[256];
    journal *j = journal_open(path, collect, &s, &st, err, sizeof err);
    assert_non_null(j);
    journal_close(j);
    assert_int_equal(st.replayed, 3);
    assert_int_equal(st.skipped, 0);
    assert_false(st.truncated);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.keys[0], 0x1234567890abcdefULL);
    assert_int_equal(s.keys[2], 0x1234567890abcdf1ULL);
    assert_double_near(s.ipc[0], 1.0 / 3.0, 0); /* exact */
    assert_true(isnan(s.ipc[2]));
    assert_double_near(s.cycles[1], 1001, 0);
    assert_int_equal(s.status[1], SIM_FAILED);
    assert_string_equal(s.error[1], "watchdog: no progress for 100 cycles");
    assert_string_equal(s.label[0], "kmeans");
    unlink(path);
}

typedef struct seen_sampling {
    size_t n;
    double detailed[4], projected[4];
} seen_sampling;

static void collect_sampling(void *ctx, const journal_record *r)
{
    seen_sampling *s = ctx;
    if (s->n == 4) return;
    s->detailed[s->n] = r->m.detailed_warp_insts;
    s->projected[s->n] = r->m.projected_warp_insts;
    s->n++;
}

/* A sampled study's journal keeps what each result projected; a journal without the sampling
 * columns reads 0 (nothing projected), and appending to it keeps its header's columns. */
static void test_sampling_columns(void **state)
{
    (void)state;
    const char *path = fresh_path("js");
    char err[256];
    journal *j = journal_open_sampled(path, NULL, NULL, NULL, err, sizeof err);
    assert_non_null(j);
    journal_record r;
    memset(&r, 0, sizeof r);
    r.key = 1;
    r.status = SIM_OK;
    r.label = "fdtd2d";
    r.error = "";
    r.m.warp_insts = 400;
    r.m.detailed_warp_insts = 100;
    r.m.projected_warp_insts = 300;
    assert_int_equal(journal_append(j, &r), 0);
    journal_close(j);
    size_t len;
    char *text = test_read_file(path, &len);
    assert_non_null(text);
    assert_non_null(strstr(text, ",detailed_warp_insts,projected_warp_insts\n"));
    free(text);
    seen_sampling s = {0};
    /* opened as an unsampled study would: the header decides, the columns stay */
    j = journal_open(path, collect_sampling, &s, NULL, err, sizeof err);
    assert_non_null(j);
    r.key = 2;
    r.m.detailed_warp_insts = 50;
    r.m.projected_warp_insts = 150;
    assert_int_equal(journal_append(j, &r), 0);
    journal_close(j);
    assert_int_equal(s.n, 1);
    assert_double_near(s.detailed[0], 100, 0);
    assert_double_near(s.projected[0], 300, 0);
    memset(&s, 0, sizeof s);
    j = journal_open(path, collect_sampling, &s, NULL, err, sizeof err);
    journal_close(j);
    assert_int_equal(s.n, 2);
    assert_double_near(s.projected[1], 150, 0);
    unlink(path);

    /* an unsampled journal: no such columns, and its records read nothing projected */
    path = fresh_path("ju");
    write_three(path);
    text = test_read_file(path, &len);
    assert_null(strstr(text, "detailed_warp_insts"));
    free(text);
    memset(&s, 0, sizeof s);
    j = journal_open_sampled(path, collect_sampling, &s, NULL, err, sizeof err);
    assert_non_null(j);
    journal_close(j);
    assert_int_equal(s.n, 3);
    assert_double_near(s.detailed[0], 0, 0);
    assert_double_near(s.projected[2], 0, 0);
    unlink(path);
}

static void test_torn_last_line(void **state)
{
    (void)state;
    const char *path = fresh_path("j2");
    write_three(path);
    size_t len;
    char *text = test_read_file(path, &len);
    /* a kill in the middle of the third record: drop its last 20 bytes */
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, len - 20, f);
    fclose(f);
    seen s = {0};
    journal_stats st;
    char err[256];
    journal *j = journal_open(path, collect, &s, &st, err, sizeof err);
    assert_non_null(j);
    assert_int_equal(st.replayed, 2);
    assert_true(st.truncated);
    /* the next append starts on a clean line */
    journal_record r;
    memset(&r, 0, sizeof r);
    r.key = 42;
    r.label = "bfs";
    r.error = "";
    r.m.ipc = 2.5;
    assert_int_equal(journal_append(j, &r), 0);
    journal_close(j);
    seen s2 = {0};
    j = journal_open(path, collect, &s2, &st, err, sizeof err);
    assert_non_null(j);
    journal_close(j);
    assert_int_equal(st.replayed, 3);
    assert_int_equal(st.skipped, 0);
    assert_false(st.truncated);
    assert_int_equal(s2.keys[2], 42);
    assert_double_near(s2.ipc[2], 2.5, 0);
    free(text);
    unlink(path);
}

static void test_garbled_and_torn_header(void **state)
{
    (void)state;
    const char *path = fresh_path("j3");
    write_three(path);
    size_t len;
    char *text = test_read_file(path, &len);
    /* flip a digit inside the second record: its check no longer matches */
    char *second = strchr(strchr(text, '\n') + 1, '\n') + 1;
    second[3] = second[3] == '0' ? '1' : '0';
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, len, f);
    fclose(f);
    seen s = {0};
    journal_stats st;
    char err[256];
    journal *j = journal_open(path, collect, &s, &st, err, sizeof err);
    assert_non_null(j);
    journal_close(j);
    assert_int_equal(st.replayed, 2);
    assert_int_equal(st.skipped, 1);
    /* a header torn before its newline: an empty journal */
    f = fopen(path, "wb");
    fputs("# warptune journal 1\tcycles,ip", f);
    fclose(f);
    j = journal_open(path, collect, &s, &st, err, sizeof err);
    assert_non_null(j);
    journal_close(j);
    assert_int_equal(st.replayed, 0);
    assert_true(st.truncated);
    char *again = test_read_file(path, &len);
    assert_string_prefix(again, "# warptune journal 2\tcycles,kernels,");
    free(again);
    free(text);
    unlink(path);
}

static void test_old_metric_list(void **state)
{
    (void)state;
    const char *path = fresh_path("j4");
    /* a journal that knew only three metrics, in another order */
    const char *body = "00000000000000ff\tok\tstream\t7,2.5,1000\t";
    char line[256];
    uint32_t h = 2166136261u;
    for (const char *c = body; *c; c++) {
        h ^= (unsigned char)*c;
        h *= 16777619u;
    }
    snprintf(line, sizeof line, "# warptune journal 1\tctas,ipc,cycles\n%s\t%08x\n", body, h);
    FILE *f = fopen(path, "wb");
    fputs(line, f);
    fclose(f);
    seen s = {0};
    journal_stats st;
    char err[256];
    journal *j = journal_open(path, collect, &s, &st, err, sizeof err);
    assert_non_null(j);
    journal_close(j);
    assert_int_equal(st.replayed, 1);
    assert_int_equal(s.keys[0], 0xff);
    assert_double_near(s.ipc[0], 2.5, 0);
    assert_double_near(s.cycles[0], 1000, 0);
    unlink(path);
}

static void test_not_a_journal(void **state)
{
    (void)state;
    const char *path = test_write_temp("j5", "point,workload\n1,2\n");
    char err[256];
    journal_stats st;
    journal *j = journal_open(path, NULL, NULL, &st, err, sizeof err);
    assert_null(j);
    assert_non_null(strstr(err, "not a warptune journal"));
    assert_int_equal(st.io_failed, 0); /* bad input, not a failed write */
    size_t len;
    char *text = test_read_file(path, &len);
    assert_string_equal(text, "point,workload\n1,2\n"); /* untouched */
    free(text);
    unlink(path);
}

/* A NUL byte in a complete header is damage, not a torn write: the journal is refused and
 * left whole (it used to be taken for a torn header and cut to nothing, every record lost). */
static void test_nul_in_header(void **state)
{
    (void)state;
    const char *path = fresh_path("j6");
    write_three(path);
    size_t len;
    char *text = test_read_file(path, &len);
    char *comma = strchr(text, ',');
    assert_non_null(comma);
    *comma = '\0';
    FILE *f = fopen(path, "wb");
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
    char err[256];
    journal *j = journal_open(path, NULL, NULL, NULL, err, sizeof err);
    assert_null(j);
    assert_non_null(strstr(err, ":1: NUL byte in the header"));
    size_t len2;
    char *again = test_read_file(path, &len2);
    assert_int_equal(len2, len);
    assert_memory_equal(again, text, len);
    free(again);
    free(text);
    unlink(path);
}

/* A journal is read whole, cut and appended to: a device or folder in its place is refused
 * (/dev/zero used to be read until memory ran out), as a journal that cannot be written. */
static void test_not_a_regular_file(void **state)
{
    (void)state;
    char err[256];
    journal_stats st;
    assert_null(journal_open("/dev/zero", NULL, NULL, &st, err, sizeof err));
    assert_string_equal(err, "/dev/zero: not a regular file (expected a journal)");
    assert_int_equal(st.io_failed, 1);
    const char *dir = fresh_path("jdir");
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_null(journal_open(dir, NULL, NULL, &st, err, sizeof err));
    assert_non_null(strstr(err, ": not a regular file (expected a journal)"));
    assert_int_equal(st.io_failed, 1);
    rmdir(dir);
}

/* A journal that cannot grow (a full disk; here the file size limit, whose signal is ignored so
 * that the write fails with EFBIG): the append that fails says why, every later one fails
 * without writing, and the journal opened again holds every record before the failure, the part
 * of the failed one cut off. */
static void test_append_fails(void **state)
{
    (void)state;
    const char *path = fresh_path("jfull");
    char err[256];
    journal *j = journal_open(path, NULL, NULL, NULL, err, sizeof err);
    assert_non_null(j);
    assert_string_equal(journal_path(j), path);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)sb.st_size + 3000; /* the header and a few records */
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    journal_record r;
    memset(&r, 0, sizeof r);
    r.label = "stream";
    r.error = "";
    size_t ok = 0;
    int rc = 0, e = 0;
    for (; ok < 1000; ok++) {
        r.key = 0x100 + ok;
        r.m.cycles = (double)ok;
        if ((rc = journal_append(j, &r)) != 0) {
            e = errno;
            break;
        }
    }
    assert_int_equal(rc, -1);
    assert_int_equal(e, EFBIG);
    assert_true(ok > 0);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0); /* the file could grow again ... */
    signal(SIGXFSZ, was);
    r.key = 0xdead;
    assert_int_equal(journal_append(j, &r), -1); /* ... but nothing is glued to the torn part */
    journal_close(j);
    seen s = {0};
    journal_stats st;
    j = journal_open(path, collect, &s, &st, err, sizeof err);
    assert_non_null(j);
    journal_close(j);
    assert_int_equal(st.replayed, ok);
    assert_int_equal(st.skipped, 0);
    assert_int_equal(st.truncated, 1);
    for (size_t i = 0; i < ok && i < 16; i++)
        assert_int_equal(s.keys[i], 0x100 + i);
    unlink(path);
}

/* h extended by the 8 bytes of v, least significant first: how a memo key is built. */
static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return wt_fnv1a(h, b, 8);
}

/* The memo key of a configuration whose hash is config_hash on the built-in workload stream with
 * n=256, built by hand as explorer/evaluator.c documents it: FNV-1a over the hash's 8 bytes,
 * then over the 8 bytes of the workload's identity (its name, its text, its overrides sorted
 * by name, each with its NUL; no data files). */
static uint64_t stream_key(uint64_t config_hash)
{
    const char *text = NULL;
    for (size_t i = 0; i < workload_builtin_count(); i++)
        if (!strcmp(workload_builtin_name(i), "stream")) text = workload_builtin_text(i);
    assert_non_null(text);
    uint64_t wid = wt_fnv1a(WT_FNV_INIT, "stream", 7);
    wid = wt_fnv1a(wid, text, strlen(text) + 1);
    wid = wt_fnv1a(wid, "n", 2);
    wid = wt_fnv1a(wid, "256", 4);
    return fnv_u64(fnv_u64(WT_FNV_INIT, config_hash), wid);
}

/* A version-1 journal holding one record of the space's base configuration, keyed as builds
 * before version 2 keyed it: by param_set_hash_all. */
static void write_version1(const char *path, uint64_t key)
{
    char body[256], line[512];
    snprintf(body, sizeof body, "%016llx\tok\tstream\t12345,0.5\t", (unsigned long long)key);
    uint32_t h = 2166136261u;
    for (const char *c = body; *c; c++) {
        h ^= (unsigned char)*c;
        h *= 16777619u;
    }
    snprintf(line, sizeof line, "# warptune journal 1\tcycles,ipc\n%s\t%08x\n", body, h);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(line, f);
    fclose(f);
}

static void test_version1_resumed(void **state)
{
    (void)state;
    char err[1024] = "";
    space *s = space_parse("{\"settings\": {\"gpu.sms\": 2},\n"
                           " \"parameters\": {\"l1d.ways\": [8, 16]},\n"
                           " \"workloads\": [{\"name\": \"stream\", \"params\": {\"n\": 256}}]}",
                           "t.json", err, sizeof err);
    if (!s) fail_msg("%s", err);
    const param_set *base = s->base;
    uint64_t v1 = stream_key(param_set_hash_all(base)), v2 = stream_key(param_set_hash(base));
    assert_int_not_equal(v1, v2);

    /* resumed on the version-1 journal: replayed, nothing simulated, version-1 keys */
    const char *path = fresh_path("jv1");
    write_version1(path, v1);
    size_t len;
    char *before = test_read_file(path, &len);
    evaluator *e = evaluator_new(s, path, 1, err, sizeof err);
    if (!e) fail_msg("%s", err);
    assert_int_equal(evaluator_key(e, base, 0), v1);
    const eval_entry *out[1];
    assert_int_equal(evaluator_point(e, base, out), 0);
    assert_int_equal(out[0]->status, SIM_OK);
    assert_double_near(out[0]->m.cycles, 12345, 0);
    assert_double_near(out[0]->m.ipc, 0.5, 0);
    eval_counts c = evaluator_counts(e);
    assert_int_equal(c.simulated, 0);
    assert_int_equal(c.replayed, 1);
    assert_int_equal(c.journal_records, 1);
    evaluator_free(e);
    size_t len2;
    char *after = test_read_file(path, &len2); /* still version 1, nothing appended */
    assert_int_equal(len2, len);
    assert_memory_equal(after, before, len);
    free(after);
    free(before);

    /* a new journal is version 2, keyed by param_set_hash; a version-1 journal replayed into
     * it (a shard's) is still found by its own keys */
    const char *path2 = fresh_path("jv2");
    e = evaluator_new(s, path2, 1, err, sizeof err);
    if (!e) fail_msg("%s", err);
    assert_int_equal(evaluator_key(e, base, 0), v2);
    assert_int_equal(evaluator_replay(e, path, err, sizeof err), 0);
    assert_int_equal(evaluator_point(e, base, out), 0);
    assert_double_near(out[0]->m.cycles, 12345, 0);
    c = evaluator_counts(e);
    assert_int_equal(c.simulated, 0);
    assert_int_equal(c.replayed, 1);
    evaluator_free(e);
    char *text = test_read_file(path2, &len);
    assert_string_prefix(text, "# warptune journal 2\tcycles,");
    assert_ptr_equal(strchr(text, '\n'), text + len - 1); /* the header alone */
    free(text);
    unlink(path);
    unlink(path2);
    space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_torn_last_line),
        cmocka_unit_test(test_garbled_and_torn_header),
        cmocka_unit_test(test_old_metric_list),
        cmocka_unit_test(test_not_a_journal),
        cmocka_unit_test(test_nul_in_header),
        cmocka_unit_test(test_not_a_regular_file),
        cmocka_unit_test(test_append_fails),
        cmocka_unit_test(test_version1_resumed),
        cmocka_unit_test(test_sampling_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
