# hotspot: thermal simulation of a chip by an explicit 2D stencil, Rodinia's pyramid version
#
# Each launch advances ph time steps: a CTA loads a 16x16 tile of temperatures and power
# (with ph ghost cells on each side) into shared memory and repeats ph stencil updates there
# with barriers, writing back the (16-2*ph)^2 cells it computed exactly. Two coalesced loads
# per cell and a dozen FP operations per step, reuse in shared memory: DYNCTA's Type-C HOT.
# models: Rodinia hotspot (DYNCTA HOT)
# inputs: a rows x cols grid, temperatures uniform in [320, 340), power in [0, 1) (seed)
# class: Type-C CI
.param rows  256
.param cols  256
.param ph    2
.param niter 2
.param seed  107
.param gx    ceil_div(cols, 16-2*ph)
.param gy    ceil_div(rows, 16-2*ph)
.param sdc   0.05
.param rx1   0.1
.param ry1   0.1
.param rz1   0.0005
.param amb   80.0

.array ta    f32 [rows*cols] uniform(seed=seed, lo=320, hi=340)
.array tb    f32 [rows*cols] zero
.array power f32 [rows*cols] uniform(seed=seed+1)
.array it    i32 [1] zero

.kernel hs_ab block=256 shared=3*256*4
        mov     r0, %tid
        and     r1, r0, 15              ; tx
        shr     r2, r0, 4               ; ty
        mov     r3, %ctaid
        rem     r4, r3, gx
        div     r5, r3, gx
        mul     r4, r4, 16-2*ph
        sub     r4, r4, ph              ; blkX
        mul     r5, r5, 16-2*ph
        sub     r5, r5, ph              ; blkY
        add     r6, r5, r2              ; i
        add     r7, r4, r1              ; j
        mad     r8, r6, cols, r7        ; k
        neg     r9, r4
        max     r9, r9, 0               ; validXmin
        add     r10, r4, 15
        sub     r10, r10, cols-1
        max     r10, r10, 0
        sub     r10, 15, r10            ; validXmax
        neg     r11, r5
        max     r11, r11, 0             ; validYmin
        add     r12, r5, 15
        sub     r12, r12, rows-1
        max     r12, r12, 0
        sub     r12, 15, r12            ; validYmax
        setp.lt p0, r1, r9
        selp    r13, 0, 1, p0
        setp.gt p0, r1, r10
        selp    r13, 0, r13, p0
        setp.lt p0, r2, r11
        selp    r13, 0, r13, p0
        setp.gt p0, r2, r12
        selp    r13, 0, r13, p0         ; in the grid
        setp.ne p1, r13, 0
        shl     r14, r0, 2
    @p1 ld.f32  r15, [ta + r8*4]
    @p1 st.shared.f32 [r14], r15
    @p1 ld.f32  r15, [power + r8*4]
    @p1 st.shared.f32 [r14 + 1024], r15
        bar
        sub     r16, r2, 1
        max     r16, r16, r11
        mad     r16, r16, 16, r1        ; N
        add     r17, r2, 1
        min     r17, r17, r12
        mad     r17, r17, 16, r1        ; S
        sub     r18, r1, 1
        max     r18, r18, r9
        mad     r18, r2, 16, r18        ; W
        add     r19, r1, 1
        min     r19, r19, r10
        mad     r19, r2, 16, r19        ; E
        mov     r20, 0
loop:   add     r21, r20, 1
        sub     r22, 14, r20
        setp.lt p2, r1, r21
        selp    r23, 0, r13, p2
        setp.gt p2, r1, r22
        selp    r23, 0, r23, p2
        setp.lt p2, r2, r21
        selp    r23, 0, r23, p2
        setp.gt p2, r2, r22
        selp    r23, 0, r23, p2
        setp.ne p3, r23, 0              ; computed
    @!p3 bra    skip
        ld.shared.f32 r24, [r14]        ; T
        ld.shared.f32 r25, [r16*4]
        ld.shared.f32 r26, [r17*4]
        fadd    r25, r25, r26
        ffma    r25, r24, -2.0, r25     ; (N + S - 2T)
        fmul    r25, r25, ry1
        ld.shared.f32 r26, [r18*4]
        ld.shared.f32 r27, [r19*4]
        fadd    r26, r26, r27
        ffma    r26, r24, -2.0, r26     ; (W + E - 2T)
        ffma    r25, r26, rx1, r25
        fsub    r26, amb, r24
        ffma    r25, r26, rz1, r25
        ld.shared.f32 r26, [r14 + 1024]
        fadd    r25, r25, r26
        ffma    r25, r25, sdc, r24
        st.shared.f32 [r14 + 2048], r25
