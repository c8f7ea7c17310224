/* What a trace exporter needs to know of a workload's kernels: the SASS opcode that plays each
 * instruction of the workload language on a Volta GPU, and where its branches go. */
#include <string.h>

#include "core/workload/wl_inspect.h"
#include "core/workload/wl_internal.h"

static const char *sass_name(const wl_inst *in)
{
    switch (in->op) {
    case OP_MOV:
        return "MOV";
    case OP_ADD:
    case OP_SUB:
    case OP_NEG:
        return "IADD3";
    case OP_MUL:
    case OP_MAD:
        return "IMAD";
    case OP_DIV:
    case OP_DIVU:
    case OP_REM:
    case OP_REMU:
        return "IMAD.HI.U32";
    case OP_MIN:
    case OP_MAX:
        return "IMNMX";
    case OP_MINU:
    case OP_MAXU:
        return "IMNMX.U32";
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_NOT:
        return "LOP3.LUT";
    case OP_SHL:
        return "SHF.L.U32";
    case OP_SHR:
        return "SHF.R.U32.HI";
    case OP_SRA:
        return "SHF.R.S32.HI";
    case OP_ABS:
        return "IABS";
    case OP_SETP_S:
    case OP_SETP_U:
        return "ISETP";
    case OP_SETP_F:
        return "FSETP";
    case OP_SELP:
        return "SEL";
    case OP_FADD:
    case OP_FSUB:
    case OP_FABS:
    case OP_FNEG:
        return "FADD";
    case OP_FMUL:
        return "FMUL";
    case OP_FFMA:
        return "FFMA";
    case OP_FMIN:
    case OP_FMAX:
        return "FMNMX";
    case OP_FDIV:
    case OP_FRCP:
        return "MUFU.RCP";
    case OP_FSQRT:
        return "MUFU.SQRT";
    case OP_FRSQRT:
        return "MUFU.RSQ";
    case OP_FEXP:
        return "MUFU.EX2";
    case OP_FLOG:
        return "MUFU.LG2";
    case OP_FSIN:
        return "MUFU.SIN";
    case OP_FCOS:
        return "MUFU.COS";
    case OP_LDG:
        return "LDG.E.SYS";
    case OP_STG:
        return "STG.E.SYS";
    case OP_LDS:
        return "LDS";
    case OP_STS:
        return "STS";
    case OP_ATOM:
        switch (in->sub) {
        case AT_ADDF:
            return "ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU";
        case AT_MIN:
            return "ATOMG.E.MIN.S32.STRONG.GPU";
        case AT_MINU:
            return "ATOMG.E.MIN.STRONG.GPU";
        case AT_MAX:
            return "ATOMG.E.MAX.S32.STRONG.GPU";
        case AT_MAXU:
            return "ATOMG.E.MAX.STRONG.GPU";
        case AT_EXCH:
            return "ATOMG.E.EXCH.STRONG.GPU";
        case AT_CAS:
            return "ATOMG.E.CAS.STRONG.GPU";
        default:
            return "ATOMG.E.ADD.STRONG.GPU";
        }
    case OP_BRA:
        return "BRA";
    case OP_BAR:
        return "BAR.SYNC";
    default:
        return "EXIT";
    }
}

const wl_kernel *wl_find_kernel(const workload *w, const char *name)
{
    const wl_kernel *k = NULL;
    for (size_t i = 0; i < w->nkernels; i++)
        if (w->kernels[i].name == name || !strcmp(w->kernels[i].name, name)) k = &w->kernels[i];
    return k;
}

uint32_t wl_kernel_inst_count(const wl_kernel *k)
{
    return k->ninsts;
}

const char *wl_kernel_sass_name(const wl_kernel *k, uint32_t pc)
{
    return sass_name(&k->insts[pc]);
}

int wl_kernel_branch(const wl_kernel *k, uint32_t pc, uint32_t *target, uint32_t *reconv)
{
    const wl_inst *in = &k->insts[pc];
    if (in->op != OP_BRA) return 0;
    *target = in->target;
    *reconv = in->reconv;
    return 1;
}

size_t wl_workload_array_count(const workload *w)
{
    return w->narrays;
}

void wl_workload_array_at(const workload *w, size_t i, uint64_t *base, uint64_t *bytes)
{
    *base = w->arrays[i].base;
    *bytes = (uint64_t)w->arrays[i].count * 4u;
}
