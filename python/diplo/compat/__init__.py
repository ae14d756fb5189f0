"""Drop-in stand-ins for other Diplomacy engines' Python APIs, ruled by diplo.

:mod:`diplo.compat.mila` offers MILA's ``diplomacy.Game`` API (with ``Message``, ``GLOBAL``,
``Map`` and the ``diplomacy.utils.export`` functions), so that code written for MILA switches by
changing one import line (``docs/mila-compat.md``).
"""