skip:   bar
        add     r20, r20, 1
        setp.eq p4, r20, ph
    @p4 bra     done
    @p3 ld.shared.f32 r25, [r14 + 2048]
    @p3 st.shared.f32 [r14], r25
        bar
        bra     loop
done:
    @p3 st.f32  [tb + r8*4], r25
        exit

.kernel hs_ba block=256 shared=3*256*4
        mov     r0, %tid
        and     r1, r0, 15              ; tx
        shr     r2, r0, 4               ; ty
        mov     r3, %ctaid
        rem     r4, r3, gx
        div     r5, r3, gx
        mul     r4, r4, 16-2*ph
        sub     r4, r4, ph              ; blkX
        mul     r5, r5, 16-2*ph
        sub     r5, r5, ph              ; blkY
        add     r6, r5, r2              ; i
        add     r7, r4, r1              ; j
        mad     r8, r6, cols, r7        ; k
        neg     r9, r4
        max     r9, r9, 0               ; validXmin
        add     r10, r4, 15
        sub     r10, r10, cols-1
        max     r10, r10, 0
        sub     r10, 15, r10            ; validXmax
        neg     r11, r5
        max     r11, r11, 0             ; validYmin
        add     r12, r5, 15
        sub     r12, r12, rows-1
        max     r12, r12, 0
        sub     r12, 15, r12            ; validYmax
        setp.lt p0, r1, r9
        selp    r13, 0, 1, p0
        setp.gt p0, r1, r10
        selp    r13, 0, r13, p0
        setp.lt p0, r2, r11
        selp    r13, 0, r13, p0
        setp.gt p0, r2, r12
        selp    r13, 0, r13, p0         ; in the grid
        setp.ne p1, r13, 0
        shl     r14, r0, 2
    @p1 ld.f32  r15, [tb + r8*4]
    @p1 st.shared.f32 [r14], r15
    @p1 ld.f32  r15, [power + r8*4]
    @p1 st.shared.f32 [r14 + 1024], r15
        bar
        sub     r16, r2, 1
        max     r16, r16, r11
        mad     r16, r16, 16, r1        ; N
        add     r17, r2, 1
        min     r17, r17, r12
        mad     r17, r17, 16, r1        ; S
        sub     r18, r1, 1
        max     r18, r18, r9
        mad     r18, r2, 16, r18        ; W
        add     r19, r1, 1
        min     r19, r19, r10
        mad     r19, r2, 16, r19        ; E
        mov     r20, 0
loop:   add     r21, r20, 1
        sub     r22, 14, r20
        setp.lt p2, r1, r21
        selp    r23, 0, r13, p2
        setp.gt p2, r1, r22
        selp    r23, 0, r23, p2
        setp.lt p2, r2, r21
        selp    r23, 0, r23, p2
        setp.gt p2, r2, r22
        selp    r23, 0, r23, p2
        setp.ne p3, r23, 0              ; computed
    @!p3 bra    skip
        ld.shared.f32 r24, [r14]        ; T
        ld.shared.f32 r25, [r16*4]
        ld.shared.f32 r26, [r17*4]
        fadd    r25, r25, r26
        ffma    r25, r24, -2.0, r25     ; (N + S - 2T)
        fmul    r25, r25, ry1
        ld.shared.f32 r26, [r18*4]
        ld.shared.f32 r27, [r19*4]
        fadd    r26, r26, r27
        ffma    r26, r24, -2.0, r26     ; (W + E - 2T)
        ffma    r25, r26, rx1, r25
        fsub    r26, amb, r24
        ffma    r25, r26, rz1, r25
        ld.shared.f32 r26, [r14 + 1024]
        fadd    r25, r25, r26
        ffma    r25, r25, sdc, r24
        st.shared.f32 [r14 + 2048], r25
skip:   bar
        add     r20, r20, 1
        setp.eq p4, r20, ph
    @p4 bra     done
    @p3 ld.shared.f32 r25, [r14 + 2048]
    @p3 st.shared.f32 [r14], r25
        bar
        bra     loop
done:
    @p3 st.f32  [ta + r8*4], r25
        exit

.kernel tick block=32
        mov     r0, %tid
        setp.ne p0, r0, 0
    @p0 exit
        ld.i32  r1, [it]
        add     r1, r1, 1
        st.i32  [it], r1
        exit

.host
        do max=niter
            launch hs_ab grid=gx*gy
            launch hs_ba grid=gx*gy
            launch tick grid=1
        while it[0] != niter
