/* Sampling reach: what a prepared program's texture reads can touch.
 *
 * Hosts render tiles and must fetch enough of the input around each one.
 * When every sample's coordinates are a TEXCOORD's x and y plus or minus
 * constants (after specialisation has folded the parameters in), the
 * footprint is the pixel's own position widened by those constants;
 * anything else (computed coordinates, texel loads, other dimensions)
 * makes it data dependent and the host fetches the whole input.  Which
 * slots sample through a mip filter tells whether a read may leave
 * level 0, where a level-0 footprint no longer holds. */
#include "ir/reach.h"

#include "vm/scalar_ops.h"

bool
sl_ir_sample_reach (const SlIr *ir, float reach[4])
{
  guint nv = ir->values->len;
  /* For each value: is it texcoord component c plus a constant k? */
  int8_t *comp = g_new (int8_t, nv);
  float *offset = g_new0 (float, nv);
  for (guint v = 0; v < nv; v++)
    comp[v] = -1;
  bool bounded = true;
  for (int k = 0; k < 4; k++)
    reach[k] = 0;             /* left, top, right, bottom in uv */
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op == SL_OP_INPUT && in->imm < SL_INPUT_COLOR && (in->imm & 3) < 2)
        comp[in->dst[0]] = in->imm & 3;
      else if ((in->op == SL_OP_ADD || in->op == SL_OP_SUB) && in->n_dst == 1)
        {
          uint32_t a = in->src[0], c = in->src[1];
          const SlValue *va = sl_ir_value (ir, a), *vc = sl_ir_value (ir, c);
          if (comp[a] >= 0 && vc->cls == SL_VALUE_CONST)
            {
              comp[in->dst[0]] = comp[a];
              offset[in->dst[0]] = offset[a] + (in->op == SL_OP_ADD ? 1 : -1) * sl_u2f (vc->bits);
            }
          else if (in->op == SL_OP_ADD && comp[c] >= 0 && va->cls == SL_VALUE_CONST)
            {
              comp[in->dst[0]] = comp[c];
              offset[in->dst[0]] = offset[c] + sl_u2f (va->bits);
            }
        }
      else if (in->op == SL_OP_MOV && in->n_dst == 1 && sl_ir_value (ir, in->dst[0])->cls == SL_VALUE_TEMP
               && comp[in->src[0]] >= 0)
        {
          comp[in->dst[0]] = comp[in->src[0]];
          offset[in->dst[0]] = offset[in->src[0]];
        }
      else if (in->op == SL_OP_SAMPLE)
        {
          if (in->sample.mode == SL_SAMPLE_LOAD || in->sample.dim != SL_TEXTURE_2D
              || comp[in->src[0]] != 0 || comp[in->src[1]] != 1)
            {
              bounded = false;
              break;
            }
          float du = offset[in->src[0]], dv = offset[in->src[1]];
          reach[0] = MAX (reach[0], -du);
          reach[2] = MAX (reach[2], du);
          reach[1] = MAX (reach[1], -dv);
          reach[3] = MAX (reach[3], dv);
        }
    }
  g_free (comp);
  g_free (offset);
  return bounded;
}

uint32_t
sl_ir_sampled_slots (const SlIr *ir)
{
  uint32_t slots = 0;
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op == SL_OP_SAMPLE && in->sample.texture < SL_MAX_SLOTS)
        slots |= 1u << in->sample.texture;
    }
  return slots;
}

uint32_t
sl_ir_mip_slots (const SlIr *ir, const SlSamplerState *samplers)
{
  uint32_t slots = 0;
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op == SL_OP_SAMPLE && in->sample.mode != SL_SAMPLE_LOAD
          && in->sample.mode != SL_SAMPLE_COMPARE
          && in->sample.sampler < SL_MAX_SLOTS && in->sample.texture < SL_MAX_SLOTS
          && samplers[in->sample.sampler].mip_filter != SL_FILTER_NONE)
        slots |= 1u << in->sample.texture;
    }
  return slots;
}
