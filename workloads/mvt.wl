# mvt: x1 += A y1 and x2 += A^T y2, PolyBench/GPU's matrix-vector product and transpose
#
# Kernel 1 walks row i per thread (lanes n*4 bytes apart: memory-divergent, each thread
# re-reading its row's line), kernel 2 walks column i per thread (coalesced). DaCache's MVT.
# models: PolyBench/GPU mvt (DaCache MVT)
# inputs: an n x n matrix and four n-vectors, uniform (seed)
# class: divergent
.param n    1024
.param seed 37

.array A  f32 [n*n] uniform(seed=seed)
.array y1 f32 [n]   uniform(seed=seed+1)
.array y2 f32 [n]   uniform(seed=seed+2)
.array x1 f32 [n]   uniform(seed=seed+3)
.array x2 f32 [n]   uniform(seed=seed+4)

.kernel mvt1 block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        mul     r1, r0, n*4
        ld.f32  r3, [x1 + r0*4]
        mov     r2, 0
row:    ld.f32  r4, [A + r1 + r2]
        ld.f32  r5, [y1 + r2]
        ffma    r3, r4, r5, r3
        add     r2, r2, 4
        setp.lt p1, r2, n*4
    @p1 bra     row
        st.f32  [x1 + r0*4], r3
        exit

.kernel mvt2 block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        shl     r1, r0, 2
        ld.f32  r3, [x2 + r1]
        mov     r2, 0
        mov     r6, 0
col:    ld.f32  r4, [A + r1 + r2]
        ld.f32  r5, [y2 + r6]
        ffma    r3, r4, r5, r3
        add     r2, r2, n*4
        add     r6, r6, 4
        setp.lt p1, r6, n*4
    @p1 bra     col
        st.f32  [x2 + r1], r3
        exit

.host
        launch mvt1 grid=ceil_div(n, 256)
        launch mvt2 grid=ceil_div(n, 256)
