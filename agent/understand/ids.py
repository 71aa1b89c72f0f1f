"""Record-ID shapes in a question: K / DEN / P(/S) numbers, recall numbers, MDR keys, device identifiers, codes."""

from __future__ import annotations

import re

from .tokens import Tokens
from .types import Filter

__all__ = ["read_ids", "code_tokens", "NOT_CODES", "SUBMISSION_DATASET"]

# three-letter words typed in capitals that are not product codes
NOT_CODES = {
    "FDA",
    "PMA",
    "UDI",
    "MDR",
    "AND",
    "THE",
    "FOR",
    "USA",
    "EUA",
    "DEN",
    "ALL",
    "ANY",
    "HOW",
    "WHO",
    "GMP",
    "IDE",
    "CFR",
    "ISO",
    "LOT",
    "NOT",
    "ARE",
    "WAS",
    "HAS",
    "TOP",
    "PER",
    "III",
    "MRI",
    "ICD",
    "IUD",
    "CGM",
    "EEA",
    "DIS",
    "UDIS",
    "GE",
    "OEC",
    "INC",
    "LLC",
    "LTD",
    "USA",
    "CPT",
    "DME",
    "ECG",
    "EKG",
    "IVD",
    "OTC",
    "CEO",
    "FAQ",
    "ETC",
    "YES",
    "AKA",
    "API",
    "CSV",
    "PDF",
    "URL",
    "BUT",
    "CAN",
    "YOU",
    "WHY",
    "GET",
    "OUT",
    "NEW",
    "OLD",
    "ONE",
    "TWO",
    "SIX",
    "TEN",
    "BOX",
    "KIT",
    "SET",
    "BAG",
    "CAP",
    "RED",
    "USB",
    "DNA",
    "RNA",
    "HIV",
    "PPE",
    "ICU",
    "NHS",
    "EU",
    "UK",
    "VS",
    "DID",
    "MAX",
    "MIN",
    "AVG",
}
_WORDS = {
    "for",
    "and",
    "the",
    "are",
    "was",
    "has",
    "had",
    "how",
    "any",
    "all",
    "who",
    "why",
    "its",
    "per",
    "new",
    "top",
    "one",
    "two",
    "did",
    "get",
    "got",
    "see",
    "can",
    "may",
    "use",
    "via",
    "not",
    "too",
    "yet",
    "out",
}
# three-letter verbs and words that follow "product codes" in a sentence ("product codes sit under the panel")
_VERBS_3 = set(
    "sit lie lay fit ran run set put say let led now off due own way you our his her she him yes day ago end".split()
)
_RECALL_WORDS = {"recall", "recalls", "recalled", "enforcement", "enforcements", "enf", "action", "withdrawal", "res"}
_MAUDE_WORDS = {
    "mdr",
    "mdrs",
    "maude",
    "adverse",
    "report",
    "reports",
    "key",
    "patient",
    "injury",
    "death",
    "malfunction",
}
SUBMISSION_DATASET = {"k": "510k", "den": "510k", "p": "pma"}
DI_CUES = {"di", "udi", "identifier", "gtin", "udi-di", "dis", "device", "gudid", "primary"}


