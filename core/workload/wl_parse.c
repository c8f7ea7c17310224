/* Workload language: the file structure (directives, sections, host sequence) and the public
 * entry points of core/workload/workload.h that build and free programs (finding one by name or
 * path: wl_load.c). */
#include "core/workload/wl_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct launch_ref {
    char name[WL_NAME_MAX];
    int line;
} launch_ref;

typedef struct wl_pstate {
    wl_parser P;
    int section; /* 0 top, 1 kernel, 2 host */
    int have_host;
    wl_kernel kern;
    wl_kbuild kb;
    int in_kernel;
    size_t caphost, capkernels;
    launch_ref *launches; /* kernel names of HOST_LAUNCH ops, by host op index */
    int dostack[WL_MAX_NEST], ndo;
    /* host if ... [else ...] end: the branch not taken is parsed (so its mistakes are found)
     * and its statements dropped when it closes */
    struct {
        size_t mark; /* w->nhost where the open branch began */
        int ndo;     /* do loops open at the if: a loop may not cross a branch */
        int cond, in_else, line;
    } ifstack[WL_MAX_NEST];
    int nif;
} wl_pstate;

static int grow(wl_parser *P, void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 8;
    void *q = realloc(*p, c * size);
    if (!q) return wl_error(P, "out of memory");
    *p = q;
    *cap = c;
    return 0;
}

static void kernel_free(wl_kernel *k)
{
    free(k->insts);
    free(k->info);
    k->insts = NULL;
    k->info = NULL;
}

static int close_kernel(wl_pstate *S)
{
    if (!S->in_kernel) return 0;
    S->in_kernel = 0;
    wl_parser *P = &S->P;
    int rc = wl_kernel_finish(P, &S->kb);
    wl_kbuild_free(&S->kb);
    workload *w = P->w;
    if (rc == 0)
        rc = grow(P, (void **)&w->kernels, &S->capkernels, w->nkernels, sizeof *w->kernels);
    if (rc) {
        kernel_free(&S->kern);
        return -1;
    }
    w->kernels[w->nkernels++] = S->kern;
    wl_kernel *k = &S->kern;
    if (k->regs > w->max_regs) w->max_regs = k->regs;
    if (k->shared > w->max_shared) w->max_shared = k->shared;
    if (k->ninsts > w->max_insts) w->max_insts = k->ninsts;
    memset(&S->kern, 0, sizeof S->kern);
    return 0;
}

static int parse_param(wl_pstate *S, wl_cur *c)
{
    wl_parser *P = &S->P;
    char name[WL_NAME_MAX], q[40];
    size_t n = wl_ident(c, name, 0);
    if (!n) return wl_error(P, "expected a parameter name after .param");
    if (wl_name_fits(P, n)) return -1;
    wl_val v;
    if (wl_at_end(c)) return wl_error(P, "expected a value after .param %s", name);
    if (wl_expr(P, c, &v)) return -1;
    if (!wl_at_end(c))
        return wl_error(P, "unexpected %s after the value", wl_quote(c, q, sizeof q));
    for (size_t i = P->nov; i-- > 0;) {
        if (strcmp(P->ov[i].name, name)) continue;
        wl_cur oc = {P->ov[i].value ? P->ov[i].value : ""};
        int line = P->line;
        P->line = 0;
        if (wl_at_end(&oc) || wl_expr(P, &oc, &v) || !wl_at_end(&oc)) {
            P->failed = 0;
            return wl_error(P, "override %s=%s: expected a number", name, P->ov[i].value);
        }
        P->line = line;
        for (size_t j = 0; j < P->nov; j++)
            if (strcmp(P->ov[j].name, name) == 0) P->ov_used[j] = 1;
        break;
    }
    return wl_sym_add(P, name, v, 1);
}

