"""The words of the questions' grammar: datasets, measures, fields users ask about, filters and function words."""

from __future__ import annotations

import difflib

from ..tools import specs as _specs
from .tokens import Tokens

__all__ = [
    "DATASET_PHRASES",
    "DATASET_WORDS",
    "NEEDS_DATASET",
    "VERB_DEVICE_WORDS",
    "verbs_as_grammar",
    "MEASURE_PHRASES",
    "FIELD_PHRASES",
    "FILTER_PHRASES",
    "FUNCTION",
    "FOLLOWUP",
    "match_phrases",
    "fuzzy_grammar_word",
    "LABEL",
    "NOUN",
]


def _table(spec: dict[str, str]) -> dict[tuple[str, ...], str]:
    """'a b|c' -> {("a", "b"): tag, ("c",): tag}."""
    out: dict[tuple[str, ...], str] = {}
    for tag, phrases in spec.items():
        for p in phrases.split("|"):
            out[tuple(p.split())] = tag
            if " " in p and "-" not in p:
                out.setdefault(("-".join(p.split()),), tag)  # "firm initiated" as "firm-initiated"
    return out


# dataset words (tag = dataset; "event?" marks words that mean events only when no other dataset is named)
DATASET_PHRASES = _table(
    {
        "event": "adverse event|adverse events|adverse event reports|adverse event report|event reports|event report|"
        "events|event|adverse|maude|mdr|mdrs|mdr reports|medical device reports|complaints|complaint|"
        "incidents|incident|adverse reactions|vigilance reports|vigilance report|vigilance cases|serious incidents",
        "event?": "reports|report|reported|problems|problem",
        "covid19serology?": "samples|sample|specimens",
        "recall": "recalls|recall|recalled|recalling|recalled products|recalled product|recall events|withdrawals|"
        "field action|field actions|field correction|field corrections|market withdrawal|market withdrawals|"
        "fsca|fscas|field safety corrective action|field safety corrective actions|field safety notice|"
        "field safety notices|fsn|fsns",
        "enforcement": "enforcement|enforcement reports|enforcement report|enforcement actions",
        "510k": "510k|510ks|510 k|clearances|clearance|cleared|premarket notifications|premarket notification|"
        "de novo|de novos|denovo|submissions cleared",
        "pma": "pma|pmas|premarket approvals|premarket approval|pma approvals|pma approval|supplements|supplement|"
        "pma supplements|approvals|approval|approved|originals|original",
        "classification": "classification|classifications|classified|regulation|regulations|device classes|"
        "review panel|panels",
        "classification?": "product codes|product code|panel|codes|procodes|procode",
        "udi": "udi|udis|device identifiers|device identifier|di|dis|udi records|udi devices|device records|labelers|"
        "labeler|udi-di|udi-dis|udi publications|primary di|primary dis|primary device identifier",
        "gudid": "gudid|accessgudid|access gudid|gudid release|gudid download|gudid data|gudid records|gudid devices|"
        "gudid entries|gudid file|gudid files",
        "covid19serology": "serology|covid serology|covid-19 serology|covid19 serology|covid19serology|serology tests|"
        "serology test|serology results|serology data|serology evaluations|serology samples|"
        "serological|covid antibody|covid-19 antibody|covid19 antibody|covid|covid-19|covid19|"
        "sars-cov-2|sars cov 2|coronavirus",
        "registrationlisting": "registrations|registration|registered|establishments|establishment|facilities|"
        "facility|listings|listing|listed|plants|sites|owner operators|registrant|registrants",
        "registrationlisting?": "lists it|lists them|lists this|lists that|lists these|lists those",
    }
)
# words that name a dataset's records or their parts: grammar once that dataset is read ("serology samples tested")
DATASET_WORDS = {
    "covid19serology": set(
        "samples sample results result tests test tested testing evaluations evaluation evaluated "
        "performed run panel panels antibody antibodies makers assays assay kits kit reference "
        "references truth true truly known specimens specimen study studies used using".split()
    ),
    "registrationlisting": set("lists registrant registrants".split()),
    "gudid": set(
        "devices entries records release download data primary dis di identifiers labeler labelers file files".split()
    ),
}

MEASURE_PHRASES = _table(
    {
        "count": "how many|number of|count|count of|total|how often|how much|tally|volume|volumes",
        "list": "list|show|show me|find|give me|display|which|what|get|see|tell me about|details of|details for",
        "trend": "trend|trends|over time|per year|per month|by year|by month|each year|each month|yearly|monthly|"
        "annual|annually|year by year|month by month|year over year|by quarter|per quarter|"
        "each quarter|quarterly|by quarters|per calendar quarter|trended|trending|every year|every month|"
        "every quarter|year on year|month on month|"
        "by decision year|by year of decision|by received year|by year received|by report year|per decision year",
        "top": "top|most|most common|most frequent|most frequently|most often|number one|"
        "leading|biggest|largest|main|highest|ranking|rank|ranked|rank order|topped|tops|top-ranked|"
        "came out on top|came out ahead",
        "compare": "vs|versus|compared to|compared with|compare|comparison|against|which has more|which had more|"
        "which have more|who has more|who had more|which has fewer|which had fewer|more than|fewer than|"
        "difference between|side by side|more common|less common|more frequent|less frequent|"
        "go up or down|went up or down|gone up or down|up or down|increase or decrease|increased or decreased|"
        "rise or fall|rose or fell|go up|went up|gone up|go down|went down|gone down|increase|increased|decrease|"
        "decreased|stack up|stacks up|stack up against|stacked up|measure up|compare to",
    }
)

