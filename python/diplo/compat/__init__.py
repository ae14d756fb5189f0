"""Drop-in stand-ins for other Diplomacy engines' Python APIs, ruled by diplo.

:mod:`diplo.compat.mila` offers the part of the MILA engine's ``diplomacy.Game`` that bots use.
"""