static int parse_kernel_header(wl_pstate *S, wl_cur *c)
{
    wl_parser *P = &S->P;
    char name[WL_NAME_MAX], key[WL_NAME_MAX], q[40];
    size_t n = wl_ident(c, name, 0);
    if (!n) return wl_error(P, "expected a kernel name after .kernel");
    if (wl_name_fits(P, n) || wl_name_not_register(P, "kernel", name)) return -1;
    for (size_t i = 0; i < P->w->nkernels; i++)
        if (strcmp(P->w->kernels[i].name, name) == 0)
            return wl_error(P, "duplicate kernel '%s'", name);
    memset(&S->kern, 0, sizeof S->kern);
    memset(&S->kb, 0, sizeof S->kb);
    strcpy(S->kern.name, name);
    S->kern.line = P->line;
    S->kb.k = &S->kern;
    S->kb.max_reg = -1;
    S->kb.header_line = P->line;
    int have_block = 0;
    while (!wl_at_end(c)) {
        if (!wl_ident(c, key, 0) || !wl_accept(c, '='))
            return wl_error(P, "expected block=, regs= or shared= in .kernel, got %s",
                            wl_quote(c, q, sizeof q));
        int64_t v;
        if (strcmp(key, "block") == 0) {
            if (wl_expr_int(P, c, 1, WL_MAX_BLOCK, "block", &v)) return -1;
            S->kern.block = (uint32_t)v;
            have_block = 1;
        } else if (strcmp(key, "regs") == 0) {
            if (wl_expr_int(P, c, 1, WT_MAX_REGS, "regs", &v)) return -1;
            S->kern.regs = (uint32_t)v;
            S->kb.regs_given = 1;
        } else if (strcmp(key, "shared") == 0) {
            if (wl_expr_int(P, c, 0, 1 << 20, "shared", &v)) return -1;
            if (v % 4) return wl_error(P, "shared must be a multiple of 4 bytes");
            S->kern.shared = (uint32_t)v;
        } else {
            return wl_error(P, "unknown .kernel attribute '%s' (expected block, regs or shared)",
                            key);
        }
    }
    if (!have_block) return wl_error(P, "expected block=THREADS in .kernel %s", name);
    S->in_kernel = 1;
    return 0;
}

/* NAME[EXPR] in the host program: the word index of that element. */
static int host_element(wl_parser *P, wl_cur *c, const wl_array **arr, uint32_t *word)
{
    char name[WL_NAME_MAX], q[40];
    size_t n = wl_ident(c, name, 0);
    if (!n)
        return wl_error(P, "expected an array element NAME[INDEX], got %s",
                        wl_quote(c, q, sizeof q));
    if (wl_name_fits(P, n)) return -1;
    const wl_array *a = wl_array_by_name(P->w, name);
    if (!a) return wl_error(P, "unknown array '%s'", name);
    if (wl_expect(P, c, '[', "after the array name")) return -1;
    int64_t idx;
    if (wl_expr_int(P, c, 0, (int64_t)a->count - 1, "the index", &idx)) return -1;
    if (wl_expect(P, c, ']', "after the index")) return -1;
    *arr = a;
    *word = (a->base - WL_MEM_BASE) / 4 + (uint32_t)idx;
    return 0;
}

static int value_bits(wl_parser *P, const wl_array *a, wl_val v, uint32_t *out)
{
    if (a->type == WL_F32) {
        *out = wl_f32_bits(wl_val_real(v));
        return 0;
    }
    int64_t i;
    if (wl_val_int(P, v, a->type == WL_I32 ? INT32_MIN : 0,
                   a->type == WL_I32 ? INT32_MAX : UINT32_MAX, "the value", &i))
        return -1;
    *out = (uint32_t)i;
    return 0;
}

/* `if A [OP B]`: A (or A OP B, OP one of == != < <= > >=) as a constant expression of the
 * parameters, true when not 0. Returns 0 with the truth in *cond, or -1 after wl_error. */
static int host_condition(wl_parser *P, wl_cur *c, int *cond)
{
    int64_t a, b;
    const int64_t lim = (int64_t)1 << 62;
    if (wl_expr_int(P, c, -lim, lim, "the condition", &a)) return -1;
    wl_skip_ws(c);
    static const char *const ops[] = {"==", "!=", "<=", ">=", "<", ">"};
    size_t k = 0;
    while (k < 6 && strncmp(c->p, ops[k], strlen(ops[k])) != 0)
        k++;
    if (k == 6) {
        *cond = a != 0;
        return 0;
    }
    c->p += strlen(ops[k]);
    if (wl_expr_int(P, c, -lim, lim, "the condition", &b)) return -1;
    int r[6] = {a == b, a != b, a <= b, a >= b, a<b, a> b};
    *cond = r[k];
    return 0;
}

/* Closes the open branch of the innermost if: a do ... while may not cross it, and a branch
 * not taken leaves no statement. */
