/* Sampler state names and value words (see hlsl_sampler_state.h).
 *
 * One table of state names with the field each sets, and one of value
 * words per kind of value.  Words are compared in a normal form (upper
 * case, no '_'), which is how the effect layer spells values it has
 * joined from several tokens and what makes MIRROR_ONCE and MIRRORONCE,
 * or Wrap and WRAP, the same word. */
#include "hlsl/hlsl_sampler_state.h"

#include <glib.h>
#include <string.h>

static const HlslSamplerKey keys[] = {
  { "MinFilter", HLSL_SAMPLER_FILTER, offsetof (SlSamplerState, min_filter) },
  { "MagFilter", HLSL_SAMPLER_FILTER, offsetof (SlSamplerState, mag_filter) },
  { "MipFilter", HLSL_SAMPLER_FILTER, offsetof (SlSamplerState, mip_filter) },
  { "Filter", HLSL_SAMPLER_FILTER_ALL, 0 },
  { "AddressU", HLSL_SAMPLER_ADDRESS, offsetof (SlSamplerState, address_u) },
  { "AddressV", HLSL_SAMPLER_ADDRESS, offsetof (SlSamplerState, address_v) },
  { "AddressW", HLSL_SAMPLER_ADDRESS, offsetof (SlSamplerState, address_w) },
  { "BorderColor", HLSL_SAMPLER_COLOR, offsetof (SlSamplerState, border_color) },
  { "MipLODBias", HLSL_SAMPLER_NUMBER, offsetof (SlSamplerState, lod_bias) },
  { "MipMapLodBias", HLSL_SAMPLER_NUMBER, offsetof (SlSamplerState, lod_bias) },
  { "MinLOD", HLSL_SAMPLER_NUMBER, offsetof (SlSamplerState, min_lod) },
  /* D3D9's MAXMIPLEVEL is the index of the largest (most detailed) mip
   * level used: a lower bound on the level of detail. */
  { "MaxMipLevel", HLSL_SAMPLER_NUMBER, offsetof (SlSamplerState, min_lod) },
  { "MaxLOD", HLSL_SAMPLER_NUMBER, offsetof (SlSamplerState, max_lod) },
  { "SRGBTexture", HLSL_SAMPLER_BOOL, offsetof (SlSamplerState, srgb) },
  { "Texture", HLSL_SAMPLER_TEXTURE, 0 },
};

static const struct { const char *word; SlFilter filter; } filter_words[] = {
  { "POINT", SL_FILTER_POINT },
  { "LINEAR", SL_FILTER_LINEAR },
  /* Anisotropy and D3D9's other filters: linear is the nearest we have. */
  { "ANISOTROPIC", SL_FILTER_LINEAR },
  { "GAUSSIANQUAD", SL_FILTER_LINEAR },
  { "PYRAMIDALQUAD", SL_FILTER_LINEAR },
  { "NONE", SL_FILTER_NONE },
};

static const struct { const char *word; SlAddressMode mode; } address_words[] = {
  { "WRAP", SL_ADDRESS_WRAP },
  { "REPEAT", SL_ADDRESS_WRAP },   /* ReShade's name */
  { "CLAMP", SL_ADDRESS_CLAMP },
  { "MIRROR", SL_ADDRESS_MIRROR },
  { "BORDER", SL_ADDRESS_BORDER },
  { "MIRRORONCE", SL_ADDRESS_MIRROR_ONCE },
};

/* @word in upper case without '_' into @out; false when it does not fit. */
static bool
normalise (const char *word, char *out, size_t size)
{
  size_t n = 0;
  for (const char *c = word; *c; c++)
    {
      if (*c == '_')
        continue;
      if (n + 1 >= size)
        return false;
      out[n++] = g_ascii_toupper (*c);
    }
  out[n] = 0;
  return true;
}

const HlslSamplerKey *
hlsl_sampler_key (const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS (keys); i++)
    if (!g_ascii_strcasecmp (name, keys[i].name))
      return &keys[i];
  return NULL;
}

/* A D3D10 filter name: MIN_MAG_MIP_POINT, MIN_LINEAR_MAG_MIP_POINT, their
 * COMPARISON_, MINIMUM_ and MAXIMUM_ forms, ANISOTROPIC.  Each stage takes
 * the first POINT or LINEAR after its name; anisotropy is linear. */
static bool
set_filter_name (SlSamplerState *st, const char *w)
{
  const char *mn = strstr (w, "MIN"), *mg = strstr (w, "MAG"), *mp = strstr (w, "MIP");
  bool all_linear = strstr (w, "ANISOTROPIC") != NULL;
  if (!mn && !all_linear)
    return false;
  const char *at[3] = { mn, mg, mp };
  SlFilter *dst[3] = { &st->min_filter, &st->mag_filter, &st->mip_filter };
  for (int i = 0; i < 3; i++)
    {
      const char *lin = at[i] ? strstr (at[i], "LINEAR") : NULL;
      const char *pt = at[i] ? strstr (at[i], "POINT") : NULL;
      *dst[i] = all_linear || (lin && (!pt || lin < pt)) ? SL_FILTER_LINEAR : SL_FILTER_POINT;
    }
  return true;
}

bool
hlsl_sampler_set_word (SlSamplerState *st, const HlslSamplerKey *key, const char *word)
{
  char w[128];
  if (!normalise (word, w, sizeof w))
    return false;
  void *field = (char *) st + key->field;
  switch (key->value)
    {
    case HLSL_SAMPLER_FILTER:
      for (size_t i = 0; i < G_N_ELEMENTS (filter_words); i++)
        if (!strcmp (w, filter_words[i].word))
          {
            *(SlFilter *) field = filter_words[i].filter;
            return true;
          }
      return false;
    case HLSL_SAMPLER_FILTER_ALL:
      return set_filter_name (st, w);
    case HLSL_SAMPLER_ADDRESS:
      for (size_t i = 0; i < G_N_ELEMENTS (address_words); i++)
        if (!strcmp (w, address_words[i].word))
          {
            *(SlAddressMode *) field = address_words[i].mode;
            return true;
          }
      return false;
    case HLSL_SAMPLER_BOOL:
      if (!strcmp (w, "TRUE") || !strcmp (w, "1"))
        *(bool *) field = true;
      else if (!strcmp (w, "FALSE") || !strcmp (w, "0"))
        *(bool *) field = false;
      else
        return false;
      return true;
    default:
      return false;
    }
}

void
hlsl_sampler_set_numbers (SlSamplerState *st, const HlslSamplerKey *key, const float *v, int n)
{
  void *field = (char *) st + key->field;
  switch (key->value)
    {
    case HLSL_SAMPLER_NUMBER:
      *(float *) field = n > 0 ? v[0] : 0;
      break;
    case HLSL_SAMPLER_COLOR:
      for (int k = 0; k < 4; k++)
        ((float *) field)[k] = n == 1 ? v[0] : k < n ? v[k] : 0;
      break;
    case HLSL_SAMPLER_BOOL:
      *(bool *) field = n > 0 && v[0] != 0;
      break;
    default:
      break;
    }
}