# fields users ask about: tag = field name (the searchers' row keys, or a count_by field)
FIELD_PHRASES = _table(
    {
        "k_numbers": "k number|k numbers|510k number|510k numbers|510(k) number|510(k) numbers",
        "regulation_number": "regulation number|regulation numbers|regulation|cfr|cfr section|21 cfr|reg number|"
        "reg no|reg num|reg|regulation no|regulation num",
        "device_class": "device class|class of device|classification class|risk class|class|classified|"
        "device classification|classification of",
        "decision_code": "decision code|decision codes|decision|decisions",
        "decision_date": "decision date|date of decision|when was decision|when was the decision|when was it decided|"
        "when was the decision made|when decided|when did fda decide|date of the decision|when was it cleared|"
        "when was it approved|approval date|date of approval|date approved|clearance date|date of clearance|"
        "date cleared",
        "root_cause": "root cause|root causes|cause|causes|reason|reasons|reason for recall|why|caused|what caused",
        "recall_class": "recall class|recall classes|recall classification",
        "review_panel": "review panel|panel|medical specialty|specialty|advisory committee|advisory panel|committee|"
        "review panels|panels|medical specialties|specialties|review area|review areas|specialty area|"
        "therapeutic area|clinical area",
        "device_name": "device name|name of the device|what device",
        "applicant": "applicant|applicants|sponsor|sponsors|holder|holders|submitter|submitters|who submitted it",
        "manufacturer": "manufacturers|manufacturer|firms|firm|companies|company|makers|maker|recalling firms|"
        "recalling firm|labelers|who makes|who made|who manufactures|who manufactured|who produces|"
        "who sells|who make|who has|who had|who have|who got|who filed|player|players|competitor|competitors",
        "product_code": "product codes|product code|devices|device types|device type",
        "event_type": "event types|event type|outcomes|outcome",
        "patient_problem": "patient problems|patient problem|harms|patient outcomes",
        "device_problem": "device problems|device problem|product problems|failure modes|failure mode|problems|problem|"
        "went wrong|what went wrong|what was wrong|issue|issues|device issue|device issues",
        "country": "countries|country|applicant country|applicant's country|applicant countries|"
        "country of the applicant",
        "state": "states|state|applicant state|applicant's state|applicant states|state of the applicant",
        "status": "status|recall status",
        "supplement_type": "supplement type|supplement types|kind of supplement|type of supplement|supplement kind|"
        "supplement category|review track",
        "clearance_type": "clearance type|clearance types",
        "date_of_event": "date of event|event date|date of the event|date the event occurred|event occurred|"
        "date it happened|when the event happened|when did the event happen|when did the event occur",
        "termination_date": "termination date|date of termination|date terminated|termination|when did it close|"
        "when did it end|closure date|date closed|close date",
        "labeler_duns_number": "duns|duns number|duns numbers|duns no|labeler duns|labeler duns number|"
        "labeler duns no|d-u-n-s|dun and bradstreet number",
        "gmdn_term": "gmdn term|gmdn terms|gmdn|gmdn name|gmdn names|gmdn preferred term",
        "brand_name": "brand|brand name|brand names|brands",
        "version_or_model_number": "model|model number|model numbers|version|version or model|models|skus|sku|"
        "sku numbers|model names",
        "catalog_number": "catalog number|catalog numbers|catalog no|catalog|catalogue number|catalogue|"
        "cat no|cat number|catalog #|ref number|ref no",
        "publish_date": "publish date|publication date|date published|published date|gudid publish date|"
        "udi publish date|first published|published to gudid|published in gudid|published to the gudid|"
        "first show up|first showed up|first appear|first appeared|get listed in the udi|listed in the udi|"
        "added to gudid|added to the gudid",
        "commercial_distribution_status": "commercial distribution|commercial distribution status|distribution status|"
        "still in commercial distribution|in commercial distribution",
        "trade_name": "trade name|trade names|tradename",
        "registration_number": "registration number|registration no",
        "fei_number": "fei|fei number|fei no|fei numbers",
        "premarket_submission": "premarket submission|premarket submissions|premarket number|submission number|"
        "510k number|pma number|what 510k|which 510k|premarket clearance|premarket approval "
        "number",
        "city": "city|town",
        "product_problems": "problem code|problem codes|device problem code|product problem|failure modes|"
        "failure mode|failure types",
        "mri_safety": "mri safety|mri safety status|mri status|mr safety|mr status|mri safety info|mri safe|mr safe|"
        "mri safety information|mr safety status|mri compatibility|mri compatible|mr conditional|mri conditional",
        "reg_expiry_year": "expire|expires|expiry|expiry year|expiration|expiration year|expiry date|expiration date|"
        "good through|valid through|valid until",
        "generic_name": "generic name|generic names|generic device name|generic|generically|generic device",
        "code_info": "lot|lots|lot number|lot numbers|lot no|lot #|batch|batches|batch number|lot codes|code info|"
        "serial numbers|affected lots",
        "product_quantity": "quantity|quantities|product quantity|recall quantity|quantity recalled|units|qty|"
        "qty recalled|how much product|how much was recalled|"
        "number of units|how many units",
        "review_days": "review time|review days|review period|time to clearance|time to approval|turnaround|"
        "how long|how many days|days|take to clear|took to clear|take to approve|took to approve|take|took|"
        "review clock|"
        "review duration|days to clearance|days to decision|time to decision",
        "proprietary_name": "proprietary name|proprietary names|listed device name|listed product name|"
        "listed device|listed product|listed name",
    }
)

# words of the field phrases: grammar when no field reading used them ("decisions", "reasons"), never a device
FIELD_WORDS = {w for k in FIELD_PHRASES for w in k if len(w) > 2} - {"devices", "device", "product", "products"}

