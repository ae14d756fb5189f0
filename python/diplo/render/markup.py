"""Text made safe for a picture or a page: markup characters escaped, and the characters XML
cannot hold (even escaped) replaced."""

from __future__ import annotations

import re
from html import escape as _html_escape

__all__ = ["escape"]

# Characters XML 1.0 does not allow even escaped (C0 controls but tab and newlines, lone
# surrogates, U+FFFE/U+FFFF): they would make the picture ill-formed, so they become U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(value: object) -> str:
    """``value`` as text safe inside an XML/HTML element or a quoted attribute: markup
    characters escaped, characters XML cannot hold replaced."""
    return _html_escape(_NOT_XML.sub("\ufffd", str(value)), quote=True)
