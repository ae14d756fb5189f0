"""Drop-in stand-ins for other Diplomacy engines' Python APIs, ruled by diplo.

:mod:`diplo.compat.mila` offers MILA's ``diplomacy.Game`` API (with ``Message``, ``GLOBAL``,
``Map`` and the ``diplomacy.utils.export`` functions), so that code written for MILA switches by
changing one import line (``docs/mila-compat.md``). :mod:`diplo.compat.dipcc` offers dipcc's
``pydipcc`` (the engine behind Meta's Cicero): its ``Game``, its JSON files and its encoders, on
any Python and without torch (``docs/dipcc-compat.md``).
"""
