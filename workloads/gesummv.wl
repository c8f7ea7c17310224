# gesummv: y = alpha*A*x + beta*B*x, PolyBench/GPU's scalar, vector and matrix multiplication
#
# One thread per row i walks row i of both A and B: two memory-divergent loads per step (lanes
# n*4 bytes apart), each thread re-reading its two row lines. DaCache's GES.
# models: PolyBench/GPU gesummv (DaCache GES)
# inputs: two n x n matrices and an n-vector, uniform (seed); alpha, beta
# class: divergent
.param n     1024
.param alpha 1.5
.param beta  1.2
.param seed  41

.array A f32 [n*n] uniform(seed=seed)
.array B f32 [n*n] uniform(seed=seed+1)
.array x f32 [n]   uniform(seed=seed+2)
.array y f32 [n]   zero

.kernel gesummv block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        mul     r1, r0, n*4
        mov     r2, 0
        mov     r3, 0.0                 ; (A x)[i]
        mov     r7, 0.0                 ; (B x)[i]
row:    ld.f32  r4, [A + r1 + r2]
        ld.f32  r5, [x + r2]
        ld.f32  r6, [B + r1 + r2]
        ffma    r3, r4, r5, r3
        ffma    r7, r6, r5, r7
        add     r2, r2, 4
        setp.lt p1, r2, n*4
    @p1 bra     row
        fmul    r3, r3, alpha
        ffma    r3, r7, beta, r3
        st.f32  [y + r0*4], r3
        exit

.host
        launch gesummv grid=ceil_div(n, 256)
