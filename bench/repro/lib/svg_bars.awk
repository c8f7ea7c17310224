# Grouped bar chart from a CSV: header "group,series1,series2,...", one row per group.
# Variables: title, ylabel, ref (optional horizontal reference line value).
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); return s }
NR == 1 { ns = NF - 1; for (i = 2; i <= NF; i++) sname[i - 1] = $i; next }
{ ng++; gname[ng] = $1; for (i = 2; i <= NF; i++) { v = $i + 0; val[ng, i - 1] = ($i == "nan" ? "" : v); if ($i != "nan" && v > ymax) ymax = v } }
END {
    if (ref != "" && ref + 0 > ymax) ymax = ref + 0
    if (ymax <= 0) ymax = 1
    ymax *= 1.1
    split("#4e79a7 #f28e2b #e15759 #76b7b2 #59a14f #edc948 #b07aa1 #ff9da7 #9c755f #bab0ac", col, " ")
    L = 60; T = 40; H = 260; gw = (ns * 14 + 16); W = L + ng * gw + 20; if (W < 420) W = 420
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, T + H + 90 + 14 * int((ns + 3) / 4)
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"%d\" y=\"20\" font-size=\"13\">%s</text>\n", L, esc(title)
    printf "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\">%s</text>\n", T + H / 2, T + H / 2, esc(ylabel)
    for (k = 0; k <= 4; k++) { y = T + H - H * k / 4; printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", L, y, W - 10, y, L - 4, y + 4, ymax * k / 4 }
    for (g = 1; g <= ng; g++) {
        x0 = L + (g - 1) * gw + 8
        for (s = 1; s <= ns; s++) { v = val[g, s]; if (v == "") continue; h = H * v / ymax
            printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"%.1f\" fill=\"%s\"><title>%s %s: %.4g</title></rect>\n", x0 + (s - 1) * 14, T + H - h, h, col[(s - 1) % 10 + 1], esc(gname[g]), esc(sname[s]), v }
        printf "<text x=\"%.1f\" y=\"%d\" transform=\"rotate(35 %.1f %d)\">%s</text>\n", x0, T + H + 14, x0, T + H + 14, esc(gname[g])
    }
    if (ref != "") { y = T + H - H * ref / ymax; printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n", L, y, W - 10, y }
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T + H, W - 10, T + H
    for (s = 1; s <= ns; s++) { lx = L + ((s - 1) % 4) * 110; ly = T + H + 70 + 14 * int((s - 1) / 4)
        printf "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", lx, ly - 9, col[(s - 1) % 10 + 1], lx + 14, ly, esc(sname[s]) }
    print "</svg>"
}
