/* Sampler states as HLSL writes them, in sampler_state { … } blocks and
 * in effect files: which state names there are, which field of an
 * SlSamplerState each one sets, and which words its values are.
 *
 * The HLSL parser (hlsl_effect_syntax.c) and the effect layer
 * (fx/effect.c) read the tokens of a state block their own way and hand
 * the name and the value here, so both know the same names and words.
 * Names and words are matched ignoring case and '_' ("Mirror_Once"). */
#ifndef SL_HLSL_SAMPLER_STATE_H
#define SL_HLSL_SAMPLER_STATE_H

#include "shaderlib.h"

#include <stddef.h>

/* What a state's value is. */
typedef enum
{
  HLSL_SAMPLER_FILTER,      /* MinFilter, MagFilter, MipFilter: a filter word */
  HLSL_SAMPLER_FILTER_ALL,  /* Filter: a D3D10 filter name (MIN_MAG_MIP_POINT, …) */
  HLSL_SAMPLER_ADDRESS,     /* AddressU, AddressV, AddressW: an address word */
  HLSL_SAMPLER_NUMBER,      /* MinLOD, MaxLOD, MipLODBias, …: a number */
  HLSL_SAMPLER_COLOR,       /* BorderColor: four numbers, or one for all */
  HLSL_SAMPLER_BOOL,        /* SRGBTexture: TRUE, FALSE or a number */
  HLSL_SAMPLER_TEXTURE      /* Texture: the texture sampled, bound by effects */
} HlslSamplerValue;

typedef struct
{
  const char       *name;
  HlslSamplerValue  value;
  size_t            field;   /* offset of the field in SlSamplerState */
} HlslSamplerKey;

/* The state called @name, or NULL when there is none. */
const HlslSamplerKey *hlsl_sampler_key (const char *name);

/* Sets the FILTER, FILTER_ALL, ADDRESS or BOOL state @key from @word.
 * False, leaving @state as it was, when @word is none of its values. */
bool hlsl_sampler_set_word (SlSamplerState *state, const HlslSamplerKey *key, const char *word);

/* Sets the NUMBER, COLOR or BOOL state @key from the @n numbers of its
 * value (missing ones count as 0). */
void hlsl_sampler_set_numbers (SlSamplerState *state, const HlslSamplerKey *key, const float *v,
                               int n);

#endif