def read_ids(tokens: Tokens) -> list[tuple[str, Filter]]:
    """(dataset, filter) for each record number in the question; marks its tokens."""
    out: list[tuple[str, Filter]] = []
    lows = tokens.lows()
    for i, t in enumerate(tokens.toks):
        if not tokens.free(i):
            continue
        up = t.text.upper().replace(" ", "").rstrip(".")  # "regulation 888.3070." ends a sentence
        prev = lows[i - 1] if i else ""
        if up == "21" and i + 2 < len(lows) and lows[i + 1] == "cfr" and re.fullmatch(r"\d{3}\.\d{1,4}", lows[i + 2]):
            tokens.take(i, i + 2, "id")  # "21 CFR 880.5725" (bare "21 CFR" asks for the regulation)
            continue
        lot_said = prev == "lot" or prev in ("number", "no", "num", "#") and i > 1 and lows[i - 2] == "lot"
        if (
            lot_said
            and re.fullmatch(r"[A-Z0-9][A-Z0-9-]{3,24}", up)
            and any(c.isdigit() for c in up)
            and not set(lows) & (_RECALL_WORDS | {"udi", "gudid", "di"})  # recalls hold lots only in their text
        ):
            lot = Filter(field="word:lot", value=t.text, label=f"lot {t.text}", words=t.text)
            out.append(("event", lot))  # "MDRs for lot HG6AFCM": the lot the adverse event reports name
        elif m := re.fullmatch(r"(K|DEN)(\d{6})", up):
            out.append(("510k", Filter(field="k_number", value=up, label=up, words=t.text)))
        elif m := re.fullmatch(r"P(\d{6})(?:/?(S\d{3,4}))?", up):
            f = Filter(field="pma_number", value=f"P{m[1]}", label=up, words=t.text)
            out.append(("pma", f))
            if m[2]:
                out.append(("pma", Filter(field="supplement_number", value=m[2], label=m[2], words=t.text)))
        elif re.fullmatch(r"S\d{3,4}", up) and any(f.field == "pma_number" for _, f in out):
            out.append(("pma", Filter(field="supplement_number", value=up, label=up, words=t.text)))  # P150012 S099
        elif re.fullmatch(r"Z-\d{4}-\d{4}", up):
            out.append(("recall", Filter(field="product_res_number", value=up, label=up, words=t.text)))
        elif (
            re.fullmatch(r"\d{12,14}|\+?[A-Z]{1,4}\d{6,}[A-Z0-9]*", up)
            and not re.fullmatch(r"[A-Z]{3}\d{6}", up)
            or (prev in DI_CUES and re.fullmatch(r"[0-9A-Z+]{6,30}", up) and any(c.isdigit() for c in up))
        ):
            out.append(("udi", Filter(field="di", value=up, label=f"device identifier {up}", words=t.text)))
        elif re.fullmatch(r"\d{3}\.\d{1,4}", up):
            out.append(
                ("classification", Filter(field="regulation_number", value=up, label=f"regulation {up}", words=t.text))
            )
        elif re.fullmatch(r"\d{9}|\d{2}-\d{3}-\d{4}", up) and "duns" in lows[max(0, i - 5) : i + 4]:
            duns = up.replace("-", "")  # "DUNS 793149709", "labeler DUNS is 793149709": the labeler's D-U-N-S number
            out.append(("udi", Filter(field="word:duns", value=duns, label=f"labeler DUNS {duns}", words=t.text)))
        elif re.fullmatch(r"\d{5,10}", up) and (
            cue := _owner_after(lows[i + 1 : i + 5], lows[max(0, i - 3) : i]) or _registry_cue(lows[max(0, i - 3) : i])
        ):
            name = {"fei": "fei", "owner": "ownernum"}.get(cue, "regnum")  # "registration number 1628808", "FEI
            # 3002808212", "owner/operator 9010225"
            label = f"{ {'fei': 'FEI', 'owner': 'owner/operator'}.get(cue, 'registration') } number {up}"
            out.append(("registrationlisting", Filter(field=f"word:{name}", value=up, label=label, words=t.text)))
        elif (
            re.fullmatch(r"\d{5,6}", up)  # (a four-digit number beside "recall" is its year)
            and (
                prev in ("event", "recall")
                or prev in ("id", "number", "#", "no", "num")
                and i > 1
                and lows[i - 2] == "event"
            )
            and (set(lows) & _RECALL_WORDS or prev == "event" and not set(lows) & _MAUDE_WORDS)
        ):  # "recall event 62925", "enforcement report with event id 62925": the recall event's number, held by the
            # enforcement reports and (as res_event_number) by the recalls
            f = Filter(field="event_id", value=up, label=f"recall event {up}", words=t.text)
            if not set(lows) & {"enforcement", "enforcements", "enf"}:
                out.append(("recall", f))
            out.append(("enforcement", f))
        elif re.fullmatch(r"\d{5,10}-(?:19|20)\d\d-\d{5,6}", up):  # registration number - year - sequence
            out.append(("event", Filter(field="report_number", value=up, label=f"report {up}", words=t.text)))
        elif (
            re.fullmatch(r"\d{5,10}", up)
            and prev in ("mdr", "report", "key", "event", "number", "#")
            or re.fullmatch(r"\d{7,8}", up)
            and prev not in ("registration", "fei", "reg", "duns", "top", "first", "model", "version", "catalog", "cat")
            and not set(lows) & {"udi", "gudid", "accessgudid", "di", "identifier"}  # "CoRoent 5163284 in the UDI
        ):  # database": a model number of a device record, no MDR key
            out.append(("event", Filter(field="mdr_report_key", value=up, label=f"report {up}", words=t.text)))
        else:
            continue
        tokens.take(i, i + 1, "id")
    return out


