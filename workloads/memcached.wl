# memcached: key-value GET requests served from an open-addressing hash table of items
#
# A SET kernel inserts every key (atom.cas on the slot's key word, linear probing) and writes
# its item's value words; the GET kernel then serves the requests: each thread hashes its key,
# probes the table and, on a match, reads the item's value words one after another. Items sit
# at hash-random slots, so every probe and value load of a warp touches up to 32 different
# lines (memory-divergent), and the value loop re-reads the thread's own item line: the
# intra-thread locality that makes Memcached-GPU highly cache-sensitive (CCWS section 4.1).
# models: Memcached-GPU GET requests (CCWS MEMC)
# inputs: nkeys items of 1+vwords words in 2*nkeys slots; nreq requests uniform over the keys (seed)
# class: HCS divergent
.param nkeys  8192
.param nreq   nkeys
.param vwords 15
.param seed   11
.param slots  2*nkeys

.array table i32 [slots*(vwords+1)] zero        ; word 0 of an item: its key (0: empty)
.array req   i32 [nreq] uniform(seed=seed, lo=1, hi=nkeys+1)
.array out   i32 [nreq] zero                    ; sum of the item's value words, -1 if absent

.kernel set block=256
        mov     r0, %gtid
        setp.ge p0, r0, nkeys
    @p0 exit
        add     r1, r0, 1               ; the key
        mul     r2, r1, 73244475        ; multiplicative hash
        shr     r2, r2, 7
        rem.u32 r2, r2, slots
probe:  mul     r3, r2, (vwords+1)*4
        atom.cas.i32 r4, [table + r3], 0, r1
        setp.eq p1, r4, 0
    @p1 bra     fill                    ; the slot was empty: it is ours
        add     r2, r2, 1
        setp.ge p2, r2, slots
    @p2 mov     r2, 0
        bra     probe
fill:   mov     r5, 1
vset:   mad     r6, r1, 31, r5          ; value word w of key k: 31k + w
        st.i32  [table + r3 + r5*4], r6
        add     r5, r5, 1
        setp.le p3, r5, vwords
    @p3 bra     vset
        exit

.kernel get block=256
        mov     r0, %gtid
        setp.ge p0, r0, nreq
    @p0 exit
        ld.i32  r1, [req + r0*4]
        mul     r2, r1, 73244475
        shr     r2, r2, 7
        rem.u32 r2, r2, slots
        mov     r8, -1                  ; not found
probe:  mul     r3, r2, (vwords+1)*4
        ld.i32  r4, [table + r3]
        setp.eq p1, r4, r1
    @p1 bra     hit
        setp.eq p2, r4, 0
    @p2 bra     done                    ; an empty slot ends the probe
        add     r2, r2, 1
        setp.ge p3, r2, slots
    @p3 mov     r2, 0
        bra     probe
hit:    mov     r8, 0
        mov     r5, 4
vget:   ld.i32  r6, [table + r3 + r5]
        add     r8, r8, r6
        add     r5, r5, 4
        setp.le p4, r5, vwords*4
    @p4 bra     vget
done:   st.i32  [out + r0*4], r8
        exit

.host
        launch set grid=ceil_div(nkeys, 256)
        launch get grid=ceil_div(nreq, 256)
