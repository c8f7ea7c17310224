# matmul: tiled single-precision matrix multiply C = A*B with 16x16 shared-memory tiles
#
# Each CTA computes a 16x16 tile of C; for every step it stages a tile of A and of B in
# shared memory, synchronises, and runs 16 fused multiply-adds per thread from shared
# memory. Compute-bound with barriers and little cache sensitivity (CI / Type-C).
# Parameters: n (the matrices are n x n, n a multiple of 16) and the seed of the inputs.
# models: CUDA SDK / Parboil tiled matrix multiply (DYNCTA MM)
# inputs: n x n uniform matrices (seed)
# class: CI Type-C coherent
.param n    64
.param seed 3

.array A f32 [n*n] uniform(seed=seed, lo=-1, hi=1)
.array B f32 [n*n] uniform(seed=seed+1, lo=-1, hi=1)
.array C f32 [n*n] zero

.kernel mm block=256 shared=2*16*16*4
        mov     r0, %tid
        and     r1, r0, 15              ; tx
        shr     r2, r0, 4               ; ty
        mov     r3, %ctaid
        rem     r4, r3, n/16            ; tile column
        div     r5, r3, n/16            ; tile row
        shl     r4, r4, 4
        add     r6, r4, r1              ; col = bx*16 + tx
        shl     r5, r5, 4
        add     r7, r5, r2              ; row = by*16 + ty
        shl     r9, r1, 2               ; tx*4
        mad     r8, r7, n*4, r9         ; &A[row][tx] - A
        shl     r11, r6, 2              ; col*4
        mad     r10, r2, n*4, r11       ; &B[ty][col] - B
        shl     r12, r0, 2              ; this thread's slot in a shared tile
        shl     r15, r2, 6              ; ty*64: row ty of the A tile
        add     r22, r15, 64            ; end of that row
        add     r16, r9, 16*16*4        ; column tx of the B tile
        mov     r13, 0.0                ; accumulator
        mov     r14, 0                  ; tile step
tile:   ld.f32  r17, [A + r8]
        st.shared.f32 [r12], r17
        ld.f32  r17, [B + r10]
        st.shared.f32 [r12 + 16*16*4], r17
        bar
        mov     r18, r15
        mov     r20, r16
inner:  ld.shared.f32 r21, [r18]
        ld.shared.f32 r23, [r20]
        ffma    r13, r21, r23, r13
        add     r18, r18, 4
        add     r20, r20, 64
        setp.lt p0, r18, r22
    @p0 bra     inner
        bar
        add     r8, r8, 16*4            ; A tile moves right
        add     r10, r10, 16*n*4        ; B tile moves down
        add     r14, r14, 1
        setp.lt p1, r14, n/16
    @p1 bra     tile
        mad     r24, r7, n*4, r11
        st.f32  [C + r24], r13
        exit

.host
        launch mm grid=(n/16)*(n/16)
