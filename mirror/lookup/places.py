"""Countries, US states and regions read from a person's words, and the establishments registered there.

`read_place("CA, USA")` gives the place(s) a text can mean: one when it is clear, several when it is not
("CA" alone is Canada or California): it never picks one reading of an ambiguous code silently. Context
settles it: "CA, USA", "state of IN", "Indiana", "US-DE" (a state); "IN (country)", "India" (a country).
`establishments(reader, place, product_codes)` counts and lists the registered establishments of a place.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from .source import Source, reader_of

__all__ = [
    "Place",
    "PlaceReading",
    "Establishments",
    "DeviceCodes",
    "COUNTRIES",
    "US_STATES",
    "REGIONS",
    "read_place",
    "device_codes",
    "establishments",
    "openfda_search",
    "ROW_FIELDS",
    "MAX_TEXT",
]

MAX_TEXT = 200

# ISO 3166-1 (alpha-2, alpha-3, short name[|ISO name]) and the USPS codes of the 50 states, DC and the inhabited
# territories (ISO 3166-2:US), taken from Debian's iso-codes 4.15.0 (/usr/share/iso-codes/json/iso_3166-1.json and
# iso_3166-2.json, which follow the ISO 3166 Maintenance Agency); common English aliases are added in _ALIASES.
_COUNTRY_DATA = """
AD AND Andorra; AE ARE United Arab Emirates; AF AFG Afghanistan; AG ATG Antigua and Barbuda; AI AIA Anguilla
AL ALB Albania; AM ARM Armenia; AO AGO Angola; AQ ATA Antarctica; AR ARG Argentina; AS ASM American Samoa
AT AUT Austria; AU AUS Australia; AW ABW Aruba; AX ALA Åland Islands; AZ AZE Azerbaijan
BA BIH Bosnia and Herzegovina; BB BRB Barbados; BD BGD Bangladesh; BE BEL Belgium; BF BFA Burkina Faso
BG BGR Bulgaria; BH BHR Bahrain; BI BDI Burundi; BJ BEN Benin; BL BLM Saint Barthélemy; BM BMU Bermuda
BN BRN Brunei Darussalam; BO BOL Bolivia|Bolivia, Plurinational State of
BQ BES Bonaire, Sint Eustatius and Saba; BR BRA Brazil; BS BHS Bahamas; BT BTN Bhutan; BV BVT Bouvet Island
BW BWA Botswana; BY BLR Belarus; BZ BLZ Belize; CA CAN Canada; CC CCK Cocos (Keeling) Islands
CD COD Congo, The Democratic Republic of the; CF CAF Central African Republic; CG COG Congo; CH CHE Switzerland
CI CIV Côte d'Ivoire; CK COK Cook Islands; CL CHL Chile; CM CMR Cameroon; CN CHN China; CO COL Colombia
CR CRI Costa Rica; CU CUB Cuba; CV CPV Cabo Verde; CW CUW Curaçao; CX CXR Christmas Island; CY CYP Cyprus
CZ CZE Czechia; DE DEU Germany; DJ DJI Djibouti; DK DNK Denmark; DM DMA Dominica; DO DOM Dominican Republic
DZ DZA Algeria; EC ECU Ecuador; EE EST Estonia; EG EGY Egypt; EH ESH Western Sahara; ER ERI Eritrea
ES ESP Spain; ET ETH Ethiopia; FI FIN Finland; FJ FJI Fiji; FK FLK Falkland Islands (Malvinas)
FM FSM Micronesia, Federated States of; FO FRO Faroe Islands; FR FRA France; GA GAB Gabon; GB GBR United Kingdom
GD GRD Grenada; GE GEO Georgia; GF GUF French Guiana; GG GGY Guernsey; GH GHA Ghana; GI GIB Gibraltar
GL GRL Greenland; GM GMB Gambia; GN GIN Guinea; GP GLP Guadeloupe; GQ GNQ Equatorial Guinea; GR GRC Greece
GS SGS South Georgia and the South Sandwich Islands; GT GTM Guatemala; GU GUM Guam; GW GNB Guinea-Bissau
GY GUY Guyana; HK HKG Hong Kong; HM HMD Heard Island and McDonald Islands; HN HND Honduras; HR HRV Croatia
HT HTI Haiti; HU HUN Hungary; ID IDN Indonesia; IE IRL Ireland; IL ISR Israel; IM IMN Isle of Man; IN IND India
IO IOT British Indian Ocean Territory; IQ IRQ Iraq; IR IRN Iran|Iran, Islamic Republic of; IS ISL Iceland
IT ITA Italy; JE JEY Jersey; JM JAM Jamaica; JO JOR Jordan; JP JPN Japan; KE KEN Kenya; KG KGZ Kyrgyzstan
KH KHM Cambodia; KI KIR Kiribati; KM COM Comoros; KN KNA Saint Kitts and Nevis
KP PRK North Korea|Korea, Democratic People's Republic of; KR KOR South Korea|Korea, Republic of; KW KWT Kuwait
KY CYM Cayman Islands; KZ KAZ Kazakhstan; LA LAO Laos|Lao People's Democratic Republic; LB LBN Lebanon
LC LCA Saint Lucia; LI LIE Liechtenstein; LK LKA Sri Lanka; LR LBR Liberia; LS LSO Lesotho; LT LTU Lithuania
LU LUX Luxembourg; LV LVA Latvia; LY LBY Libya; MA MAR Morocco; MC MCO Monaco
MD MDA Moldova|Moldova, Republic of; ME MNE Montenegro; MF MAF Saint Martin (French part); MG MDG Madagascar
MH MHL Marshall Islands; MK MKD North Macedonia; ML MLI Mali; MM MMR Myanmar; MN MNG Mongolia; MO MAC Macao
MP MNP Northern Mariana Islands; MQ MTQ Martinique; MR MRT Mauritania; MS MSR Montserrat; MT MLT Malta
MU MUS Mauritius; MV MDV Maldives; MW MWI Malawi; MX MEX Mexico; MY MYS Malaysia; MZ MOZ Mozambique
NA NAM Namibia; NC NCL New Caledonia; NE NER Niger; NF NFK Norfolk Island; NG NGA Nigeria; NI NIC Nicaragua
NL NLD Netherlands; NO NOR Norway; NP NPL Nepal; NR NRU Nauru; NU NIU Niue; NZ NZL New Zealand; OM OMN Oman
PA PAN Panama; PE PER Peru; PF PYF French Polynesia; PG PNG Papua New Guinea; PH PHL Philippines
PK PAK Pakistan; PL POL Poland; PM SPM Saint Pierre and Miquelon; PN PCN Pitcairn; PR PRI Puerto Rico
PS PSE Palestine, State of; PT PRT Portugal; PW PLW Palau; PY PRY Paraguay; QA QAT Qatar; RE REU Réunion
RO ROU Romania; RS SRB Serbia; RU RUS Russian Federation; RW RWA Rwanda; SA SAU Saudi Arabia
SB SLB Solomon Islands; SC SYC Seychelles; SD SDN Sudan; SE SWE Sweden; SG SGP Singapore
SH SHN Saint Helena, Ascension and Tristan da Cunha; SI SVN Slovenia; SJ SJM Svalbard and Jan Mayen
SK SVK Slovakia; SL SLE Sierra Leone; SM SMR San Marino; SN SEN Senegal; SO SOM Somalia; SR SUR Suriname
SS SSD South Sudan; ST STP Sao Tome and Principe; SV SLV El Salvador; SX SXM Sint Maarten (Dutch part)
SY SYR Syria|Syrian Arab Republic; SZ SWZ Eswatini; TC TCA Turks and Caicos Islands; TD TCD Chad
TF ATF French Southern Territories; TG TGO Togo; TH THA Thailand; TJ TJK Tajikistan; TK TKL Tokelau
TL TLS Timor-Leste; TM TKM Turkmenistan; TN TUN Tunisia; TO TON Tonga; TR TUR Türkiye
TT TTO Trinidad and Tobago; TV TUV Tuvalu; TW TWN Taiwan|Taiwan, Province of China
TZ TZA Tanzania|Tanzania, United Republic of; UA UKR Ukraine; UG UGA Uganda
UM UMI United States Minor Outlying Islands; US USA United States; UY URY Uruguay; UZ UZB Uzbekistan
VA VAT Holy See (Vatican City State); VC VCT Saint Vincent and the Grenadines
VE VEN Venezuela|Venezuela, Bolivarian Republic of; VG VGB Virgin Islands, British; VI VIR Virgin Islands, U.S.
VN VNM Vietnam|Viet Nam; VU VUT Vanuatu; WF WLF Wallis and Futuna; WS WSM Samoa; YE YEM Yemen; YT MYT Mayotte
ZA ZAF South Africa; ZM ZMB Zambia; ZW ZWE Zimbabwe
"""
_STATE_DATA = """
AK Alaska; AL Alabama; AR Arkansas; AS American Samoa; AZ Arizona; CA California; CO Colorado; CT Connecticut
DC District of Columbia; DE Delaware; FL Florida; GA Georgia; GU Guam; HI Hawaii; IA Iowa; ID Idaho; IL Illinois
IN Indiana; KS Kansas; KY Kentucky; LA Louisiana; MA Massachusetts; MD Maryland; ME Maine; MI Michigan
MN Minnesota; MO Missouri; MP Northern Mariana Islands; MS Mississippi; MT Montana; NC North Carolina
ND North Dakota; NE Nebraska; NH New Hampshire; NJ New Jersey; NM New Mexico; NV Nevada; NY New York; OH Ohio
OK Oklahoma; OR Oregon; PA Pennsylvania; PR Puerto Rico; RI Rhode Island; SC South Carolina; SD South Dakota
TN Tennessee; TX Texas; UM United States Minor Outlying Islands; UT Utah; VA Virginia; VI Virgin Islands, U.S.
VT Vermont; WA Washington; WI Wisconsin; WV West Virginia; WY Wyoming
"""
_ALIASES = {
    "US": "USA|U.S.|U.S.A.|America|United States of America",
    "DC": "Washington DC|Washington D.C.",
    "GB": "UK|U.K.|Great Britain|Britain|England|Scotland|Wales|Northern Ireland",
    "KR": "Korea|Republic of Korea",
    "VI": "US Virgin Islands|U.S. Virgin Islands",
    "VG": "British Virgin Islands",
    "RU": "Russia",
    "CZ": "Czech Republic",
    "TR": "Turkey",
    "NL": "Holland|The Netherlands",
    "MK": "Macedonia",
    "SZ": "Swaziland",
    "CD": "DR Congo|Democratic Republic of the Congo",
    "CG": "Republic of the Congo",
    "CI": "Ivory Coast",
    "VA": "Vatican|Vatican City|Holy See",
    "PS": "Palestine",
    "FM": "Micronesia",
    "BN": "Brunei",
    "CV": "Cape Verde",
    "MM": "Burma",
    "TL": "East Timor",
    "MO": "Macau",
    "AE": "UAE",
    "DE": "Deutschland",
    "CH": "Schweiz|Suisse",
    "ES": "España",
    "IT": "Italia",
    "AT": "Österreich",
    "SE": "Sverige",
    "BR": "Brasil",
}
# the abbreviations of US states in running text ("Calif.", "Fla."); only those that are no English word
_STATE_ALIASES = {
    "CA": "Calif",
    "AZ": "Ariz",
    "CO": "Colo",
    "CT": "Conn",
    "FL": "Fla",
    "OK": "Okla",
    "TN": "Tenn",
    "MN": "Minn",
    "MI": "Mich",
    "WI": "Wisc",
    "PA": "Penna",
    "NE": "Nebr",
}
_EU = "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split()
REGIONS = {
    "EU": ("European Union", tuple(_EU), "EU|European Union"),
    "EEA": ("European Economic Area", tuple(_EU + ["IS", "LI", "NO"]), "EEA|European Economic Area"),
}
_TERRITORIES = ("AS", "GU", "MP", "PR", "UM", "VI")  # US territories that also have an ISO 3166-1 code
_STATE_WORDS = ("state of", "us state", "u s state", "state")
_COUNTRY_WORDS = ("country", "nation")
_US_WORDS = ("united states of america", "united states", "usa", "us", "america")


@dataclass(frozen=True)
class Place:
    kind: str  # country | us_state | region
    code: str  # ISO 3166-1 alpha-2, USPS code, or EU / EEA
    name: str
    countries: tuple[str, ...] = ()  # registration.iso_country_code values that count as this place
    state: str | None = None  # registration.state_code (with iso_country_code US) for a US state

    def label(self) -> str:
        what = {"country": "country", "us_state": "US state", "region": "region"}[self.kind]
        return f"{self.name} ({what} {self.code})"

    def where(self) -> tuple[str, dict]:
        """SQL filter on device_registrationlisting `r` and its parameters (an OR only for a territory)."""
        by_iso = "list_contains($countries, r.iso_country_code)"
        by_state = "r.iso_country_code = 'US' AND r.state_code = $state"
        if self.state is None:
            return by_iso, {"countries": list(self.countries)}
        if not self.countries:
            return by_state, {"state": self.state}
        return f"({by_iso} OR ({by_state}))", {"countries": list(self.countries), "state": self.state}

    def openfda(self) -> str:
        """The place as an openFDA search on device/registrationlisting."""
        iso = " OR ".join(f'"{c}"' for c in self.countries)
        by_iso = (
            f"registration.iso_country_code:({iso})"
            if len(self.countries) > 1
            else f"registration.iso_country_code:{iso}"
        )
        if self.state is None:
            return by_iso
        by_state = f'registration.iso_country_code:"US" AND registration.state_code:"{self.state}"'
        return f"({by_state}) OR {by_iso}" if self.countries else by_state


@dataclass
class PlaceReading:
    text: str
    places: list[Place]  # one: resolved; several: ambiguous; none: unknown
    notes: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)


def _norm(text: str) -> str:
    s = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()
    s = re.sub(r"[^a-z0-9]+", " ", re.sub(r"[.'’`]", "", s.replace("&", " and "))).strip()
    s = re.sub(r"^st ", "saint ", s)
    return s[4:] if s.startswith("the ") else s


def _entries(data: str):
    for item in re.split(r";|\n", data):
        if item.strip():
            yield item.strip()


def _index() -> tuple[dict, dict, dict, dict]:
    countries: dict[str, tuple[str, list[str]]] = {}
    states: dict[str, str] = {}
    by_name: dict[str, Any] = {}
    by_code: dict[str, Any] = {}
    for item in _entries(_COUNTRY_DATA):
        a2, a3, names = item.split(" ", 2)
        countries[a2] = (a3, names.split("|"))
    for item in _entries(_STATE_DATA):
        code, name = item.split(" ", 1)
        states[code] = name
    for a2, (a3, names) in countries.items():
        if a2 in _TERRITORIES:  # one place, both spellings of its code
            place = Place("us_state", a2, states[a2], (a2,), a2)
        else:
            place = Place("country", a2, names[0], (a2,))
        by_code.setdefault(a2, []).append(place)
        by_code.setdefault(a3, []).append(place)
        for n in names + _ALIASES.get(a2, "").split("|"):
            if n:
                by_name.setdefault(_norm(n), []).append(place)
    for code, name in states.items():
        if code not in _TERRITORIES:
            place = Place("us_state", code, name, (), code)
            by_code.setdefault(code, []).append(place)
            for n in [name] + _ALIASES.get(code, "").split("|") + _STATE_ALIASES.get(code, "").split("|"):
                if n:
                    by_name.setdefault(_norm(n), []).append(place)
    for code, (name, members, names) in REGIONS.items():
        place = Place("region", code, name, members)
        by_code[code] = [place]
        for n in names.split("|"):
            by_name[_norm(n)] = [place]
    return countries, states, by_name, by_code


_COUNTRY_TABLE, _STATE_TABLE, _BY_NAME, _BY_CODE = _index()
COUNTRIES = {a2: (a3, names[0]) for a2, (a3, names) in _COUNTRY_TABLE.items()}  # alpha-2 -> (alpha-3, name)
US_STATES = dict(_STATE_TABLE)  # USPS code -> name


def _lookup(core: str) -> list[Place]:
    """Places a bare name or code can mean (a 2-letter code may be a country and a state)."""
    found = _BY_NAME.get(core, [])
    if not found and re.fullmatch(r"[a-z]{2,3}", core):
        found = _BY_CODE.get(core.upper(), [])
    return list(dict.fromkeys(found))


def _strip(words: list[str], phrases: tuple[str, ...]) -> tuple[list[str], bool]:
    """`words` without the first of `phrases` found at either end (whole words), and whether one was."""
    text = " ".join(words)
    for p in phrases:
        for pat in (rf"^{p} (.+)$", rf"^(.+) {p}$"):
            m = re.match(pat, text)
            if m:
                return m.group(1).split(), True
    return words, False


def _part(words: list[str], several: bool) -> tuple[str, set[str]]:
    """One comma-separated part of a location: its place words, and the context it gives (state / country)."""
    words, state = _strip(words, _STATE_WORDS)
    words, country = _strip(words, _COUNTRY_WORDS)
    hints = {h for h, on in (("state", state), ("country", country)) if on}
    core = " ".join(words)
    if core in _STATE_WORDS + _COUNTRY_WORDS:  # "IN (country)", "GA (state)"
        return "", hints | {"state" if core in _STATE_WORDS else "country"}
    if len(words) > 1 or several:  # "CA, USA", "CA USA": a US state
        rest, us = _strip(words, _US_WORDS)
        if us or core in _US_WORDS:
            return " ".join(rest) if us else "", hints | {"state"}
    return core, hints


def read_place(text: str) -> PlaceReading:
    """The place(s) `text` can mean; raises ValueError when it is empty or longer than MAX_TEXT."""
    raw = " ".join(str(text).split())
    if not raw or len(raw) > MAX_TEXT:
        raise ValueError("empty location" if not raw else f"location longer than {MAX_TEXT} characters")
    m = re.fullmatch(r"([A-Za-z]{2})-([A-Za-z0-9]{1,3})", raw)  # ISO 3166-2: US-CA, DE-BY
    if m and m.group(1).upper() == "US" and m.group(2).upper() in US_STATES:
        return PlaceReading(raw, [p for p in _BY_CODE[m.group(2).upper()] if p.kind == "us_state"])
    if m and m.group(1).upper() in COUNTRIES:
        place = _BY_CODE[m.group(1).upper()][0]
        return PlaceReading(
            raw, [place], [f"subdivision {raw} read as {place.label()}: only countries and US states are filtered"]
        )
    whole = _lookup(_norm(raw))
    if whole and len(whole) == 1:
        return PlaceReading(raw, whole)
    reading, hints = PlaceReading(raw, []), set()
    parts = [w for w in (_norm(p).split() for p in re.split(r"[,;/()\[\]]+", raw)) if w]
    for words in parts:
        core, context = _part(words, len(parts) > 1)
        hints |= context
        found = _lookup(core) if core else []
        reading.places += [p for p in found if p not in reading.places]
        if core and not found:
            reading.notes.append(
                f"ignored {core!r}: not a country, US state or region (cities and provinces are not filtered)"
            )
    if not reading.places and "state" in hints and not whole:
        reading.places = _BY_CODE["US"][:1]  # "USA" with nothing else
    reading.places = reading.places or whole
    return _settle(reading, hints)


def _settle(reading: PlaceReading, hints: set[str]) -> PlaceReading:
    """Apply 'state' / 'country' context to several readings; suggest close names when there are none."""
    if len(reading.places) > 1 and hints in ({"state"}, {"country"}):
        kind = "us_state" if hints == {"state"} else "country"
        keep = [p for p in reading.places if p.kind == kind]
        reading.places = keep or reading.places
    if not reading.places:
        reading.notes = []
        names = list(_BY_NAME)
        close = difflib.get_close_matches(_norm(reading.text), names, n=3, cutoff=0.75)
        scores = [difflib.SequenceMatcher(None, _norm(reading.text), c).ratio() for c in close]
        if (
            close
            and scores[0] >= 0.88
            and (len(scores) == 1 or scores[1] < scores[0] - 0.05)
            and len(_BY_NAME[close[0]]) == 1
        ):
            reading.places = list(_BY_NAME[close[0]])
            reading.notes.append(f"read {reading.text!r} as {reading.places[0].label()} (closest name)")
        reading.suggestions = [p.label() for c in close for p in _BY_NAME[c]]
    return reading


@dataclass
class DeviceCodes:
    """Product codes a `device_type` stands for: given as codes ("DXY, LZG") or found by words in device names."""

    text: str
    codes: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # product code -> device name
    by_words: bool = False
    unknown: list[str] = field(default_factory=list)  # codes given that no table knows


@dataclass
class Establishments:
    place: Place
    total: int = 0
    by_type: list[tuple[str, int]] = field(default_factory=list)
    rows: list[dict] = field(default_factory=list)
    missing: bool = False  # the mirror has no registrationlisting data


ROW_FIELDS = (
    "registration_number",
    "fei_number",
    "name",
    "city",
    "state_code",
    "iso_country_code",
    "establishment_type",
)
_STOPWORDS = {"a", "an", "and", "the", "of", "for", "with", "in", "device", "devices"}


def _device_names(src: Source) -> str:
    """SQL of (product_code, device_name): the classification, else the registrations' listed products."""
    have = reader_of(src).datasets()
    if "classification" in have:
        return "SELECT product_code, device_name FROM device_classification"
    if "registrationlisting" in have:
        return (
            "SELECT product_code, min(device_name) AS device_name FROM device_registrationlisting_product "
            "GROUP BY product_code"
        )
    return "SELECT NULL::VARCHAR AS product_code, NULL::VARCHAR AS device_name WHERE false"


