# bicg: the BiCGStab kernel pair s = A^T r and q = A p of PolyBench/GPU
#
# Kernel 1 gives each thread a column j (s[j] = sum_i r[i]*A[i][j], coalesced); kernel 2 a row
# i (q[i] = sum_j A[i][j]*p[j]): the lanes of a warp read n*4 bytes apart (memory-divergent)
# and each thread re-reads its row's line for 32 consecutive j. DaCache's BICG.
# models: PolyBench/GPU bicg (DaCache BICG)
# inputs: an n x n matrix and two n-vectors, uniform (seed)
# class: divergent
.param n    1024
.param seed 31

.array A f32 [n*n] uniform(seed=seed)
.array rv f32 [n]   uniform(seed=seed+1)
.array pv f32 [n]   uniform(seed=seed+2)
.array s f32 [n]   zero
.array q f32 [n]   zero

.kernel bicg1 block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        shl     r1, r0, 2               ; column j
        mov     r2, 0                   ; i*n*4
        mov     r6, 0                   ; i*4
        mov     r3, 0.0
col:    ld.f32  r4, [A + r1 + r2]
        ld.f32  r5, [rv + r6]
        ffma    r3, r4, r5, r3
        add     r2, r2, n*4
        add     r6, r6, 4
        setp.lt p1, r6, n*4
    @p1 bra     col
        st.f32  [s + r0*4], r3
        exit

.kernel bicg2 block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        mul     r1, r0, n*4             ; row i
        mov     r2, 0
        mov     r3, 0.0
row:    ld.f32  r4, [A + r1 + r2]
        ld.f32  r5, [pv + r2]
        ffma    r3, r4, r5, r3
        add     r2, r2, 4
        setp.lt p1, r2, n*4
    @p1 bra     row
        st.f32  [q + r0*4], r3
        exit

.host
        launch bicg1 grid=ceil_div(n, 256)
        launch bicg2 grid=ceil_div(n, 256)
