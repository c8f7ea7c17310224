# bfs_balanced: level-synchronous breadth-first search over a uniform random graph
#
# The same kernels and host loop as bfs, on a graph whose endpoints are uniform, so out-
# degrees are Poisson around edges/nodes instead of power-law: the balanced variant, with the
# work per thread and per warp far more even than on the R-MAT graph.
# Why degree 32 (edges = 32 x nodes): the cache sensitivity of Rodinia's BFS comes from each
# thread walking its own adjacency list (a divergent load per iteration) and re-reading its
# node after every visit. One 128-byte line holds 32 edges, so with about 32 edges a node each
# lane walks a line of its own: a warp touches 32 lines of g_col per iteration and returns to
# them on the next ones (intra-warp hits); 48 warps walk about 192 KB of them per SM, which a
# 32 KB L1D cannot keep. With Rodinia's average degree of 6 (graph1MW_6) the 32 lists of a
# warp share about 6 lines, and most hits are the random visited[] reads, on lines other
# warps brought in. Measured (2 SMs, round-robin, 32 KB to unbounded L1D): degree 6 gives
# 1.50x at 8192 nodes and 2.02x at 32768 nodes, with inter-warp hits ahead (399 vs 176 per
# 1000 instructions at 32768 nodes); degree 32 gives 2.13x with intra-warp hits ahead (103827
# vs 90014 at 3072 nodes, 98304 edges: the test's input) and 2.63x at the default size.
# models: Rodinia bfs on a balanced graph (CCWS BFS, CAWA bfs input variant)
# inputs: a uniform random graph of nodes nodes and edges edges (seed), source node
# class: HCS divergent Type-M
.param nodes  8192
.param edges  262144
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
        ld.i32  r4, [g_rowptr + r1]     ; starting
        ld.i32  r5, [g_rowptr + r1 + 4] ; starting + no_of_edges
        setp.ge p2, r4, r5
    @p2 exit                            ; no out-edges
        shl     r4, r4, 2               ; byte offsets into g_col
        shl     r5, r5, 2
edge:   ld.i32  r6, [g_col + r4]        ; id: this thread's own adjacency list
        shl     r6, r6, 2
        ld.i32  r7, [visited + r6]
        setp.ne p3, r7, 0
    @p3 bra     skip
        ld.i32  r3, [cost + r1]         ; cost[tid] + 1, read again at every visit
        add     r3, r3, 1
        st.i32  [cost + r6], r3
        st.i32  [updating + r6], 1
        ld.i32  r5, [g_rowptr + r1 + 4] ; the stores may alias the node: the loop
        ld.i32  r8, [g_rowptr + r1]     ; bound is read again after them
        shl     r5, r5, 2
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
