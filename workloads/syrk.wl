# syrk: symmetric rank-k update C = alpha*A*A^T + beta*C, PolyBench/GPU
#
# One thread per element C[i][j], j the fastest-varying across lanes: the thread walks row i
# of A (the same for the whole warp: a broadcast) and row j of A (a different row per lane, m*4
# bytes apart: memory-divergent, each thread re-reading its row's line). DaCache's SYR.
# models: PolyBench/GPU syrk (DaCache SYR)
# inputs: an n x m matrix A and an n x n matrix C, uniform (seed); alpha, beta
# class: divergent
.param n     128
.param m     128
.param alpha 1.5
.param beta  1.2
.param seed  43

.array A f32 [n*m] uniform(seed=seed)
.array C f32 [n*n] uniform(seed=seed+1)

.kernel syrk block=256
        mov     r0, %gtid
        setp.ge p0, r0, n*n
    @p0 exit
        div     r1, r0, n               ; i
        rem     r2, r0, n               ; j
        mul     r1, r1, m*4             ; row i of A
        mul     r2, r2, m*4             ; row j of A
        mov     r3, 0                   ; k*4
        mov     r4, 0.0
kl:     ld.f32  r5, [A + r1 + r3]
        ld.f32  r6, [A + r2 + r3]
        ffma    r4, r5, r6, r4
        add     r3, r3, 4
        setp.lt p1, r3, m*4
    @p1 bra     kl
        ld.f32  r7, [C + r0*4]
        fmul    r7, r7, beta
        ffma    r7, r4, alpha, r7
        st.f32  [C + r0*4], r7
        exit

.host
        launch syrk grid=ceil_div(n*n, 256)
