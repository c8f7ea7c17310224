.kernel k block=32
l: bra l
.host
 launch k grid=1
