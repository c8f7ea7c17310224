# The preset pairs of the reference comparison (sourced by bench/accelsim/run).
#
# qv100: warptune's qv100-accelsim against GPGPU-Sim's SM7_QV100 config with Accel-Sim's
#        SM7_QV100 trace.config, as Accel-Sim's dev branch ships them.
# fermi: warptune's fermi-gtx480 against GPGPU-Sim's SM2_GTX480 config in trace mode. Accel-Sim
#        has no Fermi trace front end; warptune's traces are binary version 70, so the Volta
#        opcode map applies, with Kepler's trace.config for the latencies. Five changes make
#        the config run (docs/validation.md): no GPUWattch file, power simulation off, the
#        interconnect file beside the run, a branch unit (the Volta map sends BRA to
#        specialised unit 1) and generic operand collectors (with specialised ones the branch
#        unit gets none and the run deadlocks). The last two depart from GPGPU-Sim's own Fermi.

pair_known() { case $1 in qv100|fermi) return 0 ;; *) return 1 ;; esac; }

# The scheduler each reference config runs by itself: the pair's baseline.
pair_base_sched() { case $1 in qv100) echo lrr ;; fermi) echo gto ;; esac; }

pair_preset() { case $1 in qv100) echo qv100-accelsim ;; fermi) echo fermi-gtx480 ;; esac; }

# Schedulers per scheduler unit, as each side spells them. GPGPU-Sim's two-level keeps 8 active
# warps per scheduler (inner loose round-robin, outer strict round-robin); its warp limiting
# lets each scheduler pick among its last issued warp and its 4 oldest warps that are not
# waiting (greedy-then-oldest): warptune's swl with swl.reading=gpgpusim; swl.limit counts warps
# per SM.
pair_ref_sched() {
    case $2 in
        lrr) echo "-gpgpu_scheduler lrr" ;;
        gto) echo "-gpgpu_scheduler gto" ;;
        two_level) echo "-gpgpu_scheduler two_level_active:8:0:1" ;;
        swl) echo "-gpgpu_scheduler warp_limiting:2:4" ;;
    esac
}
# What warptune's side of a pair sets on top of the preset, to mirror the reference's own
# departures from its config. The Fermi reference takes its SFU and branch timing from Kepler's
# trace.config and the branch unit above (SFU latency 200, a warp every 2 cycles; branch 4), and
# uses 16 generic operand collectors, which memory instructions share with the rest on their way
# to the LD/ST unit (ID_OC_MEM 1, a collector, OC_EX_MEM 1: up to 18 waiting); GPGPU-Sim's
# SM2_GTX480 itself (fermi-gtx480) has an SFU of latency 8 taking a warp every 8 cycles, 6 SP
# plus 8 SFU collectors, and 2 memory collectors (sm.mem_queue=4).
pair_wt_extra() {
    case $1 in
        fermi) echo "--set sm.sfu_latency=200 --set sm.sfu_width=16 --set sm.branch_latency=1 --set sm.oc_units=16 --set sm.oc_units_sfu=0 --set sm.mem_queue=18 --set sm.mem_queue_collectors=true --set sm.mem_queue_order=collector" ;;
    esac
}

pair_wt_sched() {
    local nsched=4
    [ "$1" = fermi ] && nsched=2
    case $2 in
        lrr) echo "--set sched.policy=lrr" ;;
        gto) echo "--set sched.policy=gto" ;;
        two_level) echo "--set sched.policy=two_level_active --set two_level_active.warps=8" ;;
        swl) echo "--set sched.policy=swl --set swl.limit=$((4 * nsched)) --set swl.reading=gpgpusim" ;;
    esac
}

# pair_configs PAIR GPU_SIMULATOR_DIR DEST: writes DEST/gpgpusim.config and DEST/trace.config,
# and sets ACCEL_BIN and ACCEL_LIB.
pair_configs() {
    local pair=$1 g=$2 dest=$3
    mkdir -p "$dest"
    ACCEL_BIN=$g/bin/release/accel-sim.out
    ACCEL_LIB=$(dirname "$(find "$g/gpgpu-sim/lib" -name libcudart.so -path '*release*' | head -n 1)")
    [ -x "$ACCEL_BIN" ] || { echo "run: no $ACCEL_BIN" >&2; exit 2; }
    [ -f "$ACCEL_LIB/libcudart.so" ] || { echo "run: no GPGPU-Sim libcudart.so under $g/gpgpu-sim/lib" >&2; exit 2; }
    case $pair in
        qv100)
            cp "$g/gpgpu-sim/configs/tested-cfgs/SM7_QV100/gpgpusim.config" "$dest/"
            cp "$g/configs/tested-cfgs/SM7_QV100/trace.config" "$dest/"
            ;;
        fermi)
            local src=$g/gpgpu-sim/configs/tested-cfgs/SM2_GTX480
            grep -v -e '^-gpuwattch_xml_file' -e '^-power_simulation_enabled' \
                -e '^-inter_config_file' -e '^-gpgpu_operand_collector_num' "$src/gpgpusim.config" > "$dest/gpgpusim.config"
            cp "$src/config_fermi_islip.icnt" "$dest/"
            cat >> "$dest/gpgpusim.config" <<CFG
-power_simulation_enabled 0
-inter_config_file $dest/config_fermi_islip.icnt
-specialized_unit_1 1,2,4,2,2,BRA
-trace_opcode_latency_initiation_spec_op_1 4,2
-gpgpu_enable_specialized_operand_collector 0
-gpgpu_operand_collector_num_units_gen 16
-gpgpu_operand_collector_num_in_ports_gen 2
-gpgpu_operand_collector_num_out_ports_gen 2
CFG
            cp "$g/configs/tested-cfgs/SM3_KEPLER_TITAN/trace.config" "$dest/"
            ;;
    esac
}
