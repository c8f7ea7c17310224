# covariance: the covariance matrix of m variables over n samples, PolyBench/GPU covariance
#
# Three kernels: column means (thread j walks column j: coalesced), centring (one thread per
# element), and the covariance (thread j1 walks columns j1..m-1 against its own column: its
# own column is coalesced across lanes, the other a broadcast). Loads touch one line each
# (DaCache's memory-coherent COV); the triangular loop gives threads unequal work.
# models: PolyBench/GPU covariance (DaCache COV)
# inputs: an n x m data matrix, uniform (seed)
# class: coherent
.param m    128
.param n    128
.param seed 67

.array data f32 [n*m] uniform(seed=seed)
.array mean f32 [m]   zero
.array symm f32 [m*m] zero

.kernel mean_k block=256
        mov     r0, %gtid
        setp.ge p0, r0, m
    @p0 exit
        shl     r1, r0, 2
        mov     r2, 0                   ; i*m*4
        mov     r3, 0.0
ml:     ld.f32  r4, [data + r1 + r2]
        fadd    r3, r3, r4
        add     r2, r2, m*4
        setp.lt p1, r2, n*m*4
    @p1 bra     ml
        fmul    r3, r3, 1.0/n
        st.f32  [mean + r1], r3
        exit

.kernel reduce_k block=256
        mov     r0, %gtid
        setp.ge p0, r0, n*m
    @p0 exit
        rem     r1, r0, m
        ld.f32  r2, [data + r0*4]
        ld.f32  r3, [mean + r1*4]
        fsub    r2, r2, r3
        st.f32  [data + r0*4], r2
        exit

.kernel covar_k block=256
        mov     r0, %gtid
        setp.ge p0, r0, m
    @p0 exit
        shl     r1, r0, 2               ; column j1
        mov     r2, r1                  ; column j2, from j1
jl:     mov     r3, 0                   ; i*m*4
        mov     r4, 0.0
il:     ld.f32  r5, [data + r1 + r3]
        ld.f32  r6, [data + r2 + r3]
        ffma    r4, r5, r6, r4
        add     r3, r3, m*4
        setp.lt p1, r3, n*m*4
    @p1 bra     il
        mad     r7, r0, m*4, r2
        st.f32  [symm + r7], r4
        add     r2, r2, 4
        setp.lt p2, r2, m*4
    @p2 bra     jl
        exit

.host
        launch mean_k grid=ceil_div(m, 256)
        launch reduce_k grid=ceil_div(n*m, 256)
        launch covar_k grid=ceil_div(m, 256)
