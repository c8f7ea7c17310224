# bfs: level-synchronous breadth-first search over an R-MAT graph (Rodinia's two kernels)
#
# One thread per node, as in Rodinia's bfs. `expand` (Rodinia's Kernel) lets every frontier
# node walk its own adjacency list and mark unvisited neighbours; `update` (Kernel2) moves
# marked nodes into the next frontier and raises the `changed` flag. The host repeats both
# until the flag stays clear. Work per thread follows the power-law degrees: branch-divergent,
# data-dependent, irregular memory. The warps of a CTA do unequal work before the kernel's
# exit: CAWA section 2.2's example of criticality.
# As compiled from Rodinia's source, a visit re-reads g_cost[tid] and, after its stores (an int
# store may alias the Node fields), the node's `starting` and `no_of_edges` for the loop test;
# a path that visits nothing keeps them in registers (what an optimising compiler's load PRE
# gives). Rodinia's Node {starting, no_of_edges} is the CSR row pointer here (rowptr[v] and
# rowptr[v+1]); its flags are bytes, here 32-bit words (the language has 4-byte accesses).
# Those coherent re-reads bring the L1D accesses per load near DaCache's threshold of two on
# the power-law graph: 1.95 at the default 4096 nodes/32768 edges, 2.21 at 2048 nodes/49152
# edges, the test's input (2 SMs, round-robin).
# Parameters: nodes, edges, seed of the graph, source node.
# models: Rodinia bfs (CCWS BFS, CAWA bfs, DYNCTA BFS, DaCache BFS)
# inputs: an R-MAT graph of nodes nodes and edges edges (seed), source node
# class: HCS Sens Type-M divergent critical
# deviation: HCS -- measured at 2048 nodes, 49152 edges, 2 SMs, round-robin: an unbounded
#   L1D gives 1.06x the IPC of 32 KB, with intra-warp hits ahead (67266 vs 33665). The R-MAT
#   degrees put 46% of the edges on 3% of the nodes (node 0 has 2400 edges, the median node
#   4), so the edge loop runs with few active lanes (3.4 per warp instruction) and the SMs sit
#   idle 40% of the cycles while the hub lanes walk their long lists: the lines being walked
#   mostly fit in 32 KB (14.6% misses, 3.7% unbounded) and the run is bound by those serial
#   walks, not by capacity. The gain grows with the graph, 1.12x at 4096 nodes/65536 edges,
#   1.21x at 8192/131072, 1.39x at 16384/262144, 1.72x at 65536/1048576, far beyond what this
#   test can afford; bfs_balanced, the same kernels on a uniform graph, is HCS.
.param nodes  4096
.param edges  32768
.param seed   7
.param source 0

.graph g rmat(nodes=nodes, edges=edges, seed=seed)
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