static int close_branch(wl_pstate *S, const char *kw)
{
    wl_parser *P = &S->P;
    if (S->nif == 0) return wl_error(P, "%s without a matching if", kw);
    int top = S->nif - 1;
    if (S->ndo != S->ifstack[top].ndo)
        return wl_error(P,
                        "%s inside a do ... while loop opened in the branch (expected the loop "
                        "to close before the branch ends)",
                        kw);
    int taken = S->ifstack[top].in_else ? !S->ifstack[top].cond : S->ifstack[top].cond;
    if (!taken) P->w->nhost = S->ifstack[top].mark;
    return 0;
}

static int parse_host_line(wl_pstate *S, wl_cur *c)
{
    wl_parser *P = &S->P;
    {
        wl_cur look = *c;
        char kw0[WL_NAME_MAX], q0[40];
        if (wl_ident(&look, kw0, 0) &&
            (!strcmp(kw0, "if") || !strcmp(kw0, "else") || !strcmp(kw0, "end"))) {
            *c = look;
            if (!strcmp(kw0, "if")) {
                if (S->nif == WL_MAX_NEST) return wl_error(P, "if nested too deeply");
                int cond;
                if (host_condition(P, c, &cond)) return -1;
                S->ifstack[S->nif].mark = P->w->nhost;
                S->ifstack[S->nif].ndo = S->ndo;
                S->ifstack[S->nif].cond = cond;
                S->ifstack[S->nif].in_else = 0;
                S->ifstack[S->nif].line = P->line;
                S->nif++;
            } else if (!strcmp(kw0, "else")) {
                if (close_branch(S, "else")) return -1;
                if (S->ifstack[S->nif - 1].in_else)
                    return wl_error(P, "a second else for the if of line %d",
                                    S->ifstack[S->nif - 1].line);
                S->ifstack[S->nif - 1].in_else = 1;
                S->ifstack[S->nif - 1].mark = P->w->nhost;
            } else {
                if (close_branch(S, "end")) return -1;
                S->nif--;
            }
            if (!wl_at_end(c))
                return wl_error(P, "unexpected %s at the end of the statement",
                                wl_quote(c, q0, sizeof q0));
            return 0;
        }
    }
    workload *w = P->w;
    char kw[WL_NAME_MAX], q[40];
    if (!wl_ident(c, kw, 0))
        return wl_error(
            P, "expected a host statement (launch, set, do, while, if, else or end), got %s",
            wl_quote(c, q, sizeof q));
    if (grow(P, (void **)&w->host, &S->caphost, w->nhost, sizeof *w->host)) return -1;
    size_t cap = S->caphost;
    launch_ref *lr = realloc(S->launches, cap * sizeof *lr);
    if (!lr) return wl_error(P, "out of memory");
    S->launches = lr;
    wl_hostop *h = &w->host[w->nhost];
    memset(h, 0, sizeof *h);
    memset(&lr[w->nhost], 0, sizeof *lr);
    h->line = P->line;
    int64_t v;
    if (strcmp(kw, "launch") == 0) {
        h->kind = HOST_LAUNCH;
        size_t n = wl_ident(c, lr[w->nhost].name, 0);
        if (!n) return wl_error(P, "expected a kernel name after launch");
        if (wl_name_fits(P, n)) return -1;
        lr[w->nhost].line = P->line;
        int have_grid = 0;
        char key[WL_NAME_MAX];
        while (!wl_at_end(c)) {
            if (!wl_ident(c, key, 0) || !wl_accept(c, '='))
                return wl_error(P, "expected grid= or block= in launch, got %s",
                                wl_quote(c, q, sizeof q));
            if (strcmp(key, "grid") == 0) {
                if (wl_expr_int(P, c, 1, INT32_MAX, "grid", &v)) return -1;
                h->grid = (uint32_t)v;
                have_grid = 1;
            } else if (strcmp(key, "block") == 0) {
                if (wl_expr_int(P, c, 1, WL_MAX_BLOCK, "block", &v)) return -1;
                h->block = (uint32_t)v;
            } else {
                return wl_error(P, "unknown launch attribute '%s' (expected grid or block)", key);
            }
        }
        if (!have_grid) return wl_error(P, "expected grid=CTAS in launch");
    } else if (strcmp(kw, "set") == 0) {
        const wl_array *a;
        h->kind = HOST_SET;
        if (host_element(P, c, &a, &h->word)) return -1;
        if (wl_expect(P, c, '=', "after the element")) return -1;
        wl_val val;
        if (wl_expr(P, c, &val) || value_bits(P, a, val, &h->value)) return -1;
    } else if (strcmp(kw, "do") == 0) {
        h->kind = HOST_DO;
        char key[WL_NAME_MAX];
        if (!wl_ident(c, key, 0) || strcmp(key, "max") || !wl_accept(c, '='))
            return wl_error(P, "expected max=ITERATIONS after do");
        if (wl_expr_int(P, c, 1, INT32_MAX, "max", &v)) return -1;
        h->max = (uint32_t)v;
        if (S->ndo == WL_MAX_NEST) return wl_error(P, "do loops nested too deeply");
        S->dostack[S->ndo++] = (int)w->nhost;
    } else if (strcmp(kw, "while") == 0) {
        const wl_array *a;
        h->kind = HOST_WHILE;
        if (S->ndo == 0) return wl_error(P, "while without a matching do");
        if (host_element(P, c, &a, &h->word)) return -1;
        wl_skip_ws(c);
        if (c->p[0] == '!' && c->p[1] == '=')
            h->ne = 1;
        else if (c->p[0] == '=' && c->p[1] == '=')
            h->ne = 0;
        else
            return wl_error(P, "expected != or == after the element, got %s",
                            wl_quote(c, q, sizeof q));
        c->p += 2;
        wl_val val;
        if (wl_expr(P, c, &val) || value_bits(P, a, val, &h->value)) return -1;
        int d = S->dostack[--S->ndo];
        h->match = (uint32_t)d;
        w->host[d].match = (uint32_t)w->nhost;
    } else {
        return wl_error(
            P, "unknown host statement '%s' (expected launch, set, do, while, if, else or end)",
            kw);
    }
    if (!wl_at_end(c))
        return wl_error(P, "unexpected %s at the end of the statement", wl_quote(c, q, sizeof q));
    w->nhost++;
    return 0;
}

