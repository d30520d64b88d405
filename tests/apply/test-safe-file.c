/* test-safe-file — the primitives the batch command's outputs rest on:
 * creating a file never goes through a link or over an existing file,
 * rewriting never follows a link, names are shown escaped, and a PNG,
 * JPEG, PPM or PFM file cut short is told from a whole one.  The whole
 * files are made by the command's own encoders; the cut ones are the
 * same bytes truncated, or with one block lost in the middle, as a write
 * that failed on a full disk leaves them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gegl.h>

#include "safe-file.h"
#include "image-save.h"
#include "image-write.h"

static char *dir;

static char *
in_dir (const char *name)
{
  return g_build_filename (dir, name, NULL);
}

static void
test_create_refuses_links (void)
{
  char   *target = in_dir ("target");
  char   *dangling = in_dir ("dangling-target");
  char   *link1 = in_dir ("link-to-file");
  char   *link2 = in_dir ("link-to-nothing");
  char   *fresh = in_dir ("fresh");
  char   *text = NULL;
  GError *error = NULL;

  g_assert_true (g_file_set_contents (target, "precious", -1, NULL));
  g_assert_cmpint (symlink (target, link1), ==, 0);
  g_assert_cmpint (symlink (dangling, link2), ==, 0);

  /* A link to a file, a dangling link, an existing file: all refused. */
  g_assert_false (gs_safe_file_create (link1, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST);
  g_clear_error (&error);
  g_assert_false (gs_safe_file_create (link2, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST);
  g_clear_error (&error);
  g_assert_false (g_file_test (dangling, G_FILE_TEST_EXISTS));
  g_assert_false (gs_safe_file_create (target, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST);
  g_clear_error (&error);

  /* Rewriting through a link is refused too; the target is untouched. */
  g_assert_false (gs_safe_file_rewrite (link1, "evil", 4, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_LOOP);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (target, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "precious");
  g_free (text);

  g_assert_true (gs_safe_file_create (fresh, &error));
  g_assert_no_error (error);
  g_assert_true (gs_safe_file_rewrite (fresh, "new", 3, &error));
  g_assert_true (g_file_get_contents (fresh, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "new");
  g_free (text);

  g_free (target);
  g_free (dangling);
  g_free (link1);
  g_free (link2);
  g_free (fresh);
}

static void
test_display_name (void)
{
  struct { const char *in, *out; } cases[] =
  {
    { "plain/name.png",       "plain/name.png" },
    { "caf\xc3\xa9.png",      "caf\xc3\xa9.png" },
    { "a\nFORGED: line",      "a\\x0aFORGED: line" },
    { "back\\slash\r",        "back\\\\slash\\x0d" },
    { "esc\033[2Jx",          "esc\\x1b[2Jx" },
    { "bad\377.png",          "bad\\xff.png" },
    { "c1\xc2\x9b.png",       "c1\\xc2\\x9b.png" },
    { "back\\slash",          "back\\slash" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *got = gs_safe_display_name (cases[i].in);

      g_assert_cmpstr (got, ==, cases[i].out);
      g_assert_null (strchr (got, '\n'));
      g_free (got);
    }
}

/* Writes @length bytes of @data to @name in the test folder. */
static char *
put (const char *name,
     const char *data,
     gsize       length)
{
  char *path = in_dir (name);

  g_assert_true (g_file_set_contents (path, data, (gssize) length, NULL));
  return path;
}

static void
check_format (const char *ext)
{
  GsImage *image;
  GError  *error = NULL;
  char    *name = g_strconcat ("whole.", ext, NULL);
  char    *path = in_dir (name);
  char    *data = NULL;
  gsize    length = 0;
  char    *cut;

  image = gs_image_new (40, 30, &error);
  g_assert_no_error (error);
  {
    /* Noise, so that every format's file is a few kilobytes. */
    GRand *rand = g_rand_new_with_seed (7);

    for (gsize i = 0; i < 40 * 30 * 4; i++)
      image->pixels[i] = (float) g_rand_double (rand);
    g_rand_free (rand);
  }

  g_assert_true (gs_image_save (image, path, FALSE, 8, &error));
  g_assert_no_error (error);
  g_assert_true (gs_image_check_complete (path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  g_assert_cmpuint (length, >, 600);

  /* Cut short. */
  g_free (name);
  name = g_strconcat ("short.", ext, NULL);
  cut = put (name, data, length - 100);
  g_assert_false (gs_image_check_complete (cut, &error));
  g_assert_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE);
  g_assert_nonnull (strstr (error->message, "incomplete"));
  g_clear_error (&error);
  g_free (cut);

  /* A block lost in the middle, the rest written after it (JPEG's
   * scan data has no checksum: only its structure is checked). */
  if (g_str_equal (ext, "jpg"))
    goto empty;
  g_free (name);
  name = g_strconcat ("hole.", ext, NULL);
  {
    GString *holed = g_string_new_len (data, 200);

    g_string_append_len (holed, data + 456, (gssize) (length - 456));
    cut = put (name, holed->str, holed->len);
    g_string_free (holed, TRUE);
  }
  g_assert_false (gs_image_check_complete (cut, &error));
  g_assert_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE);
  g_clear_error (&error);
  g_free (cut);

empty:
  /* Empty. */
  g_free (name);
  name = g_strconcat ("empty.", ext, NULL);
  cut = put (name, "", 0);
  g_assert_false (gs_image_check_complete (cut, &error));
  g_clear_error (&error);
  g_free (cut);

  g_free (data);
  g_free (name);
  g_free (path);
  gs_image_free (image);
}

static void
test_complete_png (void)
{
  check_format ("png");
}

static void
test_complete_jpeg (void)
{
  check_format ("jpg");
}

static void
test_complete_ppm (void)
{
  check_format ("ppm");
}

static void
test_complete_pfm (void)
{
  check_format ("pfm");
}

/* Saving over a link replaces the link; the file it pointed to stays. */
static void
test_save_replaces_link (void)
{
  char    *target = in_dir ("outside.ppm");
  char    *link = in_dir ("out.ppm");
  char    *text = NULL;
  GError  *error = NULL;
  GsImage *image = gs_image_new (4, 4, &error);
  GStatBuf st;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (target, "precious", -1, NULL));
  g_assert_cmpint (symlink (target, link), ==, 0);
  g_assert_true (gs_image_save (image, link, FALSE, 8, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_true (g_file_get_contents (target, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "precious");
  g_free (text);
  g_free (target);
  g_free (link);
  gs_image_free (image);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  gegl_init (NULL, NULL);
  dir = g_dir_make_tmp ("gs-safe-file-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_test_add_func ("/safe-file/create-refuses-links", test_create_refuses_links);
  g_test_add_func ("/safe-file/display-name", test_display_name);
  g_test_add_func ("/safe-file/complete-png", test_complete_png);
  g_test_add_func ("/safe-file/complete-jpeg", test_complete_jpeg);
  g_test_add_func ("/safe-file/complete-ppm", test_complete_ppm);
  g_test_add_func ("/safe-file/complete-pfm", test_complete_pfm);
  g_test_add_func ("/safe-file/save-replaces-link", test_save_replaces_link);
  status = g_test_run ();
  {
    char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    if (system (cmd) != 0)
      g_printerr ("could not remove %s\n", dir);
    g_free (cmd);
  }
  g_free (dir);
  gegl_exit ();
  return status;
}
