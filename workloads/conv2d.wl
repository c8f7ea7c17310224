# conv2d: 3x3 two-dimensional convolution, PolyBench/GPU 2DConvolution
#
# One thread per output pixel, columns across lanes: each of the nine loads reads a row
# segment of the image, coalesced but shifted by -1, 0 or +1 element, so a load touches one
# or two lines (DaCache's memory-coherent 2DC, partial caching at MPLI 1). Neighbouring rows
# are shared between warps (inter-warp reuse).
# models: PolyBench/GPU 2DConvolution (DaCache 2DC)
# inputs: an ni x nj image, uniform (seed)
# class: coherent
.param ni   512
.param nj   512
.param seed 53

.array A f32 [ni*nj] uniform(seed=seed)
.array B f32 [ni*nj] zero

.kernel conv2d block=256
        mov     r0, %gtid
        setp.ge p0, r0, ni*nj
    @p0 exit
        div     r1, r0, nj              ; i
        rem     r2, r0, nj              ; j
        setp.lt p1, r1, 1
    @p1 exit
        setp.ge p1, r1, ni-1
    @p1 exit
        setp.lt p1, r2, 1
    @p1 exit
        setp.ge p1, r2, nj-1
    @p1 exit
        shl     r3, r0, 2               ; &A[i][j] - A
        ld.f32  r4, [A + r3 - (nj+1)*4]
        fmul    r10, r4, 0.2
        ld.f32  r4, [A + r3 - nj*4]
        ffma    r10, r4, 0.5, r10
        ld.f32  r4, [A + r3 - (nj-1)*4]
        ffma    r10, r4, -0.8, r10
        ld.f32  r4, [A + r3 - 4]
        ffma    r10, r4, -0.3, r10
        ld.f32  r4, [A + r3]
        ffma    r10, r4, 0.6, r10
        ld.f32  r4, [A + r3 + 4]
        ffma    r10, r4, -0.9, r10
        ld.f32  r4, [A + r3 + (nj-1)*4]
        ffma    r10, r4, 0.4, r10
        ld.f32  r4, [A + r3 + nj*4]
        ffma    r10, r4, 0.7, r10
        ld.f32  r4, [A + r3 + (nj+1)*4]
        ffma    r10, r4, 0.1, r10
        st.f32  [B + r3], r10
        exit

.host
        launch conv2d grid=ceil_div(ni*nj, 256)
