# backprop: one training step of a two-layer perceptron, Rodinia's two kernels
#
# layerforward: each CTA of 16x16 threads multiplies 16 input nodes by their 16x17 block of
# weights in shared memory and reduces the products over the inputs with a barrier per step;
# adjust_weights: one thread per weight, a coalesced read-modify-write of the weight and its
# previous change. Regular, coalesced and barrier-bound: cache-insensitive (CCWS BACKP).
# models: Rodinia backprop (CCWS BACKP, CAWA backprop, DYNCTA BP)
# inputs: nin input nodes, 16 hidden nodes, uniform inputs, weights and deltas (seed)
# class: CI coherent
.param nin      16384
.param hid      16
.param eta      0.3
.param momentum 0.3
.param seed     97

.array input   f32 [nin+1] uniform(seed=seed)
.array weights f32 [(nin+1)*(hid+1)] uniform(seed=seed+1, lo=-0.5, hi=0.5)
.array oldw    f32 [(nin+1)*(hid+1)] zero
.array partial f32 [nin/16*hid] zero
.array delta   f32 [hid+1] uniform(seed=seed+2, lo=-0.1, hi=0.1)

.kernel forward block=256 shared=(16+256)*4
        mov     r0, %tid
        and     r1, r0, 15              ; tx
        shr     r2, r0, 4               ; ty
        mov     r3, %ctaid              ; by
        mul     r4, r3, (hid+1)*16
        mad     r4, r2, hid+1, r4
        add     r4, r4, r1
        add     r4, r4, hid+2           ; index of this weight
        shl     r5, r3, 4
        add     r5, r5, r2              ; index_in - 1
        setp.eq p0, r1, 0
    @p0 ld.f32  r6, [input + r5*4 + 4]
        shl     r7, r2, 2
    @p0 st.shared.f32 [r7], r6          ; input_node[ty]
        bar
        ld.f32  r8, [weights + r4*4]
        shl     r9, r0, 2
        add     r9, r9, 64              ; matrix[ty][tx]
        st.shared.f32 [r9], r8
        bar
        ld.shared.f32 r10, [r7]
        ld.shared.f32 r11, [r9]
        fmul    r11, r11, r10
        st.shared.f32 [r9], r11
        bar
        mov     r12, 1                  ; half of the power of two
red:    shl     r13, r12, 1
        sub     r14, r13, 1
        and     r14, r2, r14            ; ty % power
        setp.ne p1, r14, 0
    @p1 bra     redskip
        ld.shared.f32 r15, [r9]
        mul     r16, r12, 64
        add     r16, r16, r9
        ld.shared.f32 r17, [r16]        ; matrix[ty + power/2][tx]
        fadd    r15, r15, r17
        st.shared.f32 [r9], r15
redskip: bar
        mov     r12, r13
        setp.lt p2, r12, 16
    @p2 bra     red
        ld.shared.f32 r18, [r9]
        st.f32  [weights + r4*4], r18
        bar
        setp.ne p3, r1, 0
    @p3 exit
        shl     r19, r2, 2
        ld.shared.f32 r20, [r19 + 64]   ; matrix[0][ty]
        mad     r21, r3, hid, r2
        st.f32  [partial + r21*4], r20
        exit

.kernel adjust block=256
        mov     r0, %tid
        and     r1, r0, 15
        shr     r2, r0, 4
        mov     r3, %ctaid
        mul     r4, r3, (hid+1)*16
        mad     r4, r2, hid+1, r4
        add     r4, r4, r1
        add     r4, r4, hid+2
        shl     r5, r3, 4
        add     r5, r5, r2
        ld.f32  r6, [delta + r1*4 + 4]
        ld.f32  r7, [input + r5*4 + 4]
        ld.f32  r8, [oldw + r4*4]
        fmul    r9, r6, r7
        fmul    r9, r9, eta
        ffma    r9, r8, momentum, r9
        ld.f32  r10, [weights + r4*4]
        fadd    r10, r10, r9
        st.f32  [weights + r4*4], r10
        st.f32  [oldw + r4*4], r9
        exit

.host
        launch forward grid=nin/16
        launch adjust grid=nin/16
