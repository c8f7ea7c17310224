# pathfinder: dynamic programming over a grid (the cheapest path from top to bottom), Rodinia
#
# Each launch advances ph rows: a CTA loads 256 cells of the current row (with ph ghost cells
# on each side) into shared memory and repeats ph times "take the cheapest of the three cells
# above, add this row's wall cost", with barriers, keeping the 256-2*ph cells it computed
# exactly. Coalesced row loads, reuse in shared memory: cache-insensitive (CAWA Non-sens).
# models: Rodinia pathfinder (CAWA pathfinder)
# inputs: a rows x cols grid of costs uniform in [0, 10) (seed); ph rows per launch
# class: CI Non-sens coherent
.param cols 32768
.param rows 33
.param ph   4
.param seed 103

.array wall i32 [(rows-1)*cols] uniform(seed=seed, lo=0, hi=10)
.array bufa i32 [cols] uniform(seed=seed+1, lo=0, hi=10)
.array bufb i32 [cols] zero
.array step i32 [1] zero

.kernel pf_ab block=256 shared=2*256*4
        mov     r0, %tid
        mov     r1, %ctaid
        ld.i32  r2, [step]              ; first wall row of this launch
        mul     r3, r1, 256-2*ph
        sub     r3, r3, ph              ; blkX
        add     r4, r3, r0              ; xidx
        neg     r5, r3
        max     r5, r5, 0               ; validXmin
        add     r6, r3, 255
        sub     r7, r6, cols-1
        max     r7, r7, 0
        sub     r6, 255, r7             ; validXmax
        sub     r8, r0, 1
        max     r8, r8, r5              ; W
        add     r9, r0, 1
        min     r9, r9, r6              ; E
        setp.lt p0, r0, r5
        selp    r11, 0, 1, p0
        setp.gt p1, r0, r6
        selp    r11, 0, r11, p1         ; isValid
        setp.ne p2, r11, 0
        shl     r10, r0, 2
    @p2 ld.i32  r13, [bufa + r4*4]
    @p2 st.shared.i32 [r10], r13
        bar
        mov     r14, 0
loop:   add     r15, r14, 1
        setp.lt p3, r0, r15
        selp    r16, 0, r11, p3
        sub     r15, 254, r14
        setp.gt p3, r0, r15
        selp    r16, 0, r16, p3
        setp.ne p4, r16, 0              ; computed
    @!p4 bra    skip
        ld.shared.i32 r17, [r8*4]
        ld.shared.i32 r18, [r10]
        ld.shared.i32 r19, [r9*4]
        min     r17, r17, r18
        min     r17, r17, r19
        add     r20, r2, r14
        mad     r20, r20, cols, r4
        ld.i32  r21, [wall + r20*4]
        add     r17, r17, r21
        st.shared.i32 [r10 + 1024], r17
skip:   bar
        add     r14, r14, 1
        setp.eq p5, r14, ph
    @p5 bra     done
    @p4 ld.shared.i32 r17, [r10 + 1024]
    @p4 st.shared.i32 [r10], r17
        bar
        bra     loop
done:
    @p4 st.i32  [bufb + r4*4], r17
        exit

.kernel pf_ba block=256 shared=2*256*4
        mov     r0, %tid
        mov     r1, %ctaid
        ld.i32  r2, [step]              ; first wall row of this launch
        mul     r3, r1, 256-2*ph
        sub     r3, r3, ph              ; blkX
        add     r4, r3, r0              ; xidx
        neg     r5, r3
        max     r5, r5, 0               ; validXmin
        add     r6, r3, 255
        sub     r7, r6, cols-1
        max     r7, r7, 0
        sub     r6, 255, r7             ; validXmax
        sub     r8, r0, 1
        max     r8, r8, r5              ; W
        add     r9, r0, 1
        min     r9, r9, r6              ; E
        setp.lt p0, r0, r5
        selp    r11, 0, 1, p0
        setp.gt p1, r0, r6
        selp    r11, 0, r11, p1         ; isValid
        setp.ne p2, r11, 0
        shl     r10, r0, 2
    @p2 ld.i32  r13, [bufb + r4*4]
    @p2 st.shared.i32 [r10], r13
        bar
        mov     r14, 0
loop:   add     r15, r14, 1
        setp.lt p3, r0, r15
        selp    r16, 0, r11, p3
        sub     r15, 254, r14
        setp.gt p3, r0, r15
        selp    r16, 0, r16, p3
        setp.ne p4, r16, 0              ; computed
    @!p4 bra    skip
        ld.shared.i32 r17, [r8*4]
        ld.shared.i32 r18, [r10]
        ld.shared.i32 r19, [r9*4]
        min     r17, r17, r18
        min     r17, r17, r19
        add     r20, r2, r14
        mad     r20, r20, cols, r4
        ld.i32  r21, [wall + r20*4]
        add     r17, r17, r21
        st.shared.i32 [r10 + 1024], r17
skip:   bar
        add     r14, r14, 1
        setp.eq p5, r14, ph
    @p5 bra     done
    @p4 ld.shared.i32 r17, [r10 + 1024]
    @p4 st.shared.i32 [r10], r17
        bar
        bra     loop
done:
    @p4 st.i32  [bufa + r4*4], r17
        exit

.kernel adv block=32
        mov     r0, %tid
        setp.ne p0, r0, 0
    @p0 exit
        ld.i32  r1, [step]
        add     r1, r1, ph
        st.i32  [step], r1
        exit

.host
        do max=(rows-1)/(2*ph)
            launch pf_ab grid=ceil_div(cols, 256-2*ph)
            launch adv grid=1
            launch pf_ba grid=ceil_div(cols, 256-2*ph)
            launch adv grid=1
        while step[0] != rows-1
