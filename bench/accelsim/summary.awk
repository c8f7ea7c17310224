# Reads bench/accelsim/report's runs.csv (-F,) and prints the calibration measures per preset
# pair; writes the cycles scatter plot to the file named by -v svg=.
#
# Each pair is measured on its reference config's own scheduler (SM7_QV100: lrr; SM2_GTX480:
# gto). A scheduler switch is the IPC change from lrr to gto, two_level or swl on one workload;
# the two simulators agree on it when the signs match or both changes are under 1%. mean_gap is
# the mean absolute difference of the two changes, in percentage points: unlike the counts, it
# does not jump when one case crosses a bound.
function abs(x) { return x < 0 ? -x : x }
function pearson(n, x, y,    i, mx, my, sxy, sxx, syy) {
    for (i = 1; i <= n; i++) { mx += x[i]; my += y[i] }
    mx /= n; my /= n
    for (i = 1; i <= n; i++) {
        sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2; syy += (y[i] - my) ^ 2
    }
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0
}
# ranks with ties given their mean rank
function rank(n, x, r,    i, j, less, same) {
    for (i = 1; i <= n; i++) {
        less = 0; same = 0
        for (j = 1; j <= n; j++) { if (x[j] < x[i]) less++; else if (x[j] == x[i]) same++ }
        r[i] = less + (same + 1) / 2
    }
}
function spearman(n, x, y,    rx, ry) { rank(n, x, rx); rank(n, y, ry); return pearson(n, rx, ry) }
function lg(v) { return log(v) / log(10) }
NR == 1 { next }
{
    pair = $1; w = $2; s = $3
    key = pair SUBSEP w SUBSEP s
    rc[key] = $4; wc[key] = $5; ri[key] = $6; wi[key] = $7
    rw[key] = $8; ww[key] = $9; ra[key] = $10; rmr[key] = $12; wmr[key] = $15; same[key] = $16
    # the reference's seconds: its CPU seconds where recorded, else its wall seconds
    rs[key] = $18 != "" ? $18 : $17; rbasis[key] = $18 != "" ? "cpu" : "wall"; ws[key] = $19
    rti[key] = $20; wti[key] = $21; r2a[key] = $22; r2r[key] = $24; w2r[key] = $27
    if (!(pair in seen)) { seen[pair] = 1; pairs[++np] = pair }
    if (!((pair, w) in wseen)) { wseen[pair, w] = 1; wl[pair, ++nw[pair]] = w }
}
END {
    base["qv100"] = "lrr"; base["fermi"] = "gto"
    nsw = split("gto two_level swl", sw, " ")
    all_cases = 0; all_agree = 0; all_big = 0; all_close = 0
    for (p = 1; p <= np; p++) {
        pair = pairs[p]; b = base[pair]; n = 0; ape = 0; band = 0; mad = 0; nmr = 0; eq = 0; st = 0
        ti_ok = 0; ti_worst = 0; l2mad = 0; nl2 = 0; l2_ok = 0; l2_worst = 0
        delete X; delete Y; delete C1; delete C2
        worst = ""
        for (i = 1; i <= nw[pair]; i++) {
            w = wl[pair, i]; key = pair SUBSEP w SUBSEP b
            if (!(key in rc)) continue
            n++
            X[n] = ri[key]; Y[n] = wi[key]; C1[n] = rc[key]; C2[n] = wc[key]; name[n] = w
            ape += abs(wc[key] - rc[key]) / rc[key]
            band += wc[key] >= 0.85 * rc[key] && wc[key] <= 1.15 * rc[key]
            if (ra[key] > 0) { mad += abs(wmr[key] - rmr[key]); nmr++ }
            eq += rw[key] == ww[key]; st += same[key]
            d = rti[key] > 0 ? abs(wti[key] / rti[key] - 1) : 1
            ti_ok += d <= 0.005; if (d > ti_worst) ti_worst = d
            if (r2a[key] > 0) {
                d = abs(w2r[key] - r2r[key]); l2mad += d; nl2++
                l2_ok += d <= 0.02; if (d > l2_worst) { l2_worst = d; l2_worst_w = w }
            }
        }
        if (n == 0) continue
        # the three worst cycle ratios
        delete used
        for (k = 1; k <= 3 && k <= n; k++) {
            bi = 0; bv = -1
            for (i = 1; i <= n; i++)
                if (!(i in used) && abs(log(C2[i] / C1[i])) > bv) { bv = abs(log(C2[i] / C1[i])); bi = i }
            used[bi] = 1
            worst = worst sprintf("%s%s:%.2fx", k > 1 ? "," : "", name[bi], C2[bi] / C1[bi])
        }
        printf "pair %s sched=%s workloads=%d cycles_mape=%.1f%% ipc_pearson=%.3f ipc_spearman=%.3f l1d_miss_mad=%.3f warp_insts_equal=%d/%d same_trace=%d/%d worst=%s thread_insts_within_0.5pct=%d/%d thread_insts_worst=%.2f%% l2_miss_mad=%.3f l2_miss_within_0.02=%d/%d l2_miss_worst=%s:%.3f within_15pct=%d/%d\n",
            pair, b, n, 100 * ape / n, pearson(n, X, Y), spearman(n, X, Y), nmr ? mad / nmr : 0, eq, n, st, n, worst,
            ti_ok, n, 100 * ti_worst, nl2 ? l2mad / nl2 : 0, l2_ok, nl2, l2_worst_w, l2_worst, band, n
        for (i = 1; i <= n; i++) { pts_pair[pair, i] = C1[i] SUBSEP C2[i]; }
        npts[pair] = n
        # scheduler switches against lrr
        cases = 0; agree = 0; big = 0; nclose = 0; gap = 0
        for (i = 1; i <= nw[pair]; i++) {
            w = wl[pair, i]; k0 = pair SUBSEP w SUBSEP "lrr"
            if (!(k0 in rc)) continue
            for (j = 1; j <= nsw; j++) {
                k1 = pair SUBSEP w SUBSEP sw[j]
                if (!(k1 in rc)) continue
                r = ri[k1] / ri[k0] - 1; t = wi[k1] / wi[k0] - 1
                cases++
                gap += abs(t - r)
                ok = (r > 0 && t > 0) || (r < 0 && t < 0) || (r == 0 && t == 0) || (abs(r) < 0.01 && abs(t) < 0.01)
                agree += ok
                if (abs(r) > 0.05) { big++; if (t / r >= 1 / 1.5 && t / r <= 1.5) nclose++ }
            }
        }
        printf "switch %s cases=%d sign_agrees=%d (%.0f%%) over_5pct=%d within_1.5x=%d mean_gap=%.2f\n",
            pair, cases, agree, cases ? 100 * agree / cases : 0, big, nclose, cases ? 100 * gap / cases : 0
        # speed: the reference's seconds per warp instruction over warptune's, on the pair's
        # scheduler, over the runs with both times (a run under a second on either side is
        # left out: its time is mostly start-up and rounding)
        ns = 0; lsum = 0; smin = 0; smax = 0; basis = ""
        for (i = 1; i <= nw[pair]; i++) {
            w = wl[pair, i]; key = pair SUBSEP w SUBSEP b
            if (!(key in rc) || rs[key] < 1 || ws[key] == "" || ws[key] <= 0 || rw[key] <= 0) continue
            v = (rs[key] / rw[key]) / (ws[key] / ww[key])
            ns++; lsum += log(v)
            if (ns == 1 || v < smin) { smin = v; wmin = w }
            if (ns == 1 || v > smax) { smax = v; wmax = w }
            basis = basis == "" || basis == rbasis[key] ? rbasis[key] : "mixed"
        }
        if (ns) printf "speed %s runs=%d min=%.0f(%s) geomean=%.0f max=%.0f(%s) reference_time=%s\n",
            pair, ns, smin, wmin, exp(lsum / ns), smax, wmax, basis
        all_cases += cases; all_agree += agree; all_big += big; all_close += nclose
    }
    printf "switch all cases=%d sign_agrees=%d (%.0f%%) over_5pct=%d within_1.5x=%d\n",
        all_cases, all_agree, all_cases ? 100 * all_agree / all_cases : 0, all_big, all_close
    if (svg != "") plot(svg)
}
# Log-log scatter of cycles, warptune against the reference, each pair on its own scheduler,
# with the diagonal and the 15% band.
function plot(file,    W, H, L, B, lo, hi, p, pair, i, xy, x, y, px, py, col, t, v) {
    W = 560; H = 460; L = 70; B = 50
    lo = 3; hi = 7
    for (p = 1; p <= np; p++) for (i = 1; i <= npts[pairs[p]]; i++) {
        split(pts_pair[pairs[p], i], xy, SUBSEP)
        if (lg(xy[1]) < lo + 0.2 || lg(xy[2]) < lo + 0.2) lo = int(lg(xy[1] < xy[2] ? xy[1] : xy[2]) - 0.3)
        if (lg(xy[1]) > hi - 0.2 || lg(xy[2]) > hi - 0.2) hi = int(lg(xy[1] > xy[2] ? xy[1] : xy[2]) + 1.3)
    }
    print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" W "\" height=\"" H "\" font-family=\"sans-serif\" font-size=\"12\">" > file
    print "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>" > file
    pw = W - L - 20; ph = H - B - 30
    print "<rect x=\"" L "\" y=\"20\" width=\"" pw "\" height=\"" ph "\" fill=\"none\" stroke=\"#444\"/>" > file
    for (t = lo; t <= hi; t++) {
        px = L + (t - lo) / (hi - lo) * pw; py = 20 + ph - (t - lo) / (hi - lo) * ph
        printf "<line x1=\"%.1f\" y1=\"20\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", px, px, 20 + ph > file
        printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, py, L + pw, py > file
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%d</text>\n", px, 20 + ph + 16, t > file
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", L - 6, py + 4, t > file
    }
    # diagonal and +-15%
    for (v = -1; v <= 1; v++) {
        f = lg(1 + 0.15 * v)
        printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"%s\"/>\n",
            L, 20 + ph - (f) / (hi - lo) * ph, L + pw, 20 + ph - (hi - lo + f) / (hi - lo) * ph,
            v == 0 ? "#888" : "#bbb", v == 0 ? "" : "4,3" > file
    }
    for (p = 1; p <= np; p++) {
        pair = pairs[p]; col = pair == "qv100" ? "#1f77b4" : "#d62728"
        for (i = 1; i <= npts[pair]; i++) {
            split(pts_pair[pair, i], xy, SUBSEP)
            px = L + (lg(xy[1]) - lo) / (hi - lo) * pw; py = 20 + ph - (lg(xy[2]) - lo) / (hi - lo) * ph
            printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" fill-opacity=\"0.7\"/>\n", px, py, col > file
        }
        printf "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
            L + 14, 34 + 16 * (p - 1), col, L + 22, 38 + 16 * (p - 1),
            pair == "qv100" ? "qv100-accelsim vs SM7_QV100" : "fermi-gtx480 vs SM2_GTX480" > file
    }
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">reference cycles (GPGPU-Sim in Accel-Sim)</text>\n", L + pw / 2, H - 8 > file
    printf "<text transform=\"translate(16,%.1f) rotate(-90)\" text-anchor=\"middle\">warptune cycles</text>\n", 20 + ph / 2 > file
    print "</svg>" > file
    close(file)
}
