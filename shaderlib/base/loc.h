/* Source locations, as the front ends attach them to tokens and nodes.
 *
 * The file name is shared, not copied per location: the lexer copies it
 * into the compile's arena once per #line marker and every location after
 * the marker points at that copy. */
#ifndef SL_LOC_H
#define SL_LOC_H

typedef struct
{
  const char *file;   /* arena-owned */
  int         line, column;
} SlLoc;

#endif