# dataset filters said in words: tag = "field=value"
FILTER_PHRASES = _table(
    {
        "event_type=Death|Injury": "serious incidents|serious incident|serious incident reports|death or injury|"
        "death or injuries|deaths or injuries|death or serious injury|death or serious injuries|"
        "deaths or serious injuries|"
        "death/injury|deaths/injuries|death/serious injury|death or serious harm|death or injury reports",
        "event_type=Death": "death|deaths|died|fatal|fatalities|fatality|death reports|killed|dead|got killed|"
        "were killed|was killed|anyone die|anybody die|someone die|people die|patients die",
        "event_type=Injury": "injury|injuries|injured|serious injury|serious injuries|hurt|got hurt|were hurt|"
        "was hurt|harmed|were harmed|was harmed|got injured",
        "event_type=Malfunction": "malfunction|malfunctions|malfunctioned|malfunction reports|malfunctioning|"
        "failing|fails|failed|stopped working|not working|broke down",
        "class=I": "class i|class 1|class one|class is i|class is 1|class is one|class 1s|class ones",
        "class=II": "class ii|class 2|class two|class is ii|class is 2|class is two|class iis|class 2s|class twos",
        "class=III": "class iii|class 3|class three|class is iii|class is 3|class is three|class iiis|class 3s|"
        "class threes",
        "supplements=supplements": "supplements|supplement|pma supplements",
        "supplements=originals": "originals|original|original approvals|original pmas",
        "status=Terminated": "terminated|closed",
        "status=Ongoing": "ongoing|still ongoing|open|active|still open",
        "status=Completed": "completed",
        "voluntary=Voluntary: Firm Initiated": "voluntary|firm initiated|voluntarily",
        "rx=true": "rx|prescription|prescription only|prescription-only|labeled rx",
        "otc=true": "otc|over the counter|over-the-counter",
        "kit=true": "kit|kits",
        "sterile=true": "labeled sterile|labelled sterile|labeled as sterile|labelled as sterile|flagged sterile|"
        "flagged as sterile|supplied sterile|sold sterile|packaged sterile|sterile packaged|sterile-packaged|"
        "marked sterile|marked as sterile|device sterile|sterile flag|sterile = yes|sterile yes",
        "serial=true": "controlled by serial number|controlled by serial|serial number controlled|"
        "serial-number controlled|serial controlled|serial-controlled|serialized|serialised|"
        "tracked by serial number|tracked by serial|"
        "tracked by serial #|carry a serial number|carries a serial number|serial number on the label|"
        "labeled with a serial number|has a serial number|carry a serial number on the label|"
        "carries a serial number on the label|carry a serial number on its label|carries a serial number on its label",
        "lotc=true": "controlled by lot|controlled by lot number|lot controlled|lot-controlled|lot/batch controlled|"
        "controlled by lot or batch|tracked by lot|tracked by lot number|carries a lot number|carry a lot number|"
        "lot number on the label|has a lot number",
        "bsterile=true": "sterile",  # alone, only where the UDI or GUDID records are named
        "nonrl=true": "latex free|latex-free|latex free labeled|labeled latex free|labelled latex free|"
        "not made with natural rubber latex|not made with nrl|not made with latex|labeled as no nrl|"
        "labeled as no natural rubber latex|labelled as no natural rubber latex|no natural rubber latex|no nrl|"
        "not containing natural rubber latex|not containing nrl|does not contain natural rubber latex|"
        "without natural rubber latex|free of natural rubber latex|free from natural rubber latex|"
        "labeled as not made with natural rubber latex|labeled as not containing natural rubber latex",
        "nrl=true": "natural rubber latex|made with natural rubber latex|contains natural rubber latex|"
        "containing natural rubber latex|labeled with natural rubber latex|labeled as containing natural rubber latex|"
        "labeled as nrl|nrl labeled|contain natural rubber latex|made with nrl|contains nrl|containing nrl",
        "agency=HIBCC": "hibcc|hibcc-issued|hibc|health industry business communications council",
        "agency=GS1": "gtin|gtins|gtin-based|gtin based|gs1 gtin|gs1 gtins|gs1-issued|issued by gs1|"
        "gs1 as the issuing agency|gs1 issuing agency|gs1|issuing agency gs1|"
        "agency gs1|gs1 agency|issuing agency is gs1|issuing agency = gs1|issuing agency of gs1",
        "agency=ICCBBA": "iccbba|iccbba-issued",
        "single=true": "single use|single-use|single use devices|single-use devices|disposable|disposables|"
        "flagged single-use|flagged single use|single use yes|single-use yes|for single use|one-time use|"
        "intended for single use|intended for single use only|single use only|single-use only|singel use|"
        "singel-use|for single use only|labeled single use|labeled single-use",
        "gmp=Y": "gmp exempt|gmp-exempt|exempt from gmp|exempt from the gmp|gmp exemption|exempt from gmp requirements|"
        "exempt from good manufacturing practice|exempt from good manufacturing practices|"
        "exempt from good manufacturing practice requirements|exempt from current good manufacturing practice|"
        "exempt from the quality system regulation|qsr exempt|qs exempt|exempt from the quality system|"
        "exempt from quality system|gmp exemption status|exempt from the qs regulation|exempt from qs|gmp-exemption",
        "life=Y": "life sustaining|life-sustaining|life supporting|life-supporting|life sustaining/supporting|"
        "life support|life-support|life sustaining supporting|life-sustaining supporting|"
        "life sustain support|life sustain|life sustain/support|life sustaining or supporting|"
        "life-sustaining or supporting|life sustaining or life supporting|life-sustaining or life-supporting|"
        "life sustaining or support|life-sustaining or -supporting|life sustaining and supporting|"
        "life-sustaining/supporting|life-sustaining/life-supporting",
        "implant=Y": "implant flag|implanted devices|implantable devices|implants|implant|an implant|"
        "considered implantable|considered an implant|flagged as an implant|flag it as an implant|flagged implant",
        "third_party=Y": "third party|third-party|third party reviewed|third-party reviewed|3rd party|3rd-party|"
        "third party review|third-party review|3rd party review|3rd-party review|third party review program|"
        "third-party review program|3rd party review program|third party program|third-party program|"
        "third party reviewer|third-party reviewer|3rd party reviewer|third party flag|third-party flag",
        "decision=SESE": "substantially equivalent|found substantially equivalent|sese|se determinations|"
        "se determination|se decisions",
        "decision=SESD": "sesd",
        "decision=SESK": "sesk",
        "decision=SESU": "sesu",
        "decision=SESP": "sesp",
        "decision=DENG": "deng|de novo granted|de novo|de novos|denovo|de novo requests|de novo request|de novo grants|"
        "de novo decisions|de novo classification requests|de novo classifications|de novo clearances|den decisions",
        "decision=NSE": "nse|not substantially equivalent",
        "pmadecision=OK30": "ok30",
        "pmadecision=LE30": "le30",
        "pmadecision=APPR": "appr",
        "pmadecision=APRL": "aprl",
        "pmadecision=DENY": "deny",
        "supptype=30 Day Notice": "30-day notice|30-day notices|30 day notice|30 day notices|thirty day notice|"
        "thirty day notices|30-day",
        "supptype=Real-Time": "real-time|real time|real-time supplements|real-time process",
        "supptype=Special Immediate Track": "special supplement|special supplements|immediate track",
        "ktype=Special": "special",
        "ktype=Traditional": "traditional",
        "ktype=Abbreviated": "abbreviated",
        "supptype=180 Day": "180-day|180 day|180-day supplements|180 day supplements|180-day track",
        "supptype=Panel Track": "panel-track|panel track",
        "root=Employee Error": "employee error|employee errors|employee mistake|employee mistakes|human error|"
        "human errors|worker error|worker errors|staff error|staff errors|personnel error|personnel errors|"
        "employee-caused|human mistakes|human mistake",
        "root=Device Design": "device design|design|design issues|design problems|design related|design-related",
        "estab=Contract Sterilizer": "contract sterilizers|contract sterilizer|sterilizers for others|"
        "sterilize for another party|sterilize devices for another party",
        "estab=Contract Manufacturer": "contract manufacturer|contract manufacturers|contract manufacturing sites|"
        "manufacture medical device for another party|"
        "contract mfrs|contract mfr",
        "estab=Manufacture Medical Device": "manufacturing sites|manufacturing establishments|manufacture",
        "estab=Repack or Relabel": "repackers|relabelers|repack|relabel",
        "truth=Positive": "positive|positives|truly positive|truth positive|antibody truth positive|antibody-positive|"
        "antibody positive|positive samples|reference positive|reference positives|known positive|positive group|"
        "positives group|group of positives",
        "truth=Negative": "negative|negatives|truly negative|truth negative|antibody truth negative|antibody-negative|"
        "antibody negative|negative samples|reference negative|reference negatives|known negative|negative group|"
        "negatives group|group of negatives",
        "agree=FP": "false positive|false positives|false-positive|false-positives|falsely positive|fp|fps|"
        "false positive results|wrongly called positive|wrongly call positive|wrongly flagged positive|"
        "wrongly read positive|wrongly identified as positive|incorrectly called positive|incorrectly positive",
        "agree=FN": "false negative|false negatives|false-negative|false-negatives|falsely negative|fn|fns|false neg|"
        "false negs|"
        "false negative results|wrongly called negative|wrongly call negative|missed positives|incorrectly negative",
        "agree=TP": "true positive|true positives|true-positive|true-positives|tp|correctly called positive",
        "agree=TN": "true negative|true negatives|true-negative|true-negatives|tn|correctly called negative",
        "sex=Female": "female patients|female patient|female pts|female pt|female|females|women|woman|"
        "patient sex female|sex female|sex of female|patient was a woman|patient was female|girls",
        "sex=Male": "male patients|male patient|male pts|male pt|male|males|men|patient sex male|sex male|"
        "patient was a man|patient was male|boys",
        "panel=CV": "cardiovascular|cardiology|cardiac|cardio",
        "panel=DE": "dental|dentistry",
        "panel=OP": "ophthalmic|ophthalmology|eye|opthalmic|opthalmology|ophtalmic|ophtalmology|opthamology|"
        "ophthamology",
        "panel=OR": "orthopedic|orthopaedic|orthopedics|orthopeadic|orthopaedics",
        "panel=NE": "neurology|neurological",
        "panel=RA": "radiology|radiological",
        "panel=AN": "anesthesiology|anesthesia|anaesthesiology|anaesthesia",
        "panel=GU": "gastroenterology|urology",
        "panel=CH": "clinical chemistry",
        "panel=MI": "microbiology",
        "panel=HE": "hematology|haematology",
        "panel=IM": "immunology",
        "panel=OB": "obstetrics|gynecology|ob/gyn|gynaecology",
        "panel=EN": "ear nose throat|ent",
        "panel=HO": "general hospital",
        "panel=PM": "physical medicine",
        "panel=PA": "pathology",
        "panel=SU": "general surgery|plastic surgery",
        "panel=TX": "toxicology|clinical toxicology",
    }
)
# a panel's two-letter code said after its noun ("advisory committee AN", "panel CV")
FILTER_PHRASES.update(
    {
        (*noun.split(), tag.split("=")[1].lower()): tag
        for tag in sorted({t for t in FILTER_PHRASES.values() if t.startswith("panel=")})
        for noun in ("committee", "panel", "advisory committee", "review panel", "specialty", "medical specialty")
    }
)
# a panel said with its noun ("the anesthesiology review panel"): the noun is the filter's, not a dataset word
FILTER_PHRASES.update(
    {
        (*words, *noun.split()): tag
        for words, tag in list(FILTER_PHRASES.items())
        if tag.startswith("panel=") and words[-1] not in ("committee", "panel", "specialty")
        for noun in ("panel", "review panel", "advisory committee", "committee", "advisory panel")
    }
)
# a panel's short name or two-letter code said before its noun ("the ortho panel", "OR panel vs NE panel"); alone,
# "ortho" or "OR" is too often a firm's word or a state to be read as a panel
PANEL_SHORT = {"ortho": "OR", "neuro": "NE", "ophtho": "OP", "gastro": "GU", "radio": "RA", "hema": "HE"}
FILTER_PHRASES.update(
    {
        (word, *noun.split()): f"panel={code}"
        for word, code in [
            *PANEL_SHORT.items(),
            *(
                (t.split("=")[1].lower(), t.split("=")[1])
                for t in set(FILTER_PHRASES.values())
                if t.startswith("panel=")
            ),
        ]
        for noun in ("panel", "panels", "review panel", "advisory panel", "specialty", "medical specialty")
    }
)
# the panels by code, as a person names them ("AN": anesthesiology)
PANEL_NAMES = {
    tag.split("=")[1]: " ".join(words).title()
    for words, tag in reversed(list(FILTER_PHRASES.items()))
    if tag.startswith("panel=") and len(words) <= 3 and words[-1] not in ("committee", "panel", "panels", "specialty")
}
# the panels' names as FDA's classification spells them (its medical specialty descriptions)
PANEL_NAMES.update(
    {
        "EN": "Ear, Nose, Throat",
        "GU": "Gastroenterology, Urology",
        "OB": "Obstetrics/Gynecology",
        "SU": "General, Plastic Surgery",
        "TX": "Clinical Toxicology",
    }
)
# a filter some datasets read only when the words that name its field are said ("510(k)s from the anesthesiology
# panel" is the advisory committee; "cardiac monitor 510(k)s" is a device)
# ("cardiovascular PMAs", a specialty said just before the dataset's noun, is the panel too: see interpret._filters)
_PANEL_CUES = {"panel", "committee", "advisory", "specialty", "panels", "committees"}
FILTER_CUES = {"panel": {"510k": _PANEL_CUES, "pma": _PANEL_CUES}}

