"""Whether a capitalised phrase names a country or US state (to tell places from firm and device names)."""

from __future__ import annotations

__all__ = ["looks_like_place"]

# Country and state names users type most; resolve_location holds the full ISO 3166 / USPS table.
_NAMES = {
    "usa", "us", "u.s.", "united states", "america", "canada", "mexico", "brazil", "argentina", "chile", "colombia",
    "uk", "united kingdom", "britain", "great britain", "england", "scotland", "ireland", "germany", "france",
    "italy", "spain", "portugal", "netherlands", "the netherlands", "belgium", "switzerland", "austria", "sweden",
    "norway", "denmark", "finland", "poland", "czech republic", "czechia", "hungary", "israel", "turkey", "india",
    "china", "japan", "korea", "south korea", "taiwan", "singapore", "malaysia", "thailand", "vietnam", "indonesia",
    "philippines", "australia", "new zealand", "south africa", "egypt", "europe", "eu", "european union", "asia",
    "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware", "florida",
    "georgia", "hawaii", "idaho", "illinois", "indiana", "iowa", "kansas", "kentucky", "louisiana", "maine",
    "maryland", "massachusetts", "michigan", "minnesota", "mississippi", "missouri", "montana", "nebraska", "nevada",
    "new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota", "ohio", "oklahoma",
    "oregon", "pennsylvania", "rhode island", "south carolina", "south dakota", "tennessee", "texas", "utah",
    "vermont", "virginia", "washington", "west virginia", "wisconsin", "wyoming", "puerto rico",
    "district of columbia"}


def looks_like_place(name: str) -> bool:
    n = " ".join(name.lower().split()).removeprefix("the ")
    return n in _NAMES or (len(name) == 2 and name.isupper() and name not in ("IV", "OK", "GE"))