def _owner_after(after: list[str], before: list[str]) -> str:
    """ "9010225 (owner/operator)": the number said to be an owner/operator's just after it (not an FEI number)."""
    return "owner" if "owner" in after[:3] and "fei" not in before else ""


def _registry_cue(before: list[str]) -> str:
    """'fei' or 'registration' when the words just before a number say it is an establishment's number."""
    if "fei" in before:
        return "fei"
    if "owner" in before:
        return "owner"  # "owner/operator 9010225", "owner operator number 9010225": the owner/operator's number
    if set(before) & {"registration", "registrations", "reg", "registered", "establishment"} and not set(before) & {
        "mdr",
        "report",
        "event",
    }:
        return "registration"
    return ""


_LABEL_PREFIXES = {"REF", "LOT", "CAT", "SKU", "QTY", "EXP", "MFG"}


def code_tokens(tokens: Tokens) -> tuple[list[int], list[int]]:
    """Token indexes that are product codes as typed: (said to be codes, uppercase three-letter words).

    "product code(s) X, Y" names codes in any case; elsewhere only capitals (DXY) read as a code."""
    said, caps = [], []
    lows = tokens.lows()
    after_code_word = False
    for i, t in enumerate(tokens.toks):
        w = lows[i]
        if w in ("code", "codes", "procode", "procodes", "pcode"):
            after_code_word = True
            continue
        if not tokens.free(i):
            after_code_word = after_code_word and w in ("and", "or", "&")
            continue
        code_said = lows[i + 1 : i + 3] == ["product", "code"] or lows[i + 1 : i + 2] == ["procode"] or after_code_word
        if code_said and re.fullmatch(r"[A-Z]{3}", t.text) and t.text not in ("FDA", "USA", "UDI", "MDR", "PMA"):
            said.append(i)  # "MAX product code", "procode MAX": a code said so, even one that is also a word
            continue
        if re.fullmatch(r"[A-Za-z]{3}", t.text) and t.text.upper() not in NOT_CODES and w not in _WORDS:
            if after_code_word and (t.text.isupper() or w not in _VERBS_3):  # "codes sit under": a verb
                said.append(i)
                continue
            model = (
                i + 1 < len(lows)
                and re.fullmatch(r"\d[\w.-]*", lows[i + 1]) is not None
                and re.fullmatch(r"(19|20)\d\d", lows[i + 1]) is None
                and re.fullmatch(r"510\(?k\)?s?|513\(?g\)?", lows[i + 1]) is None  # "ETB 510k": a dataset, no model
            )
            fei = t.text.upper() == "FEI"  # the establishment identifier unless said to be a product code
            label = (
                t.text.upper() in _LABEL_PREFIXES
                and i + 1 < len(lows)
                and any(c.isdigit() for c in lows[i + 1])
                and any(c.isalpha() for c in lows[i + 1])
            )  # "REF AK-25502", "LOT 12A078": a label's catalog or lot number, not the product code REF
            if (
                t.text.isupper() and t.text not in NOT_CODES and not model and not fei and not label
            ):  # "PAD 6082" is a model number
                caps.append(i)
                continue
        if w not in ("and", "or", "&"):
            after_code_word = False
    return said, caps
