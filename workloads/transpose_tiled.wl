# transpose_tiled: matrix transpose through a shared-memory tile, with or without padded rows
#
# The CUDA samples' transposeCoalesced (pad=0) and transposeNoBankConflicts (pad=1): a CTA of
# 32x8 threads reads a 32x32 tile row by row (coalesced) into shared memory, synchronises, and
# writes it out row by row (coalesced) reading the tile down its columns. With 32-word rows the
# column read has the 32 lanes of a warp on one bank (a 32-way bank conflict, which the
# load/store unit serialises when shared accesses go through it, sm.shared_path=ldst); pad=1
# makes the rows 33 words so that the column falls on 32 banks. Global traffic is the same as
# a copy: full lines both ways.
# models: CUDA samples transposeCoalesced and transposeNoBankConflicts
# inputs: an n x n matrix (n a multiple of 32), uniform (seed); pad 0 or 1 words per tile row
# class: CI Type-M coherent
.param n    512
.param pad  0
.param seed 139
.param row  (32+pad)*4                  ; bytes per tile row in shared memory

.array idata f32 [n*n] uniform(seed=seed)
.array odata f32 [n*n] zero

.kernel tiled block=256 shared=32*row
        mov     r0, %tid
        and     r1, r0, 31              ; tx
        shr     r2, r0, 5               ; ty, 0..7
        mov     r3, %ctaid
        rem     r4, r3, n/32            ; tile column bx
        div     r5, r3, n/32            ; tile row by
        shl     r4, r4, 5
        shl     r5, r5, 5
        add     r6, r4, r1              ; x = bx*32 + tx
        add     r7, r5, r2              ; y = by*32 + ty
        mad     r8, r7, n, r6           ; in: (y, x)
        shl     r11, r1, 2
        mad     r12, r2, row, r11       ; &tile[ty][tx]
        ld.f32  r10, [idata + r8*4]
        st.shared.f32 [r12], r10
        ld.f32  r10, [idata + r8*4 + 8*n*4]
        st.shared.f32 [r12 + 8*row], r10
        ld.f32  r10, [idata + r8*4 + 16*n*4]
        st.shared.f32 [r12 + 16*row], r10
        ld.f32  r10, [idata + r8*4 + 24*n*4]
        st.shared.f32 [r12 + 24*row], r10
        bar
        add     r6, r5, r1              ; x = by*32 + tx
        add     r7, r4, r2              ; y = bx*32 + ty
        mad     r9, r7, n, r6           ; out: (y, x)
        shl     r13, r2, 2
        mad     r14, r1, row, r13       ; &tile[tx][ty]: lanes a row apart
        ld.shared.f32 r10, [r14]
        st.f32  [odata + r9*4], r10
        ld.shared.f32 r10, [r14 + 8*4]
        st.f32  [odata + r9*4 + 8*n*4], r10
        ld.shared.f32 r10, [r14 + 16*4]
        st.f32  [odata + r9*4 + 16*n*4], r10
        ld.shared.f32 r10, [r14 + 24*4]
        st.f32  [odata + r9*4 + 24*n*4], r10
        exit

.host
        launch tiled grid=(n/32)*(n/32)
