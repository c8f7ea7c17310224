# histogram: a histogram of n keys into nbins counters by global atomic adds, uniform or skewed
#
# Each thread reads per keys (4) with a grid stride (one coalesced line per warp load) and
# adds one to its key's bin with an atomic add in global memory, the naive histogram of the
# CUDA samples. Every warp of the GPU updates the same nbins counters (256 by default, 1 KB): each
# warp atomic makes one request per distinct bin and line, lanes with the same bin serialise,
# and the requests of all SMs meet at the L2 slices that hold the counters. nbins varies the
# contention (16 bins: every warp hits every counter; 65536: few conflicts); skew=1 bins the
# squared key, so that the low bins take most of the updates (bin 0 of 256 gets 1/16 of them),
# like the dark pixels of an image histogram. Little arithmetic and no reuse of the keys. The
# contention grows with the SMs that issue atomics: RACT 0.10 at the default size on the
# GTX480's 15 SMs, 0.22 on the class test's input with 15 SMs, but 0.67 on two SMs, whose
# atomics hardly meet; so tests/test_workload_suite.c measures it on the whole GPU.
# models: the CUDA samples' histogram with global atomics (one atomicAdd per key)
# inputs: n keys uniform in [0, 65536) (seed); nbins bins (at most 65536), skew 0 or 1; per
# class: CI coherent Type-M
.param n     262144
.param nbins 256
.param skew  0
.param per   4
.param seed  131
.param block 256

.array keys i32 [n] uniform(seed=seed, lo=0, hi=65536)
.array hist i32 [nbins] zero

.kernel hist block=block
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        mov     r1, %nctaid
        mul     r1, r1, %ntid           ; the grid stride
        mov     r9, skew
        setp.ne p2, r9, 0
next:   ld.i32  r2, [keys + r0*4]
        selp    r3, r2, 65536, p2       ; skewed: key*key, else key*65536
        mul     r3, r3, r2
        shr     r3, r3, 16              ; in [0, 65536)
        mul     r3, r3, nbins
        shr     r3, r3, 16              ; the bin
        atom.add.i32 r4, [hist + r3*4], 1
        add     r0, r0, r1
        setp.lt p1, r0, n
    @p1 bra     next
        exit

.host
        launch hist grid=ceil_div(n, per*block)
