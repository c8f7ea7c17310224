# A CSV as a markdown table; numbers printed with 4 significant digits.
BEGIN { FS = "," }
function fmt(v) { if (v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ && v ~ /[0-9]/) return (v == int(v) && v < 1e6 ? v : sprintf("%.4g", v)); return v }
NR == 1 { s = "|"; d = "|"; for (i = 1; i <= NF; i++) { s = s " " $i " |"; d = d "---|" } print s; print d; next }
{ s = "|"; for (i = 1; i <= NF; i++) s = s " " fmt($i) " |"; print s }