# field values said in words -> (searcher filter per dataset, label)
FILTER_FIELDS = {
    "status": ({"recall": "recall_status", "enforcement": "status"}, "status {v}"),
    "voluntary": ({"enforcement": "voluntary_mandated"}, "voluntary recalls"),
    "rx": ({"udi": "is_rx"}, "prescription (Rx) devices"),
    "otc": ({"udi": "is_otc"}, "over-the-counter devices"),
    "kit": ({"udi": "is_kit", "gudid": "is_kit"}, "kits"),
    "sterile": ({"udi": "is_sterile", "gudid": "is_sterile"}, "devices labeled sterile"),
    "life": ({"classification": "life_sustain_support_flag"}, "life-sustaining or supporting"),
    "implant": ({"classification": "implant_flag"}, "implants"),
    "third_party": ({"510k": "third_party"}, "third-party reviewed"),
    "ktype": ({"510k": "clearance_type"}, "{v} 510(k)s"),
    "decision": ({"510k": "decision_code"}, "decision {v}"),
    "pmadecision": ({"pma": "decision_code"}, "decision {v}"),
    "supptype": ({"pma": "supplement_words"}, "supplement type {v}"),
    "root": ({"recall": "root_cause"}, "root cause {v}"),
    "estab": ({"registrationlisting": "establishment_words"}, "establishment type {v}"),
    "panel": (
        {"classification": "medical_specialty", "510k": "advisory_committee", "pma": "advisory_committee"},
        "medical specialty {v}",
    ),
    "rpanel": ({"classification": "review_panel", "510k": "advisory_committee"}, "review panel {v}"),
    "gmp": ({"classification": "gmp_exempt"}, "exempt from GMP (quality system) requirements"),
    "single": ({"udi": "is_single_use", "gudid": "is_single_use"}, "single-use devices"),
    "agency": ({"udi": "issuing_agency", "gudid": "issuing_agency"}, "DIs issued by {v}"),
    "bsterile": ({"udi": "is_sterile", "gudid": "is_sterile"}, "devices labeled sterile"),
    "nrl": ({"udi": "is_labeled_as_nrl"}, "devices labeled as containing natural rubber latex"),
    "nonrl": ({"udi": "is_labeled_as_no_nrl"}, "devices labeled as not made with natural rubber latex"),
    "serial": ({"udi": "has_serial_number", "gudid": "has_serial_number"}, "controlled by serial number"),
    "lotc": ({"udi": "has_lot_or_batch_number", "gudid": "has_lot_or_batch_number"}, "controlled by lot or batch"),
    "truth": ({"covid19serology": "antibody_truth"}, "antibody truth {v}"),
    "regnum": ({"registrationlisting": "registration_number"}, "registration number {v}"),
    "lot": ({"event": "lot_number"}, "lot {v}"),
    "duns": ({"udi": "labeler_duns_number"}, "labeler DUNS number {v}"),
    "fei": ({"registrationlisting": "fei_number"}, "FEI number {v}"),
    "ownernum": ({"registrationlisting": "owner_operator_number"}, "owner/operator number {v}"),
    "sex": ({"event": "patient_sex"}, "patient sex {v}"),
    "group": ({"covid19serology": "group"}, "sample group {v}"),
    "stype": ({"covid19serology": "type"}, "sample type {v}"),
    "age": ({"event": "patient_age"}, "patient age {v}"),
    "city": (
        {"pma": "city", "510k": "city", "recall": "city", "enforcement": "city", "registrationlisting": "city"},
        "city {v}",
    ),
    "agree": ({"covid19serology": "antibody_agree"}, "{v}"),
    "iggagree": ({"covid19serology": "igg_agree"}, "IgG {v}"),
    "igmagree": ({"covid19serology": "igm_agree"}, "IgM {v}"),
    "igaagree": ({"covid19serology": "iga_agree"}, "IgA {v}"),
    "problem": ({"event": "device_problem"}, "device problem {v}"),
    "pproblem": ({"event": "patient_problem"}, "patient problem {v}"),
}
# how a serology result agreed with the sample's known status, in plain words
AGREE_LABEL = {
    "FP": "false positives (FP)",
    "FN": "false negatives (FN)",
    "TP": "true positives (TP)",
    "TN": "true negatives (TN)",
}
# word filters read only when their dataset is named too ("positive airway pressure" is a device)
NEEDS_DATASET = {"truth", "sex", "agree", "ktype", "bsterile"}
FILTER_DATASET = {
    "status": "recall",
    "voluntary": "enforcement",
    "rx": "udi",
    "otc": "udi",
    "kit": "udi",
    "sterile": "udi",
    "life": "classification",
    "implant": "classification",
    "third_party": "510k",
    "ktype": "510k",
    "decision": "510k",
    "pmadecision": "pma",
    "supptype": "pma",
    "root": "recall",
    "estab": "registrationlisting",
    "panel": "classification",
    "rpanel": "classification",
    "truth": "covid19serology",
    "regnum": "registrationlisting",
    "ownernum": "registrationlisting",
    "lot": "event",
    "duns": "udi",
    "fei": "registrationlisting",
    "sex": "event",
    "gmp": "classification",
    "single": "udi",
    "agency": "udi",
    "bsterile": "udi",
    "nrl": "udi",
    "nonrl": "udi",
    "serial": "udi",
    "lotc": "udi",
    "group": "covid19serology",
    "agree": "covid19serology",
    "iggagree": "covid19serology",
    "igmagree": "covid19serology",
    "igaagree": "covid19serology",
    "stype": "covid19serology",
    "age": "event",
    "city": "",  # a city filters the dataset named; it implies none
    "problem": "event",
    "pproblem": "event",
}

