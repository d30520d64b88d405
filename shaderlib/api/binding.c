/* Bindings: a program with the constant values, textures and sampler
 * state of one use, and its rendering.
 *
 * A binding specialises the program's optimised IR on its constant values
 * when prepared (parameters fold into the code, then the optimiser runs
 * again), measures the sampling reach hosts ask for, and emits the span
 * program that sl_binding_render runs, span by span, over a rectangle.
 * Setting a constant unprepares the binding; renders only read it, so
 * several threads may render one prepared binding, each with its own
 * scratch. */
#include "api/program.h"

#include "api/params.h"
#include "base/diag.h"
#include "ir/reach.h"
#include "ir/span_emit.h"
#include "vm/mips.h"
#include "vm/vm.h"

#include <math.h>
#include <string.h>

struct SlBinding
{
  SlProgram       *program;
  uint32_t        *constants;
  size_t           n_constants;
  int              width, height;
  const SlTexture *textures[SL_MAX_SLOTS];
  SlSamplerState   samplers[SL_MAX_SLOTS];
  bool             sampler_set[SL_MAX_SLOTS];
  SlSpanProgram   *span;
  bool             prepared;
  /* Sampling reach (texels of slot 0, and in texture coordinates),
   * computed at prepare time. */
  bool             reach_known;
  int              reach[4];
  SlSlotReach      slot_reach[SL_MAX_SLOTS];
  uint32_t         bounded_slots;  /* slots whose slot_reach holds */
  /* Mip chains built on first need (sl_binding_set_auto_mips); render
   * calls are const and concurrent, so the cache locks itself. */
  bool             auto_mips;
  uint32_t         mip_slots;      /* texture slots that may read another level */
  uint32_t         sampled_slots;  /* texture slots the specialised program reads */
  bool             saturate_outputs;
  bool             all_components; /* sl_binding_writes_all_components */
  bool             discards;       /* the specialised program may discard */
  bool             reach_zero;     /* every read at TEXCOORD0 itself */
  bool             own_texels;     /* sl_binding_needs_only_own_texels */
  SlVmMipCache    *mips;
  /* SlVmEnv.runaway: a separate word because renders see a const binding;
   * cleared by each prepare. */
  unsigned        *runaway;
};

void
sl_binding_set_auto_mips (SlBinding *b, bool enable)
{
  b->auto_mips = enable;
}

void
sl_binding_flush_mips (SlBinding *b)
{
  sl_vm_mip_cache_flush (b->mips);
}

struct SlScratch
{
  SlVmState state;
};

SlBinding *
sl_binding_new (SlProgram *program)
{
  SlBinding *b = g_new0 (SlBinding, 1);
  b->runaway = g_new0 (unsigned, 1);
  b->program = sl_program_ref (program);
  b->n_constants = MAX (program->info.constants_size, 4);
  b->constants = g_new0 (uint32_t, b->n_constants);
  if (program->info.defaults)
    memcpy (b->constants, program->info.defaults, program->info.constants_size * sizeof (uint32_t));
  b->width = b->height = 1;
  b->mips = sl_vm_mip_cache_new ();
  for (int i = 0; i < SL_MAX_SLOTS; i++)
    sl_sampler_state_init_default (&b->samplers[i]);
  /* State the shader declares (sampler_state {…}) replaces the default. */
  for (guint i = 0; program->info.samplers && i < program->info.samplers->len; i++)
    {
      const SlSamplerInfo *si = &g_array_index (program->info.samplers, SlSamplerInfo, i);
      if (si->declared_state && si->slot >= 0 && si->slot < SL_MAX_SLOTS)
        b->samplers[si->slot] = *si->declared_state;
    }
  return b;
}

void
sl_binding_free (SlBinding *b)
{
  if (!b)
    return;
  sl_span_program_free (b->span);
  sl_program_unref (b->program);
  sl_vm_mip_cache_free (b->mips);
  g_free (b->constants);
  g_free (b->runaway);
  g_free (b);
}

SlProgram *
sl_binding_get_program (const SlBinding *b)
{
  return b->program;
}

static void
unprepare (SlBinding *b)
{
  sl_span_program_free (b->span);
  b->span = NULL;
  b->prepared = false;
}

void
sl_binding_set_viewport (SlBinding *b, int width, int height)
{
  b->width = MAX (width, 1);
  b->height = MAX (height, 1);
}

