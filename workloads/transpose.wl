# transpose: naive out-of-place matrix transpose, coalesced reads and one-word column writes
#
# The CUDA samples' transposeNaive: a CTA of 32x8 threads moves a 32x32 tile, each thread four
# elements 8 rows apart. Every warp load reads one row of the tile (a full, coalesced 128-byte
# line) and every warp store writes one column of the output: 32 lines n*4 bytes apart, 4
# bytes of each, so the stores make 32 partial-line writes per instruction and the L2 and DRAM
# see a write per element while the reads stream. Almost no arithmetic: bandwidth-bound on
# the store side. transpose_tiled is the same transpose through shared memory. (Coherent in
# DaCache's sense, which counts loads: here the stores are the divergent accesses.)
# models: CUDA samples transposeNaive (the matrix transpose of NVIDIA's transpose white paper)
# inputs: an n x n matrix (n a multiple of 32), uniform (seed)
# class: CI Type-M coherent
.param n    512
.param seed 137

.array idata f32 [n*n] uniform(seed=seed)
.array odata f32 [n*n] zero

.kernel naive block=256
        mov     r0, %tid
        and     r1, r0, 31              ; tx
        shr     r2, r0, 5               ; ty, 0..7
        mov     r3, %ctaid
        rem     r4, r3, n/32            ; tile column bx
        div     r5, r3, n/32            ; tile row by
        shl     r4, r4, 5
        add     r6, r4, r1              ; x = bx*32 + tx
        shl     r5, r5, 5
        add     r7, r5, r2              ; y = by*32 + ty
        mad     r8, r7, n, r6           ; in: (y, x)
        mad     r9, r6, n, r7           ; out: (x, y)
        ld.f32  r10, [idata + r8*4]
        st.f32  [odata + r9*4], r10
        ld.f32  r10, [idata + r8*4 + 8*n*4]
        st.f32  [odata + r9*4 + 8*4], r10
        ld.f32  r10, [idata + r8*4 + 16*n*4]
        st.f32  [odata + r9*4 + 16*4], r10
        ld.f32  r10, [idata + r8*4 + 24*n*4]
        st.f32  [odata + r9*4 + 24*4], r10
        exit

.host
        launch naive grid=(n/32)*(n/32)
