# gc: the mark phase of a tracing garbage collector over a random object graph
#
# Objects of objw words hold nptr pointer fields (a field >= nobj is null, half of them are).
# Marking is level-synchronous from nroots roots: each thread takes a gray object from the
# current work list, walks its pointer fields, atomically marks every unmarked child and
# appends it to the next list; the host swaps the lists until one stays empty. Gray objects are
# scattered, so a warp's field loads touch a line per lane, and each thread re-reads its
# object's line field after field (intra-thread locality, CCWS's GC).
# models: tracing mark-and-compact collector, mark phase (CCWS GC, after Barabash et al.)
# inputs: nobj objects of objw words with nptr random pointer fields (seed), nroots roots
# class: HCS divergent
.param nobj   16384
.param objw   16
.param nptr   8
.param nroots 64
.param seed   13

.array heap   i32 [nobj*objw] uniform(seed=seed, lo=0, hi=2*nobj)
.array marked i32 [nobj] zero
.array wl_a   i32 [nobj] zero
.array wl_b   i32 [nobj] zero
.array cnt    i32 [2] zero              ; objects in wl_a, wl_b

.kernel roots block=256
        mov     r0, %gtid
        setp.ge p0, r0, nroots
    @p0 exit
        st.i32  [marked + r0*4], 1
        st.i32  [wl_a + r0*4], r0
        exit

.kernel mark_ab block=256
        mov     r0, %gtid
        ld.i32  r1, [cnt]
        setp.ge p0, r0, r1
    @p0 exit
        ld.i32  r2, [wl_a + r0*4]       ; a gray object
        mul     r3, r2, objw*4
        mov     r4, 0
field:  ld.i32  r5, [heap + r3 + r4]
        setp.ge p1, r5, nobj
    @p1 bra     next                    ; null
        atom.cas.i32 r6, [marked + r5*4], 0, 1
        setp.ne p2, r6, 0
    @p2 bra     next                    ; already marked
        atom.add.i32 r7, [cnt + 4], 1
        st.i32  [wl_b + r7*4], r5
next:   add     r4, r4, 4
        setp.lt p3, r4, nptr*4
    @p3 bra     field
        exit

.kernel mark_ba block=256
        mov     r0, %gtid
        ld.i32  r1, [cnt + 4]
        setp.ge p0, r0, r1
    @p0 exit
        ld.i32  r2, [wl_b + r0*4]
        mul     r3, r2, objw*4
        mov     r4, 0
field:  ld.i32  r5, [heap + r3 + r4]
        setp.ge p1, r5, nobj
    @p1 bra     next
        atom.cas.i32 r6, [marked + r5*4], 0, 1
        setp.ne p2, r6, 0
    @p2 bra     next
        atom.add.i32 r7, [cnt], 1
        st.i32  [wl_a + r7*4], r5
next:   add     r4, r4, 4
        setp.lt p3, r4, nptr*4
    @p3 bra     field
        exit

.host
        set cnt[0] = nroots
        launch roots grid=ceil_div(nroots, 256)
        do max=nobj
            set cnt[1] = 0
            launch mark_ab grid=ceil_div(nobj, 256)
            set cnt[0] = 0
            launch mark_ba grid=ceil_div(nobj, 256)
        while cnt[0] != 0
