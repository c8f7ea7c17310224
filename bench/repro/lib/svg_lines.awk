# Line chart from a CSV: header "x,series1,...", numeric x (plotted by rank, labelled by value).
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); return s }
NR == 1 { ns = NF - 1; for (i = 2; i <= NF; i++) sname[i - 1] = $i; next }
{ n++; xs[n] = $1; for (i = 2; i <= NF; i++) { val[n, i - 1] = $i; if ($i != "nan" && $i + 0 > ymax) ymax = $i + 0 } }
END {
    if (ymax <= 0) ymax = 1
    ymax *= 1.1
    split("#4e79a7 #f28e2b #e15759 #76b7b2 #59a14f #edc948 #b07aa1 #ff9da7 #9c755f #bab0ac", col, " ")
    L = 60; T = 40; H = 260; W = 520; PW = W - L - 20
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, T + H + 60 + 14 * int((ns + 3) / 4)
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"%d\" y=\"20\" font-size=\"13\">%s</text>\n", L, esc(title)
    printf "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\">%s</text>\n", T + H / 2, T + H / 2, esc(ylabel)
    printf "<text x=\"%d\" y=\"%d\">%s</text>\n", L + PW / 2, T + H + 32, esc(xlabel)
    for (k = 0; k <= 4; k++) { y = T + H - H * k / 4; printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", L, y, W - 20, y, L - 4, y + 4, ymax * k / 4 }
    step = int((n + 11) / 12); if (step < 1) step = 1
    for (i = 1; i <= n; i++) { if ((i - 1) % step) continue; x = L + (n > 1 ? PW * (i - 1) / (n - 1) : PW / 2); printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, T + H + 14, esc(xs[i]) }
    for (s = 1; s <= ns; s++) {
        pts = ""
        for (i = 1; i <= n; i++) { if (val[i, s] == "nan" || val[i, s] == "") continue
            x = L + (n > 1 ? PW * (i - 1) / (n - 1) : PW / 2); y = T + H - H * val[i, s] / ymax; pts = pts sprintf("%.1f,%.1f ", x, y) }
        printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", col[(s - 1) % 10 + 1], pts
        lx = L + ((s - 1) % 4) * 110; ly = T + H + 50 + 14 * int((s - 1) / 4)
        printf "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", lx, ly - 9, col[(s - 1) % 10 + 1], lx + 14, ly, esc(sname[s])
    }
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T + H, W - 20, T + H
    print "</svg>"
}
