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
# Why these R-MAT parameters: a=0.45, b=0.15, c=0.15 (d=0.25) are the defaults of GTgraph's
# R-MAT generator (Bader and Madduri), a milder skew than Graph500's; Graph500's a=0.57, b=0.19, c=0.19 (the language's default) puts 46% of the edges on 3% of the
# nodes, so the edge loop runs on a few hub lanes (3.4 active lanes per warp instruction) and
# the SMs idle while those lanes walk their long lists: 1.06x from 32 KB to an unbounded L1D
# at 2048 nodes/49152 edges, 1.24x at 8192/262144. With d=0.25 the degrees are still skewed
# (power-law tail, warps of unequal work) but most lanes of a frontier warp walk a list.
# Where the cache sensitivity comes from (as in bfs_balanced): each lane walks its own
# adjacency list, one 128-byte line of g_col per 32 edges, and returns to it on the next
# iterations (intra-warp hits); with about 32 edges a node the lines of 48 warps far exceed a
# 32 KB L1D. The test's input, 16384 nodes and 524288 edges (degree 32, 2 SMs, round-robin),
# gains 2.32x from 32 KB to an unbounded L1D with intra-warp hits ahead. At the default's
# degree of 8 (Rodinia's graph1MW_6 has 6) the lanes of a warp share lines and the gain comes
# from the number of frontier warps instead, so it needs the whole GPU and a larger graph:
# on the GTX480 preset 1.01x at 4096 nodes, 1.85x at 16384, 2.65x at the default 32768 nodes
# and 262144 edges, 2.93x at 65536 nodes.
# Parameters: nodes, edges, seed and skew (a, b, c) of the graph, source node.
# models: Rodinia bfs (CCWS BFS, CAWA bfs, DYNCTA BFS, DaCache BFS)
# inputs: an R-MAT graph of nodes nodes and edges edges (seed, a, b, c), source node
# class: HCS Sens Type-M divergent critical
.param nodes  32768
.param edges  8*nodes
.param seed   7
.param source 0
.param a      0.45
.param b      0.15
.param c      0.15

.graph g rmat(nodes=nodes, edges=edges, seed=seed, a=a, b=b, c=c)
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
