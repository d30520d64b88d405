/* driver — a main() for the fuzz harnesses when libFuzzer is not linked.
 *
 * The harnesses are plain LLVMFuzzerTestOneInput functions.  Under clang's
 * -fsanitize=fuzzer libFuzzer supplies main(); everywhere else (gcc, the
 * sanitizer build, the normal test suite) this driver does.  It replays
 * every file given (directories are walked), then spends a few seconds on
 * cheap deterministic mutations of those inputs: byte flips, deletions,
 * duplications and splices with tokens shaders are made of.  That is no
 * substitute for coverage-guided fuzzing, but it runs each harness's code
 * paths on every `meson test` and replays crash reproducers saved as
 * regression files.  The seed is fixed so a failure reproduces exactly,
 * and with FUZZ_SAVE_INPUT=FILE every mutant is written to FILE before it
 * runs, so a crash leaves its reproducer behind.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef struct
{
  GPtrArray *inputs;   /* GBytes */
  guint64    state;
} Driver;

static guint64
next_random (Driver *d)
{
  /* xorshift64*: tiny, deterministic, good enough for mutation choices */
  d->state ^= d->state >> 12;
  d->state ^= d->state << 25;
  d->state ^= d->state >> 27;
  return d->state * 0x2545F4914F6CDD1Dull;
}

static void
add_path (Driver *d, const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      GDir       *dir = g_dir_open (path, 0, NULL);
      const char *name;
      GPtrArray  *names = g_ptr_array_new_with_free_func (g_free);

      if (dir == NULL)
        return;
      while ((name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (path, name, NULL));
      g_dir_close (dir);
      /* Directory order is file-system dependent; sort so runs repeat. */
      g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
      for (guint i = 0; i < names->len; i++)
        add_path (d, *(char **) &names->pdata[i]);
      g_ptr_array_free (names, TRUE);
      return;
    }
  char  *data;
  gsize  len;
  if (!g_file_get_contents (path, &data, &len, NULL))
    {
      fprintf (stderr, "fuzz-driver: cannot read '%s'\n", path);
      exit (2);
    }
  g_ptr_array_add (d->inputs, g_bytes_new_take (data, len));
}

static const char *const tokens[] =
{
  "{", "}", "(", ")", "[", "]", ";", ",", ".", "=", "+", "-", "*", "/",
  "%", "<<", ">>", "?", ":", "#define A(x) x x\n", "#include \"x\"\n",
  "#if 1\n", "#endif\n", "#line 0\n", "A(", "\\\n", "/*", "*/", "//",
  "for (int i = 0; i < 100000; i++) ", "while (true) ", "break;",
  "return ", "discard;", "float4 ", "int ", "uint ", "bool ", "float4x4 ",
  "[1000000]", "1e39", "-0.0", "0x7fffffff", "1.#INF", "/ 0", "% 0",
  "tex2D(s, ", "sampler2D s;", "main", "register(c255)", "register(s15)",
  " : COLOR", " : SV_Target", "\0", "\xff", "ps_3_0\n", "ps_2_0\n",
  "ps_4_0\n", "mov oC0, ", "def c0, ", "dcl_2d s0\n", "texld r0, ",
  "rep i0\n", "loop aL, i0\n", "endloop\n", "DXBC", "\xff\xff\x00\x00",
};

/* A function, not MIN(): the random argument must be drawn once. */
static gsize
clamp_len (gsize limit, guint64 want)
{
  return want < limit ? (gsize) want : limit;
}

