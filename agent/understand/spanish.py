"""Questions written in Spanish, or in English with Spanish words ("cuantos 510k fueron cleared en los ultimos 5
años?"), read in English before anything else reads them: a glossary of the words of questions about FDA device
records (counts, periods, months and quarters, datasets, fields, devices) and of a person asking for themselves or
a relative. Names, codes and record numbers are kept as written.

Only a question that is Spanish is rewritten: it holds at least two words that are Spanish and no English word
("cuantos", "los", "del", "trimestre" ...). English questions that hold "de", "la" or "el" in a name ("de novo",
"La Jolla", "El Paso") are never changed."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["is_spanish", "to_english"]

# words only a Spanish sentence holds (accents removed); "de", "la", "el", "en", "y", "o" are no evidence alone
_MARKERS = {
    "cuantos", "cuantas", "cual", "cuales", "que", "los", "las", "del", "hubo", "fueron", "tienen", "tiene", "hay",
    "dame", "necesito", "porfa", "trimestre", "ultimos", "ultimo", "pasados", "numero", "registros", "reportes",
    "reporte", "dispositivo", "dispositivos", "retiro", "fecha", "pruebas", "anos", "ano", "con", "para", "segun",
    "busco", "quien", "podrias", "tengo", "debo", "mi", "su", "es", "son", "se", "una", "uno", "mas", "contra",
    "compara", "cada", "entre", "desde", "hasta", "clase", "clasificacion", "empresa", "fabricante", "paciente",
    "pacientes", "marcapasos", "marcapaso", "bomba", "cateter", "causa", "raiz", "decisiones", "decision",
    "publicados", "publicaron", "mayo", "enero", "febrero", "marzo", "abril", "junio", "julio", "agosto",
    "septiembre", "octubre", "noviembre", "diciembre", "hola", "base", "problema", "problemas", "el", "la", "de",
    "en", "y", "tiene", "tia", "papa", "esposo", "hijo", "hija", "seguro", "sigue", "usando", "quita", "dosis",
    "fallo", "plis", "le", "al", "pedir", "espalda", "duele", "implante", "paciente",
}  # fmt: skip
_STRONG = {
    "cuantos", "cuantas", "cual", "cuales", "los", "las", "del", "hubo", "fueron", "tienen", "dame", "necesito",
    "porfa", "trimestre", "ultimos", "pasados", "numero", "registros", "reportes", "dispositivos", "segun",
    "busco", "quien", "podrias", "tengo", "debo", "anos", "publicaron", "publicados", "decisiones", "marcapasos",
    "mayo", "enero", "febrero", "marzo", "abril", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre",
    "diciembre", "que", "hay", "retiro", "pruebas", "paciente", "problema", "empresa", "clasificacion", "cateter",
    "tiene", "bomba", "esposo", "esposa", "clase", "usando", "quita", "marcapaso",
}  # fmt: skip
_ENGLISH = re.compile(
    r"(?i)\b(?:the|how|many|what|which|when|were|was|did|does|have|has|with|from|for|of|and|any|reports?|"
    r"recalls?|devices?|clearances?|approvals?|is|are|in|on|by)\b"
)


def _plain(text: str) -> str:
    """The text without accents ("últimos" -> "ultimos"); "ñ" becomes "n" ("años" -> "anos")."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


def is_spanish(text: str) -> bool:
    """True when the question is written in Spanish, wholly or for the most part."""
    words = re.findall(r"[a-z]+", _plain(text).lower())
    strong = {w for w in words if w in _STRONG}
    spanish = [w for w in words if w in _MARKERS]
    english = len(_ENGLISH.findall(text))
    return (len(strong) >= 2 and len(spanish) >= max(2, english)) or (
        len(strong) >= 1 and len(spanish) >= 3 and len(spanish) > english
    )


