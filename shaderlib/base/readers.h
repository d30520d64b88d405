/* Small readers of numbers out of source text and comments.
 *
 * The assemblers read counts and register numbers straight out of the
 * text; atoi overflows (undefined behaviour, and in practice a negative
 * index that slips past every "< n" check) and takes a sign, so they use
 * these instead. */
#ifndef SL_READERS_H
#define SL_READERS_H

/* The decimal number at @s (after blanks), saturated at @max; -1 when no
 * digit follows. */
static inline long
sl_parse_decimal (const char *s, long max)
{
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s < '0' || *s > '9')
    return -1;
  long v = 0;
  for (; *s >= '0' && *s <= '9'; s++)
    v = v > (max - (*s - '0')) / 10 ? max : v * 10 + (*s - '0');
  return v;
}

#endif