FOLLOWUP = _table(
    {
        "those": "those|these|them|they|their|those devices|these devices|those codes|those firms|those companies|"
        "those products|the same|same devices|same codes|that device|that firm|that company|it|its|"
        "those records|these records|there|too|as well|also|what about|and what about|how about",
    }
)

# words that carry the sentence but no filter: explained by being grammar
FUNCTION = set(
    """work different distinct a an the of for in on at by to from with without and or about is are was were be
been being do does
did done how what which who whom whose where when why please all any some there their its it this that these those them
they per each every over since after before between during through than more most i we you me my our us can could
would should will shall may might must have has had having get got gets getting give show list find tell know see
look lookup up many much number count total so far ever also too same related associated involving involved
make makes made making info information details summary summarize summarise records record entries entry data
database fda device devices medical product products type types kind kinds here did does done received reported
issued filed submitted decided initiated posted published occurred occured happened reviewed ever yet still just only
new recent
operate operates mislabeled mislabelled defective faulty scored scoring splits packaging granted initiate
initiates initiating
recently latest newest oldest first last past year years month months day days date dates time times quarter
quarters like under into across overall altogether together whole entire anything something everything
companies company firm firms manufacturer manufacturers maker makers by via including include includes has
let lets let's what's whats how's which's there's are there's mirror database dataset datasets exist exists
existing currently current available as well what's vs versus compare compared against top most involve involves
involving concern concerns concerning regarding regard about relating relate relates tied linked connected
counts one ones located foreign release released design file filed cover among fall falls regulated start
beginning end came come comes held labeled labelled initiation initiated begun came went number numbers overall
row rows based headquartered coded applications terminate terminates
average averages avg mean median percent percentage percentages proportion proportions ratio ratios fraction fractions
procode procodes code codes version key keys dated hold holds holding contain contains containing contained
evaluate evaluates evaluated evaluating behind mention mentions mentioning mentioned named naming started starts
starting began begin begins apply applies applied applicable share shares shared sharing flagged accepted run ran runs
go goes going want need needs mean means meant appear appears appeared cite cites cited give gives given say says
said happen happens occur occurs belong belongs belonging assigned assign affect affects affected sold distributed
marketed list listed? within down breakdown split grouped broken machine machines unit units equipment
publication publications true false marked tagged designated flagged
exactly approximately roughly about overall altogether whatsoever logged took own owns owned decide decides
section sections combined cumulative cumulatively altogether sum summed
pls plz thx thanks ok okay now btw fyi asap kindly pull bring fetch grab gimme submitter submitters filer filers
carry carries carried carrying classify classifies classifying whether included incl inclusive flag flags used
late worry worried snapshot overview send sends sending leader leaders diligence asks wants sit sits
predicate predicates steering hire quick memo boss auditor auditors inspector consultant reviews
totals tallies higher lower greater bigger smaller owner owners operator operators both teach actually really
""".replace("listed?", "").split()
)
# the asker's frame: hedges, academic and report words, ordinary English in no device name, firm or field the mirror
# knows and with no filter meaning ("observations" are the records; "according to", "ideally", "I presume", "the
# modal category", "my thesis chapter"); read as grammar, never as a device to look up. A word that would restrict
# ("error", "hurt", "false") is no frame word: left unread, it still stops a figure for another question.
FRAME = set(
    """
observations observation obs according accordingly ideal ideally suppose supposing supposed presume presuming
presumably assume assuming assumption reckon wonder wondering curious chapter thesis dissertation appendix
descriptive statistics statistic statistical commonly typically usually generally value values feasible possibly
modal distribution distributions stratum strata preceding remaining runners-up runner-up useful helpful handy
characterise characterize characterising characterizing temporal interested purposes roughly basically
essentially respectively i.e. e.g. i.e e.g ie eg simultaneously looking trying tho though blamed sent else
people patients anyone whatever
frequency frequencies tabulate tabulated tabulation
history histories stuff lately if cool sweep pt pts legit thing things think doing comparing generated bucket
buckets slice alone universe put puts hunting search searched searching rep reps
exact precise precisely verbatim advise identify identifying entity entities affiliate affiliates retrospective
leaderboard scorecard sizing cleanup teardown crosswalk strictly solely look-back lookback post-mortem postmortem
recap individual
""".split()
)
FUNCTION |= FRAME
# plain verbs that are also device words ("clear", "filter"): grammar where a verb stands (after "did", "does",
# "to", "FDA", a dataset or field word, or first in the question before "those" / "the")
VERB_DEVICE_WORDS = {
    "leads",
    "change",
    "changed",
    "changes",
    "clear",
    "clears",
    "cover",
    "covers",
    "covered",
    "filter",
    "filters",
    "support",
    "supports",
    "supporting",
    "share",
    "shares",
    "lead",
    "leads",
    "control",
    "controls",
    "return",
    "returns",
    "narrow",
    "limit",
    "restrict",
    "break",
    "split",
    "group",
    "sort",
    "rank",
    "order",
    "check",
    "match",
    "matches",
    "fit",
    "fits",
    "use",
    "uses",
    "used",
    "power",
    "release",
    "file",
    "files",
}
_AUX = {
    "did",
    "does",
    "do",
    "to",
    "can",
    "could",
    "will",
    "would",
    "should",
    "fda",
    "that",
    "who",
    "it",
    "they",
    "please",
    "also",
    "then",
}
_OBJECT = {"those", "these", "them", "that", "it", "the", "my", "to", "by", "down", "out", "this"}


