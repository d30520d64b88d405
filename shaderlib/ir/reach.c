/* Sampling reach: what a prepared program's texture reads can touch.
 *
 * Hosts render tiles and must fetch enough of the input around each one.
 * When every sample's coordinates are a TEXCOORD's x and y plus or minus
 * constants (after specialisation has folded the parameters in), the
 * footprint is the pixel's own position widened by those constants;
 * anything else (computed coordinates, other dimensions, projection)
 * makes it data dependent and the host fetches the whole input.  Texel
 * offsets are kept in texels, and texel loads at a pixel's index (its
 * SV_Position or scaled TEXCOORD, truncated, times and plus integer
 * constants) as the texels they read, until the host says the sizes
 * (sl_slot_reach_resolve).  Per
 * slot the analysis also follows scaled coordinates (TEXCOORD or
 * SV_Position times a constant, plus constants, rounded), which an
 * effect's passes between textures of different sizes read, and
 * displacements the shader bounds itself (clamp, saturate, min and max
 * with bounds, then scaled by constants: a ripple's offset).  Which
 * slots sample through a mip filter tells whether a read may leave
 * level 0, where a level-0 footprint no longer holds. */
#include "ir/reach.h"

#include "vm/scalar_ops.h"

#include <math.h>
#include <string.h>

/* What is known of a value: it is base component @comp (0, 1: TEXCOORD
 * x, y; 2, 3: SV_Position x, y; -1: nothing known) times @scale plus an
 * offset within [lo, hi]. */
typedef struct
{
  int8_t comp;
  float  scale, lo, hi;
} Affine;

static bool
affine_ok (Affine *a)
{
  if (!isfinite (a->scale) || a->scale == 0 || !isfinite (a->lo) || !isfinite (a->hi))
    a->comp = -1;
  return a->comp >= 0;
}

static Affine
affine_scaled (Affine a, float m)
{
  float lo = a.lo * m, hi = a.hi * m;
  a.scale *= m;
  a.lo = MIN (lo, hi);
  a.hi = MAX (lo, hi);
  affine_ok (&a);
  return a;
}

static Affine
affine_shifted (Affine a, float lo, float hi)
{
  a.lo += lo;
  a.hi += hi;
  affine_ok (&a);
  return a;
}

/* What is known of any value: it lies within [lo, hi] (bounds may be
 * infinite) or, when @nan, may be NaN.  A clamped value (SAT, MIN and MAX
 * with a bound, whose NaN operand yields the other) is bounded whatever
 * it was computed from, so a displacement clamped and scaled by
 * constants moves a read by a known amount. */
typedef struct
{
  float lo, hi;
  bool  nan;
} Range;

static const Range range_any = { -INFINITY, INFINITY, true };

/* A range without NaN or infinities, which an offset may take. */
static bool
range_finite (const Range *r)
{
  return !r->nan && isfinite (r->lo) && isfinite (r->hi);
}

/* Sums or products of bounds that are NaN (inf - inf, 0 · inf) leave
 * nothing known. */
static Range
range_checked (float lo, float hi, bool nan)
{
  if (isnan (lo) || isnan (hi))
    return range_any;
  return (Range) { lo, hi, nan };
}

static Range
range_add (Range a, Range b)
{
  return range_checked (a.lo + b.lo, a.hi + b.hi, a.nan || b.nan);
}

static Range
range_neg (Range a)
{
  return (Range) { -a.hi, -a.lo, a.nan };
}

static Range
range_mul (Range a, Range b)
{
  float p[4] = { a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi };
  float lo = p[0], hi = p[0];
  for (int k = 0; k < 4; k++)
    {
      if (isnan (p[k]))
        return range_any;
      lo = MIN (lo, p[k]);
      hi = MAX (hi, p[k]);
    }
  return (Range) { lo, hi, a.nan || b.nan };
}

/* min(a, b) is below both upper bounds unless an operand is NaN, when it
 * is the other operand. */
static Range
range_min (Range a, Range b)
{
  float hi = MIN (a.hi, b.hi);
  if (a.nan)
    hi = MAX (hi, b.hi);
  if (b.nan)
    hi = MAX (hi, a.hi);
  return (Range) { MIN (a.lo, b.lo), hi, a.nan && b.nan };
}

