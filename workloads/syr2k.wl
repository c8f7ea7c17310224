# syr2k: symmetric rank-2k update C = alpha*(A*B^T + B*A^T) + beta*C, PolyBench/GPU
#
# One thread per element C[i][j], j across lanes: rows i of A and B are broadcasts, rows j of A
# and B differ per lane, m*4 bytes apart: two memory-divergent loads per step, each re-reading
# the thread's row lines. DaCache's SYR2.
# models: PolyBench/GPU syr2k (DaCache SYR2)
# inputs: n x m matrices A and B, an n x n matrix C, uniform (seed); alpha, beta
# class: divergent
.param n     128
.param m     128
.param alpha 1.5
.param beta  1.2
.param seed  47

.array A f32 [n*m] uniform(seed=seed)
.array B f32 [n*m] uniform(seed=seed+1)
.array C f32 [n*n] uniform(seed=seed+2)

.kernel syr2k block=256
        mov     r0, %gtid
        setp.ge p0, r0, n*n
    @p0 exit
        div     r1, r0, n
        rem     r2, r0, n
        mul     r1, r1, m*4
        mul     r2, r2, m*4
        mov     r3, 0
        mov     r4, 0.0
kl:     ld.f32  r5, [A + r1 + r3]       ; A[i][k]
        ld.f32  r6, [B + r2 + r3]       ; B[j][k]
        ffma    r4, r5, r6, r4
        ld.f32  r5, [B + r1 + r3]       ; B[i][k]
        ld.f32  r6, [A + r2 + r3]       ; A[j][k]
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
        launch syr2k grid=ceil_div(n*n, 256)