# verbs of trade after a firm or a "who" ("which firms sell infusion pumps", "who makes the 630G"), the verbs that
# introduce a firm's name ("a firm called Standard Imaging"), and a rating said before a class ("recalls rated class
# II"): grammar, never device words
_TRADE_VERBS = {
    "sell",
    "sells",
    "selling",
    "sold",
    "market",
    "markets",
    "marketed",
    "distribute",
    "distributes",
    "distributed",
    "make",
    "makes",
    "manufacture",
    "manufactures",
    "produce",
    "produces",
    "supply",
    "supplies",
    "offer",
    "offers",
    "carry",
    "carries",
    "import",
    "imports",
}
_SELLERS = {
    "firms",
    "firm",
    "companies",
    "company",
    "manufacturers",
    "manufacturer",
    "makers",
    "maker",
    "vendors",
    "vendor",
    "suppliers",
    "supplier",
    "distributors",
    "distributor",
    "labelers",
    "labeler",
    "applicants",
    "applicant",
    "sponsors",
    "sponsor",
    "who",
    "which",
    "that",
    "they",
    "brands",
    "brand",
    "importers",
    "importer",
}
_NAMING = {"called", "named", "dubbed", "titled"}
_RATED = {"rated", "graded", "designated", "categorized", "categorised", "deemed", "ranked", "assigned"}