void
sl_binding_set_constants (SlBinding *b, size_t offset, const void *words, size_t n_words)
{
  if (offset + n_words > b->n_constants)
    {
      size_t n = offset + n_words;
      b->constants = g_renew (uint32_t, b->constants, n);
      memset (b->constants + b->n_constants, 0, (n - b->n_constants) * sizeof (uint32_t));
      b->n_constants = n;
    }
  memcpy (b->constants + offset, words, n_words * sizeof (uint32_t));
  unprepare (b);
}

bool
sl_binding_set_param (SlBinding *b, const char *name, const float *values, int n_values,
                      SlDiagnostics *diags)
{
  const SlParam *p = sl_program_find_param (b->program, name);
  if (!p)
    {
      GString *known = g_string_new (NULL);
      for (int i = 0; i < sl_program_get_n_params (b->program); i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "", sl_program_get_param (b->program, i)->name);
      sl_diag (diags, SL_DIAG_API_UNKNOWN_PARAMETER, "<params>", 0, 0,
               "unknown parameter '%s' (known: %s)", name, known->len ? known->str : "none");
      g_string_free (known, TRUE);
      return false;
    }
  if (n_values < 1)
    {
      sl_diag (diags, SL_DIAG_API_PARAMETER_NO_VALUE, "<params>", 0, 0,
               "parameter '%s' needs a value", name);
      return false;
    }
  sl_param_store (p, b->program->info.shader_model >= 40, values, n_values,
                  b->constants, b->n_constants);
  unprepare (b);
  return true;
}

static bool
set_binding_param (void *target, const char *name, const float *values, int n_values,
                   SlDiagnostics *diags)
{
  return sl_binding_set_param (target, name, values, n_values, diags);
}

bool
sl_binding_set_params_string (SlBinding *b, const char *params, SlDiagnostics *diags)
{
  return sl_parse_params_string (params, diags, set_binding_param, b);
}

void
sl_binding_set_texture (SlBinding *b, int slot, const SlTexture *texture)
{
  if (slot >= 0 && slot < SL_MAX_SLOTS)
    b->textures[slot] = texture;
}

void
sl_binding_set_sampler (SlBinding *b, int slot, const SlSamplerState *state)
{
  if (slot < 0 || slot >= SL_MAX_SLOTS)
    return;
  if (state)
    b->samplers[slot] = *state;
  else
    sl_sampler_state_init_default (&b->samplers[slot]);
  b->sampler_set[slot] = state != NULL;
}

/* The sampling reach in texels of slot 0 (or of the viewport when slot 0
 * has no texture). */
static void
compute_reach (SlBinding *b, const SlIr *ir)
{
  float reach[4];
  b->bounded_slots = sl_ir_sample_reach_slots (ir, b->width, b->height, b->slot_reach);
  /* In the sizes of the textures bound now; a slot the host fills at
   * render time gets the primary input, of the viewport's size. */
  for (int slot = 0; slot < SL_MAX_SLOTS; slot++)
    {
      const SlTexture *t = b->textures[slot];
      bool sized = t && t->levels[0].width > 0 && t->levels[0].height > 0;
      sl_slot_reach_resolve (&b->slot_reach[slot], sized ? t->levels[0].width : b->width,
                             sized ? t->levels[0].height : b->height, b->width, b->height);
    }
  b->reach_known = sl_slot_reach_offsets (b->slot_reach, b->bounded_slots, reach);
  b->reach_zero = b->reach_known && reach[0] == 0 && reach[1] == 0 && reach[2] == 0
                  && reach[3] == 0;
  if (b->reach_known)
    {
      const SlTexture *t = b->textures[0];
      int w = t ? t->levels[0].width : b->width, h = t ? t->levels[0].height : b->height;
      /* One extra texel for the bilinear footprint and rounding. */
      b->reach[0] = (int) ceilf (reach[0] * w) + 1;
      b->reach[1] = (int) ceilf (reach[1] * h) + 1;
      b->reach[2] = (int) ceilf (reach[2] * w) + 1;
      b->reach[3] = (int) ceilf (reach[3] * h) + 1;
    }
}