def device_codes(src: Source, text: str) -> DeviceCodes:
    """Read `text` as product codes (three letters in capitals, or in lower case when no device name has such a
    word) or as words that a matching product code's device name holds (at word starts, plurals folded)."""
    out = DeviceCodes(" ".join(str(text).split())[:MAX_TEXT])
    tokens = [t for t in re.split(r"[\s,;/|+]+", out.text) if t]
    as_codes = bool(tokens) and all(re.fullmatch(r"[A-Za-z0-9]{3}", t) for t in tokens)
    words = [
        re.sub(r"(?<=[a-z]{2}[a-rt-z])s$", "", w)
        for w in re.findall(r"[a-z0-9]+", out.text.lower())
        if w not in _STOPWORDS and len(w) > 1
    ]
    names = _device_names(src)
    with reader_of(src).cursor() as cur:
        if words and not (as_codes and out.text == out.text.upper()):
            cond = " AND ".join(f"regexp_matches(lower(device_name), $w{i})" for i in range(len(words)))
            found = cur.execute(
                f"SELECT product_code, min(device_name) FROM ({names}) WHERE {cond} GROUP BY 1 ORDER BY 1",
                {f"w{i}": rf"\b{w}" for i, w in enumerate(words)},
            ).fetchall()
            if found or not as_codes:
                out.codes, out.names, out.by_words = [r[0] for r in found], dict(found), True
                return out
        out.codes = list(dict.fromkeys(t.upper() for t in tokens))
        out.names = dict(
            cur.execute(
                f"SELECT product_code, min(device_name) FROM ({names}) "
                "WHERE list_contains($c, product_code) GROUP BY 1",
                {"c": out.codes},
            ).fetchall()
        )
    out.unknown = [c for c in out.codes if c not in out.names]
    return out