/* Copies one line without its comment. */
static void strip_comment(const char *s, size_t n, char *out)
{
    int inq = 0;
    size_t i = 0;
    for (; i < n; i++) {
        if (s[i] == '"') inq = !inq;
        if (!inq && (s[i] == '#' || s[i] == ';')) break;
        out[i] = s[i];
    }
    out[i] = '\0';
}

static int parse_line(wl_pstate *S, wl_cur *c)
{
    wl_parser *P = &S->P;
    char dir[WL_NAME_MAX], q[40];
    wl_skip_ws(c);
    if (*c->p == '.') {
        c->p++;
        wl_ident(c, dir, 0);
        if (close_kernel(S)) return -1;
        if (strcmp(dir, "param") == 0 || strcmp(dir, "array") == 0 || strcmp(dir, "graph") == 0 ||
            strcmp(dir, "matrix") == 0) {
            if (S->section == 2)
                return wl_error(P, ".%s after .host (data comes before the host sequence)", dir);
            S->section = 0;
            return dir[0] == 'p'   ? parse_param(S, c)
                   : dir[0] == 'a' ? wl_parse_array(P, c)
                   : dir[0] == 'g' ? wl_parse_graph(P, c)
                                   : wl_parse_matrix(P, c);
        }
        if (strcmp(dir, "kernel") == 0) {
            S->section = 1;
            return parse_kernel_header(S, c);
        }
        if (strcmp(dir, "host") == 0) {
            if (S->have_host) return wl_error(P, "a second .host section");
            S->have_host = 1;
            S->section = 2;
            if (!wl_at_end(c))
                return wl_error(P, "unexpected %s after .host", wl_quote(c, q, sizeof q));
            return 0;
        }
        return wl_error(P,
                        "unknown directive '.%s' (expected .param, .array, .graph, .matrix, "
                        ".kernel or .host)",
                        dir);
    }
    if (S->section == 1) return wl_kernel_line(P, &S->kb, c);
    if (S->section == 2) return parse_host_line(S, c);
    return wl_error(P, "instruction outside a .kernel section (expected a directive: .param, "
                       ".array, .graph, .matrix, .kernel or .host)");
}