bool
sl_binding_prepare (SlBinding *b, SlDiagnostics *diags)
{
  if (b->prepared)
    return true;
  SlIr *ir = sl_ir_copy (b->program->ir);
  sl_pass_specialise (ir, b->constants, b->n_constants);
  if (b->saturate_outputs)
    sl_pass_saturate_outputs (ir, 0);
  bool validate = b->program->validate;
  if ((validate && !sl_ir_validate (ir, "specialisation", diags))
      || !sl_pass_optimise_checked (ir, validate, diags))
    {
      sl_ir_free (ir);
      return false;
    }
  compute_reach (b, ir);
  /* Sampler state is taken as set by now. */
  b->mip_slots = sl_ir_mip_slots (ir, b->samplers);
  b->sampled_slots = sl_ir_sampled_slots (ir);
  b->all_components = sl_ir_writes_all_components (ir, 0);
  b->discards = sl_ir_discards (ir);
  /* A read at another level covers more than the level-0 reach. */
  if (b->auto_mips && b->mip_slots)
    b->reach_known = false;
  b->own_texels = b->reach_known && b->reach_zero && !sl_ir_takes_derivatives (ir);
  b->span = sl_span_emit (ir);
  sl_ir_free (ir);
  b->prepared = true;
  g_atomic_int_set ((gint *) b->runaway, 0);
  return true;
}

void
sl_binding_set_saturate_outputs (SlBinding *b, bool saturate)
{
  if (b->saturate_outputs != saturate)
    unprepare (b);
  b->saturate_outputs = saturate;
}

bool
sl_binding_writes_all_components (const SlBinding *b)
{
  return b->prepared && b->all_components;
}

bool
sl_binding_needs_only_own_texels (const SlBinding *b)
{
  return b->prepared && b->own_texels;
}

bool
sl_binding_writes_every_pixel (const SlBinding *b)
{
  return b->prepared && b->all_components && !b->discards;
}

uint32_t
sl_binding_get_sampled_slots (const SlBinding *b)
{
  return b->prepared ? b->sampled_slots : ~0u;
}

bool
sl_binding_get_slot_reach (const SlBinding *b, int slot, SlSlotReach *reach)
{
  if (!b->prepared || slot < 0 || slot >= SL_MAX_SLOTS || !(b->bounded_slots & (1u << slot))
      || (b->auto_mips && (b->mip_slots & (1u << slot))))
    return false;
  *reach = b->slot_reach[slot];
  return true;
}

bool
sl_binding_get_sample_reach (const SlBinding *b, int *left, int *top, int *right, int *bottom)
{
  if (!b->prepared || !b->reach_known)
    return false;
  *left = b->reach[0];
  *top = b->reach[1];
  *right = b->reach[2];
  *bottom = b->reach[3];
  return true;
}

SlScratch *
sl_scratch_new (void)
{
  return g_new0 (SlScratch, 1);
}

void
sl_scratch_free (SlScratch *s)
{
  if (!s)
    return;
  sl_vm_state_clear (&s->state);
  g_free (s);
}

bool
sl_binding_render (const SlBinding *b, SlScratch *scratch, int x, int y, int width, int height,
                   const SlTexture *const *textures, const SlTarget *targets, int n_targets,
                   SlDiagnostics *diags)
{
  if (!b->prepared)
    {
      sl_diag (diags, SL_DIAG_API_BINDING_NOT_PREPARED, "<render>", 0, 0,
               "binding rendered before sl_binding_prepare()");
      return false;
    }
  if (width <= 0 || height <= 0)
    return true;
  SlVmEnv env = {
    .constants = b->constants,
    .n_constants = b->n_constants,
    .viewport_width = b->width,
    .viewport_height = b->height,
    .runaway = b->runaway,
  };
  for (int i = 0; i < SL_MAX_SLOTS; i++)
    {
      env.textures[i] = textures && textures[i] ? textures[i] : b->textures[i];
      env.samplers[i] = &b->samplers[i];
      if (b->auto_mips && (b->mip_slots & (1u << i)))
        env.textures[i] = sl_vm_mip_cache_get (b->mips, env.textures[i]);
    }
  bool ok = sl_vm_render (b->span, &scratch->state, &env, x, y, width, height,
                          targets, n_targets);
  if (scratch->state.stopped & SL_VM_STOPPED_CAP)
    sl_diag (diags, SL_DIAG_VM_LOOP, "<render>", 0, 0,
             "a loop reached the iteration cap of %d and was stopped", SL_HLSL_LOOP_CAP);
  if (scratch->state.stopped & SL_VM_STOPPED_BUDGET)
    sl_diag (diags, SL_DIAG_VM_BUDGET, "<render>", 0, 0,
             "the shader ran more than %u instructions per pixel; "
             "its loops were stopped", SL_VM_SPAN_BUDGET);
  if (scratch->state.stopped & SL_VM_STOPPED_STRAIGHT)
    sl_diag (diags, SL_DIAG_VM_BUDGET_STRAIGHT, "<render>", 0, 0,
             "one pass over the shader costs more than %u instructions per pixel; "
             "it ran once, each loop at most once", SL_VM_SPAN_BUDGET);
  return ok;
}
