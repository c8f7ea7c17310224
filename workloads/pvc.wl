# pvc: page-view count, the map and reduce phases of the MapReduce benchmark on a web log
#
# Map: each thread parses one log record of recw words, hashing words until a terminator (a
# word below term: the end of the URL field, so the trip count differs per thread: branch
# divergence) and counts the view with an atomic add in a bucket of the URL hash. Records are
# recw*4 bytes apart, so the scan is memory-divergent with intra-thread reuse of the record's
# line. Reduce: one thread per bucket compacts the non-zero counts with an atomic cursor.
# models: Mars MapReduce Page View Count (DYNCTA PVC, DaCache PVC)
# inputs: nrec records of recw words, uniform (seed); nbuckets hash buckets
# class: Type-M divergent
.param nrec     16384
.param recw     32
.param term     128
.param nbuckets 4096
.param seed     73

.array log    i32 [nrec*recw] uniform(seed=seed, lo=0, hi=1024)
.array counts i32 [nbuckets] zero
.array okey   i32 [nbuckets] zero
.array oval   i32 [nbuckets] zero
.array ocnt   i32 [1] zero

.kernel map block=256
        mov     r0, %gtid
        setp.ge p0, r0, nrec
    @p0 exit
        mul     r1, r0, recw*4          ; this record
        mov     r2, 0                   ; word offset
        mov     r3, 5381                ; URL hash
scan:   ld.i32  r4, [log + r1 + r2]
        mad     r3, r3, 33, r4
        add     r2, r2, 4
        setp.lt p1, r4, term
    @p1 bra     emit                    ; end of the URL field
        setp.lt p2, r2, recw*4
    @p2 bra     scan
emit:   shr     r5, r3, 3
        rem.u32 r5, r5, nbuckets
        atom.add.i32 r6, [counts + r5*4], 1
        exit

.kernel reduce block=256
        mov     r0, %gtid
        setp.ge p0, r0, nbuckets
    @p0 exit
        ld.i32  r1, [counts + r0*4]
        setp.eq p1, r1, 0
    @p1 exit
        atom.add.i32 r2, [ocnt], 1
        st.i32  [okey + r2*4], r0
        st.i32  [oval + r2*4], r1
        exit

.host
        launch map grid=ceil_div(nrec, 256)
        launch reduce grid=ceil_div(nbuckets, 256)