_NUMBERS = {
    "un": "1", "uno": "1", "una": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5", "seis": "6",
    "siete": "7", "ocho": "8", "nueve": "9", "diez": "10", "once": "11", "doce": "12",
}  # fmt: skip
_MONTHS = {
    "enero": "January", "febrero": "February", "marzo": "March", "abril": "April", "mayo": "May", "junio": "June",
    "julio": "July", "agosto": "August", "septiembre": "September", "setiembre": "September", "octubre": "October",
    "noviembre": "November", "diciembre": "December",
}  # fmt: skip
_SHORT_MONTHS = {
    "ene": "Jan", "feb": "Feb", "mar": "Mar", "abr": "Apr", "may": "May", "jun": "Jun", "jul": "Jul", "ago": "Aug",
    "sep": "Sep", "oct": "Oct", "nov": "Nov", "dic": "Dec",
}  # fmt: skip
_QUARTERS = {"primer": "Q1", "1er": "Q1", "segundo": "Q2", "2do": "Q2", "tercer": "Q3", "3er": "Q3", "cuarto": "Q4",
             "4to": "Q4", "ultimo": "Q4"}  # fmt: skip
_NUM = r"(\d+|" + "|".join(_NUMBERS) + r")"

# phrases first (longest first where they overlap), then single words; all on the text without accents
_PHRASES: tuple[tuple[str, str], ...] = (
    # periods
    (rf"\b(?:el\s+|la\s+|en\s+el\s+)?(?:{'|'.join(_QUARTERS)})\s+trimestre\s+(?:de\s+|del\s+)?(\d{{4}})\b", "QUARTER"),
    (rf"\b(?:en\s+)?(?:los|las)\s+(?:ultim[oa]s|pasad[oa]s)\s+{_NUM}\s+(anos?|meses|mes|semanas|dias)\b", "LAST"),
    (rf"\b(?:ultim[oa]s|pasad[oa]s)\s+{_NUM}\s+(anos?|meses|mes|semanas|dias)\b", "LAST"),
    (rf"\b({'|'.join(_SHORT_MONTHS)})\s*-\s*({'|'.join(_SHORT_MONTHS)})\b", "MONTHS"),
    (r"\bentre\s+(\w+)\s+y\s+(\w+)\s+(?:de\s+|del\s+)(\d{4})\b", "BETWEEN"),
    (rf"\b({'|'.join(_MONTHS)})\s+(?:de\s+|del\s+)?(\d{{4}})\b", "MONTH"),
    (r"\bde\s+(\d{1,3})\s+anos\b", r"\1 years old"),
    (r"\b(pacientes?)\s+(masculin[oa]s?|femenin[oa]s?)\b", r"\2 \1"),
    (r"\bque\s+tienen\b", "you have"),
    (r"(^|[?.!,;:]\s*)que\b", r"\1what"),
    (r"\b(?:en\s+)?cada\s+anos?\b", "per year"),
    (r"\b(?:del|de\s+el|el)\s+(\d{4})\b", r"\1"),
    (r"\bano\s+(\d{4})\b", r"\1"),
    # what is counted or asked
    (r"\bcuant[oa]s\s+(?:hay|son|fueron|hubo)\b", "how many"),
    (r"\bcuant[oa]s\b", "how many"),
    (r"\bn[u]mero\s+de\b", "number of"),
    (r"\bcual(?:es)?\s+(?:es|son|fue|fueron)\b", "what is"),
    (r"\bde\s+que\s+(?:empresa|compania|fabricante)\s+es\b", "which firm is it"),
    (r"\bde\s+que\s+clase\s+(?:es|fue)\b", "what class is"),
    (r"\bque\s+(clase|clasificacion|class|clasification)\s+(?:es|tiene|fue|le\s+dieron)\b", r"what \1 is"),
    (r"\bque\s+(clase|clasificacion|class|clasification)\b", r"what \1"),
    (r"\ble\s+dieron\b", "was given"),
    (r"\b(?:que\s+)?mas\s+se\s+reporta(?:n)?\b", "most reported"),
    (r"\baparece\s+mas\s+veces\b", "appears most often"),
    (r"\bmas\s+(?:comun(?:es)?|frecuentes?|reportad[oa]s?)\b", "most common"),
    (r"\bproblemas?\s+(?:de|del)\s+(?:dispositivo|producto)\b", "device problem"),
    (r"\bproblemas?\s+(?:mas\s+)?frecuentes?\b", "most common device problems"),
    (r"\bcausa\s+raiz\b", "root cause"),
    (r"\bfecha\s+de\s+(?:la\s+)?decision\b", "decision date"),
    (r"\bfecha\s+de\s+publicacion\b", "publish date"),
    (r"\breportes?\s+(?:de\s+)?eventos?\s+adversos?\b", "adverse event reports"),
    (r"\beventos?\s+adversos?\b", "adverse events"),
    (r"\bpruebas?\s+serologicas?\b", "serology tests"),
    (r"\bpruebas?\s+de\s+anticuerpos\b", "antibody tests"),
    (r"\bse\s+(?:hicieron|evaluaron|realizaron)\b", "were performed"),
    (r"\b(?:se\s+publicaron|publicad[oa]s|publicaciones)\b", "published"),
    (r"\bobtuvieron\s+(?:el\s+|la\s+)?(?:clearance|autorizacion|aprobacion)\b", "were cleared"),
    (r"\b(?:liberad[oa]s|autorizad[oa]s)\b", "cleared"),
    (r"\baprobad[oa]s?\b", "approved"),
    (r"\bdecidid[oa]s\b", "decided"),
    (r"\bcomparad[oa]\s+con\b|\bcontra\b", "vs"),
    (r"\bbomba\s+de\s+insulina\b", "insulin pump"),
    (r"\bcateter\s+venoso\s+central\b", "central venous catheter"),
    (r"\bresonancia\s+magnetica\b", "MRI"),
    (r"\bdatos\s+personales\b", "personal data"),
    (r"\bnombre\s+completo\b", "full name"),
    (r"\bpor\s+favor\b", "please"),
    (r"\bsegun\s+(?:la\s+)?fda\b", "according to FDA"),
    # a person asking for themselves or a relative, and what they ask
    (r"\bes\s+seguro\b", "is it safe"),
    (r"\bes\s+peligroso\b", "is it dangerous"),
    (r"\bla\s+sigue\s+usando\b|\blo\s+sigue\s+usando\b", "should she keep using it"),
    (r"\bse\s+la\s+quita\b|\bse\s+lo\s+quita\b", "remove it"),
    (r"\bme\s+duele\b", "I have pain in"),
    (r"\bque\s+me\s+lo\s+quiten\b", "to remove it"),
    (r"\bquien\s+es\b", "who is"),
    (r"\bcada\s+un[oa]\b", "each"),
)
_WORDS = {
    "el": "the", "la": "the", "los": "the", "las": "the", "un": "a", "una": "a", "unos": "some", "unas": "some",
    "de": "of", "del": "of the", "en": "in", "y": "and", "o": "or", "con": "with", "sin": "without", "para": "for",
    "por": "by", "es": "is", "son": "are", "hay": "are there", "hubo": "were there", "fueron": "were", "fue": "was",
    "tienen": "have", "tiene": "has", "tengo": "I have", "cual": "which", "cuales": "which",
    "mas": "more", "porfa": "please", "plis": "please", "hola": "hi", "dame": "give me", "necesito": "I need",
    "busco": "I am looking for", "podrias": "could you", "buscar": "find", "debo": "should I", "mi": "my",
    "su": "their",
    "compara": "compare", "entre": "between", "desde": "since", "hasta": "until", "cada": "each", "veces": "times",
    "ese": "that", "esa": "that", "este": "this", "esta": "this", "base": "database", "ok": "ok",
    "decision": "decision", "decisiones": "decisions", "registro": "record", "registros": "records",
    "reporte": "report", "reportes": "reports", "reportaron": "reported", "reportado": "reported",
    "dispositivo": "device", "dispositivos": "devices", "producto": "product", "productos": "products",
    "problema": "problem", "problemas": "problems", "retiro": "recall", "retiros": "recalls", "clase": "class",
    "clasificacion": "classification", "clasification": "classification", "empresa": "firm", "compania": "firm",
    "fabricante": "manufacturer", "fabricantes": "manufacturers", "marcapasos": "pacemaker", "marcapaso": "pacemaker",
    "bomba": "pump", "bombas": "pumps", "cateter": "catheter", "cateteres": "catheters", "esterilizador": "sterilizer",
    "cartuchos": "cassettes", "cartucho": "cassette", "casetes": "cassettes", "implante": "implant",
    "implantes": "implants", "etiqueta": "label", "etiquetado": "labeling", "pruebas": "tests", "prueba": "test",
    "serologia": "serology", "anticuerpos": "antibodies", "resultados": "results", "resultado": "result",
    "fecha": "date", "anos": "years", "ano": "year", "meses": "months", "mes": "month", "trimestre": "quarter",
    "pediatrico": "pediatric", "pediatrica": "pediatric", "paciente": "patient", "pacientes": "patients",
    "nombre": "name", "telefono": "phone", "direccion": "address", "celular": "cell phone", "identidad": "identity",
    "masculino": "male", "femenino": "female", "hospital": "hospital", "contactarlo": "contact them",
    "contactarla": "contact them", "investigacion": "investigation", "dosis": "dose", "insulina": "insulin",
    "tia": "aunt", "tio": "uncle", "papa": "father", "mama": "mother", "hijo": "son", "hija": "daughter",
    "esposo": "husband", "esposa": "wife", "abuelo": "grandfather", "abuela": "grandmother", "hermano": "brother",
    "hermana": "sister", "fallas": "failures", "falla": "failure", "fallo": "failed", "pantalla": "screen",
    "kit": "kit", "verificacion": "verification", "impresion": "printing", "total": "total", "al": "to the",
    "numeros": "numbers", "le": "", "que": "that", "pesa": "weighs", "espalda": "back", "pedir": "ask",
}  # fmt: skip
# a Spanish noun before the dataset's acronym, once in English: "records UDI" is "UDI records", "decisions of PMA"
# "PMA decisions"
_ACRONYM_AFTER = re.compile(
    r"\b(records|reports|decisions|recalls|devices|tests|published)\s+(?:of\s+(?:the\s+)?)?"
    r"(UDI|GUDID|PMA|MAUDE|MDR|510\(?k\)?|COVID(?:-19)?)(?![\w(])"
)
# a courtesy in Spanish inside an English question: "root cause description porfa"
_COURTESY = re.compile(r"(?i)\b(?:por\s+favor|porfa|plis)\b")
# a Spanish phrase inside an English question ("... done in May 2020, en la base de FDA"): where to look, in English
_MIXED = re.compile(
    r"(?i)\b(?:en|de)\s+(?:la\s+)?(?:base|bd)\s+(?:de\s+datos\s+)?(?:de\s+)?(?:la\s+)?(?=fda\b|maude\b|openfda\b)"
)


