# iix: inverted index, the map phase of the MapReduce benchmark over a set of documents
#
# Each thread scans one document of docw words; a word below link is a hyperlink, and for each
# the thread appends its document id to the link target's posting list (an atomic cursor per
# target, then a store). Documents are docw*4 bytes apart (memory-divergent loads with intra-
# thread reuse), links are data-dependent (branch divergence), posting lists are scattered.
# models: Mars MapReduce Inverted Index (DYNCTA IIX, DaCache IIX)
# inputs: ndocs documents of docw words, uniform (seed); ntargets link targets
# class: Type-M divergent
.param ndocs    16384
.param docw     32
.param link     128
.param ntargets 1024
.param cap      64
.param seed     79

.array docs  i32 [ndocs*docw] uniform(seed=seed, lo=0, hi=1024)
.array lcnt  i32 [ntargets] zero
.array lists i32 [ntargets*cap] zero

.kernel map block=256
        mov     r0, %gtid
        setp.ge p0, r0, ndocs
    @p0 exit
        mul     r1, r0, docw*4
        mov     r2, 0
scan:   ld.i32  r3, [docs + r1 + r2]
        setp.ge p1, r3, link
    @p1 bra     next                    ; an ordinary word
        mad     r4, r3, 40503, r0       ; the link's target
        shr     r4, r4, 4
        rem.u32 r4, r4, ntargets
        atom.add.i32 r5, [lcnt + r4*4], 1
        setp.ge p2, r5, cap
    @p2 bra     next                    ; the posting list is full
        mad     r6, r4, cap, r5
        st.i32  [lists + r6*4], r0
next:   add     r2, r2, 4
        setp.lt p3, r2, docw*4
    @p3 bra     scan
        exit

.host
        launch map grid=ceil_div(ndocs, 256)
