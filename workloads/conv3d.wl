# conv3d: 3x3x3 three-dimensional convolution, PolyBench/GPU 3DConvolution (11 taps)
#
# One thread per output voxel, k across lanes: every tap reads a coalesced row segment shifted
# by at most one element, in the planes i-1, i and i+1 (DaCache's memory-coherent 3DC).
# models: PolyBench/GPU 3DConvolution (DaCache 3DC)
# inputs: an ni x nj x nk volume, uniform (seed)
# class: coherent
.param ni   64
.param nj   64
.param nk   64
.param seed 59

.array A f32 [ni*nj*nk] uniform(seed=seed)
.array B f32 [ni*nj*nk] zero

.kernel conv3d block=256
        mov     r0, %gtid
        setp.ge p0, r0, ni*nj*nk
    @p0 exit
        div     r1, r0, nj*nk           ; i
        rem     r2, r0, nj*nk
        div     r5, r2, nk              ; j
        rem     r6, r2, nk              ; k
        setp.lt p1, r1, 1
    @p1 exit
        setp.ge p1, r1, ni-1
    @p1 exit
        setp.lt p1, r5, 1
    @p1 exit
        setp.ge p1, r5, nj-1
    @p1 exit
        setp.lt p1, r6, 1
    @p1 exit
        setp.ge p1, r6, nk-1
    @p1 exit
        shl     r3, r0, 2
        ld.f32  r4, [A + r3 - (nj*nk + nk + 1)*4]   ; A[i-1][j-1][k-1]
        fmul    r10, r4, 2.0
        ld.f32  r4, [A + r3 - (nj*nk + nk - 1)*4]   ; A[i-1][j-1][k+1]
        ffma    r10, r4, 5.0, r10
        ld.f32  r4, [A + r3 - (nj*nk - nk + 1)*4]   ; A[i-1][j+1][k-1]
        ffma    r10, r4, -8.0, r10
        ld.f32  r4, [A + r3 - (nj*nk - nk - 1)*4]   ; A[i-1][j+1][k+1]
        ffma    r10, r4, -3.0, r10
        ld.f32  r4, [A + r3 - (nk + 1)*4]           ; A[i][j-1][k-1]
        ffma    r10, r4, 6.0, r10
        ld.f32  r4, [A + r3]                        ; A[i][j][k]
        ffma    r10, r4, -9.0, r10
        ld.f32  r4, [A + r3 + (nk - 1)*4]           ; A[i][j+1][k-1]
        ffma    r10, r4, 4.0, r10
        ld.f32  r4, [A + r3 + (nj*nk - nk - 1)*4]   ; A[i+1][j-1][k-1]
        ffma    r10, r4, 7.0, r10
        ld.f32  r4, [A + r3 + (nj*nk - nk + 1)*4]   ; A[i+1][j-1][k+1]
        ffma    r10, r4, 2.0, r10
        ld.f32  r4, [A + r3 + (nj*nk + nk - 1)*4]   ; A[i+1][j+1][k-1]
        ffma    r10, r4, 5.0, r10
        ld.f32  r4, [A + r3 + (nj*nk + nk + 1)*4]   ; A[i+1][j+1][k+1]
        ffma    r10, r4, -8.0, r10
        st.f32  [B + r3], r10
        exit

.host
        launch conv3d grid=ceil_div(ni*nj*nk, 256)