def _quarter(m: re.Match[str]) -> str:
    word = re.search(rf"\b({'|'.join(_QUARTERS)})\b", m[0])
    said = f"{_QUARTERS[word[1]] if word else 'Q4'} {m[1]}"
    return f"in {said}" if m[0].lower().startswith("en ") else said


def _last(m: re.Match[str]) -> str:
    n = _NUMBERS.get(m[1], m[1])
    unit = {"ano": "year", "anos": "years", "mes": "month", "meses": "months", "semanas": "weeks", "dias": "days"}
    return f"in the last {n} {unit.get(m[2], m[2])}"


_SPECIAL = {
    "QUARTER": _quarter,
    "LAST": _last,
    "MONTHS": lambda m: f"{_SHORT_MONTHS[m[1]]}-{_SHORT_MONTHS[m[2]]}",
    "MONTH": lambda m: f"{_MONTHS[m[1]]} {m[2]}",
    "BETWEEN": lambda m: f"between {_MONTHS.get(m[1], m[1])} and {_MONTHS.get(m[2], m[2])} {m[3]}",
}


def to_english(text: str) -> str:
    """The question in English words when it is Spanish ("cuantos 510k en los ultimos 5 años?" -> "how many 510k in
    the last 5 years?"); any other question unchanged."""
    if not is_spanish(text):
        return _MIXED.sub("in the ", _COURTESY.sub("please", text))
    out = _plain(text).replace("¿", "").replace("¡", "")
    for pattern, repl in _PHRASES:
        special = _SPECIAL.get(repl)
        out = re.sub(pattern, special if special else repl, out, flags=re.I)  # type: ignore[arg-type]

    def word(m: re.Match[str]) -> str:
        w = m[0]
        return _WORDS.get(w.lower(), w) if not (w.isupper() and len(w) > 1) else w  # codes and names kept

    out = re.sub(r"\b[A-Za-z]+\b", word, out)
    out = _ACRONYM_AFTER.sub(r"\2 \1", out)
    out = re.sub(r"\b(the|a)\s+(?:the|a)\b", r"\1", out)
    return re.sub(r"\s{2,}", " ", out).strip()