static Range
range_max (Range a, Range b)
{
  return range_neg (range_min (range_neg (a), range_neg (b)));
}

/* What is known of a value: a constant (copied into a temporary or not),
 * an Affine, and its Range. */
typedef struct
{
  Affine *affine;
  float  *constant;    /* NAN: not a constant */
  Range  *range;
} Known;

/* @a shifted by a value of range @r; nothing known when @r may be NaN
 * or infinite. */
static Affine
affine_plus_range (Affine a, const Range *r)
{
  if (!range_finite (r))
    return (Affine) { .comp = -1 };
  return affine_shifted (a, r->lo, r->hi);
}

static bool
is_const (const Known *known, uint32_t v, float *k)
{
  *k = known->constant[v];
  return isfinite (*k);
}

/* Merges @add into the group of @r with its scales and kind; false when
 * the slot already has SL_REACH_GROUPS others. */
static bool
merge_group (SlSlotReach *r, const SlReachGroup *add)
{
  int g = 0;
  while (g < r->n_groups
         && !(r->group[g].scale[0] == add->scale[0] && r->group[g].scale[1] == add->scale[1]
              && r->group[g].position[0] == add->position[0]
              && r->group[g].position[1] == add->position[1] && r->group[g].fetch == add->fetch))
    g++;
  if (g == SL_REACH_GROUPS)
    return false;
  SlReachGroup *gr = &r->group[g];
  if (g == r->n_groups)
    {
      r->n_groups++;
      *gr = *add;
      return true;
    }
  for (int axis = 0; axis < 2; axis++)
    {
      gr->lo[axis] = MIN (gr->lo[axis], add->lo[axis]);
      gr->hi[axis] = MAX (gr->hi[axis], add->hi[axis]);
      gr->texel_lo[axis] = MIN (gr->texel_lo[axis], add->texel_lo[axis]);
      gr->texel_hi[axis] = MAX (gr->texel_hi[axis], add->texel_hi[axis]);
    }
  return true;
}

/* Adds a read at (@u, @v), moved by @offset texels, to @r; a texel load
 * when @fetch. */
static bool
add_read (SlSlotReach *r, const Affine *u, const Affine *v, const int8_t offset[2], bool fetch)
{
  SlReachGroup add = { .scale = { u->scale, v->scale }, .position = { u->comp == 2, v->comp == 3 },
                       .lo = { u->lo, v->lo }, .hi = { u->hi, v->hi },
                       .texel_lo = { offset[0], offset[1] }, .texel_hi = { offset[0], offset[1] },
                       .fetch = fetch };
  return merge_group (r, &add);
}

void
sl_slot_reach_resolve (SlSlotReach *reach, int tex_width, int tex_height, int view_width,
                       int view_height)
{
  float tex_size[2] = { (float) MAX (tex_width, 1), (float) MAX (tex_height, 1) };
  float view_size[2] = { (float) MAX (view_width, 1), (float) MAX (view_height, 1) };
  SlSlotReach resolved = { 0 };
  for (int g = 0; g < reach->n_groups; g++)
    {
      SlReachGroup gr = reach->group[g];
      for (int axis = 0; axis < 2; axis++)
        {
          /* SV_Position is TEXCOORD times the viewport's size. */
          if (gr.position[axis])
            gr.scale[axis] *= view_size[axis];
          gr.position[axis] = false;
          float lo = gr.lo[axis] + gr.texel_lo[axis], hi = gr.hi[axis] + gr.texel_hi[axis];
          if (gr.fetch)
            {
              /* Texel t is read as its centre, (t + 1/2) / size. */
              gr.scale[axis] /= tex_size[axis];
              gr.lo[axis] = (lo + 0.5f) / tex_size[axis];
              gr.hi[axis] = (hi + 0.5f) / tex_size[axis];
            }
          else
            {
              gr.lo[axis] += gr.texel_lo[axis] / tex_size[axis];
              gr.hi[axis] += gr.texel_hi[axis] / tex_size[axis];
            }
          gr.texel_lo[axis] = gr.texel_hi[axis] = 0;
        }
      gr.fetch = false;
      /* Never full: there are no more groups than before. */
      merge_group (&resolved, &gr);
    }
  *reach = resolved;
}

