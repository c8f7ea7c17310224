# bfs_balanced: level-synchronous breadth-first search over a uniform random graph
#
# The same two kernels and host loop as bfs, on a graph whose endpoints are uniform, so out-
# degrees are Poisson around edges/nodes instead of power-law: the balanced variant, with the
# work per thread and per warp far more even than on the R-MAT graph.
# models: Rodinia bfs on a balanced graph (CCWS BFS, CAWA bfs input variant)
# inputs: a uniform random graph of nodes nodes and edges edges (seed), source node
# class: HCS divergent Type-M
# deviation: HCS -- measured at 8192 nodes, 65536 edges, 2 SMs, round-robin: 1.59x from
#   32 KB to an unbounded L1D, and more inter- than intra-warp hits (71764 vs 32111): the
#   per-node arrays re-read by every level are reused across kernels, i.e. by other warps.
.param nodes  4096
.param edges  32768
.param seed   7
.param source 0

.graph g uniform(nodes=nodes, edges=edges, seed=seed)
.array mask     i32 [g_nodes] zero      ; in the current frontier
.array updating i32 [g_nodes] zero      ; reached in this level
.array visited  i32 [g_nodes] zero
.array cost     i32 [g_nodes] const(-1) ; BFS level, -1 unreached
.array changed  i32 [1]       zero

.kernel expand block=256
        mov     r0, %gtid
        setp.ge p0, r0, g_nodes
    @p0 exit
        shl     r1, r0, 2
        ld.i32  r2, [mask + r1]
        setp.eq p1, r2, 0
    @p1 exit                            ; not in the frontier
        st.i32  [mask + r1], 0
        ld.i32  r3, [cost + r1]
        add     r3, r3, 1               ; the neighbours' level
        ld.i32  r4, [g_rowptr + r1]
        ld.i32  r5, [g_rowptr + r1 + 4]
        shl     r4, r4, 2               ; byte offsets into g_col
        shl     r5, r5, 2
        setp.ge p2, r4, r5
    @p2 exit                            ; no out-edges
edge:   ld.i32  r6, [g_col + r4]
        shl     r6, r6, 2
        ld.i32  r7, [visited + r6]
        setp.ne p3, r7, 0
    @p3 bra     skip
        st.i32  [cost + r6], r3
        st.i32  [updating + r6], 1
skip:   add     r4, r4, 4
        setp.lt p4, r4, r5
    @p4 bra     edge
        exit

.kernel update block=256
        mov     r0, %gtid
        setp.ge p0, r0, g_nodes
    @p0 exit
        shl     r1, r0, 2
        ld.i32  r2, [updating + r1]
        setp.eq p1, r2, 0
    @p1 exit
        st.i32  [mask + r1], 1
        st.i32  [visited + r1], 1
        st.i32  [updating + r1], 0
        st.i32  [changed], 1
        exit

.host
        set cost[source] = 0
        set mask[source] = 1
        set visited[source] = 1
        do max=g_nodes
            set changed[0] = 0
            launch expand grid=ceil_div(g_nodes, 256)
            launch update grid=ceil_div(g_nodes, 256)
        while changed[0] != 0
