"""Facts about openFDA itself, written once: its notice texts, its addresses, its date formats, its words.

Used by the local API (the `meta` block, date parsing, word matching) and the settings; the sync's loader and
the benchmark and sample builders still hold copies (see docs/architecture.md).
"""

from __future__ import annotations

__all__ = [
    "DISCLAIMER",
    "TERMS",
    "LICENSE",
    "MANIFEST_URL",
    "DOWNLOAD_SITE",
    "DATE_FORMATS",
    "DATE_FORMATS_SQL",
    "DAY_FORMAT",
    "WORD",
    "WORD_SQL",
]

# The `meta` block of every openFDA answer.
DISCLAIMER = (
    "Do not rely on openFDA to make decisions regarding medical care. While we make every effort to "
    "ensure that data is accurate, you should assume all results are unvalidated. We may limit or "
    "otherwise restrict your access to the API in line with our Terms of Service."
)
TERMS = "https://open.fda.gov/terms/"
LICENSE = "https://open.fda.gov/license/"

# Where the data comes from: the list of downloads, and the site the files are on.
MANIFEST_URL = "https://api.fda.gov/download.json"
DOWNLOAD_SITE = "https://download.open.fda.gov"

# The date spellings openFDA's records and searches use (strptime / DuckDB try_strptime), most common first,
# and the one its count answers write days in.
DATE_FORMATS: tuple[str, ...] = ("%Y%m%d", "%Y-%m-%d", "%m/%d/%Y")
DATE_FORMATS_SQL = "[" + ", ".join(f"'{f}'" for f in DATE_FORMATS) + "]"
DAY_FORMAT = "%Y%m%d"

# One word, as openFDA splits text (RE2 syntax): letters, digits and `_`, joined by single `.` or `'`.
WORD = r"[\pL\pN_]+(?:[.'][\pL\pN_]+)*"
WORD_SQL = WORD.replace("'", "''")  # the same, inside a SQL string literal
