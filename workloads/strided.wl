# strided: column sums of a wide row-major matrix, one warp per column, lanes a row apart
#
# Each warp sums one column of a rows x cols matrix (cols a power of two: rows 8 KB apart by
# default): lane l reads rows l, l+32, l+64, ..., so every warp load touches 32 lines exactly
# cols*4 bytes apart, one word of each, and the lanes' partial sums are then added by a
# warp-synchronous tree in shared memory. A power-of-two stride puts all 32 lines of a load in
# one L1D set under a linear set index (qv100's), and on a linear channel mapping in a few
# channels (with the GTX480's six channels of 256 bytes, an 8 KB stride reaches three), so how
# well the L1D and L2 address hashes spread the lines decides the misses and the traffic per
# partition (the partition camping of NVIDIA's transpose white paper; GPGPU-Sim's IPOLY hash,
# qv100's, spreads them). The 8 warps of a CTA read neighbouring columns, 32 bytes of the same
# lines: inter-warp reuse that a 32 KB L1D with a linear index loses (on the class test's
# input IPC is 6x higher with an unbounded L1D); nothing else is reused. The loop is unrolled
# four times, as a compiler would.
# models: column walks of row-major matrices (column statistics; partition-camping studies)
# inputs: a rows x cols matrix uniform in [0, 1) (seed); rows a multiple of 128, cols a power of two
# class: MCS divergent Type-M
.param rows 256
.param cols 2048
.param seed 163
.param pitch cols*4                     ; bytes from one row to the next

.array A      f32 [rows*cols] uniform(seed=seed)
.array colsum f32 [cols] zero

.kernel colwalk block=256 shared=256*4
        mov     r0, %ctaid
        shl     r0, r0, 3
        mov     r1, %warpid
        add     r0, r0, r1              ; this warp's column c
        mov     r2, %laneid
        mad     r3, r2, cols, r0
        shl     r3, r3, 2               ; &A[lane][c]
        mov     r4, 0.0
        mov     r5, r2                  ; row
walk:   ld.f32  r6, [A + r3]
        ld.f32  r7, [A + r3 + 32*pitch]
        ld.f32  r8, [A + r3 + 64*pitch]
        ld.f32  r9, [A + r3 + 96*pitch]
        fadd    r4, r4, r6
        fadd    r4, r4, r7
        fadd    r4, r4, r8
        fadd    r4, r4, r9
        add     r3, r3, 128*pitch
        add     r5, r5, 128
        setp.lt p0, r5, rows
    @p0 bra     walk
        mov     r10, %tid
        shl     r10, r10, 2
        st.shared.f32 [r10], r4         ; the warp's 32 partial sums
        setp.lt p1, r2, 16
    @p1 ld.shared.f32 r6, [r10 + 64]
    @p1 fadd    r4, r4, r6
    @p1 st.shared.f32 [r10], r4
        setp.lt p1, r2, 8
    @p1 ld.shared.f32 r6, [r10 + 32]
    @p1 fadd    r4, r4, r6
    @p1 st.shared.f32 [r10], r4
        setp.lt p1, r2, 4
    @p1 ld.shared.f32 r6, [r10 + 16]
    @p1 fadd    r4, r4, r6
    @p1 st.shared.f32 [r10], r4
        setp.lt p1, r2, 2
    @p1 ld.shared.f32 r6, [r10 + 8]
    @p1 fadd    r4, r4, r6
    @p1 st.shared.f32 [r10], r4
        setp.ne p2, r2, 0
    @p2 exit
        ld.shared.f32 r6, [r10 + 4]
        fadd    r4, r4, r6
        st.f32  [colsum + r0*4], r4
        exit

.host
        launch colwalk grid=cols/8