static int finish(wl_pstate *S, int lastline)
{
    wl_parser *P = &S->P;
    workload *w = P->w;
    if (close_kernel(S)) return -1;
    if (S->nif) {
        P->line = S->ifstack[S->nif - 1].line;
        return wl_error(P, "if without a matching end");
    }
    if (S->ndo) {
        P->line = w->host[S->dostack[S->ndo - 1]].line;
        return wl_error(P, "do without a matching while");
    }
    for (size_t i = 0; i < w->nhost; i++) {
        if (w->host[i].kind != HOST_LAUNCH) continue;
        size_t k = 0;
        while (k < w->nkernels && strcmp(w->kernels[k].name, S->launches[i].name))
            k++;
        P->line = S->launches[i].line;
        if (k == w->nkernels)
            return wl_error(P, "launch of unknown kernel '%s'", S->launches[i].name);
        w->host[i].kernel = (uint32_t)k;
        if (!w->host[i].block) w->host[i].block = w->kernels[k].block;
    }
    P->line = 0;
    for (size_t i = 0; i < P->nov; i++) {
        if (P->ov_used[i]) continue;
        char list[256] = "";
        for (size_t j = 0; j < P->nsyms; j++) {
            if (!P->syms[j].is_param) continue;
            strncat(list, list[0] ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, P->syms[j].name, sizeof list - strlen(list) - 1);
        }
        return wl_error(P, "override '%s': no .param %s in this workload (its params: %s)",
                        P->ov[i].name, P->ov[i].name, list[0] ? list : "none");
    }
    P->line = lastline;
    if (!S->have_host) return wl_error(P, "no .host section (nothing launches a kernel)");
    return 0;
}

void workload_free(workload *w)
{
    if (!w) return;
    for (size_t i = 0; i < w->nkernels; i++)
        kernel_free(&w->kernels[i]);
    free(w->kernels);
    free(w->arrays);
    free(w->image);
    free(w->host);
    free(w->name);
    free(w->file);
    free(w);
}

const char *workload_name(const workload *w)
{
    return w->name;
}

static char *base_name(const char *filename)
{
    const char *b = strrchr(filename, '/');
    b = b ? b + 1 : filename;
    size_t n = strlen(b);
    if (n > 3 && strcmp(b + n - 3, ".wl") == 0) n -= 3;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, b, n);
        s[n] = '\0';
    }
    return s;
}

int workload_parse(const char *text, const char *filename, const char *basedir,
                   const wl_override *ov, size_t nov, workload **out, char *err, size_t errlen)
{
    *out = NULL;
    if (err && errlen) err[0] = '\0';
    wl_pstate *S = calloc(1, sizeof *S);
    workload *w = calloc(1, sizeof *w);
    char *line = NULL;
    if (!filename) filename = "<workload>";
    if (!S || !w) {
        free(S);
        free(w);
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", filename);
        return -1;
    }
    wl_parser *P = &S->P;
    P->filename = filename;
    P->basedir = basedir;
    P->err = err;
    P->errlen = errlen;
    P->ov = ov;
    P->nov = nov;
    P->w = w;
    P->ov_used = calloc(nov + 1, 1);
    w->name = base_name(filename);
    w->file = strdup(filename);
    size_t linecap = 256;
    line = malloc(linecap);
    int rc = (!P->ov_used || !w->name || !w->file || !line) ? wl_error(P, "out of memory") : 0;
    for (size_t i = 0; i < nov && rc == 0; i++)
        if (!ov[i].name) rc = wl_error(P, "override without a name");
    const char *s = text ? text : "";
    int ln = 0;
    while (rc == 0 && *s) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        ln++;
        P->line = ln;
        if (n + 1 > linecap) {
            char *nl = realloc(line, n + 1);
            if (!nl) {
                rc = wl_error(P, "out of memory");
                break;
            }
            line = nl;
            linecap = n + 1;
        }
        strip_comment(s, n, line);
        wl_cur c = {line};
        if (!wl_at_end(&c)) rc = parse_line(S, &c);
        s = e ? e + 1 : s + n;
    }
    if (rc == 0) rc = finish(S, ln);
    if (rc) {
        if (S->in_kernel) {
            kernel_free(&S->kern);
            wl_kbuild_free(&S->kb);
        }
        workload_free(w);
        w = NULL;
        if (err && errlen && !err[0]) snprintf(err, errlen, "%s: invalid workload", filename);
    }
    free(line);
    free(S->launches);
    free(P->syms);
    free(P->ov_used);
    free(S);
    *out = w;
    return rc ? -1 : 0;
}