uint32_t
sl_ir_sample_reach_slots (const SlIr *ir, int width, int height, SlSlotReach reach[SL_MAX_SLOTS])
{
  guint nv = ir->values->len;
  Known kn = { g_new (Affine, nv), g_new (float, nv), g_new (Range, nv) };
  Affine *known = kn.affine;
  /* Integer constants, for texel loads at a pixel's index plus some. */
  int32_t *int_const = g_new (int32_t, nv);
  bool *is_int_const = g_new0 (bool, nv);
  /* Only a value written once is followed: one written again (in a
   * loop, say) may hold something else when it is read. */
  uint8_t *writes = g_new0 (uint8_t, nv);
  for (guint v = 0; v < nv; v++)
    {
      const SlValue *val = sl_ir_value (ir, v);
      known[v].comp = -1;
      if (val->cls == SL_VALUE_CONST && val->kind == SL_KIND_INT)
        {
          int_const[v] = (int32_t) val->bits;
          is_int_const[v] = true;
        }
      kn.constant[v] = val->cls == SL_VALUE_CONST && val->kind == SL_KIND_FLOAT ? sl_u2f (val->bits) : NAN;
      kn.range[v] = range_any;
      if (val->cls == SL_VALUE_CONST && val->kind == SL_KIND_FLOAT && !isnan (kn.constant[v]))
        kn.range[v] = (Range) { kn.constant[v], kn.constant[v], false };
    }
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      for (int d = 0; d < in->n_dst; d++)
        if (in->dst[d] < nv && writes[in->dst[d]] < 2)
          writes[in->dst[d]]++;
    }
  uint32_t bounded = (1u << SL_MAX_SLOTS) - 1;
  memset (reach, 0, sizeof (SlSlotReach) * SL_MAX_SLOTS);
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      Affine r = { .comp = -1 };
      if (in->op == SL_OP_SAMPLE)
        {
          if (in->sample.texture >= SL_MAX_SLOTS)
            {
              bounded = 0;
              break;
            }
          uint32_t bit = 1u << in->sample.texture;
          const Affine *u = &known[in->src[0]], *v = &known[in->src[1]];
          /* A load names its texel and level: level 0 only (a constant),
           * as the reach is level 0's. */
          bool load = in->sample.mode == SL_SAMPLE_LOAD;
          bool level0 = !load || in->n_src < 3
                        || (is_int_const[in->src[2]] && int_const[in->src[2]] == 0);
          /* Projection moves reads by what the IR does not know
           * (coordinate w); texel offsets are kept in texels. */
          if (in->n_src < 2 || in->sample.dim != SL_TEXTURE_2D || in->sample.projective || !level0
              || (u->comp != 0 && u->comp != 2) || (v->comp != 1 && v->comp != 3)
              || !add_read (&reach[in->sample.texture], u, v, in->sample.offset, load))
            bounded &= ~bit;
          continue;
        }
      /* Only temporaries: a variable may be written under a condition
       * some lanes skip (the optimiser turns the others into
       * temporaries). */
      if (in->n_dst != 1 || writes[in->dst[0]] != 1 || sl_ir_value (ir, in->dst[0])->cls != SL_VALUE_TEMP)
        continue;
      const Affine *a = in->n_src > 0 ? &known[in->src[0]] : NULL;
      const Affine *b = in->n_src > 1 ? &known[in->src[1]] : NULL;
      /* Arithmetic on constants the optimiser could not see (a
       * derivative's step) gives constants. */
      float c0 = 0, c1 = 0, c2 = 0;
      bool k0 = in->n_src > 0 && is_const (&kn, in->src[0], &c0);
      bool k1 = in->n_src > 1 && is_const (&kn, in->src[1], &c1);
      if (in->op == SL_OP_NEG && k0)
        kn.constant[in->dst[0]] = -c0;
      else if (in->op == SL_OP_ADD && k0 && k1)
        kn.constant[in->dst[0]] = c0 + c1;
      else if (in->op == SL_OP_SUB && k0 && k1)
        kn.constant[in->dst[0]] = c0 - c1;
      else if (in->op == SL_OP_MUL && k0 && k1)
        kn.constant[in->dst[0]] = c0 * c1;
      else if (in->op == SL_OP_MAD && k0 && k1 && is_const (&kn, in->src[2], &c2))
        kn.constant[in->dst[0]] = c0 * c1 + c2;
      /* Ranges, from bounds and constants. */
      const Range *ra = in->n_src > 0 ? &kn.range[in->src[0]] : NULL;
      const Range *rb = in->n_src > 1 ? &kn.range[in->src[1]] : NULL;
      Range rr = range_any;
      if (isfinite (kn.constant[in->dst[0]]))
        rr = (Range) { kn.constant[in->dst[0]], kn.constant[in->dst[0]], false };
      else
        switch (in->op)
          {
          case SL_OP_MOV: rr = *ra; break;
          case SL_OP_SAT: rr = (Range) { 0, 1, false }; break;
          case SL_OP_MIN: rr = range_min (*ra, *rb); break;
          case SL_OP_MAX: rr = range_max (*ra, *rb); break;
          case SL_OP_NEG: rr = range_neg (*ra); break;
          case SL_OP_ADD: rr = range_add (*ra, *rb); break;
          case SL_OP_SUB: rr = range_add (*ra, range_neg (*rb)); break;
          case SL_OP_MUL: rr = range_mul (*ra, *rb); break;
          case SL_OP_MAD: rr = range_add (range_mul (*ra, *rb), kn.range[in->src[2]]); break;
          default: break;
          }
      kn.range[in->dst[0]] = rr;
      switch (in->op)
        {
        case SL_OP_INPUT:
          if (in->imm < SL_INPUT_COLOR && (in->imm & 3) < 2)
            r = (Affine) { (int8_t) (in->imm & 3), 1, 0, 0 };
          else if (in->imm >= SL_INPUT_POSITION && in->imm < SL_INPUT_POSITION + 2)
            r = (Affine) { (int8_t) (2 + in->imm - SL_INPUT_POSITION), 1, 0, 0 };
          break;
        case SL_OP_MOV:
          r = *a;
          kn.constant[in->dst[0]] = kn.constant[in->src[0]];
          break;
        case SL_OP_ADD:
          if (a->comp >= 0 && b->comp < 0)
            r = affine_plus_range (*a, rb);
          else if (b->comp >= 0 && a->comp < 0)
            r = affine_plus_range (*b, ra);
          break;
        case SL_OP_SUB:
          if (a->comp >= 0 && b->comp < 0)
            {
              Range minus = range_neg (*rb);
              r = affine_plus_range (*a, &minus);
            }
          else if (b->comp >= 0 && a->comp < 0)
            r = affine_plus_range (affine_scaled (*b, -1), ra);
          break;
        case SL_OP_NEG:
          if (a->comp >= 0)
            r = affine_scaled (*a, -1);
          break;
        case SL_OP_MUL:
          if (a->comp >= 0 && k1)
            r = affine_scaled (*a, c1);
          else if (b->comp >= 0 && k0)
            r = affine_scaled (*b, c0);
          break;
        case SL_OP_DIV:
          if (a->comp >= 0 && k1 && c1 != 0)
            r = affine_scaled (*a, 1.0f / c1);
          break;
        case SL_OP_MAD:
          if (known[in->src[2]].comp >= 0 && a->comp < 0 && b->comp < 0)
            {
              Range product = range_mul (*ra, *rb);
              r = affine_plus_range (known[in->src[2]], &product);
            }
          else if (known[in->src[2]].comp < 0)
            {
              if (a->comp >= 0 && k1)
                r = affine_plus_range (affine_scaled (*a, c1), &kn.range[in->src[2]]);
              else if (b->comp >= 0 && k0)
                r = affine_plus_range (affine_scaled (*b, c0), &kn.range[in->src[2]]);
            }
          break;
        /* The difference across a quad of scale × TEXCOORD is scale over
         * the viewport's size (up to float rounding, far inside the
         * texel of slack every footprint has); of SV_Position, scale. */
        case SL_OP_DDX:
        case SL_OP_DDY:
          if (a->comp >= 0 && a->lo == a->hi && width > 0 && height > 0)
            {
              bool along = (in->op == SL_OP_DDX) == (a->comp == 0 || a->comp == 2);
              float size = a->comp >= 2 ? 1.0f : in->op == SL_OP_DDX ? (float) width : (float) height;
              kn.constant[in->dst[0]] = along ? a->scale / size : 0.0f;
            }
          break;
        /* A texel index: a coordinate rounded toward zero (at most one
         * away), plus or minus integer constants. */
        case SL_OP_FTOI:
          if (a->comp >= 0)
            r = affine_shifted (*a, -1, 1);
          break;
        case SL_OP_IADD:
        case SL_OP_ISUB:
          {
            int sign = in->op == SL_OP_ISUB ? -1 : 1;
            if (a->comp >= 0 && is_int_const[in->src[1]]
                && ABS (int_const[in->src[1]]) <= (1 << 20))
              r = affine_shifted (*a, (float) (sign * int_const[in->src[1]]),
                                  (float) (sign * int_const[in->src[1]]));
            else if (in->op == SL_OP_IADD && b->comp >= 0 && is_int_const[in->src[0]]
                     && ABS (int_const[in->src[0]]) <= (1 << 20))
              r = affine_shifted (*b, (float) int_const[in->src[0]], (float) int_const[in->src[0]]);
          }
          break;
        case SL_OP_IMUL:
          if (a->comp >= 0 && is_int_const[in->src[1]] && ABS (int_const[in->src[1]]) <= (1 << 20))
            r = affine_scaled (*a, (float) int_const[in->src[1]]);
          else if (b->comp >= 0 && is_int_const[in->src[0]] && ABS (int_const[in->src[0]]) <= (1 << 20))
            r = affine_scaled (*b, (float) int_const[in->src[0]]);
          break;
        /* Rounding moves a value by less than one. */
        case SL_OP_FLOOR:
          if (a->comp >= 0)
            r = affine_shifted (*a, -1, 0);
          break;
        case SL_OP_CEIL:
          if (a->comp >= 0)
            r = affine_shifted (*a, 0, 1);
          break;
        case SL_OP_TRUNC:
          if (a->comp >= 0)
            r = affine_shifted (*a, -1, 1);
          break;
        case SL_OP_ROUND:
        case SL_OP_ROUND_NE:
          if (a->comp >= 0)
            r = affine_shifted (*a, -0.5f, 0.5f);
          break;
        default:
          break;
        }
      known[in->dst[0]] = r;
      /* A derivative's step is known only now. */
      if (isfinite (kn.constant[in->dst[0]]))
        kn.range[in->dst[0]] = (Range) { kn.constant[in->dst[0]], kn.constant[in->dst[0]], false };
    }
  g_free (kn.affine);
  g_free (kn.constant);
  g_free (kn.range);
  g_free (int_const);
  g_free (is_int_const);
  g_free (writes);
  return bounded;
}

