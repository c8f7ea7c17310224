# gather: out[i] = table[idx[i]] through an index array over a table much larger than the L1D
#
# Each thread reads per indices (4) with a grid stride, coalesced, and for each loads one
# element of a large table at that index: the indices are uniform over the table (4 MB by
# default: five times the GTX480's L2, two thirds of qv100's), so the 32 lanes of a warp load
# from 32 different lines and an L1D of kilobytes holds almost none of them; what reuse there
# is (each line is gathered about 8 times over the kernel) lies far apart in time, which only
# a cache of the table's size catches (MCS: IPC 2.6x higher with an unbounded L1D on the class
# test's 1 MB table). The irregular, latency-bound end of memory-divergent loads.
# models: index gathers (embedding lookups, the x[col[j]] of a sparse product, hash probes)
# inputs: n indices uniform in [0, tsize) (seed), a uniform table of tsize elements; per
# class: MCS divergent Type-M
.param n     262144
.param tsize 1048576
.param per   4
.param seed  179

.array idx   i32 [n] uniform(seed=seed, lo=0, hi=tsize)
.array table f32 [tsize] uniform(seed=seed+1)
.array out   f32 [n] zero

.kernel gather block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        mov     r1, %nctaid
        mul     r1, r1, %ntid           ; the grid stride
next:   ld.i32  r2, [idx + r0*4]
        ld.f32  r3, [table + r2*4]      ; one line per lane
        st.f32  [out + r0*4], r3
        add     r0, r0, r1
        setp.lt p1, r0, n
    @p1 bra     next
        exit

.host
        launch gather grid=ceil_div(n, per*256)
