# fdtd2d: two-dimensional finite-difference time domain, PolyBench/GPU fdtd-2d
#
# Every time step runs three stencil kernels over the nx x ny grid (update ey from hz, ex
# from hz, hz from ex and ey), one thread per cell, columns across lanes: coalesced loads of
# the cell and a neighbour one row or one column away (DaCache's memory-coherent FD).
# models: PolyBench/GPU fdtd-2d (DaCache FD)
# inputs: nx x ny fields, uniform (seed); tmax time steps
# class: coherent
.param nx   256
.param ny   256
.param tmax 4
.param seed 71

.array ex   f32 [nx*ny] uniform(seed=seed)
.array ey   f32 [nx*ny] uniform(seed=seed+1)
.array hz   f32 [nx*ny] uniform(seed=seed+2)
.array fict f32 [tmax]  iota()
.array t    i32 [1]     zero

.kernel step1 block=256                 ; ey[i][j] -= 0.5*(hz[i][j] - hz[i-1][j]); row 0 from fict
        mov     r0, %gtid
        setp.ge p0, r0, nx*ny
    @p0 exit
        div     r1, r0, ny
        shl     r3, r0, 2
        setp.ne p1, r1, 0
    @p1 bra     inner
        ld.i32  r4, [t]
        ld.f32  r5, [fict + r4*4]
        st.f32  [ey + r3], r5
        exit
inner:  ld.f32  r5, [hz + r3]
        ld.f32  r6, [hz + r3 - ny*4]
        fsub    r5, r5, r6
        ld.f32  r7, [ey + r3]
        ffma    r7, r5, -0.5, r7
        st.f32  [ey + r3], r7
        exit

.kernel step2 block=256                 ; ex[i][j] -= 0.5*(hz[i][j] - hz[i][j-1]), j > 0
        mov     r0, %gtid
        setp.ge p0, r0, nx*ny
    @p0 exit
        rem     r2, r0, ny
        setp.eq p1, r2, 0
    @p1 exit
        shl     r3, r0, 2
        ld.f32  r5, [hz + r3]
        ld.f32  r6, [hz + r3 - 4]
        fsub    r5, r5, r6
        ld.f32  r7, [ex + r3]
        ffma    r7, r5, -0.5, r7
        st.f32  [ex + r3], r7
        exit

.kernel step3 block=256                 ; hz -= 0.7*(ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
        mov     r0, %gtid
        setp.ge p0, r0, nx*ny
    @p0 exit
        div     r1, r0, ny
        rem     r2, r0, ny
        setp.ge p1, r1, nx-1
    @p1 exit
        setp.ge p1, r2, ny-1
    @p1 exit
        shl     r3, r0, 2
        ld.f32  r4, [ex + r3 + 4]
        ld.f32  r5, [ex + r3]
        fsub    r4, r4, r5
        ld.f32  r5, [ey + r3 + ny*4]
        fadd    r4, r4, r5
        ld.f32  r5, [ey + r3]
        fsub    r4, r4, r5
        ld.f32  r6, [hz + r3]
        ffma    r6, r4, -0.7, r6
        st.f32  [hz + r3], r6
        exit

.kernel tick block=32
        mov     r0, %tid
        setp.ne p0, r0, 0
    @p0 exit
        ld.i32  r1, [t]
        add     r1, r1, 1
        st.i32  [t], r1
        exit

.host
        do max=tmax
            launch step1 grid=ceil_div(nx*ny, 256)
            launch step2 grid=ceil_div(nx*ny, 256)
            launch step3 grid=ceil_div(nx*ny, 256)
            launch tick grid=1
        while t[0] != tmax
