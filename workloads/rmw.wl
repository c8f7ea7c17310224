# rmw: in-place read-modify-write streams x_k[i] = a*x_k[i] + y[i] over nvec vectors, npass times
#
# Each thread loads y[i] once and then updates element i of nvec vectors in place, one after
# the other: a coalesced load of a line of x_k, a fused multiply-add, and a store back to the
# same line. The host repeats the kernel npass times. Loads and stores alternate on the same
# lines, so what a store does to a line the L1D or L2 holds (and what a later load then
# finds), how the L2 allocates on a write (l2.lazy_fetch) and the DRAM's read-write
# turnarounds (dram.t_rtw, dram.t_wtr) set its pace; the vectors (nvec*n*4 bytes, 2 MB by
# default) fit the qv100 L2 for the second pass but not the GTX480's. Bandwidth-bound with
# almost no arithmetic, a store for every load.
# models: in-place BLAS-1 updates (saxpy-like updates of iterative solvers and particle codes)
# inputs: nvec vectors x_k and a vector y of n elements, uniform (seed); a; npass
# class: CI Type-M coherent
.param n     131072
.param nvec  4
.param npass 2
.param a     0.999
.param seed  167

.array y  f32 [n] uniform(seed=seed)
.array x  f32 [nvec*n] uniform(seed=seed+1)
.array it i32 [1] zero

.kernel update block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        shl     r1, r0, 2
        ld.f32  r2, [y + r1]
        add     r3, r1, nvec*n*4        ; the end of x
vec:    ld.f32  r4, [x + r1]
        ffma    r4, r4, a, r2           ; a*x + y
        st.f32  [x + r1], r4            ; back to the line it came from
        add     r1, r1, n*4             ; the next vector
        setp.lt p1, r1, r3
    @p1 bra     vec
        exit

.kernel tick block=32
        mov     r0, %tid
        setp.ne p0, r0, 0
    @p0 exit
        ld.i32  r1, [it]
        add     r1, r1, 1
        st.i32  [it], r1
        exit

.host
        do max=npass
            launch update grid=ceil_div(n, 256)
            launch tick grid=1
        while it[0] != npass
