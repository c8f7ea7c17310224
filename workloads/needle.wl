# needle: Needleman-Wunsch sequence alignment, Rodinia's tiled anti-diagonal wavefront
#
# The (n+1) x (n+1) score matrix is computed in 16x16 tiles, one CTA of 16 threads (half a
# warp) per tile; the host launches one kernel per anti-diagonal of tiles, so early and late
# launches hold a handful of CTAs. Inside a tile the threads sweep its anti-diagonals in shared
# memory with a barrier per step. Little parallelism and idle SMs: DYNCTA's Type-X NW, cache-
# insensitive in CCWS (NDL).
# models: Rodinia needle (CCWS NDL, DYNCTA NW, CAWA needle)
# inputs: n = 16*nb residues per sequence, similarity scores uniform in [-10, 10) (seed)
# class: CI Type-X
.param nb      32
.param penalty 10
.param seed    89
.param n       16*nb
.param cols    n+1
.param REF     17*17*4                  ; byte offset of the reference tile in shared memory

.array items i32 [cols*cols] zero
.array ref   i32 [n*n] uniform(seed=seed, lo=-10, hi=10)
.array diag  i32 [1] zero

.kernel init block=256
        mov     r0, %gtid
        setp.gt p0, r0, n
    @p0 exit
        mul     r1, r0, -penalty
        st.i32  [items + r0*4], r1      ; row 0
        mul     r2, r0, cols
        st.i32  [items + r2*4], r1      ; column 0
        exit

.kernel nw block=16 shared=REF+16*16*4
        mov     r0, %tid                ; tx
        mov     r1, %ctaid              ; bx
        ld.i32  r2, [diag]
        sub     r3, r2, r1              ; by
        setp.lt p0, r3, 0
    @p0 exit
        setp.ge p0, r3, nb
    @p0 exit
        mul     r4, r3, 16*cols
        mad     r4, r1, 16, r4          ; index of the tile's corner temp[0][0]
        mul     r5, r3, 16*n
        mad     r5, r1, 16, r5          ; index of ref[0][0]
        add     r6, r4, r0
        ld.i32  r7, [items + r6*4 + 4]  ; the row above the tile
        shl     r8, r0, 2
        st.shared.i32 [r8 + 4], r7
        mad     r9, r0, cols, r4
        ld.i32  r7, [items + r9*4 + cols*4] ; the column left of it
        mul     r10, r0, 17*4
        st.shared.i32 [r10 + 17*4], r7
        setp.eq p1, r0, 0
    @p1 ld.i32  r7, [items + r4*4]
    @p1 st.shared.i32 [0], r7
        mov     r11, 0
rl:     mad     r12, r11, n, r5
        add     r12, r12, r0
        ld.i32  r7, [ref + r12*4]
        mad     r13, r11, 16, r0
        st.shared.i32 [r13*4 + REF], r7
        add     r11, r11, 1
        setp.lt p2, r11, 16
    @p2 bra     rl
        bar
        mov     r14, 0                  ; upper-left half: diagonals m = 0..15
ul:     setp.gt p3, r0, r14
    @p3 bra     ulskip
        add     r15, r0, 1              ; x
        sub     r16, r14, r0
        add     r16, r16, 1             ; y
        mad     r17, r16, 17, r15       ; y*17 + x
        shl     r17, r17, 2
        ld.shared.i32 r18, [r17 - 18*4]  ; temp[y-1][x-1]
        sub     r19, r16, 1
        mad     r19, r19, 16, r15
        shl     r19, r19, 2
        ld.shared.i32 r20, [r19 + REF - 4] ; ref[y-1][x-1]
        add     r18, r18, r20
        ld.shared.i32 r21, [r17 - 4]    ; temp[y][x-1]
        sub     r21, r21, penalty
        max     r18, r18, r21
        ld.shared.i32 r21, [r17 - 17*4] ; temp[y-1][x]
        sub     r21, r21, penalty
        max     r18, r18, r21
        st.shared.i32 [r17], r18
ulskip: bar
        add     r14, r14, 1
        setp.lt p4, r14, 16
    @p4 bra     ul
        mov     r14, 14                 ; lower-right half: m = 14..0
lr:     setp.gt p3, r0, r14
    @p3 bra     lrskip
        sub     r15, 16, r14
        add     r15, r15, r0            ; x = tx + 16 - m
        sub     r16, 16, r0             ; y = 16 - tx
        mad     r17, r16, 17, r15       ; y*17 + x
        shl     r17, r17, 2
        ld.shared.i32 r18, [r17 - 18*4]  ; temp[y-1][x-1]
        sub     r19, r16, 1
        mad     r19, r19, 16, r15
        shl     r19, r19, 2
        ld.shared.i32 r20, [r19 + REF - 4] ; ref[y-1][x-1]
        add     r18, r18, r20
        ld.shared.i32 r21, [r17 - 4]    ; temp[y][x-1]
        sub     r21, r21, penalty
        max     r18, r18, r21
        ld.shared.i32 r21, [r17 - 17*4] ; temp[y-1][x]
        sub     r21, r21, penalty
        max     r18, r18, r21
        st.shared.i32 [r17], r18
lrskip: bar
        sub     r14, r14, 1
        setp.ge p4, r14, 0
    @p4 bra     lr
        mov     r11, 1                  ; write rows 1..16 of the tile back
wb:     mad     r12, r11, 17, r0
        ld.shared.i32 r7, [r12*4 + 4]
        mad     r13, r11, cols, r4
        add     r13, r13, r0
        st.i32  [items + r13*4 + 4], r7
        add     r11, r11, 1
        setp.le p5, r11, 16
    @p5 bra     wb
        exit

.kernel adv block=32
        mov     r0, %tid
        setp.ne p0, r0, 0
    @p0 exit
        ld.i32  r1, [diag]
        add     r1, r1, 1
        st.i32  [diag], r1
        exit

.host
        launch init grid=ceil_div(n+1, 256)
        do max=2*nb-1
            launch nw grid=nb
            launch adv grid=1
        while diag[0] != 2*nb-1
