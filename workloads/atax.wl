# atax: y = A^T (A x), PolyBench/GPU's two kernels, one thread per row and per column
#
# Kernel 1 gives each thread a row i of A and sums A[i][j]*x[j] along it: the lanes of a warp
# read addresses n*4 bytes apart (memory-divergent), and each thread re-reads its row's line
# for 32 consecutive j (intra-thread locality). Kernel 2 gives each thread a column j and sums
# A[i][j]*tmp[i] down it: coalesced. DaCache's memory-divergent ATAX.
# models: PolyBench/GPU atax (DaCache ATAX)
# inputs: an n x n matrix and an n-vector, uniform (seed)
# class: divergent
.param n    1024
.param seed 29

.array A   f32 [n*n] uniform(seed=seed)
.array x   f32 [n]   uniform(seed=seed+1)
.array tmp f32 [n]   zero
.array y   f32 [n]   zero

.kernel atax1 block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        mul     r1, r0, n*4             ; row i
        mov     r2, 0                   ; j*4
        mov     r3, 0.0
row:    ld.f32  r4, [A + r1 + r2]
        ld.f32  r5, [x + r2]
        ffma    r3, r4, r5, r3
        add     r2, r2, 4
        setp.lt p1, r2, n*4
    @p1 bra     row
        st.f32  [tmp + r0*4], r3
        exit

.kernel atax2 block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        shl     r1, r0, 2               ; column j
        mov     r2, 0                   ; i*n*4
        mov     r6, 0                   ; i*4
        mov     r3, 0.0
col:    ld.f32  r4, [A + r1 + r2]
        ld.f32  r5, [tmp + r6]
        ffma    r3, r4, r5, r3
        add     r2, r2, n*4
        add     r6, r6, 4
        setp.lt p1, r6, n*4
    @p1 bra     col
        st.f32  [y + r0*4], r3
        exit

.host
        launch atax1 grid=ceil_div(n, 256)
        launch atax2 grid=ceil_div(n, 256)