static GBytes *
mutate (Driver *d, GBytes *base, GBytes *other)
{
  gsize         len;
  const guint8 *src = g_bytes_get_data (base, &len);
  GByteArray   *out = g_byte_array_sized_new (len + 64);
  int           n_edits = 1 + (int) (next_random (d) % 4);

  g_byte_array_append (out, src, len);
  for (int e = 0; e < n_edits; e++)
    {
      gsize pos = out->len ? next_random (d) % (out->len + 1) : 0;
      switch (next_random (d) % 6)
        {
        case 0:   /* flip a bit */
          if (out->len)
            out->data[pos % out->len] ^= (guint8) (1u << (next_random (d) % 8));
          break;
        case 1:   /* delete a range */
          if (pos < out->len)
            g_byte_array_remove_range (out, pos,
                                       clamp_len (out->len - pos, 1 + next_random (d) % 32));
          break;
        case 2:   /* duplicate a range */
          if (pos < out->len && out->len < (1u << 20))
            {
              gsize   n = clamp_len (out->len - pos, 1 + next_random (d) % 64);
              guint8 *copy = g_memdup2 (out->data + pos, n);
              g_byte_array_set_size (out, out->len + n);
              memmove (out->data + pos + n, out->data + pos, out->len - n - pos);
              memcpy (out->data + pos, copy, n);
              g_free (copy);
            }
          break;
        case 3:   /* insert a token */
        case 4:
          {
            const char *t = tokens[next_random (d) % G_N_ELEMENTS (tokens)];
            gsize       n = t[0] ? strlen (t) : 1;
            g_byte_array_set_size (out, out->len + n);
            memmove (out->data + pos + n, out->data + pos, out->len - n - pos);
            memcpy (out->data + pos, t, n);
          }
          break;
        default:  /* splice in part of another input */
          {
            gsize         olen;
            const guint8 *o = g_bytes_get_data (other, &olen);
            if (olen)
              {
                gsize start = next_random (d) % olen;
                gsize n = clamp_len (olen - start, 1 + next_random (d) % 128);
                g_byte_array_set_size (out, out->len + n);
                memmove (out->data + pos + n, out->data + pos, out->len - n - pos);
                memcpy (out->data + pos, o + start, n);
              }
          }
          break;
        }
    }
  return g_byte_array_free_to_bytes (out);
}

static void
run_one (GBytes *input, const char *save_path)
{
  gsize         len;
  const guint8 *data = g_bytes_get_data (input, &len);

  if (save_path != NULL)
    g_file_set_contents (save_path, (const char *) data, (gssize) len, NULL);
  /* libFuzzer hands out a private copy of exactly @len bytes; do the same
   * so an overread is caught by ASan here too. */
  guint8       *copy = g_malloc (len ? len : 1);

  memcpy (copy, data, len);
  LLVMFuzzerTestOneInput (copy, len);
  g_free (copy);
}

int
main (int argc, char **argv)
{
  Driver  d = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
                0x9E3779B97F4A7C15ull };
  double  seconds = 0;
  long    max_runs = -1;
  guint64 runs = 0;
  const char *save_path = g_getenv ("FUZZ_SAVE_INPUT");

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--seconds") == 0 && i + 1 < argc)
        seconds = g_ascii_strtod (argv[++i], NULL);
      else if (strcmp (argv[i], "--runs") == 0 && i + 1 < argc)
        max_runs = strtol (argv[++i], NULL, 10);
      else
        add_path (&d, argv[i]);
    }
  if (d.inputs->len == 0)
    g_ptr_array_add (d.inputs, g_bytes_new_static ("", 0));

  for (guint i = 0; i < d.inputs->len; i++, runs++)
    run_one (d.inputs->pdata[i], NULL);

  gint64 end = g_get_monotonic_time () + (gint64) (seconds * 1e6);
  guint64 mutated = 0;
  while ((seconds > 0 && g_get_monotonic_time () < end)
         || (max_runs >= 0 && (long) mutated < max_runs))
    {
      GBytes *base = d.inputs->pdata[next_random (&d) % d.inputs->len];
      GBytes *other = d.inputs->pdata[next_random (&d) % d.inputs->len];
      GBytes *m = mutate (&d, base, other);
      run_one (m, save_path);
      g_bytes_unref (m);
      mutated++;
      if (max_runs >= 0 && (long) mutated >= max_runs && seconds <= 0)
        break;
    }
  printf ("%u inputs replayed, %" G_GUINT64_FORMAT " mutants run\n",
          d.inputs->len, mutated);
  g_ptr_array_free (d.inputs, TRUE);
  return 0;
}
