"""GEGL module folder for the Python plugin tests.

GEGL_PATH replaces GEGL's default module path, so a test that loads the
built gegl-shaders.so makes a folder holding a link to it and one to every
entry of GEGL's own module folder, and points GEGL_PATH at that folder.
(The C tests and bench-gegl share tests/plugin/module-dir.h for the same.)
"""
import os


def make_module_dir(parent, module, sysdir):
    """Creates PARENT/modules with the links and returns its path."""
    mods = os.path.join(parent, "modules")
    os.mkdir(mods)
    os.symlink(os.path.abspath(module), os.path.join(mods, "gegl-shaders.so"))
    for name in os.listdir(sysdir):
        os.symlink(os.path.join(os.path.abspath(sysdir), name), os.path.join(mods, name))
    return mods