bool
sl_slot_reach_offsets (const SlSlotReach reach[SL_MAX_SLOTS], uint32_t bounded, float offsets[4])
{
  for (int k = 0; k < 4; k++)
    offsets[k] = 0;
  if (bounded != (1u << SL_MAX_SLOTS) - 1)
    return false;
  for (int s = 0; s < SL_MAX_SLOTS; s++)
    for (int g = 0; g < reach[s].n_groups; g++)
      {
        const SlReachGroup *gr = &reach[s].group[g];
        if (gr->scale[0] != 1 || gr->scale[1] != 1 || gr->position[0] || gr->position[1]
            || gr->fetch || gr->texel_lo[0] || gr->texel_lo[1] || gr->texel_hi[0] || gr->texel_hi[1])
          return false;
        offsets[0] = MAX (offsets[0], -gr->lo[0]);
        offsets[1] = MAX (offsets[1], -gr->lo[1]);
        offsets[2] = MAX (offsets[2], gr->hi[0]);
        offsets[3] = MAX (offsets[3], gr->hi[1]);
      }
  return true;
}

bool
sl_ir_sample_reach (const SlIr *ir, int width, int height, float reach[4])
{
  SlSlotReach per_slot[SL_MAX_SLOTS];
  return sl_slot_reach_offsets (per_slot, sl_ir_sample_reach_slots (ir, width, height, per_slot), reach);
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
