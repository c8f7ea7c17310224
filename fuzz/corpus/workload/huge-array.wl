.param n 1
.array a f32 [n*1000000000000] zero
.kernel k block=32
    exit
.host
    launch k grid=1