def verbs_as_grammar(tokens: Tokens) -> None:
    """Mark verbs that are also device words as grammar where they stand as verbs ("did FDA clear K1...",
    "filter those to Medtronic", "which 510(k) covers DI ..."); "clear aligners", "IVC filter" stay devices."""
    lows = tokens.lows()
    for i in tokens.unused():
        if lows[i] not in VERB_DEVICE_WORDS:
            continue
        prev, nxt = (lows[i - 1] if i else ""), (lows[i + 1] if i + 1 < len(lows) else "")
        after_key = i > 0 and tokens.role.get(i - 1) in ("dataset", "field", "id", "code")
        ranked = lows[i] == "leads" and prev in _RANKED and not any(c.isalnum() for c in nxt)  # "which firm leads?"
        prev2 = lows[i - 2] if i > 1 else ""
        named = prev2 in ("does", "did", "do") and tokens.free(i - 1) and prev not in FUNCTION  # "does Netech use"
        if (
            prev in _AUX
            or after_key
            or ranked
            or named
            or (i == 0 and nxt in _OBJECT)
            or (prev in FUNCTION and nxt in _OBJECT)
        ):
            tokens.take(i, i + 1, "function")
    for i in tokens.unused():  # "which firms sell X", "a company named X", "recalls rated class II": grammar
        prev = lows[i - 1] if i else ""
        nxt = lows[i + 1] if i + 1 < len(lows) else ""
        if (
            lows[i] in _TRADE_VERBS
            and (prev in _SELLERS or i and tokens.role.get(i - 1) == "firm")
            or lows[i] in _NAMING
            and prev in _SELLERS - {"who", "which", "that", "they"}
            or lows[i] in _RATED
            and nxt in ("class", "as", "a", "an", "type", "category", "level")
        ):
            tokens.take(i, i + 1, "function")
    for i in tokens.unused():  # "how has the number of ... changed": the verb of a "how has" question
        if lows[i] in VERB_DEVICE_WORDS and lows[i].endswith("ed") and _how_has(lows[:i]):
            tokens.take(i, i + 1, "function")
    for i in tokens.unused():  # "a per-year table", "table of MDRs by year", "as a chart": the answer's form
        if lows[i] in _FORMS and _as_form(lows, i):
            tokens.take(i, i + 1, "function")
    for i in tokens.unused():  # phrasal verbs: "came out in 2020", "kicked off", "shows up most"
        if lows[i] in _PARTICLES and i and tokens.free(i - 1) and _verb_like(lows[i - 1]):
            tokens.take(i - 1, i + 1, "function")


_FORMS = {"table", "tables", "chart", "charts", "graph", "graphs", "plot", "spreadsheet", "csv", "excel"}
_FORM_BEFORE = {"a", "the", "as", "in", "simple", "quick", "summary", "pivot", "trend", "bar", "line", "small", "short"}
_FORM_AFTER = {"of", "pls", "plz", "please", "format", "form", "showing", "with", "by", "per", "for"}