def establishments(src: Source, place: Place, codes: list[str] | None = None, limit: int = 25) -> Establishments:
    """Establishments registered in `place` (with a listed product of `codes` when given): the full count, the
    count per establishment type, and the first `limit` rows by name."""
    out = Establishments(place)
    where, params = place.where()
    if codes is not None:
        where += (
            " AND r.registration_number IN (SELECT registration_number FROM device_registrationlisting_product "
            "WHERE list_contains($codes, product_code))"
        )
        params["codes"] = list(codes)
    reader = reader_of(src)
    if "registrationlisting" not in reader.datasets():
        out.missing = True
        return out
    with reader.cursor() as cur:
        parts = cur.execute(
            f"""
            WITH e AS (SELECT {", ".join(ROW_FIELDS)} FROM device_registrationlisting r WHERE {where})
            SELECT 0 AS part, NULL::VARCHAR AS type, count(*) AS n, NULL AS row FROM e
            UNION ALL SELECT 1, t, count(*), NULL FROM (SELECT unnest(establishment_type) AS t FROM e) GROUP BY t
            UNION ALL SELECT * FROM (SELECT 2, NULL, NULL, e FROM e ORDER BY name, registration_number LIMIT $limit)
            """,
            {**params, "limit": limit},
        ).fetchall()
    out.total = next(n for part, _, n, _ in parts if part == 0)
    out.by_type = sorted(((t, n) for part, t, n, _ in parts if part == 1), key=lambda x: (-x[1], x[0]))
    out.rows = sorted((r for part, _, _, r in parts if part == 2), key=lambda r: (r["name"], r["registration_number"]))
    return out


def openfda_search(place: Place, codes: list[str] | None = None) -> str:
    """The openFDA search on device/registrationlisting that selects what `establishments` counts."""
    if codes is None:
        return place.openfda()
    listed = " OR ".join(f'"{c}"' for c in codes) or '""'
    return f"({place.openfda()}) AND products.product_code:({listed})"
