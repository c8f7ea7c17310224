# 2mm: D = alpha*A*B*C + beta*D as two matrix products, PolyBench/GPU 2mm
#
# One thread per output element, columns across lanes: each step of the dot product reads
# A[i][k] (one word for the whole warp) and B[k][j] (a coalesced row segment). Loads touch one
# line each: DaCache's memory-coherent 2MM.
# models: PolyBench/GPU 2mm (DaCache 2MM)
# inputs: n x n matrices A, B, C, D, uniform (seed); alpha, beta
# class: coherent
.param n     128
.param alpha 1.5
.param beta  1.2
.param seed  61

.array A   f32 [n*n] uniform(seed=seed)
.array B   f32 [n*n] uniform(seed=seed+1)
.array C   f32 [n*n] uniform(seed=seed+2)
.array D   f32 [n*n] uniform(seed=seed+3)
.array tmp f32 [n*n] zero

.kernel mm1 block=256
        mov     r0, %gtid
        setp.ge p0, r0, n*n
    @p0 exit
        div     r1, r0, n
        rem     r2, r0, n
        mul     r1, r1, n*4             ; row i of A
        shl     r2, r2, 2               ; column j of B
        mov     r3, 0                   ; k*4
        mov     r6, 0                   ; k*n*4
        mov     r4, 0.0
kl:     ld.f32  r5, [A + r1 + r3]
        ld.f32  r7, [B + r2 + r6]
        ffma    r4, r5, r7, r4
        add     r3, r3, 4
        add     r6, r6, n*4
        setp.lt p1, r3, n*4
    @p1 bra     kl
        fmul    r4, r4, alpha
        st.f32  [tmp + r0*4], r4
        exit

.kernel mm2 block=256
        mov     r0, %gtid
        setp.ge p0, r0, n*n
    @p0 exit
        div     r1, r0, n
        rem     r2, r0, n
        mul     r1, r1, n*4
        shl     r2, r2, 2
        mov     r3, 0
        mov     r6, 0
        ld.f32  r4, [D + r0*4]
        fmul    r4, r4, beta
kl:     ld.f32  r5, [tmp + r1 + r3]
        ld.f32  r7, [C + r2 + r6]
        ffma    r4, r5, r7, r4
        add     r3, r3, 4
        add     r6, r6, n*4
        setp.lt p1, r3, n*4
    @p1 bra     kl
        st.f32  [D + r0*4], r4
        exit

.host
        launch mm1 grid=ceil_div(n*n, 256)
        launch mm2 grid=ceil_div(n*n, 256)