def _how_has(lows: list[str]) -> bool:
    return any(w == "how" and nxt in ("has", "have", "had", "did", "does", "do") for w, nxt in zip(lows, lows[1:]))


def _as_form(lows: list[str], i: int) -> bool:
    prev, nxt = (lows[i - 1] if i else ""), (lows[i + 1] if i + 1 < len(lows) else "")
    by_period = prev.startswith(("per-", "by-")) or prev.endswith("ly") or prev in ("year", "month", "quarter")
    return (
        prev in _FORM_BEFORE or by_period or nxt in _FORM_AFTER and prev in {"", ",", "and"} | _FORM_BEFORE | FUNCTION
    )


_PARTICLES = {"out", "off", "up"}
# nouns of what is ranked: "which specialty leads?" ranks specialties ("pacemaker leads" stays a device)
_RANKED = {"specialty", "panel", "firm", "company", "manufacturer", "state", "country", "class", "code", "one", "who"}
_IRREGULAR = {
    "came",
    "come",
    "comes",
    "went",
    "go",
    "goes",
    "show",
    "shows",
    "showing",
    "turn",
    "turns",
    "pop",
    "pops",
    "kick",
    "kicks",
    "start",
    "starts",
    "get",
    "gets",
    "got",
    "set",
    "sets",
    "put",
    "puts",
    "run",
    "runs",
    "ran",
    "pull",
    "pulls",
    "roll",
    "rolls",
    "phase",
    "phased",
    "phasing",
    "send",
    "sends",
    "sent",
}


def _verb_like(word: str) -> bool:
    """A word that reads as a verb before a particle ("kicked", "came", "shows")."""
    return word in _IRREGULAR or (len(word) > 4 and word.endswith("ed")) or (len(word) > 5 and word.endswith("ing"))


# the verb that says which date a range is of ("recalls initiated in 2012", "510(k)s received in 2019")
DATE_KINDS = {
    "initiated": "initiated initiation initiate initiates initiating started start began begun begin",
    "received": "received submitted submission submissions receipt logged",
    "occurred": "occurred occured happened occurring occuring occur occurs happen happens",
    "posted": "posted",
    "terminated": "terminated termination terminations ended",
    "reported": "reported issued published dated",
    "performed": "performed tested run",
    "published": "published publication publications",
}
DATE_KIND = {w: kind for kind, words in DATE_KINDS.items() for w in words.split()}

# what each dataset is called, and (singular, plural) of one of its records: one row per dataset in agent/tools/specs.py
LABEL, NOUN = _specs.LABEL, _specs.NOUN


def match_phrases(
    tokens: Tokens, table: dict[tuple[str, ...], str], role: str, take: bool = True
) -> list[tuple[int, int, str]]:
    """Longest-first matches of the table's phrases over free tokens: (start, end, tag); marks them `role`."""
    longest = max((len(k) for k in table), default=0)
    out, i, lows = [], 0, tokens.lows()
    while i < len(lows):
        hit = None
        for n in range(min(longest, len(lows) - i), 0, -1):
            key = tuple(lows[i : i + n])
            if key in table and all(tokens.free(k) for k in range(i, i + n)):
                hit = (i, i + n, table[key])
                break
        if hit:
            out.append(hit)
            if take:
                tokens.take(hit[0], hit[1], role)
            i = hit[1]
        else:
            i += 1
    return out


_GRAMMAR_WORDS = sorted({w for table in (DATASET_PHRASES,) for k in table for w in k if len(w) >= 5})


# the question's own grammar words (function words, kinds of date, measures): a word typed one letter off one of them
# ("recieved", "quartely", "flaged") is that word, never a device to ask about
_PLAIN_WORDS = sorted(
    {w for w in FUNCTION | set(DATE_KIND) if len(w) >= 6 and w.isalpha()}
    | {w for k in MEASURE_PHRASES for w in k if len(w) >= 6 and w.isalpha()}
    | {"flagged", "clearance", "clearances", "supplement", "supplements", "quarterly", "received", "breakdown"}
    | {"decision", "decisions", "number", "numbers", "published", "terminated", "registered", "classified"}
)


_KNOWN_WORDS = (
    {
        w
        for table in (DATASET_PHRASES, FIELD_PHRASES, FILTER_PHRASES, MEASURE_PHRASES, FOLLOWUP)
        for k in table
        for w in k
    }
    | {w for words in DATASET_WORDS.values() for w in words}
    | set(DATE_KIND)
    | FUNCTION
)


def _one_edit(a: str, b: str) -> bool:
    """Two words one typing slip apart: a letter changed, dropped, added, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return (
            len(diff) == 1
            or len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:k] + long_[k + 1 :] == short for k in range(len(long_)))


def fuzzy_plain_word(word: str) -> str | None:
    """The grammar word the token misspells by one slip ("recieved", "quartely"), when exactly one is that close;
    never a word the vocabulary knows itself ("labeler" is no typo of "labeled")."""
    if len(word) < 5 or not word.isalpha() or word in _PLAIN_WORDS or word in _KNOWN_WORDS:
        return None
    hits = [w for w in difflib.get_close_matches(word, _PLAIN_WORDS, n=5, cutoff=0.75) if _one_edit(word, w)]
    return hits[0] if len(hits) == 1 else None


def fuzzy_grammar_word(word: str) -> str | None:
    """A dataset word the token is a typo of ("recals" -> "recalls"), or None."""
    if len(word) < 5 or not word.isalpha():
        return None
    hit = difflib.get_close_matches(word, _GRAMMAR_WORDS, n=1, cutoff=0.84)
    return hit[0] if hit else None
