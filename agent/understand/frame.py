"""The question's own frame, read off before any word is searched: shorthand of the question's grammar ("yr",
"supps", "mfr", "FEI #"), helper words that look like names ("Can you" is no Canada), a "yes or no" tail, and the
sentences and clauses that only give the asker's context ("For our portfolio memo:", "We're benchmarking
competitors."). Their unknown words never block an answer and never become a filter or a comparison side; a firm,
device, record number or period named in them still counts."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import vocab

__all__ = ["Framed", "reframe", "expand_shorthand", "names_asker"]

# shorthand of the question's grammar: (pattern, replacement), applied in order, case-insensitive
_SHORT: list[tuple[str, str]] = [
    # a thanks that opens the turn ("Thank you. Please also provide ..."): courtesy, never a device
    (r"^\W*(?:thank\s+you|thanks|thx|ty)(?:\s+(?:so|very)\s+much)?\s*[.!,;:-]+\s*", ""),
    # a formal request's verb ("Please advise how many ...", "Kindly provide the count of ...", "Please identify,
    # by PMA number, ...", "Separately, please confirm the ..."): the ask is what follows
    (r"(?:^|(?<=[.?!:;]\s))\s*(?:separately|additionally|also|further(?:more)?|in\s+addition)\s*,\s*", ""),
    (
        r"\b(?:please|kindly|pls|plz)\s+(?:also\s+)?(?:advise|provide|identify|confirm|state|indicate|specify|furnish|"
        r"let\s+(?:me|us)\s+know)\b(?:\s+(?:me|us))?(?:\s*,\s*|\s+(?:as\s+to|of|on)\s+)?(?=how|what|which|whether|who|when|if)\b",
        "",
    ),
    (
        r"\b(?:please|kindly|pls|plz)\s+(?:also\s+)?(?:advise|provide|identify|confirm|state|indicate|specify|furnish|"
        r"let\s+(?:me|us)\s+know)\b(?:\s+(?:me|us))?(?:\s*,\s*|\s+(?:as\s+to|of|on)\s+)?",
        "Tell ",
    ),
    # "naming any Medtronic entity (including Medtronic MiniMed and ...)", "by any Medtronic entity (Medtronic, Inc.,
    # Medtronic Neuromodulation, etc.)": the firm, whose name finds each of its spellings
    (
        r"\b(?:naming|from|for|by|of)\s+any\s+((?-i:[A-Z])[\w&.-]*(?:\s+(?-i:[A-Z])[\w&.-]*){0,2})\s+(?:entity|entities|affiliates?|"
        r"subsidiar(?:y|ies)|compan(?:y|ies))\b(?:\s*\([^()]{0,160}\))?",
        r"from \1",
    ),
    (r"\b(?:please|kindly)\s+(?:also\s+)?(?=list|state|give|tell|show|summari[sz]e|pull)\b", ""),
    # "reports identifying Boston Scientific as the device manufacturer": the firm's reports
    (
        r"\b(?:identifying|naming|listing|that\s+(?:identify|name|list))\s+(.{2,60}?)\s+as\s+(?:the\s+)?(?:device\s+)?"
        r"(?:manufacturer|maker|mfr)(?:\s+of\s+(?:the\s+)?(?:reported\s+)?device)?\b",
        r"from \1",
    ),
    # "please base this strictly on the received date": the date the count is by
    (
        r"\b(?:base|based)\s+(?:this|it|that|the\s+(?:count|number|answer))\s+(?:strictly\s+|only\s+|solely\s+)?on\b",
        "by",
    ),
    # a legal matter as the asker's context: "In connection with our pending matter involving X, ..." is a lead like
    # "For our memo, ..."; "In re: X claim." like "Re: X claim." (a sentence of context)
    (
        r"(?:^|(?<=[.!]\s))\W*(?:in\s+connection\s+with|in\s+relation\s+to|with\s+(?:respect|regard)\s+to)\s+"
        r"(?=(?:our|my|the|a|this)\s)",
        "For ",
    ),
    (r"^\W*in\s+re\s*:\s*", ""),
    (
        r"\b(?:falling|that\s+falls?|which\s+falls?|falls?)\s+(?:with)?in(?:to)?\s+(?=the\s+(?:year|period|quarter|month)|"
        r"(?:19|20)\d\d\b)",
        "in ",
    ),
    # a brand and its parts typed with a slip: "sterad" / "sterrad" is Sterrad, "cassete(s)" cassette(s)
    (r"\bster+ad\b", "Sterrad"),
    (r"\bcas+et+e?(s?)\b", r"cassette\1"),
    # "was the X recall a class I?", "was the X recall class 1 or 2": the recall's class asked
    (
        r"\b(?:was|is)\s+(the\s+[^?.!]{2,60}?\s+recall)\s+(?:a\s+)?class\s+(?:iii|ii|i|[123])\b(?:\s*(?:,|or|/)\s*"
        r"(?:class\s+)?(?:iii|ii|i|[123])\b)*",
        r"what recall class was \1",
    ),
    # "what class recall was it": the recall's class; "what classification did FDA give it": its class, whichever
    # record "it" is
    (
        r"\bwhat\s+(?:class|classification)\s+(?:of\s+)?recall\s+(?:was|is)\s+(it|that|this)\b",
        r"what recall class was \1",
    ),
    (
        r"\bwhat\s+(?:class|classification)\s+did\s+(?:the\s+)?(?:FDA|agency|they)\s+(?:give|assign|put\s+on)\s+"
        r"(it|that|this|them|those)\b",
        r"what class was \1",
    ),
    # "recall back in 2012": the year
    (r"\b(?:way\s+)?back\s+(?=(?:in|during|around)\s+(?:(?:early|late|mid)\s+)?(?:19|20)\d\d\b)", ""),
    # "REF" said as the label's reference (catalog) number: "what's the REF", "REF/catalog #", "REF number", a bare
    # "ref" follow-up; "product code REF" stays the code
    (
        r"(?<!\bcode\s)(?<!\bcodes\s)(?<!\bprocode\s)\bREF\b\s*(?:/\s*catalog(?:ue)?\b)?(?:\s*(?:#|numbers?\b|nos?\b\.?))?"
        r"(?=\s*(?:#|numbers?\b|nos?\b|[?.!]*\s*$|is\b|does\b|for\b|on\b|of\b|in\b|affected\b))|"
        r"\b(?:catalog(?:ue)?)\s*/\s*REF\b(?:\s*(?:#|numbers?\b|nos?\b\.?))?",
        "catalog number",
    ),
    # a GS1 barcode's forms of the device identifier: "(01)00811331018325" (its application identifier), "GTIN
    # 00811331018295", "UPC 811331018325" (a 12-digit UPC is the 14-digit GTIN with two leading zeros)
    (r"\(\s*01\s*\)\s*(\d{14})\b", r"DI \1"),
    (r"\bGTIN(?:-?14)?\s*(?:#|no\.?|number)?\s*:?\s*(?=\d{14}\b)", "DI "),
    (r"\bUPC(?:-?A)?\s*(?:#|no\.?|number|code)?\s*:?\s*(\d{12})\b", r"DI 00\1"),
    # the label's part number is its version or model number: "mfr part no", "version-model", "version/model"
    (r"\b(?:mfr\.?\s+|manufacturer(?:'s)?\s+)?part\s*(?:no\b\.?|nos\b\.?|numbers?\b|#)", "model number"),
    (r"\bversion\s*[-/]\s*model\b", "version or model"),
    # what the asker's own record lacks ("shows no mfr part number on our side", "and no description"): context
    (
        r"\s*(?:,\s*)?\b(?:and|with|that|which)?\s*(?:shows|has|have|had|showing|having|with)?\s*no\s+(?:model\s+number|description|"
        r"descriptions|name)\b(?:\s+on\s+(?:our|my)\s+(?:side|end))?",
        "",
    ),
    (r"\bon\s+(?:our|my)\s+(?:side|end)\b", ""),
    (r"\b(procodes?|product\s+codes?)\s+(?:pls|plz|please)\b", r"\1"),  # "procode pls": no product code PLS
    # "need the product code for DI ...": the field asked, as "what is the product code"
    (
        r"\b(?:i\s+|we\s+)?need\s+(?:the|a)\s+(?=(?:fda\s+)?(?:product\s+code|procode|model\s+number|version|catalog\s+number|"
        r"regulation\s+number|device\s+class)\b)",
        "what is the ",
    ),
    # a lead naming the asker's errand ("item master cleanup - ...", "supplier scorecard: ..."): background
    (
        r"^\W*((?:[a-z][\w-]*\s+){0,3}?(?:cleanup|clean-up|reconciliation|scorecard|teardown|crosswalk|housekeeping))\s*"
        r"(?:[-–—:]+)\s+",
        r"For \1: ",
    ),
    (
        r"^\W*(?:DI\s+)?(\d{14})\s*[-–—:,]?\s*(?:procode|product\s+code)s?\b(?:\s*\?)?\s*$",
        r"what is the product code for DI \1",
    ),
    # a dental implant in lay words is the root-form endosseous implant (DZE "Implant, Endosseous, Root-Form"), whose
    # name says no "dental"; "tooth implants", "dental implant fixtures" the same
    (
        r"(?<!endosseous\s)(?<!root-form\s)\b(?:dental|tooth|teeth)\s+implants?(?:\s+(?:fixtures?|posts?|screws?|bodies))?\b"
        r"(?!\s*\(\s*(?-i:[A-Z]{3})\s*\))",
        "root-form endosseous implants",
    ),
    # two product codes compared in capitals ("OZP v. OZO", "OZP vs OZO head to head"): each code a side
    (r"(?-i:\b([A-Z]{3})\b)\s+v\.?\s+(?-i:\b([A-Z]{3})\b)", r"product code \1 vs product code \2"),
    (r"\s*\bhead[\s-]+to[\s-]+head\b", " compared"),
    # a kind of device with its product code in brackets on each side ("hybrid closed loop (OZP) vs threshold
    # suspend (OZO)"): the codes are the sides, the words their glosses
    (
        r"(?:\b(?!(?:for|of|on|in|the|with|and|how|what|which|many|do|does|mdrs?|reports?)\b)[A-Za-z][\w-]*\s+){1,4}\(\s*"
        r"((?-i:[A-Z]{3}))\s*\)\s*(?:vs\.?|versus|v\.?|compared\s+(?:to|with))\s*(?:\b(?!(?:for|of|on|in|the|with|and|how|what)\b)"
        r"[A-Za-z][\w-]*\s+){1,4}\(\s*((?-i:[A-Z]{3}))\s*\)",
        r"product code \1 vs product code \2",
    ),
    # a slip in the largest firm's name on a side of a comparison (alone, the firm reading respells it and says so)
    (
        r"\bmedtron(?:c|ik|ick|nic)\b(?=\s*(?:vs\.?|versus|v\.|and|or|/|&)\s*\w)|(?<=\bvs\s)medtron(?:c|ik|ick|nic)\b|"
        r"(?<=\bvs\.\s)medtron(?:c|ik|ick|nic)\b|(?<=\bversus\s)medtron(?:c|ik|ick|nic)\b",
        "Medtronic",
    ),
    # a period said twice, loosely then exactly ("in the last week of April 2020, i.e. April 22-30, 2020"): the exact
    (
        r"\b(?:in\s+|during\s+)?the\s+(?:last|final|first|second|third|fourth|middle)\s+(?:week|days|half|fortnight)\s+of\s+"
        r"[A-Za-z]+\.?\s+(?:19|20)\d\d\s*,?\s*\(?\s*(?:i\.\s*e\.?|that\s+is|namely|viz\.?)\s*,?\s*",
        "",
    ),
    # days of one month as a range ("April 22-30, 2020"): from the first day to the last
    (
        r"\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?)\s+(\d{1,2})\s*(?:-|–|to|through|thru)\s*(\d{1,2})"
        r"\s*,?\s+((?:19|20)\d\d)\b",
        r"from \1 \2, \4 to \1 \3, \4",
    ),
    # the serology panel FDA ran with the National Cancer Institute: "FDA/NCI" is FDA's own evaluation
    (r"\b(?:FDA\s*(?:/|and|&|-)\s*NCI|NCI\s*(?:/|and|&|-)\s*FDA)\b", "FDA"),
    # "is X registered as a manufacturer", "a registered device manufacturer": the establishment's type asked, yes or no
    (
        r"\b(?:actually\s+)?(registered|listed)\s+(?:with\s+(?:the\s+)?FDA\s+)?as\s+(?:an?\s+)?(?:medical\s+)?(?:device\s+)?"
        r"manufacturer(?:\s+of\s+(?:medical\s+)?devices?)?\b",
        r"\1 with establishment type manufacture medical device",
    ),
    (
        r"\ban?\s+registered\s+(?:medical\s+)?(?:device\s+)?manufacturer\b",
        "registered with establishment type manufacture medical device",
    ),
    # "In registration & listing, is the X site ...": the dataset said as a lead, then a yes-or-no ask
    (
        r"(?:^|(?<=[.?!]\s))\s*in\s+(?:the\s+)?(?:registration\s*(?:&|and|/)\s*listing|r\s*&\s*l)(?:\s+data(?:base)?)?\s*,\s*"
        r"(?=(?:is|are|was|were|does|do|did|has|have)\b)",
        "",
    ),
    # "is it a class 1 or class 2 device?", "is a femoral closure device class 2 or 3": one device's class asked, never
    # the two classes compared
    (
        r"^\W*(?:our|my|the|a|an)\s+((?:[a-z][\w-]*\s+){0,3}?[a-z][\w-]*)\s*[-–—:,]+\s*(?:is|are)\s+(?:it|they|that|this)\s+"
        r"(?:an?\s+)?class\s+(?:iii|ii|i|[123])\s*(?:or|/)\s*(?:an?\s+)?(?:class\s+)?(?:iii|ii|i|[123])\b(?:\s+(?:device|devices|product))?",
        r"what device class is a \1",
    ),
    (
        r"\b(?:is|are)\s+(it|they|that|this|these|those)\s+(?:an?\s+)?class\s+(?:iii|ii|i|[123])\s*(?:or|/)\s*(?:an?\s+)?(?:class\s+)?"
        r"(?:iii|ii|i|[123])\b(?:\s+(?:device|devices|product|products|item|items))?",
        r"what device class is \1",
    ),
    (
        r"\b(?:is|are)\s+((?:an?\s+|the\s+)?(?!it\b|they\b)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,8}?)\s+(?:an?\s+)?class\s+(?:iii|ii|i|[123])\s*"
        r"(?:or|/)\s*(?:class\s+)?(?:iii|ii|i|[123])\b(?:\s+(?:device|devices))?",
        r"what device class is \1",
    ),
    # clear aligners in lay words and brands ("Invisalign type clear aligners", "clear alingers like invisalign",
    # "clear tray aligners"): the classification's "Aligner, Sequential"
    (
        r"\b(?:(?:invisalign|clearcorrect)(?:[\s-]+(?:type|style|like|brand))?\s+)?(?:clear\s+|plastic\s+)(?:tray\s+)?"
        r"al(?:i?gn|ing)ers?\b(?:\s*\((?:[^()]*\b(?:invisalign|clearcorrect)\b[^()]*)\))?(?:\s*,?\s*(?:like|such\s+as|e\.g\.)\s+"
        r"(?:invisalign|clearcorrect)\b)?",
        "sequential aligners",
    ),
    (
        r"\b(?:invisalign|clearcorrect)(?:[\s-]+(?:type|style|like|brand))?(?:\s+(?:tray\s+)?al(?:i?gn|ing)ers?)?\b",
        "sequential aligners",
    ),
    (r"\bregulat(?:o|io|ino|oi)n(s?)\b", r"regulation\1"),
    (r"\s*\b(?:for|to)\s+(?:straighten|straightening)\s+(?:the\s+)?teeth\b", ""),  # what an aligner is for
    # "X are class 2, is that right?": X's class asked (the asker's guess is no filter)
    (
        r"((?:\b(?!(?:says|said|thinks|thought|told|me|that|my|our|buddy|guy)\b)[\w-]+\s+){0,5}?\b(?!(?:says|said|that)\b)[\w-]+)\s+"
        r"(?:are|is)\s+(?:a\s+)?class\s+(?:iii|ii|i|[123])\s*(?:devices?)?\s*,?\s*(?:is\s+(?:that|this)\s+|am\s+i\s+|are\s+they\s+)?"
        r"(?:right|correct|true|accurate)\s*\?*",
        r"what device class is \1?",
    ),
    (r"\b(?:positve|postive|posative|positiv)\b", "positive"),
    (r"\b(?:negitive|negtive|negative|negativ)\b", "negative"),
    # "the serology test performance data": the evaluations themselves
    (r"\b(serology|antibody)\s+(?:tests?\s+)?performance\s+(?=data|results|evaluations?|records)", r"\1 "),
    # an antibody test said beside its evaluation ("antibody test makers tested on apr 27 2020", "antibody kits run on
    # 4/27/2020"): the COVID-19 serology evaluations, never adverse events of other antibody tests
    (
        r"(?<!covid\s)(?<!covid-19\s)(?<!sars-cov-2\s)\bantibody\s+(tests?|kits?)\b(?=[^.?!]*\b(?:tested|evaluated|evaluations?|"
        r"performed|run\s+on|ran\s+on)\b)(?![^.?!]*\b(?:maude|mdrs?|adverse|recalls?|510\s*\(?k|hepatitis|hiv)\b)",
        r"covid antibody \1",
    ),
    # "what antibody test manufacturers were tested": the makers whose tests were
    (
        r"\b(what|which)\s+((?:[\w-]+\s+){1,3}?)(manufacturers|makers|companies|firms|vendors)\s+(?:were|got|have\s+been)\s+"
        r"(tested|evaluated|assessed)\b",
        r"\1 \3' \2were \4",
    ),
    (r"\bwhose\s+(kits?|tests?|assays?)\s+(?=were|was|got)", r"which manufacturers' \1 "),
    # a central line is a central venous catheter; "peds" what it is for (the records' names say "Pediatric")
    (
        r"\b(?:central\s+lines?|cvcs?|central\s+venous\s+catheters?)\s+(kits?|trays?)\b",
        r"central venous catheterization \1",
    ),
    (r"\bcentral\s+lines?\b", "central venous catheter"),
    (r"\bpeds\b(?=\s+(?:[\w-]+\s+){0,3}(?:kits?|catheters?|cvcs?|central|lines?|trays?|sets?))", "pediatric"),
    # a vascular closure device in lay words and brands ("VCD", "Angio-Seal / Perclose type", "femoral closure
    # device", "vascular hemostasis devices ... (closure devices)"): the classification's "Device, Hemostasis, Vascular"
    (
        r"\b(?:(?:angio[\s-]?seal|perclose)(?:\s+(?:type|style|like))?\s+)?(?:(?:vascular|femoral|arterial|arteriotomy)\s+"
        r"(?:hemostasis\s+)?closure|vascular\s+hemostasis)\s+(?:devices?|systems?)\b"
        r"(?:\s*(?:we\s+use\s+)?(?:post[\s-]+cath\w*)?\s*\(\s*closure\s+devices?\s*\))?(?:\s*[?.]?\s*(?:like\s+|e\.g\.\s+)?"
        r"(?:angio[\s-]?seal|perclose)(?:\s*/\s*(?:angio[\s-]?seal|perclose))?(?:\s+(?:type|style|kind))?)?|(?-i:\bVCDs?\b)"
        r"(?:\s+device)?|\b(?:angio[\s-]?seal|perclose)(?:\s*/\s*(?:angio[\s-]?seal|perclose))?(?:\s+(?:type|style))?\s+"
        r"(?:devices?|closures?)\b",
        "vascular hemostasis devices",
    ),
    (r"(?<!\bGE\s)(?-i:\bOEC\b)", "GE OEC"),  # GE's OEC C-arms: the maker said by its brand
    (r"\bfluoro\s+(?=c[\s-]?arms?\b)", ""),  # "the fluoro c-arm": the C-arm (a fluoroscopic x-ray system)
    # "ok but how many in the last 2 yrs": the follow-up's own word first
    (r"^\W*(?:ok(?:ay)?|alright|right|cool|great)\s*,?\s+(?=(?:but|and|so|now|then)\b)", ""),
    (r"^\W*but\s+(?=(?:how|what|which|who|when|in|for|just|only|over|during|since)\b)", ""),
    (r"(?:\bthe\s+)?#\s*1\b(?!\d)", "the top"),  # "what's the #1 product problem": the top one
    (r"^\W*trending\s+[\w\s-]{0,30}?:\s*", ""),  # "trending failure modes: ...": the asker's work, then the ask
    # a PMA supplement type glossed in brackets ("30-day notices (mfg process changes)"): the type said
    (r"\b(30[\s-]day\s+notices?|real[\s-]time\s+supplements?|panel[\s-]track\s+supplements?)\s*\([^()]{0,60}\)", r"\1"),
    # "for change-control context, ...": the asker's reason, then the ask
    (r"^\W*for\s+[\w-]+(?:\s+[\w-]+)?\s+(?:context|purposes|reasons|background)\s*[,:]\s*", ""),
    # "(need the baseline for the signal check)": the asker's errand in brackets, unless it restricts
    (
        r"\s*\((?![^()]*\b(?:only|class|except|exclud\w*|not|without|deaths?|injur\w*)\b)(?:i\s+|we\s+)?(?:need|needed|want|"
        r"wanted|using|for\s+(?:my|our|the))\b[^()]{0,80}\)",
        "",
    ),
    # "summer 2012 (jun, jul, aug)": June to August of that year
    (
        r"\bsummer\s+(?:of\s+)?((?:19|20)\d\d)(?:\s*\(\s*jun\w*\s*[,/-]\s*jul\w*\s*[,/-]?\s*(?:and\s+|&\s*)?aug\w*\s*\))?",
        r"from June \1 to August \1",
    ),
    # "hibcc vs gs1 - how many use an HIBCC labeler code? just the HIBCC number pls": one agency asked, the other only
    # said beside it
    (
        r"^\W*(HIBCC|GS1|ICCBBA)\s*(?:vs\.?|versus|or|/)\s*(?:HIBCC|GS1|ICCBBA)\s*[-–—:,]+\s*"
        r"(?=.*\bjust\s+(?:the\s+)?(?:HIBCC|GS1|ICCBBA)\b)",
        "",
    ),
    (
        r"[.?!,;]?\s*\bjust\s+the\s+(?:HIBCC|GS1|ICCBBA)\s+(?:number|count|figure|one|total)\s*(?:pls|please)?\s*[.?!]*\s*$",
        "?",
    ),
    # the asker's own change of product ("we switched to the X"): the X is asked about
    (r"\b(?:we|i)\s+(?:just\s+|recently\s+)?(?:switched|moved|changed|converted|transitioned)\s+(?:over\s+)?to\s+", ""),
    (r"\bmedlines\b", "Medline's"),
    # "X, when did fda clear them": X's decision date
    (
        r"[,;-]?\s*\bwhen\s+(?:did|was|were)\s+(?:the\s+)?(?:fda\s+)?(?:clear|cleared|approve|approved)\s+(?:them|it|those|these)\b"
        r"(?:\s+by\s+(?:the\s+)?fda)?\s*\??\s*$",
        " decision date?",
    ),
    # a dental "xray": the x-ray the dental product-code names spell (elsewhere the device reading respells it)
    (r"\bx\s?ray(s?)\b(?=.*\b(?:dental|dentist\w*|teeth|tooth)\b)", r"x-ray\1"),
    (r"(\b(?:dental|dentist\w*|teeth|tooth)\b.*?)\bx\s?ray(s?)\b", r"\1x-ray\2"),
    # "PMA approvals/supplement decisions": every PMA decision, originals and supplements
    (r"\b(?:pma\s+)?approvals?\s*(?:/|and|&|\+|or)\s*supplement(?:al)?\s+decisions?\b", "PMA decisions"),
    # "dental device categories that are class 3", "all the dental stuff FDA regulates, how many are class 3": the
    # classification's product codes
    (r"\b(?:device\s+)?(?:categories|catagories|categorys)\b(?=\s+(?:that\s+are|in|of)\s+class\b)", "product codes"),
    (
        r"\bout\s+of\s+all\s+the\s+([a-z]+)\s+(?:stuff|devices?|products?|things|gear)\s+(?:the\s+)?fda\s+regulates?\s*,?\s*"
        r"how\s+many\s+are\s+",
        r"how many \1 product codes are ",
    ),
    # "the agency" is FDA; "strictly on the received date": the date said, "strictly" no filter
    (r"\b(?:by|at|to|from|with)\s+the\s+agency\b", "by FDA"),
    (r"\bthe\s+agency(?:'s)?\b", "FDA"),
    (r"\b(?:strictly|solely|exclusively)\s+(?=on\b|by\b|the\b|using\b)", ""),
    # what FDA put on a recall in other verbs: "what root cause did FDA log / put / assign / give", "FDA's root cause
    # determination", "the root cause category FDA assigned"
    (
        r"\b(FDA|the\s+firm|they|it)\s+(?:log|logged|put|puts|record|recorded|enter|entered|note|noted|list|assign|assigned|"
        r"attach|attached|give|gave|cite|cited)(?=\s+(?:for|on|to|in|against)\b|\s*[?.!]*\s*$)",
        r"\1 give",
    ),
    (
        r"\b(root\s+cause)\s+(?:determination|designation|category|classification|code|assignment|call|description)\b",
        r"\1",
    ),
    (r"\b(?:FDA|agency)[\s-]+(?:determined|assigned|designated|listed|given|stated)\s+(?=root\s+cause)", "FDA "),
    # "comparing two vendors", "between the two suppliers": the firms named after are the sides; "two" is no device
    (
        r"\b(?:compar(?:ing|e)|between|of|for|across)\s+(?:the\s+|our\s+|these\s+)?(?:two|2|three|3|both)\s+(?:vendors|suppliers|"
        r"firms|companies|manufacturers|makers|sources|brands)\b",
        "comparing",
    ),
    # "leaderboard of manufacturers by # of reports", "MDR share of voice by manufacturer": the firms ranked
    (r"\b(?:a\s+|the\s+)?leader\s*-?\s*boards?\s+(?:of|for)\s+", "top "),
    (r"\b(?:a\s+|the\s+)?leader\s*-?\s*boards?\b", "top"),
    (r"\b((?:mdr|maude|report|recall|complaint|event)s?)\s+share\s+of\s+voice\s+by\b", r"top \1 by"),
    (r"\bshare\s+of\s+voice\s+by\b", "top by"),
    # "P-numbers" are the PMA numbers
    (r"\bP[\s-]?(?:numbers|nos?\.?|#s?)\b", "PMA numbers"),
    # the patient a child: "where the patient was a child", "a kid as the patient", "peds, <18 yo": under 18
    (
        r"\b(?:where|in\s+which|when|with)?\s*(?:the\s+)?patient\s+(?:was|is|were)\s+(?:a\s+)?(?:child|kid|minor|"
        r"pediatric|paediatric|infant|baby|neonate|newborn|teen(?:ager)?)\b|\b(?:a\s+)?(?:child|kid|minor|baby|infant)\s+as\s+the\s+"
        r"patient\b|\bpediatric\s+patients?\b",
        "for patients under 18",
    ),
    (r"[,;]?\s*\b(?:neonates?|newborns?|infants?)\s+(?:thru|through|to|-)\s+17\s*(?:yo|y/o|years?\s+old|yrs?)?\b", ""),
    (
        r"(?:^|(?<=[.?!]\s))\s*i\s+only\s+care\s+about\s+peds\s*,?\s*(?:<|under)\s*18\s*(?:yo|y/o|years?\s+old)?\s*\.?",
        "",
    ),
    (r"\b510\s*\(?k\)?\s+summar(?:y|ies)\b", "510(k)"),
    (r"\bSE\s+letters?\s+(?=dates?\b)", "decision "),
    (r"\bSE\s+letters?\b", "510(k) decision"),
    (  # "when did X get its SE decision": its decision (a count of "SE determinations" keeps SE)
        r"\b(got|get|gets|getting|received?|receiving)\s+(?:its|the|their|an?)\s+SE\s+(?=decisions?\b)",
        r"\1 its ",
    ),
    (r"\bcalendar\s+(?=years?\b|yrs?\b|(?:19|20)\d\d\b)", ""),
    (r"\bby\s+the\s+(?=(?:year|month|quarter)\b(?!\s*(?:of\s+)?\d))", "by "),  # "by the year 2021" is a deadline
    (r"\b(?:first|initial)\s+(?:six|6)\s+months\s+(?=of\s+(?:(?:19|20)\d\d|that|the|this|last)\b)", "first half "),
    (r"\b(?:last|final|second|latter)\s+(?:six|6)\s+months\s+(?=of\s+(?:(?:19|20)\d\d|that|the)\b)", "second half "),
    (r"\b(\d{2,3})(?:day|-days?)\b(?=\s+(?:notices?|supplements?|reports?|changes?|review))", r"\1-day"),
    (r"(?:(?<=[\s:,;])|^)\(?[1-9][).](?=\s+[A-Za-z])", ""),  # a list's numbers: "1) labeled sterile, 2) single use"
    (
        r"\b(?:that\s+)?(?:meets?|meeting|satisfy|satisfies|match(?:es)?)\s+(?:both|all|these|the|each)\s+(?:of\s+the\s+)?"
        r"(?:two\s+|three\s+)?(?:criteria|conditions|requirements)\s*:?",
        "",
    ),
    # a ticket's or e-mail's own prefix ("ticket: ...", "RE: ...", "ticket #4411: ..."): framing, no search word
    (r"^\s*(?:ticket|tkt|re|fw|fwd|subject|req|request)\s*(?:#\s*[\w-]+\s*)?:\s*", ""),
    # complaint-handling shorthand: "AE" an adverse event, "rcvd" received, "dev prob" the device problem, "pt" the
    # patient (where a patient's attribute follows), "68 yo" years old, "vol" volume, "the db" the database
    (r"(?-i:\bAEs\b)|\baes\b(?=\s+(?:reports?|count|rpts?|in|for|on|per|by)\b)", "adverse events"),
    (r"(?-i:\bAE\b)|\bae\b(?=\s+(?:reports?|count|rpts?|in|for|on|per|by)\b)", "adverse event"),
    (r"\b(?:rcvd|recvd|rec'd|recd)\b", "received"),
    (r"\bdev(?:ice)?\.?\s+probs?\b\.?", "device problem"),
    (r"\bpts\b(?='?\s*(?:sex|gender|age|aged|ages|older|younger|over|under)\b)", "patients"),
    (r"\bpt'?s?\b(?=\s*(?:sex|gender|age|aged|ages|older|younger)\b)", "patient"),
    (r"(?<=\d)\s*(?:yo|y/o|y\.o\.|yrs?\s+old)(?=[\s,.;:?!)]|$)", " years old"),
    (r"\bgender\b", "sex"),
    (r"(?-i:\bF\b)\s*(?:vs\.?|v\.?|/|or|and)\s*(?-i:\bM\b)", "female vs male"),
    (r"(?-i:\bM\b)\s*(?:vs\.?|v\.?|/|or|and)\s*(?-i:\bF\b)", "male vs female"),
    (r"\bvol\b\.?(?!\s*\d)", "volume"),
    (r"\b(?:in|from|across)\s+the\s+db\b", "in the database"),
    (r"\b(adverse\s+events?|mdrs?|maude|event|complaint|vigilance)\s+filings?\b", r"\1 reports"),
    (r"\bgeneral\s+electric(?:\s+(?:co\.?|company|healthcare))?\b", "GE"),
    (r"\b([a-z]{3,})\(s\)", r"\1s"),  # "type(s)", "establishment(s)": the plural said
    # "break out the class III ones", "pull out the deaths": those of the previous answer that are so
    (r"\b(?:break|pull|split|separate)\s+out\s+(?:just\s+|only\s+)?(?=the\s+|those\s+)", "of those, "),
    # "close that one out", "closed out": the recall terminated
    (
        r"\b(?:did|does|do|will)\s+(?:FDA|they|the\s+firm|it)\s+close\s+((?:that|this|the|it)(?:\s+one|\s+recall)?)\s+out\b",
        r"was \1 terminated",
    ),
    (r"\bclose\s+((?:that|this|the|it)\s+(?:one\s+|recall\s+)?)?out\b", r"terminate \1"),
    (r"\bclosed\s+out\b", "terminated"),
    # "X or not?": a yes-or-no question about X, no negation
    (r"[\s,;-]*\bor\s+not\b\s*(?=[?.!]*\s*$)", ""),
    # the quality system regulation said beside GMP, or as what a device must follow: the GMP exemption is asked
    (r"\b(?:the\s+)?(?:quality\s+system|QS|QSR)\s*(?:/|or|and)\s*(?:the\s+)?GMP\b", "GMP"),
    (r"\bGMP\s*(?:/|or|and)\s*(?:the\s+)?(?:quality\s+system|QS|QSR)\b", "GMP"),
    (r"\b(GMP|quality\s+system)\s+(?:regs|regulations?|requirements|rules)\b", r"\1"),
    (  # "do retinoscopes need to follow the QS reg or are they gmp-exempt?": are retinoscopes GMP exempt?
        r"\b(?:do|does|did)\s+((?:the\s+|a\s+|an\s+)?[\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:need|have|has)\s+to\s+(?:follow|comply\s+"
        r"with|meet)\s+(?:the\s+)?(?:QS|QSR|quality\s+system|GMP)(?:\s+reg(?:ulation)?s?)?\s+or\s+(are|is)\s+(?:they|it)\b",
        r"\2 \1",
    ),
    (r"\b(?:types?|kinds?)\s+of\s+(pma\s+)?(supplements?)\b", r"\1supplement type"),
    # one issuing agency said with another ruled out ("GS1 (not HIBCC)"): one agency already excludes the others
    (
        r"\b(GS1|HIBCC|ICCBBA)\s*[(,-]?\s*(?:but\s+)?(?:not|excluding|no)\s+(?:GS1|HIBCC|ICCBBA)(?:\s*(?:or|/|,)\s*"
        r"(?:GS1|HIBCC|ICCBBA))?\s*\)?",
        r"\1",
    ),
    (r"\bissuing\s+agency\s*[:=,-]?\s*(?=GS1|HIBCC|ICCBBA)", "issuing agency "),
    # "the owner/operator (number please)", "owner/op #": the owner/operator number
    (r"\bowner[\s/-]*op(?:erator)?\.?\s*\(\s*(?:the\s+)?(?:numbers?|nos?\.?|#)[^)]{0,20}\)", "owner operator number"),
    (r"\bowner[\s/-]*op\b\.?(?!\s*(?:numbers?|nos?\b|#))", "owner operator"),
    # "who led / topped ...": the firm that ranks first
    (
        r"\bwho(?:'s|\s+is|\s+was)?\s+(?=(?:led|leads|topped|tops|leading|dominates|dominated|came\s+out\s+on\s+top)\b)",
        "which firm ",
    ),
    (
        r"\b(?:is|was|are|were)\s+(?:the\s+)?(?:market|category|industry|segment)\s+leaders?\s+(?:in|for|on)\b",
        "has the most",
    ),
    (
        r"\b((?:which|what)\s+(?:firm|company|manufacturer|applicant|player|maker)s?)\s+dominat(?:es|ed|e)\b",
        r"\1 had the most",
    ),
    (  # "which firm led (the pack in) PMA approvals": the firm with the most, "led" the verb and never LED lights
        r"\b((?:which|what)\s+(?:firm|company|manufacturer|applicant|player|maker|sponsor)s?)\s+led(?:\s+the\s+"
        r"(?:pack|way|field))?(?:\s+(?:in|on|for))?\b",
        r"\1 had the most",
    ),
    (r"\byrs\b", "years"),
    (r"\byr\b", "year"),
    (r"\bsupps\b", "supplements"),
    (r"\bsupp\b", "supplement"),
    (r"\bqtrs\b", "quarters"),
    (r"\bqtr\b", "quarter"),
    (r"\bmos\b", "months"),
    (r"(?<=\d)\s*mo\b|\bmo\b(?=\s*(?:ago|old|back)\b)", " months"),
    (r"\bapprox\b\.?", "about"),
    (r"\bw/o\b", "without"),
    (r"\bw/(?=\s|\w)", "with "),
    (r"\bcnt\b", "count"),
    (r"\brpts\b", "reports"),
    (r"\b(year|date|month)\s+of\s+receipt\b", r"\1 received"),
    (r"\btop[- ](\d{1,3})\b", r"top \1"),
    *[
        (
            rf"\b(?:top\s+{w}|(?:the\s+)?{w}\s+(?=(?:most|biggest|largest|leading|busiest|highest)\b|[a-z]+(?:\s+[a-z]+)?\s+"
            rf"with\s+the\s+most\b))",
            f"top {n} ",
        )
        for w, n in (("three", 3), ("five", 5), ("ten", 10), ("twenty", 20), ("fifteen", 15))
    ],
    # "the fourth quarter of 2020 (October 1 to December 31)": the days again in brackets, without their year
    (
        r"\(\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\s*(?:-|–|to|through|until)\s*"
        r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\s*\)",
        "",
    ),
    (r"\brpt\b", "report"),
    (r"\bcls\b|\bclas\b", "class"),
    (
        r"\b(reg|regulation|registration|report|mdr|event|pma|510k|recall)\s+(?:no\.?|nbr|num)(?=\s|$|[?,;:])(?!\s+(?:longer|more|one)\b)",
        r"\1 number",
    ),
    (r"\bpublish(?=\s+(?:date|dt)\b)", "publication"),
    # a patient's age bound in symbols ("pt age >= 70"): the age, not a date
    (r"\b(ages?|aged)\s*>=\s*(\d{1,3})\b(?!\s*[-/]\d)", r"\1 \2 or older"),
    (r"\b(ages?|aged)\s*<=\s*(\d{1,3})\b(?!\s*[-/]\d)", r"\1 \2 or younger"),
    (r"\b(ages?|aged)\s*>\s*(\d{1,3})\b(?!\s*[-/]\d)", r"\1 over \2"),
    (r"\b(ages?|aged)\s*<\s*(\d{1,3})\b(?!\s*[-/]\d)", r"\1 under \2"),
    (r">=\s*(?=\d)", "since "),
    (r"<=\s*(?=\d)", "through "),
    (r"(?<![<>=])>\s*(?=\d)", "after "),
    (r"(?<![<>=])<\s*(?=\d)", "before "),
    (
        r"(?<!since\s)\b(\d{1,2}/\d{1,2}/(?:19|20)\d\d|(?:19|20)\d\d-\d\d-\d\d)\s*(?:-|–|to|through|until|thru)\s*"
        r"(?:the\s+)?(?:present|today|now|date)\b",
        r"since \1",
    ),
    (r"\bdt\b", "date"),
    (r"\benf\b", "enforcement"),
    (r"\b((?:19|20)\d\d)\s*-?\s*Q([1-4])\b", r"Q\2 \1"),  # "2020Q2", "2020-Q2"
    (r"\b([1-4])Q\s*'?(\d\d)\b", r"Q\1 20\2"),  # "4Q20": the fourth quarter of 2020
    (r"\bCY\s*((?:19|20)\d\d)\b", r"\1"),  # "CY2023": the calendar year
    (r"(?<=\d)\s*[-–]\s*(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)", " - "),
    (
        r"\b(pma|pmas|mdr|mdrs|510k|510ks|510\(k\)|recall|recalls|enforcement|registration|udi)\s+activit(?:y|ies)\b",
        r"\1",
    ),
    (r"\bthru\b", "through"),
    # "..., and what does 'cleared' mean compared with 'approved'?": a definition asked beside the count, no sides
    (
        r"(?:[,;]\s*(?:and\s+)?|\s+and\s+|(?<=\?)\s*)what\s+(?:does|do|is)\s+(?:the\s+)?['\"‘“]?[\w\s-]{1,40}?['\"’”]?\s+mean\b"
        r"(?:\s+(?:compared\s+(?:with|to)|vs\.?|versus|as\s+opposed\s+to)\s+['\"‘“]?[\w\s-]{1,40}?['\"’”]?)?"
        r"(?=\s*[?.!]?\s*$)",
        "",
    ),
    (r"\bFDA[- ](?=registered\b|listed\b|cleared\b|approved\b)", ""),  # "FDA-registered": registered
    (  # "Q4 2019 through Q1 2020", "October 2019 - March 2020": one range, as "from ... to ..." reads it
        r"(?<!from\s)(?<!between\s)\b((?:Q[1-4]|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?)\s+"
        r"(?:19|20)\d\d)\s*(?:-|–|to|through|until)\s*((?:Q[1-4]|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|"
        r"dec)[a-z]*\.?)\s+(?:19|20)\d\d)\b",
        r"from \1 to \2",
    ),
    (
        r"\b(?:in|during|within|over|for)\s+(?:that|this|the\s+same)\s+(?:window|time\s*frame|timeframe|period|"
        r"time\s+period|span)\b",
        "",
    ),
    (  # "10/2020 to 12/2020", "03/2020 - 06/2020": one range of months, as "from ... to ..." reads it
        r"(?<!from\s)(?<![\d/])\b(0?[1-9]|1[0-2])/((?:19|20)\d\d)\s*(?:-|–|to|through|until)\s*(0?[1-9]|1[0-2])/"
        r"((?:19|20)\d\d)\b",
        r"from \1/\2 to \3/\4",
    ),
    (r"\b(many|which|what|they|these|those|there|who|where|how)\s+(?-i:r)\b(?=\s+[a-z])", r"\1 are"),  # chat "r"
    # "what went wrong that made X pull ...", "what caused X to recall ...": why X recalled it
    (r"\bwhat\s+went\s+wrong\s+(?:that\s+|which\s+)?(?:made|caused|forced|led)\s+", "why did "),
    (r"\bwhat\s+(?:caused|made|forced|led)\s+(.{2,60}?)\s+to\s+(recall|pull|withdraw|remove)\b", r"why did \1 \2"),
    # month and two-digit year: "Dec-22" is December 2022, "in 12/22" is 12/2022 (a day would need three parts)
    (r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*-(\d\d)\b(?![-/]\d)", r"\1 20\2"),
    (
        r"\b(in|during|for|of|since|from|through|to|and|by|before|after)\s+(0?[1-9]|1[0-2])/(\d\d)\b(?![/\d])",
        r"\1 \2/20\3",
    ),
    (r"\bmalfunction\s+(?:types|kinds|categories)\b|\b(?:types|kinds)\s+of\s+malfunctions?\b", "device problems"),
    (r"\b(?:2H|H2)\s*(?:of\s+)?(?=(?:19|20)\d\d\b|'\d\d\b|FY)", "second half of "),
    (r"\b(?:1H|H1)\s*(?:of\s+)?(?=(?:19|20)\d\d\b|'\d\d\b|FY)", "first half of "),
    (r"\bintake\b", "received"),
    (r"(?<=\d)\s+v\.?\s+(?=(?:19|20)\d\d\b)", " vs "),
    (r"\bPR\s+(?=ops\b|operations\b)", "Puerto Rico "),
    (r"\bops\b", "operations"),
    (r"\bfrom\s+((?:19|20)\d\d)\s+(?:on|onwards?|forwards?|to\s+(?:date|now|today|present))\b", r"since \1"),
    (r"\b((?:19|20)\d\d)\s*(?:-|–|to|through|thru)\s*(?:present|now|today|date)\b", r"since \1"),
    (r"\bprod\b\.?(?=\s*codes?\b)", "product"),
    (r"\bprods?\b\.?", "products"),
    # a risk word glossing a class ("high-risk (class III)", "Class I (most serious)"): the class says it all
    (
        r"\b(?:high|higher|highest|low|lower|lowest|moderate|medium)[\s-]+risk\s*\(\s*(class\s+(?:iii|ii|i|[123]))\s*\)",
        r"\1",
    ),
    (
        r"\b(class\s+(?:iii|ii|i|[123]))\s*\(\s*(?:the\s+)?(?:most|least|high|higher|highest|low|lowest|moderate)\b[\w\s-]{0,20}\)",
        r"\1",
    ),
    # "give me both numbers", "both counts please": the comparison's own figures, no side of it
    (
        r"[,;]?\s*\b(?:and\s+)?(?:give|show|tell|list)\s+(?:me\s+|us\s+)?(?:both|each|the\s+two)\s+(?:numbers|counts|figures|totals)\b",
        "",
    ),
    (r"\bboth\s+(?:numbers|counts|figures|totals)\b", ""),
    (r"\bat\s+any\s+(?:point|time)(?:\s+in\s+time)?\b|\bat\s+any\s+stage\b", "ever"),
    (r"\b(?:check|confirm|verify|see)\s+(?:if|whether)\b", "whether"),
    (r"\b([a-z]{3,})isation(s?)\b", r"\1ization\2"),  # British spelling: "sterilisation"
    (
        r"\b(approvals?|originals?|supplements?)\s*(?:plus|\+|/)\s*(?:their\s+|the\s+)?(supplements?|originals?|approvals?)\b",
        r"\1 and \2",
    ),
    # a firm counted with all its parts ("counting all its divisions", "across every Medtronic entity"): the firm's
    # name already finds each of its spellings, so only the name is kept
    (
        r"[,;]?\s*\b(?:counting|including|incl\.?|across|with|covering)\s+(?:all|every|each|any)\s+(?:of\s+)?(?:its\s+|"
        r"their\s+|the\s+)?((?:[A-Za-z][\w&.-]*\s+){0,3}?)(?:divisions?|entit(?:y|ies)|subsidiar(?:y|ies)|affiliates?|"
        r"business\s+units?|operating\s+units?|sister\s+companies)\b",
        r" \1 ",
    ),
    # a courtesy sentence about the answer's form: "A number is fine.", "Just a count is enough."
    (
        r"(?:^|(?<=[.?!]))\s*(?:just\s+)?(?:a|any|one|the)\s+(?:rough\s+)?(?:number|figure|count|ballpark|total)\s+"
        r"(?:is|would\s+be|will\s+do)\s+(?:fine|ok|okay|enough|good|great|perfect)\s*[.!]?",
        "",
    ),
    # a large firm's market short name that is no product code ("bsci" is Boston Scientific)
    (r"\b(?:bsci|bsx)\b|\bboston\s+sci\b(?!\w)", "Boston Scientific"),
    (r"(?-i:\bASP\b)", "Advanced Sterilization Products"),
    # "MDT" beside another firm compared ("MDT vs BSX"): Medtronic's ticker, not the product code MDT
    (
        r"(?-i:\bMDT\b)(?=\s*(?:vs\.?|versus|v\.|or|and|/|,)\s*[A-Z])|(?<=\bvs\s)(?-i:MDT\b)|"
        r"(?<=\bvs\.\s)(?-i:MDT\b)|(?<=\bversus\s)(?-i:MDT\b)|(?-i:\bMDT)(?='s\b)",
        "Medtronic",
    ),
    # "who had the most ... - MDT, BSX, someone else?": the named firms are guesses of an open ranking, not sides
    (
        r"\s*[-–—:,(]\s*(?:(?:[A-Za-z][\w&.]*(?:\s+[A-Za-z][\w&.]*)?)\s*(?:,|\bor\b|/)\s*){1,4}(?:or\s+)?(?:someone|"
        r"somebody|some\s+other\s+(?:firm|company)|another\s+(?:firm|company)|anyone|other)\s*(?:else)?\s*\)?(?=\s*[?.!]*\s*$)",
        "",
    ),
    # "MDT" alone, in capitals and not said to be a product code ("any new MDT maude reports"): Medtronic's ticker,
    # as a firm's short name is said; the product code MDT (a Trichinella ELISA) is asked as a code
    (
        r"(?<!\bcode\s)(?<!\bcodes\s)(?<!\bprocode\s)(?<!\bpcode\s)(?<!\bcode:\s)(?-i:\bMDT\b)(?!\s*(?:\(|product\s+"
        r"codes?\b|procodes?\b|codes?\b|,\s*[A-Z]{3}\b))",
        "Medtronic",
    ),
    # "who has more red flags": the idiom for concerns, never a red device
    (r"\bred[\s-]+flags?\b", "concerns"),
    # a parent firm said beside (or for) the maker the records name: Teleflex owns Arrow International, DJO Surgical
    # is Encore Medical's later name; "BD" is Becton Dickinson
    (r"\bteleflex\s*(?:/|&|and)\s*(?=arrow\b)|(?<=\barrow\s)\s*/\s*teleflex\b|\s*\(\s*teleflex\s*\)", ""),
    (r"\bdjo(?:\s+surgical)?\s*(?:/|&)\s*(?=encore\b)|\s*\(\s*djo(?:\s+surgical)?\s*\)", ""),
    (r"\bteleflex(?:'s)?\b(?!\s+(?:inc|incorporated|medical)\b)", "Arrow International"),
    (r"\bdjo(?:\s+surgical)?\b", "Encore Medical"),
    (r"(?-i:\bBD\b)(?!\s*-)", "Becton Dickinson"),
    (r"\bsyk\b", "Stryker"),
    (r"\bzbh\b", "Zimmer Biomet"),
    (r"(?<!\w)j\s*&\s*j(?!\w)", "Johnson & Johnson"),
    # "the big picture on X", "anything I should worry about with X": X's records, listed
    (r"\b(?:the\s+)?(?:big|overall|full|whole)\s+picture\s+(?:on|of|for)\b", ""),
    (
        r"\banything\s+(?:i|we)\s+(?:should|need\s+to|must|ought\s+to)\s+(?:worry|know|be\s+(?:concerned|aware))\s+"
        r"(?:about\s+)?(?:with|regarding|for|on|about)\b",
        "",
    ),
    # the data's own date ("as-of date", "data cut-off date"): every answer states it, so it filters nothing
    (
        r"\b(?:the\s+)?(?:data(?:'s|set's)?\s+)?(?:as[\s-]of|cut[\s-]?off|refresh|last[\s-]update)\s+dates?(?:\s+of)?\b",
        "",
    ),
    # "the two years up to the data's export date": the period ends at the data's own date, as "the last two years"
    (
        r"\b(?:in\s+|over\s+|during\s+)?the\s+((?:\w+\s+)?(?:years?|months?|days?|weeks?))\s+(?:up\s+to|before|prior\s+to|"
        r"until|ending\s+(?:at|on|with))\s+(?:the\s+)?(?:data(?:'s|set's)?\s+|mirror(?:'s)?\s+|file(?:'s)?\s+)?"
        r"(?:export|extract|download|snapshot|release)\s+date\b",
        r"in the last \1",
    ),
    (r"\brecord\s+count\b", "count"),
    # "the root cause listed for them": what the records give, not the registration listings
    (r"\blisted\s+(?=(?:for|on|in|under|against)\s+(?:them|those|these|it|that|this|each|the\s+recalls?)\b)", ""),
    (r"\s+\+\s+(?=[a-z])", " and "),
    (r"\b(clearance|approval|decision)\s+letters?\b", r"\1s"),
    (r"\b([a-z]{2,})yser(s?)\b", r"\1yzer\2"),  # British spelling: "analyser"  # the letter is the decision's own paper
    # "the leader and the next two": a top three
    (r"\b(?:the\s+)?leader\s+and\s+the\s+next\s+(?:one|1)\b", "the top 2"),
    (r"\b(?:the\s+)?leader\s+and\s+the\s+next\s+(?:two|2)\b", "the top 3"),
    (r"\b(?:the\s+)?leader\s+and\s+the\s+next\s+(?:three|3)\b", "the top 4"),
    (r"\b(?:early|late|mid)[\s-]+(?=(?:19|20)\d\d\b)", ""),  # "picked up in late 2020": the year said
    (r"\b(by|per|for\s+each|each)\s+class\b(?!\s+(?:i{1,3}|[123])\b)", r"\1 device class"),  # "codes per class"
    (r"\bclass\s+one\b", "class I"),
    (r"\bclass\s+two\b", "class II"),
    (r"\bclass\s+three\b", "class III"),
    # a serology result's agreement is always "against the panel's truth": no comparison is asked
    (r"\s*\b(?:vs\.?|versus|against|compared\s+(?:to|with))\s+(?:the\s+)?(?:panel(?:'s)?\s+|reference\s+)?truth\b", ""),
    (r"\b(?:yoy|y/y|year[\s-]+over[\s-]+year)\b", "per year"),
    (r"\b(?:mom|m/m|month[\s-]+over[\s-]+month)\b(?=\W*$|\s+(?:in|since|for|from|during)\b)", "per month"),
    (r"\b(?:btwn|b/w)\b", "between"),
    (r"\bytd\b", "this year"),
    (r"\bwks\b", "weeks"),
    (r"\bwk\b", "week"),
    (r"\bmfg\b(?=\s+dates?\b)", "manufacturing"),
    (r"\b(?:mfrs|mfgs|manufs)\b", "manufacturers"),
    (r"\b(?:mfr|mfg|manuf)\b\.?", "manufacturer"),
    (r"\bclrd\b", "cleared"),
    (r"\bdec'?d\b", "decided"),
    (r"\bsubs\b(?!-)", "submissions"),
    (r"\bsub\b(?!-)", "submission"),
    # "reg #" beside a product code (or a device's code said) is its regulation number: codes have no registration
    (
        r"\breg\.?\s*(?:#|no\b\.?|num\b\.?|nbr\b\.?)(?=\s+(?:for|of|on)\s+(?:the\s+)?(?:(?:product\s+|pro)?code\s+)?"
        r"(?-i:[A-Z]{3})\b)|(?<=(?-i:[A-Z]{3})\s)reg\.?\s*(?:#|no\b\.?|num\b\.?|nbr\b\.?)",
        "regulation number",
    ),
    (r"\breg\.?\s*(?:#|no\b\.?|num\b\.?|nbr\b\.?)", "registration number"),
    (r"\bnbr\b\.?", "number"),
    (r"\bcat(?:alog)?\.?\s*(?:nos?\b\.?|#|num\b\.?|nbr\b\.?)", "catalog number"),
    (r"(?<=\w)\s*#(?=\s|$|[?.,])", " number"),
    (r"(?:^|(?<=\s))#\s*(?=of\b)", "number "),
    (r"\bno\.\s*(?=of\b|\d)", "number "),
    # a number of years, months or quarters said in words ("the last five years"): the number
    *[
        (
            rf"(?<!\bsince\s)\b{w}\s+(?=(?:full\s+|calendar\s+|whole\s+)?(?:years?|months?|quarters?|weeks?|days?)\b)",
            f"{n} ",
        )
        for w, n in (
            ("two", 2),
            ("three", 3),
            ("four", 4),
            ("five", 5),
            ("six", 6),
            ("seven", 7),
            ("eight", 8),
            ("nine", 9),
            ("ten", 10),
            ("twelve", 12),
            ("eighteen", 18),
            ("twenty-four", 24),
        )
    ],
    # "the 5 years preceding the snapshot date": the last 5 years of the data
    (
        r"\b(?:the\s+)?(\d{1,2})\s+(years?|months?)\s+(?:preceding|before|prior\s+to|up\s+to|leading\s+up\s+to)\s+"
        r"(?:the\s+)?(?:data(?:set)?'?s?\s+)?(?:snapshot|export|as[\s-]of|extract|data\s+cut|cut-?off)(?:\s+date)?\b",
        r"the last \1 \2",
    ),
    # a recall's class asked in other words: "what hazard class was it given?", "the classification of that recall"
    (r"\bhazard\s+(?:class(?:ification)?|level|category|rating)\b", "recall class"),
    # a found recall's own class: "the classification of that recall", "its recall class" (never a ranking)
    (
        r"\b(?:the\s+)?(?:FDA\s+)?(?:classification|class)\s+of\s+(?:that|this|the|its|their)\s+recall\b|"
        r"\b(?:its|that\s+recall's|the\s+recall's)\s+(?:FDA\s+)?recall\s+class(?:ification)?\b",
        "its classification",
    ),
    # a recall's end asked in other words: "when did it officially end?", "when was the recall finished?"
    (
        r"\b(?:did|does|do)\s+(it|that|this|they|(?:the|that|this)\s+(?:\w+\s+){0,3}?recall)\s+(?:officially\s+|finally\s+)?"
        r"(?:end|finish|conclude|close|wrap\s+up)\b",
        r"was \1 terminated",
    ),
    (r"(?<=\brecall\s)(?:officially\s+|finally\s+)?(?:ended|finished|concluded|wrapped\s+up)\b", "terminated"),
    (
        r"\b(?:was|is|were)\s+((?:it|that|this|the)\s+(?:\w+\s+){0,3}?recall|it)\s+(?:officially\s+|finally\s+)?"
        r"(?:ended|finished|concluded|over|wrapped\s+up)\b",
        r"was \1 terminated",
    ),
    # serology false positives said in plain words: "misread a negative as positive", "called a true negative sample
    # positive", "came back positive on samples from people who never had covid", "false pos"
    (
        r"\b(?:misread|misclassified|mislabel(?:l)?ed|called|call|calls|read|flagged|marked|identified|reported)\s+"
        r"(?:an?\s+|the\s+)?(?:true(?:ly)?\s+|known\s+)?negatives?(?:\s+(?:samples?|specimens?))?\s+(?:as\s+)?positives?\b",
        "gave false positives",
    ),
    (
        r"\b(?:came|come|comes|coming|turned|turn)\s+(?:back|up|out)\s+positive\s+(?:on|for|with)\s+(?:samples?|"
        r"specimens?|sera|people|patients)\s+(?:from\s+(?:people|patients|persons)\s+)?(?:who|that)\s+(?:never|didn't|"
        r"did\s+not)\s+(?:had|have|caught|got)\s+(?:covid(?:-19)?|the\s+virus|it|antibodies|the\s+disease)\b",
        "gave false positives",
    ),
    (
        r"\b(?:wrongly|falsely|incorrectly|mistakenly)\s+told\s+(?:healthy|uninfected|negative)\s+(?:people|patients|"
        r"persons|samples)\s+(?:they|that\s+they)\s+(?:had|have|were)\s+(?:antibodies|positive|covid(?:-19)?)\b",
        "gave false positives",
    ),
    (r"\bfalse\s+pos\b\.?(?!\w)", "false positive"),
    (r"\b(?:got|get|were|was)\s+caught\s+(?=giving\s+false|with\s+false|producing\s+false)", ""),
    (r"\b(?:giving|gave|threw|throw|throwing|produced|producing|returned|returning)\s+(?=false\s+(?:pos|neg))", "had "),
    (r"\bat\s+least\s+(?:one|1|a|an)\s+(?=[a-z])", "any "),
    (r"\bevals\b", "evaluations"),
    (r"\beval\b", "evaluation"),
    (r"\b(covid(?:-19)?|sars-cov-2|coronavirus)\s+blood\s+(tests?)\b", r"\1 antibody \2"),
    # the serology panel is the evaluation's own samples, never a review panel: "the serology panel data"
    (r"\b(serology|eua|negatives?|positives?|antibody|covid(?:-19)?)\s+panel(?:\s+testing|\s+data)?\b", r"\1"),
    # a closing remark of the asker's purpose: "want a feel for how often they change their implantables"
    (
        r"(?:(?<=[?.!])|^)\s*(?:(?:i|we)\s+)?(?:just\s+)?(?:want|wanted|need|trying)\s+(?:to\s+get\s+)?(?:a|an)\s+"
        r"(?:feel|sense|idea|impression)\s+(?:for|of)\b[^?.!\-–—]*[?.!]?\s*$",  # (a dash after it leads the ask)
        "",
    ),
    (
        r"\b(?:in\s+)?(?:its|their|the)\s+(?:strictest|most\s+stringent|toughest|hardest)\s+(?:approval\s+)?"
        r"(?:track|pathway|path|route|process)\b",
        "in PMA decisions",
    ),
    (r"\bwent\s+([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,2})'s\s+way\b", r"for \1"),
    (
        r"\b(?:the\s+)?fda\s+sign(?:ed|s)?[\s-]+off\s+on\b(?!.*\b(?:pmas?|high(?:est)?[\s-]+risk|riskiest|approv\w*)\b)",
        "FDA cleared or approved",
    ),
    (r"\b(?:the\s+)?fda\s+sign(?:ed|s)?[\s-]+off\s+on\b", "FDA approved"),
    # "K number & the date it got SE": the record's decision date, which says its number
    (
        r"\b(?:k|510\(?k\)?)\s+(?:number|no\.?|#)\s*(?:and|&|\+|,|/)\s*(?:the\s+|its\s+)?(?:decision\s+|clearance\s+|se\s+)?"
        r"date\b",
        "decision date",
    ),
    # a dataset's table is the dataset: "the product codes in the classification table"
    (
        r"\b(classification|pma|510\(?k\)?|recall|enforcement|udi|gudid|registration|maude|event)\s+(?:table|tables)\b",
        r"\1",
    ),
    # an example of the asker's after the question: "? like a worker screwing up"
    (r"(?<=[?.!])\s*(?:like|e\.g\.|say)\s+(?:a|an|some|someone|somebody|when)\s+\w+\s+\w+ing\b[^?.!]{0,40}$", ""),
    # "the one based in San Clemente" after a firm: which firm is meant, said by its site (never a device)
    (
        r",?\s*\bthe\s+one\s+(?:based|located|headquartered|situated)\s+(?:in|out\s+of)\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2}\b",
        "",
    ),
    # a name half remembered: "something like 'Somnera'" is Somnera
    (r"\b(?:something|sth|anything)\s+like\s+['\"“‘]?([A-Z][\w-]+)['\"”’]?", r"\1"),
    # "the date it got SE": the date it was cleared (a count of "SE determinations" keeps SE)
    (
        r"\b(?:got|get|gets|received?)\s+(?:its\s+|the\s+|an?\s+)?SE\b(?!\s+(?:determinations?|decisions?))",
        "was cleared",
    ),
    # German words of a German-speaking asker, in English: "Rückruf" a recall, "Hersteller" a manufacturer,
    # "Vorkommnisse" incidents, "Anzahl" the number of, "Entscheidungen" decisions, "und" and; "actual" is
    # "aktuell", currently
    (r"\br(?:ü|ue|u)ckrufe?n?\b", "recall"),
    (r"\bherstellern?\b", "manufacturer"),
    (r"\bvorkommniss(?:e|en)?\b|\bvorkommnis\b", "adverse events"),
    (r"\banzahl(?:\s+(?:an|der|von|of))?\b", "number of"),
    (r"\bentscheidung(?:en)?\b", "decisions"),
    (r"\bwettbewerbern?\b", "competitors"),
    (r"\bwelche[rsmn]?\b", "which"),
    (r"\bwie\s+viele\b", "how many"),
    (r"\bf(?:ü|ue)r\b", "for"),
    (r"\bfieberthermometern?\b", "fever thermometer"),
    (r"\bklinik(?:en)?\b", "hospital"),
    (r"(?<=[,?.!]\s)und\b|^und\b|(?<=\s)und(?=\s)", "and"),
    (r"\bactual\s+stand\b", "current status"),
    (r"\b(?:are|is|has|have)\s+actual(?:ly)?\s+(?=in\s+commercial\s+distribution|on\s+the\s+market)", "are "),
    (r"\bactual\s+(?=\(?\s*in\s+commercial\s+distribution|on\s+the\s+market)", ""),
    # "the most complaints filed against it": the firm's own reports, no comparison
    (r"\b(?:(?:filed|lodged|made|reported|logged)\s+)?against\s+(?:it|them|him|her|the\s+company|the\s+firm)\b", ""),
    # "whose devices get the most reports": the firms ranked; "for the item master": the asker's own system
    (r"(?:^|(?<=[.?!,;:]\s))whose\s+(?:devices?|products?)\b", "which manufacturers"),
    (r"\b(?:for|in|into)\s+(?:the|our|my)\s+item\s+master\b", ""),
    # the labeler asked for: "who's the labeler", "labeler of the kit", "labeler name pls", "whose is it"
    (
        r"\bwho(?:'s|\s+is|\s+was|\s+are)\s+(?:the\s+)?labell?ers?\b|\blabell?er\s+names?\b|\bwhose\s+(?:is\s+it|are\s+they)\b|"
        r"^\s*(?:the\s+)?labell?ers?\s+(?=of\b)",
        "which company ",
    ),
    # "any FDA action against X": X's enforcement reports
    (
        r"\b(?:any\s+)?(?:fda|regulatory|enforcement|government)\s+actions?\s+(?:taken\s+)?(?:against|on|toward|towards)\b",
        "enforcement reports for",
    ),
    # "in the government's checks of covid antibody tests": the FDA's own evaluation
    (
        r"\b(?:in\s+)?(?:the\s+)?(?:government'?s?|fda'?s?|federal)\s+(?:checks?|tests?|testing|evaluations?)\s+of\b",
        "in",
    ),
    # "(I'm building a table of recall severity)": the asker's own work in brackets
    (r"\s*\((?:i'm|i\s+am|we're|we\s+are|i've|we've|for\s+(?:my|our))\b[^()]{0,80}\)", ""),
    # "the last 3 years of the dataset, i.e. up to its export date": the period already ends at the data's date
    (
        r",?\s*(?:i\.e\.,?\s*|that\s+is,?\s*)?(?:up\s+to|until|till|through|thru|ending\s+(?:at|on))\s+(?:its|the|their|our)\s+"
        r"(?:data(?:set)?'?s?\s+)?(?:export|snapshot|as[\s-]of|data\s+cut|extract|cut-?off)\s+date\b",
        "",
    ),
    (r"\b(recalls?|reports?|clearances?|approvals?|events?|actions?)\s*,?\s*etc\b\.?", r"\1"),
    # "have they been in trouble with the FDA?": their recalls (and the enforcement reports beside them)
    (
        r"\b(?:gotten|got|get|gets|getting|been|be|being|was|were|is|are|ever)?\s*in\s+trouble\s+(?:with|w/)\s*"
        r"(?:the\s+)?fda\b",
        " had recalls",
    ),
    # "checking out a possible partner, X ...": the asker's errand, X is what is asked about
    (
        r"^\s*(?:checking|looking|vetting|evaluating|screening|scoping)\s+(?:out\s+|into\s+|at\s+)?(?:a|an|our|the)\s+"
        r"(?:possible|potential|new|prospective|future)?\s*(?:business\s+)?(?:partner|supplier|vendor|distributor|"
        r"customer|acquisition(?:\s+target)?|target|competitor)\s*[,:;-]\s*",
        "",
    ),
    # "VAC is weighing ...": the hospital's value analysis committee, the asker's own people
    (
        r"(?:^|(?<=[.!?]\s))(?-i:VAC)(?=\s+(?:is|are|was|were|wants?|needs?|asked|has|have)\b)",
        "Our value analysis committee",
    ),
    (r"\b(?:for|to)\s+(?:the|our)\s+(?-i:VAC)\b", "for our value analysis committee"),
    # "Arrow Int. recall": a firm's "International" cut short
    (r"\b([A-Z][a-z]+)\s+Int\.(?=\s)", r"\1 International"),
    # "models / catalog numbers": the model numbers (a catalog number is said beside each)
    (r"\bmodels?\s*(?:/|and|or|&)\s*catalog\s+(?:numbers?|nos?)\b", "model numbers"),
    # "can you check in GUDID how many ...": the ask, no check valve
    (
        r"\bcheck\s+(?=(?:in|on)\s+(?:the\s+)?(?:gudid|accessgudid|udi|maude|data|database|mirror|recalls?)\b|"
        r"whether\b|if\b|how\s+many\b)",
        "",
    ),
    # "deviceKit = true", "kit flag = true": the UDI kit flag
    (r"\bdevice\s*kit\s*(?:=|:|is)\s*(?:true|yes|y)\b|\bdevicekit\s*(?:=|:)?\s*(?:true|yes|y)?\b", "kit"),
    # "since when is it running?" of a recall: when it was initiated
    (
        r"\bsince\s+when\s+(?:is|was|has)\s+(it|that(?:\s+recall)?|the\s+recall|this(?:\s+recall)?)\s+(?:been\s+)?"
        r"(?:running|going|ongoing|open|active|on)\b",
        r"when was \1 initiated",
    ),
    (r"\b(?:the\s+)?(?:recall\s+)?kicked\s+off\b", "initiated"),
    # "the date it was cleared": the record's decision date
    (
        r"\b(?:the\s+)?(?:decision\s+)?date\s+(?:it|they|that)\s+(?:was|were|got)\s+(?:cleared|approved|decided)\b",
        "decision date",
    ),
    # the asker's hedges and asides, no search words: "(taking the export date as the reference point, I
    # presume)", "if that's feasible", "I'd like to compare", "If so,", "(counting a report once per problem listed)"
    (
        r"\b(?:taking|using|with|treating)\s+(?:the\s+)?(?:data(?:set)?'?s?\s+)?(?:export|snapshot|as[\s-]of|extract|"
        r"data\s+cut|cut-?off)\s+date\s+as\s+(?:the\s+|my\s+|our\s+)?(?:reference|anchor|baseline|starting)"
        r"(?:\s+(?:point|date))?",
        "",
    ),
    (r"[,;]?\s*\b(?:i|we)\s+(?:presume|suppose|assume|guess|reckon|imagine)\b(?=\s*[,.;:?!)]|\s*$)", ""),
    (r"[,;]?\s*\bif\s+(?:that'?s|that\s+is|it'?s|it\s+is|this\s+is)\s+(?:feasible|possible|doable|ok|okay)\b", ""),
    (r"\b(?:i|we)(?:'d|\s+would)\s+(?:like|love|want)\s+to\s+(?=(?:compare|know|see|get|count|find|check|have)\b)", ""),
    (r"(?:^|(?<=[.?!]\s))if\s+so\s*,\s*", ""),
    (
        r"\(?\s*\bcounting\s+(?:a|each|every|one)\s+(?:report|record|event)\s+once\s+per\s+[a-z]+(?:\s+"
        r"(?:listed|named|given|coded))?\s*,?\s*\)?",
        " ",
    ),
    # rounds 51 to 60: ordinary idioms and abbreviations of the question's grammar, no search word
    (r"\b(?:rack|racks|racked|racking)\s+up\b", "get"),  # "how many MDRs did Medtronic rack up"
    (r"\b(?:shown|showed|turned)\s+up\b", "appeared"),
    (r"\b(?:show|shows)\s+up\s+(?=in\b)", "appear "),
    (r"\b(?:safety\s+)?signals?\b(?=\s*[?.!]*\s*$)", ""),  # "... has a safety signal": the records asked
    (r"\b(?:has|have)\s+been\s+clean(?:\s+(?:lately|recently|of\s+late))?\b", "had reports"),
    (r"\b(?:their|its|his|her|the)\s+stuff\b", "their devices"),
    (r"\bput\s+down\s+as\b", "give as"),
    (
        r"\bproduct\s+res(?:\.|\s+)\s*(?:number|no\b\.?|#|num\b)",
        "recall number",
    ),  # "what did FDA put down as the root cause"
    (r"\beconomic\s+operator\s+(?=(?-i:[A-Z]))", ""),  # "economic operator Tz Medical, Inc.": the firm named
    (r"\beconomic\s+operators?\b", "manufacturer"),  # the EU's word for a device's maker
    (r"\bL(\d{1,2})M\b|\b(?:last|trailing|past)\s+(\d{1,2})\s*mo\b\.?", r"the last \1\2 months"),
    (r"\btrailing[\s-]+(?=\d{1,2}\s+(?:months|years)\b)", "last "),
    (r"(?-i:\bMoM)\s+(?:question|q)\b\s*[-–—:,]?", ""),  # "MoM question —": the month-over-month work asked about
    (r"\bcovid[\s-]+19\b", "covid-19"),
    (r"(?-i:\btop[\s-]*[nN]\b)", "top"),
    (r"\b(pmas?|510\(?k\)?s?|de\s*novos?)\s+filings?\b", r"\1 records"),  # "medtronic pma filings 2020"
    # "the most active PMA filer": the firm with the most records
    (
        r"\bmost\s+active\s+(?=(?:\w+\s+){0,2}(?:filers?|applicants?|sponsors?|submitters?|firms?|compan(?:y|ies))\b)",
        "top ",
    ),
    # "days from received to decision", "date rec'd vs decision date, how many days": the review time
    (
        r"\b(?:(?:calendar\s+)?days|time)\s+(?:from|between)\s+(?:the\s+)?(?:date\s+)?(?:received|receipt|submission|"
        r"submitted|filing)\s+(?:to|and|until)\s+(?:the\s+)?(?:decision|clearance|approval)(?:\s+date)?\b",
        "review days",
    ),
    # the asker's chart ("for a stacked bar", "doing a share-of-total chart"): the answer's use, no search word
    (
        r"[,;]?\s*\b(?:for|doing|making|building|in)\s+(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,2}?(?:chart|bar|graph|plot|"
        r"viz|visual|pie)(?:\s+(?:chart|graph|plot))?\b",
        "",
    ),
    # "class mix of the product code universe", "device class split": the codes counted by class
    (r"\b(?:device\s+|risk\s+)?(?:class|classes)\s+(?:mix|split)(?:\s+(?:of|across|for))?\b", "by device class,"),
    # "the n per device class. I, II, III", "by device class (1/2/3)": the classes listed again after the breakdown
    (
        r"(\b(?:per|by|each|across)\s+(?:device\s+|risk\s+)?class\b[^?!]*?)[.,:;]?\s*\(?(?:class\s+)?(?:I|1)\s*[,/]\s*"
        r"(?:class\s+)?(?:II|2)\s*(?:[,/]|and|or)\s*(?:class\s+)?(?:III|3)\s*\)?(?=\s*[?.!]*\s*$|,)",
        r"\1",
    ),  # "top-N pls": a ranking, its length left to the default
    (r"\b([a-z]+)_cause_description\b", r"\1 cause"),  # "root_cause_description": the field said as the data names it
    (r"\brecie(v\w*)", r"recei\1"),  # "recieve": i before e
    (r"\bincidnets?\b|\bincidetns?\b", "incidents"),
    (r"\bcontinous\b", "continuous"),
    (r"\bdiff?rent\b", "different"),
    # a pacemaker's lead is its electrode, as the product-code names say ("Permanent Pacemaker Electrode")
    (r"\bperm\.\s*(?=pace|pacing)", "permanent "),
    # "the 21 CFR section", "CFR cite": the regulation number of the classification
    (
        r"\b(?:the\s+)?(?:21\s+)?CFR\s+(?:section|cite|citation|reference|part|number|no\.?)(?=\W|$)",
        "regulation number",
    ),
    (r"\bpacing\s+(?=electrodes?\b|leads?\b)", "pacemaker "),
    (r"\b(pacemaker|defibrillator)\s+leads?\b(?!\s+to\b)", r"\1 electrode"),
    # "what device class is that code? II or III?": the classes offered after a class asked, said as classes
    (
        r"(\bclass\b[^?]{0,60}\?)\s*(?-i:(I{1,3}|[123]))\s*(?:or|/|vs\.?)\s*(?-i:(I{1,3}|[123]))\s*\?",
        r"\1 class \2 or class \3?",
    ),
    # "trying to get a feel for the landscape -": the asker's aim, said before the ask
    (
        r"(?:^|(?<=[.?!]\s))(?:just\s+)?(?:i'?m\s+|we'?re\s+)?(?:trying|want(?:ing)?|looking)\s+to\s+get\s+a\s+(?:feel|sense|handle)"
        r"\s+(?:for|of|on)\s+(?:the\s+)?[\w\s]{0,30}?\s*[-–—:,]\s*",
        "",
    ),
    # "... ? they're my competitor on pacing cables": who the firm is to the asker, said after the ask
    (
        r"(?<=[?.!])\s*(?:they'?re|they\s+are|it'?s|it\s+is)\s+(?:my|our)\s+(?:main\s+|biggest\s+|direct\s+|key\s+)?"
        r"(?:competitor|rival|supplier|vendor|partner|customer|client)s?\b[^?.!]*[.!]?\s*$",
        "",
    ),
    # "for the newsletter trend piece — ...": the asker's work, said before the ask
    # (a For-lead is written as a colon's lead, which the reframe takes as background and says so in the answer)
    (
        r"^\s*(for\s+(?:the|my|our|a|an|this|next\s+week's)\s+[\w\s-]{0,40}?\b(?:newsletter|piece|story|article|blog|"
        r"post|deck|memo|chart|table|slide|slides|brief|briefing))(?:\s*[–—:,]|\s+-)\s*",
        r"\1: ",
    ),
    (
        r"^\s*in\s+(?:the|my|our|a|an|this|next\s+week's)\s+[\w\s-]{0,40}?\b(?:newsletter|piece|story|article|blog|"
        r"post|deck|memo|chart|table|slide|slides|brief|briefing)(?:\s*[–—:,]|\s+-)\s*",
        "",
    ),
    # "the root cause category - design or manufacturing?": the options the asker offers, not filters
    (r"\b(root\s+cause(?:\s+category)?)\s*[-–—:,]\s*[a-z]+\s+or\s+[a-z]+\s*\?*\s*$", r"\1?"),
    (r"\b([a-z]{3,})-panel\b", r"\1 panel"),  # "ortho-panel 510(k) decisions": the panel named
    (r"\bpremarket\s+approval\s*\(\s*PMA\s*\)", "PMA"),  # the name and its short form said together
    (r"\bPMA\s*\(\s*premarket\s+approval\s*\)", "PMA"),
    # a day written month/day/two-digit year ("done 4/27/20"): the year in full
    (r"(?<![\d/.])\b(0?[1-9]|1[0-2])/(0?[1-9]|[12]\d|3[01])/([0-3]\d)\b(?![/\d])", r"\1/\2/20\3"),
    # "missed IgG most often in true-positive sera", "failed to detect IgG in seropositive specimens": the antibody's
    # false negatives on the known positives
    *[
        (
            r"\b(?:missed|miss|misses|failed\s+to\s+detect|fails\s+to\s+detect|did\s*n[o']t\s+detect|didn't\s+pick\s+up)\s+"
            r"(IgG|IgM|IgA)\b(?:\s+antibod(?:y|ies))?"
            + most
            + r"\s+(?:in|on|for|among)\s+(?:the\s+)?(?:true[\s-]+positive|"
            r"seropositive|known[\s-]+positive|positive)\s+(?:sera|serum|samples?|specimens?)\b" + most_after,
            rep,
        )
        for most, most_after, rep in (
            (r"\s+most(?:\s+often)?", "", r"had the most \1 false negatives"),
            ("", r"\s+most(?:\s+often)?", r"had the most \1 false negatives"),
            ("", "", r"had \1 false negatives"),
        )
    ],
    # "which antibody assay / whose test had the most ...": the makers ranked
    (r"\b(?:which|what)\s+(?:[\w-]+\s+){0,3}?(?:assays?|tests?|kits?)\s+(?=had\s+the\s+most\b)", "which manufacturer "),
    (r"\bwhose\s+(?:assays?|tests?|kits?)\s+(?=had\s+the\s+most\b)", "which manufacturer "),
    # "..., is that right?", "am I right?": the asker's check of a guess said before, no search word
    (r"[,;]?\s*\b(?:is\s+that|am\s+i|is\s+this|was\s+i)\s+(?:right|correct)\s*\?*\s*$", "?"),
    (r"\bmanuf(?:acuter|actuer|aturer|acutrer)(s?)\b", r"manufacturer\1"),
    (r"\bcassete(s?)\b", r"cassette\1"),
    (r"\bseverity\s+(?:class(?:ification)?|level|rating|category)\b", "recall class"),
    (r"\b(fei|duns)\s+(?:no\b\.?|nbr\b|num\b)", r"\1 number"),
    (r"\b(pull|get|grab|read)\s+(.{1,40}?)\s+off\s+(?=the\b|their\b|its\b)", r"\1 \2 from "),
    (r"(?-i:\bZ)[\s-]*(?:number|no\b\.?|#)", "recall number"),  # "what's the Z number": the recall's Z-number
    # "..., was Medline one of them?": a firm looked for among the records counted, not a filter of the count
    (
        r"(?<=[?.!])\s*(?:and\s+)?(?:was|were|is|are)\s+[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}\s+(?:one|among|part)\s+of\s+"
        r"(?:them|those|these)\s*\??\s*$",
        "",
    ),
    # EU words for a 510(k)'s decision: "obtained US conformity via 510(k)", "the conformity decision", "substantial
    # equivalence decisions" (the decision itself: a clearance)
    (
        r"\b(?:obtained|got|gained|received|achieved)\s+(?:US\s+|FDA\s+)?(?:conformity|market\s+access)\s+(?:via|through|by)\s+",
        "cleared by ",
    ),
    (r"\bconformity\s+(?=decisions?\b)", ""),
    (r"\bsubstantial(?:ly)?\s+equivalen(?:ce|t)\s+(?:decisions?|determinations?)\b", "510(k) decisions"),
    (r"\b1st\s+half\b", "first half"),
    (r"\bwhen'?d\b(?=\s+(?:it|they|that|this|the|FDA)\b)", "when did"),
    (r"\b(?:get|got|gets|getting)\s+the\s+nod\b", "get approved"),  # "when'd it get the nod from FDA?"
    (r"\bwhen\s+did\s+(it|they|that|this)\s+(?:get|become)\s+(cleared|approved)\b", r"when was \1 \2"),
    (r"\bwhen\s+(was|were)\s+(?:the\s+)?decisions?\s+(?:taken|made|reached|issued)\b", r"when \1 it decided"),
    # "by decision date please, not submission date": the other date ruled out, the date said is the one used
    (r"[,;]?\s*\b(?:and\s+)?not\s+(?:by\s+)?(?:the\s+)?(?:submission|received|receipt|filing|event)\s+dates?\b", ""),
    (r"\b2nd\s+half\b", "second half"),
    # "which product code led adverse event reports": the one ranked first (never LED lights)
    (
        r"\b((?:which|what)\s+(?:product\s+codes?|procodes?|codes?|devices?|device\s+types?|countr(?:y|ies)|states?|"
        r"problems?|root\s+causes?))\s+led(?:\s+the\s+(?:pack|way|field))?(?:\s+(?:in|on|for))?\b",
        r"\1 had the most",
    ),
    # "PCA pumps", "patient controlled analgesia pumps": the infusion pumps named so, not the product code PCA
    (r"\bpatient[\s-]+controll?ed\s+analgesia\b|(?-i:\bPCA\b)(?=\s+(?:infusion\s+)?pumps?\b)", "pca"),
    # an interbody (spinal) fusion cage: the intervertebral fusion devices
    (
        r"\b(?:(?:interbody|spinal|intervertebral|spine|lumbar|cervical)\s+(?:fusion\s+)?|fusion\s+)cages?\b",
        "intervertebral fusion device",
    ),
    (r"\binterbody\s+(?=fusion\s+devices?\b)", "intervertebral "),
    # "covid antibody tests that FDA checked", "validation runs": the FDA's evaluation of the serology tests
    (r"\b(?:that|which)\s+(?:the\s+)?FDA\s+(?:checked|tested|evaluated|validated)\b", ""),
    (r"\bvalidation\s+(?:runs?|results?|tests?)\b", "results"),
    (r"(?-i:\bQoQ)\s+(?:view|question|q)\b\s*[-–—:,]?", ""),
    # the EU's words for a serious incident's harm: "serious deterioration of (the state of) health" is a serious injury
    (r"\bserious\s+deterioration\s+(?:of|in)\s+(?:the\s+)?(?:state\s+of\s+)?(?:\w+\s+)?health\b", "serious injury"),
    (r"\b(death|deaths)\s*/\s*(serious\s+)?injur(?:y|ies)\b", r"\1 or \2injury"),
    # "reports coded as death or injury", "classified as death": the event type of the reports (no classification)
    (
        r"\b(?:were\s+|was\s+|are\s+|is\s+)?(?:classified|coded|categori[sz]ed|flagged|marked|tagged|labell?ed)\s+as\s+"
        r"(?:an?\s+)?(?=(?:death|deaths|injur\w*|serious|malfunction)\b)",
        "of ",
    ),
    # "death or injury (not just malfunction)", "not the malfunction-only ones": the other type ruled out, said again
    (
        r"(\b(?:death|deaths|injur(?:y|ies)|serious\s+incidents?)\b[^.?!]{0,40}?)[\s,;(]*\b(?:not|excluding|rather\s+than)"
        r"\s+(?:just\s+|only\s+)?(?:the\s+)?malfunctions?(?:[\s-]+only)?(?:\s+(?:ones|reports))?\s*\)?",
        r"\1",
    ),
    # "(comparing with our class III / AIMD scope)": the asker's own comparison, in brackets after the ask
    (
        r"\s*\(\s*(?:comparing|compared|to\s+compare|for\s+comparison|vs\.?)\s+(?:with\s+|to\s+|against\s+)?(?:our|my)\b[^)]*\)",
        "",
    ),
    (r"\best\.?\s+(?=types?\b)", "establishment "),  # "est. type", "est types"
    # one establishment type asked ("est. type 'Contract Manufacturer'", "establishment type = contract
    # manufacturer"): that type, read as the registrations' own value (never the field's options offered)
    (
        r"\b(?:with\s+(?:an?\s+|the\s+)?)?establishment\s+types?\s*(?:of|=|:|as)?\s*[\"“']?((?:contract|specification|"
        r"initial|complaint|foreign)\s+[a-z]+(?:\s+[a-z]+)?)[\"”']?(?=\s*[?.!,;]|\s*$)",
        r"as \1",
    ),
    (r"\bO/O\s*(?:#|number|no\b\.?|num\b)?", "owner operator number"),
    # "a simple number is fine", "just a rough count is ok": the answer's form, no search word (never "a simple
    # linear fit is fine": a model to fit, which the records do not give, stays unread)
    (
        r"[,;]?\s*(?:just\s+)?an?\s+(?:simple|quick|rough|basic)\s+(?:[a-z]+\s+)?(?:number|count|figure|total|list|table|"
        r"answer|summary|breakdown|estimate|ballpark|yes\s+or\s+no)\s+(?:is|would\s+be|will\s+do)\s+"
        r"(?:fine|ok|okay|enough|good|great)\b",
        "",
    ),
    (r",?\s*\b(?:sorted|sort(?:ed)?\s+by\s+count|ordered)\s+(?:desc|descending)\b\.?", ", top"),
]
_REGISTRATION = re.compile(r"(?i)\b(?:registration|registered|establishment|listing|fei|facility|site|plant)\b")
# a helper verb and its person at the head of a sentence: "Can you", "Could we", "May I" are no place or month
_MODAL = re.compile(r"(?i)(^|[.?!:;]\s*)(?:can|could|would|will|may|shall)\s+(?:you|i|we|u)\s+(?:please\s+)?")
_US_OBJECT = re.compile(r"(?i)\b(tell|give|show|send|let|get|find|help|pull|fetch|email|bring)\s+us\b")
_YES_NO_TAIL = re.compile(r"(?i)[\s,;:\-–(]*\b(?:yes\s*(?:or|/)\s*no|y\s*/\s*n|true\s+or\s+false)\b\s*\)?[\s?.!]*$")
_YES_NO_INSIDE = re.compile(
    r"(?i)\b(?:is|are|was|were|has|have|had|did|does|do)\s+(?:there|they|it|we)\b|\b(?:any|ever)\b"
)
_YES_NO_HEAD = re.compile(r"(?i)^\W*(?:has|have|had|did|does|do|is|are|was|were|any|ever)\b")
# what makes a sentence or clause ask something
_ASK = re.compile(
    r"(?i)\?|\b(?:what|which|who|whom|whose|when|where|why|how|count|counts|list|show|give|tell|find|number|total|"
    r"many|any|ever|versus|vs|compare|compared|top|most|fewest|latest|earliest|breakdown|trend|lookup|look\s+up)\b|"
    r"^\W*(?:is|are|was|were|did|does|do|has|have|had)\b"
)
# a sentence that starts by asking for something ("Pull Medtronic's recalls for 2019.")
_IMPERATIVE = re.compile(
    r"(?i)^\W*(?:please\s+|pls\s+|kindly\s+)?(?:pull|get|fetch|grab|search|rank|summari[sz]e|break|provide|export|"
    r"display|identify|retrieve|check|name|look|pick|sort|filter|narrow|run)\b"
)
# a statement of the asker's own work ("We're reconciling our complaint log against the reports."): beside a sentence
# that asks with "?", it frames unless it asks for something itself ("I need the count ...")
_OWN_STATEMENT = re.compile(r"(?i)^\W*(?:we|i|we're|i'm|we've|i've|we'd|i'd|our|my|us)\b")
_STRONG_ASK = re.compile(
    r"(?i)\?|\b(?:how|what|which|who|count|number|list|show|give|tell|find|total|many|need|want|like)\b|"
    r"\blooking\b(?!\s+at\b)"
)
# what the asker means to show others ("I want to show how the panel splits by class."), said before the ask
_SHOWING = re.compile(
    r"(?i)^\W*(?:i|we)\s+(?:want|need|'d\s+like|would\s+like|am\s+trying|are\s+trying|plan)\s+to\s+(?:show|present|"
    r"illustrate|explain|demonstrate|highlight|visuali[sz]e|chart|plot|understand|gauge|assess|learn|map|"
    r"get\s+a\s+(?:sense|feel|picture|view)|figure\s+out)\b[^?]*$"
)
# a sentence that asks for records of a dataset in the asker's own words ("I need the UDI record for X's analyzer.")
_REQUEST = re.compile(
    r"(?i)^\W*(?:i|we)\s+(?:need|want|'d\s+like|would\s+like)\s+(?:the|a|an|all|every|any)\s+(?:[\w()'-]+\s+){0,2}?"
    r"(?:recalls?|510\s*\(?k\)?s?|pmas?|mdrs?|maude|adverse\s+events?|enforcement\s+reports?|registrations?|udi|"
    r"gudid|classifications?|clearances?|approvals?)(?!\w)(?:\s+(?:records?|entr(?:y|ies)|listings?|data))?\s+"
    r"(?:for|of|on|from)\b"
)
_SENTENCE = re.compile(
    r"(?<=[.!?])\s+(?=[A-Z\"'(])|(?<=\.)\s+(?=(?:how|what|which|who|when|where|any|is|are|was|were|do|does|did|can|"
    r"could)\s)"
)
_FOR_CLAUSE = re.compile(
    r"(?i)^\s*(?:for|as\s+part\s+of)\s+(?:[a-z]+ing\s+)?(?:our|my|a|an|the|this|their|your)\b[^,:?]{0,80}?"
    r"(?:,\s*|\s+(?=(?:i|we)\s+(?:need|want|would\s+like|'d\s+like|am\s+looking|are\s+looking)\b))"
)
# a leading clause about the asker's own plans ("Before we send product to them for EO, ..."), then the ask
_WHEN_WE = re.compile(
    r"(?i)^\s*(?:before|after|when|while|since|as|because|now\s+that|once)\s+(?:we|i|we're|i'm|our\s+\w+)\b[^,?]{0,80}?"
    r"(?:,\s*(?=(?:can|could|would|will|please|pls|how|what|which|who|when|is|are|was|were|do|does|did|has|have|had|"
    r"any|tell|give|show|list|confirm|check|i|we)\b)|\s+(?=(?:i|we)\s+(?:need|want|would\s+like|'d\s+like)\b))"
)
# the asker's own statement before a dash, then the ask ("We're trending complaints for our CAPA review - how many ...")
_OWN_DASH = re.compile(
    r"(?i)^\W*(?:(?:we|i|we're|i'm|we've|i've|we'd|i'd|our|my)\b|(?:quick|just\s+a|a\s+quick)\s+[^?;]{0,40}?"
    r"\b(?:for|before)\s+(?:our|my|the)\b|[a-z][^?;:]{0,40}?\b(?:before|after|while|because|since|as|so|when)\s+"
    r"(?:we|i|we're|i'm|our|my)\b)[^?;]{0,100}?(?:\s+[-–—]+\s+|\s*;\s*)"
    r"(?=(?:how|what|which|who|when|where|is|are|was|were|do|does|did|can|could|any|list|show|give|tell|count|pull|"
    r"please|pls)\b)"
)
# a label of the ask itself at a sentence's head: "Q: how many ...", "Question - which ..."
_LABEL = re.compile(r"(?i)^\s*(?:q|question|query|ask|request)\s*[:\-–]\s+")
# an ask with nothing of its own ("Total?", "How many?", "Count pls."): what it counts is in the sentence before
_BARE_ASK = re.compile(
    r"(?i)^\W*(?:and\s+)?(?:(?:the|a)\s+)?(?:total|count|number|tally|sum|figure|how\s+many|n)(?:\s+(?:pls|please|only|"
    r"of\s+them|in\s+all|overall|(?:are\s+)?(?:remain|remaining|left)))?\W*$"
)
# the asker's remark in parentheses: "(ballpark is fine)", "(rough numbers ok)", "(just curious)"
_REMARK = re.compile(
    r"(?i)\s*\((?=[^()]*\b(?:ballpark|rough|roughly|approx\w*|estimate|fine|ok|okay|please|thanks|possible|"
    r"curious|fyi|asking|quick|urgent|asap)\b)[^()0-9]{1,60}\)"
)
# a lead naming the asker's review ("Retrospective on what came to market during the first surge:"): its words frame
# even where they ask ("what came"), since the ask follows the colon
_REVIEW_LEAD = re.compile(
    r"(?i)^\W*(?:(?:a|our|my|quick)\s+)?(?:retrospective|look[\s-]?back|post[\s-]?mortem|deep[\s-]dive|recap|"
    r"background|context|teardown|lessons\s+learned)\s+(?:on|of|into|about|for)\b"
)
_GREETING = re.compile(
    r"(?i)^\W*(?:hi|hello|hey|dear|greetings|good\s+(?:morning|afternoon|evening))(?![-\w])"
    r"(?:\s+(?:team|all|there|folks|everyone|guys|colleagues))?[\s,!.:;-]*"
)
# a colon's lead that frames: the asker's own work ("For our memo:", "Quick check before our audit:"), never a topic
# ("covid serology: plasma vs serum", "wheelchairs: how many codes")
_OWN_LEAD = re.compile(
    r"(?i)^\W*(?:for|re|context|background|note|fyi|quick|as\s+part\s+of|regarding|question|need|needed|want|"
    r"wanted|retrospective|look[\s-]?back|post[\s-]?mortem|deep[\s-]dive|recap|teardown|lessons)\b|"
    r"(?i:\b(?:our|my|we|i'm|we're|me)\b)|\bus\b|\bI\s+(?:am|was|need|want|have|had|would|will|plan|must|"
    r"should|just|only|track|work|look|ran|run)\b|"
    r"\b(?:director|boss|manager|ceo|cfo|vp|auditor|client|customer|board|management|team|colleague)\s+"
    r"(?:asks?|asked|wants?|needs?|wonders|question)\b"
)
# what a lead or a sentence beside the ask restricts: a dataset, a class, an exclusion, an event type, a status
_RESTRICTS = re.compile(
    r"(?i)\b(?:only|exclud\w*|except|without|not|class\s+(?:i{1,3}|[123])|malfunctions?|deaths?|"
    r"injur(?:y|ies)|terminated|ongoing|completed|open|closed)\b"
)
_DATASET_WORD = re.compile(
    r"(?i)\b(?:recalls?|510\s*\(?k\)?s?|pmas?|mdrs?|maude|adverse|events?|enforcements?|registrations?|udi|"
    r"gudid|classifications?|clearances?|approvals?|product\s+codes?|procodes?)(?!\w)"
)
# the asker's work noun: a For-clause with "a", "an" or "the" frames only when it names one ("For the annual PMS
# report, ..."); "For an insulin pump, ..." is the topic
_WORK = re.compile(
    r"(?i)\b(?:matrix|deck|slides?|memo|report|review|audit|inspection|meeting|file|files|tracker|dashboard|"
    r"spreadsheet|presentation|summary|notes|log|assessment|evaluation|analysis|planning|budget|board|committee|"
    r"strategy|briefing|questionnaire|project|portfolio|check|landscape|trend|study|proposal|email|call|"
    r"submission|plan|paper|update|request|team|exercise|research|survey|benchmark\w*|overview|training)\b"
)
# a word before a full stop that is no sentence's end ("St. Jude", "Medtronic vs. Abbott", "Boston Scientific Corp.")
_NO_END = re.compile(
    r"(?i)(?:^|\s)(?:st|mt|dr|vs|v|inc|corp|co|ltd|mfg|intl|no|jr|sr|bros|assn|dept|mr|mrs|ms|[a-z])\.$"
)
# a firm's legal form closing its name: a bracket after it is the firm's site ("Encore Medical, L.P. (Austin, TX)")
_LEGAL_END = re.compile(
    r"(?i)\b(?:inc|llc|l\.?p|corp|corporation|co|ltd|limited|gmbh|ag|s\.?a|s\.?p\.?a|b\.?v|plc|lp)\.?\s*$"
)
_COURTESY = frozenset(
    "ballpark rough roughly approx approximate approximately estimate estimates fine ok okay please thanks thank "
    "you possible if curious fyi asking quick urgent asap is are a an the just numbers number figures figure would "
    "be great good enough works for me it".split()
)
_PRONOUN = re.compile(r"(?i)\b(they|them|their|theirs)\b")
# a parenthesis of capitalised words only ("(Vercelli)", "(Austin, TX)"): it describes the name beside it
_PLACE_NOTE = re.compile(r"\s*\(((?:[A-Z][a-z]+\.?(?:[\s,]+|(?=\))))+(?:[A-Z]{2})?)\)")
_ENTITY_NOTE = re.compile(
    r"(?i)\s*\((?:any|all|every|each|incl\.?|including)\b[^()]{0,40}\b(?:entity|entities|"
    r"affiliates?|subsidiar(?:y|ies)|divisions?|units?|sites?|companies)\)"
)


# a relative clause about the asker's own use of a device ("the pacemaker analyzer our service team uses"): it
# describes the device, it is no part of its name
_OWN_USE = re.compile(
    r"(?i)(?<!\bdid)(?<!\bdoes)(?<!\bdo)(?<!\bhas)(?<!\bhave)(?<!\bhad)(?<!\bwill)(?<!\bcan)(?<!\bis)(?<!\bare)"
    r"(?<=[a-z0-9])\s+(?:that\s+|which\s+)?(?:our|my|we|i)\b(?:\s+[a-z][\w-]*){0,3}?\s+(?:uses?|used|owns?|owned|has|have|"
    r"had|bought|buys|runs?|operates?|maintains?|sells?|distributes?|implants?|relies\s+on|"
    r"rely\s+on|are\s+using|is\s+using|work\s+with|works\s+with)\b(?:\s+(?:here|now|today|daily|in-house))?"
)


# a closing clause about the asker's purpose ("..., for our supplier risk matrix?", "... before the inspection")
_TAIL_CLAUSE = re.compile(
    r"(?i)(?:,\s*|\s+[-–—]\s*|\s+)(?:(?:just\s+|mainly\s+|mostly\s+)?for|as\s+part\s+of)\s+(?:our|my|the\s+team's|"
    r"a|an|this|the\s+upcoming|the\s+next)\s+[^,?.!]{0,60}?\b(?:matrix|deck|slide|slides|memo|report|review|audit|"
    r"inspection|meeting|file|files|tracker|dashboard|spreadsheet|presentation|summary|notes|records|log|"
    r"assessment|evaluation|analysis|planning|budget|board|committee|submission|strategy|briefing|table|tables|"
    r"chart|charts|workbook|thesis|chapter|packet|packets|binder|dossier|piece|story|article|blog|sizing|scorecard|"
    r"teardown|crosswalk|cleanup|check)\b(?=[\s?.!]*$)|"
    # "... - building a supplier scorecard", ", prepping the board deck": the errand the answer is for
    r"(?:,\s*|\s+[-–—]+\s*)(?:(?:i'm|we're|i\s+am|we\s+are)\s+)?(?:building|preparing|prepping|putting\s+together|"
    r"updating|working\s+on|drafting|compiling|filling\s+(?:in|out))\s+(?:a|an|our|my|the)\s+[^,?.!]{0,50}?\b(?:matrix|"
    r"deck|slides?|memo|report|review|audit|file|tracker|dashboard|spreadsheet|presentation|summary|table|chart|"
    r"workbook|binder|dossier|scorecard|form|crosswalk|analysis|assessment|teardown|sizing)\b(?=[\s?.!]*$)|"
    # "..., need it for the comps table": the errand the answer is for
    r"(?:,\s*|\s+[-–—]\s*)(?:i\s+|we\s+)?need\s+(?:it|this|that|them|these|those|the\s+(?:number|count|figure|total|"
    r"baseline))\s+for\s+(?:the|our|my|a|an)\s+[^,?.!]{0,60}?"
    r"\b(?:matrix|deck|slides?|memo|report|review|audit|file|tracker|dashboard|spreadsheet|presentation|summary|notes|"
    r"table|tables|chart|charts|workbook|binder|dossier|timeline|graphic|comps|board|committee|sizing|scorecard|"
    r"teardown|crosswalk|check|form)\b(?=[\s?.!]*$)|"
    r"(?:,\s*|\s+)(?:before|ahead\s+of|prior\s+to)\s+(?:our|my|the|next\s+\w+'s|the\s+next|tomorrow's|"
    r"next\s+week's)\s+[^,?.!]{0,40}?\b(?:audit|inspection|meeting|review|visit|call|submission|deadline)\b"
    r"(?=[\s?.!]*$)"
)


# who needs the answer, at the head of the ask ("our team needs the count of ...", "my manager wants a list of ..."):
# the asker's people, never a device or a firm
_WHO_NEEDS = re.compile(
    r"(?i)(^|[.?!:;]\s*)(?:(?:our|my|the)\s+(?:[a-z]+\s+){0,2}?(?:team|boss|manager|director|group|department|dept|"
    r"lead|leadership|management|vp|ceo|cfo|auditor|auditors|client|customer|colleague|colleagues|committee|board)|"
    r"(?:qa|ra|qe|regulatory|quality|compliance)\s+(?:team|group|lead))\s+(?:needs?|wants?|asked\s+for|is\s+asking\s+"
    r"for|are\s+asking\s+for|would\s+like|requires?|requested|(?:asked|asks|wondered|wonders|wants\s+to\s+know)"
    r"(?:\s+(?:me|us))?\s+(?:whether|if))\s+"
)
# hospital departments and roles that ask ("Materials management asked me whether ...", "Biomed wants to know ...",
# "the cath lab director asked ...", "Value analysis committee: ..."): the asker's people, never a device or a firm
_DEPARTMENT = (
    r"(?:materials?\s+management|materiel\s+management|biomed(?:ical)?(?:\s+engineering)?|clinical\s+engineering|"
    r"sterile\s+processing|central\s+(?:sterile|supply|processing)|(?-i:SPD)|supply\s+chain|purchasing|procurement|"
    r"value\s+analysis(?:\s+committee)?|(?-i:VAC)|risk\s+management|infection\s+(?:control|prevention)|patient\s+safety|pharmacy|nursing|"
    r"radiology|imaging|cath(?:eterization)?\s+lab|(?-i:OR)|operating\s+room|perioperative(?:\s+services)?|"
    r"surgical\s+services|quality(?:\s+assurance)?|regulatory(?:\s+affairs)?|compliance|legal|finance|(?-i:IT|ICU|ED|ER)|"
    r"emergency\s+department|facilities|contracting|sourcing|logistics|the\s+c-suite)"
)
_ROLE = (
    r"(?:manager|director|head|lead|chief|coordinator|buyer|nurse|surgeon|physician|engineer|engineers|tech|techs|"
    r"technician|technicians|administrator|officer|chair|vp|(?-i:CNO|CMO|CFO|CEO|COO|CIO)|team|group|department|dept|"
    r"committee|council|staff|people|folks|office|leadership)"
)
_ASKS = (
    r"(?:needs?|wants?|would\s+like|asked|asks|is\s+asking|are\s+asking|has\s+asked|have\s+asked|wonders|wondered|"
    r"requested|requests|is\s+wondering|are\s+wondering|was\s+asking|were\s+asking)"
    r"(?:\s+(?:me|us|you))?(?:\s+(?:to\s+(?:know|find\s+out|check|see|confirm|pull|look\s+up)|whether|if|about|for))*"
)
# what someone of the asker's told them, at the head of the ask ("our sterilization guy says the cassettes got
# recalled", "my ortho buddy says ..."): who said it is the asker's context, what was said is the question's topic
_HEARSAY = re.compile(
    r"(?i)(^|[.?!:;]\s*)(?:our|my|the|a)\s+(?:[a-z][\w-]*\s+){0,2}?(?:guy|gal|person|buddy|friend|rep|coworker|co-worker|"
    r"colleague|folks|tech|nurse|doctor|dentist|surgeon|boss|manager|vendor|supplier)\s+(?:says|said|thinks|thought|"
    r"mentioned|told\s+(?:me|us)|claims|claimed|swears|reckons)\s+(?:that\s+)?"
)
_DEPT_ASKS = re.compile(
    r"(?i)(^|[.?!:;]\s*)(?:(?:our|my|the)\s+)?(?:"
    + _DEPARTMENT
    + r"(?:\s+"
    + _ROLE
    + r")?|(?:our|my|the)\s+"
    + _ROLE
    + r")\s+"
    + _ASKS
    + r"(?:\s*,\s*|\s+)"
)
# a colon's lead that is a department or a role alone ("Value analysis committee:", "Supply chain:")
_DEPT_LEAD = re.compile(
    r"(?i)^\W*(?:(?:our|my|the|from|for)\s+)*(?:" + _DEPARTMENT + r"(?:\s+" + _ROLE + r")?|" + _ROLE + r")\W*$"
)
# a closing clause about who asks and why, with no restriction of its own: "..., our supplier audit form asks",
# "..., my boss wants a trend chart", "- the auditor asked"
_TAIL_ASKER = re.compile(
    r"(?i)(?:,\s*|\s+[-–—]\s*)(?:our|my|the|his|her|their)\s+(?:[a-z][\w'-]*\s+){0,3}?(?:asks?|asked|wants?|wanted|"
    r"needs?|needed|requires?|required|requests?|requested|expects?)\b(?:\s+[a-z][\w'-]*){0,4}[\s?.!]*$"
)
_TRAILING_PULL = re.compile(
    r"(?i)\s*[-–—,;]\s*(?:can|could)\s+(?:you|u)\s+(?:please\s+)?(?:pull|get|grab|send|do)\s+"
    r"(?:it|that|this|them)\s*(?:please|pls)?[?.!]*\s*$"
)


@dataclass
class Framed:
    text: str  # what is read
    context: list[str] = field(default_factory=list)  # the frame's words, said in the answer as not searched
    kept: list[str] = field(default_factory=list)  # names the frame held that still count
    bound: list[str] = field(default_factory=list)  # a device the frame named that "that device" in the ask is
    frames: list[str] = field(default_factory=list)  # the leads and sentences taken as background, as said


# shorthand that is also a product code or a firm's own word: "product code MOS", "MFR", "Hu-Friedy Mfg. Co.",
# "the Sub Q device" are left as said
_CODE_SAID = re.compile(r"(?i)\b(?:product\s+codes?|procodes?|codes?)\s*:?\s*$")
_CODES_LIKE = frozenset({"MOS", "MOM", "MFR", "MFG", "REG", "SUB"})
_FIRM_AFTER = re.compile(r"(?i)\.?\s*,?\s*(?:co|inc|corp|llc|ltd|company|corporation)\b")


def _as_said(m: re.Match[str]) -> bool:
    word = m[0].strip(" .")
    before = m.string[: m.start()]
    if word.isupper() and len(word) == 3 and word.isalpha() and (word in _CODES_LIKE or _CODE_SAID.search(before)):
        return True
    if word.lower() in ("mfr", "mfg", "manuf") and (
        _FIRM_AFTER.match(m.string, m.end()) or word[0].isupper() and re.search(r"[A-Z][\w-]*\s+$", before)
    ):
        return True
    if word.lower() == "mos" and not _MONTHS_BEFORE.search(before) and not _MONTHS_AFTER.match(m.string, m.end()):
        return True  # "MDRs for mos": a product code said in lower case, not "months"
    if word.lower() in ("supp", "supps") and word[0].isupper() and _NAME_AFTER.match(m.string, m.end()):
        return True  # "510(k)s for Supp Medical": a firm's name, not supplements
    return word.lower() in ("sub", "subs") and word[0].isupper()


# a name's next word after a capitalised shorthand ("Supp Medical"), not a record's kind ("Supp Approvals")
_NAME_AFTER = re.compile(r"\s+(?!(?:Approvals?|Decisions?|Reports?|Records?|Submissions?|Orders?)\b)[A-Z][a-z]")
# what says "mos" is months: a number or a word of time before it ("6 mos", "last few mos"), "ago" after it
_MONTHS_BEFORE = re.compile(
    r"(?i)(?:\d|\b(?:last|past|next|few|several|couple|many|of|a|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|\w+teen|\w+ty))\s*$"
)
_MONTHS_AFTER = re.compile(r"(?i)\s*(?:ago|old|back|later|earlier|before|after|prior|since|from|of|to)\b")


# a class numeral listed after "class X" with no "class" of its own ("class I vs II vs III", "class 2 or 3")
_BARE_CLASS = re.compile(
    r"(?i)(\bclass\s+(?:iii|ii|i|[123])\s*(?:,|vs\.?|versus|or|and|/|&)\s*(?:and\s+|or\s+)?)(iii|ii|i|[123])\b(?![\d.])"
)
# a part of the firm already named ("Medtronic, incl. Medtronic Neuromodulation"): the firm's name finds it too
_PART_OF_FIRM = re.compile(
    r"(?i)(\b([A-Z][\w&-]{2,})\b.*?)[,;]?\s*\(?\b(?:incl\.?|including)\s+\2(?:\s+(?-i:[A-Z])[\w&-]*){0,3}\)?(?=[\s,?.!;]|$)"
)


_SLASH_DAY = re.compile(r"\b(\d{1,2})/(\d{1,2})/((?:19|20)\d\d)\b")
_DOT_DAY = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.((?:19|20)\d\d)\b")


def _day_first(text: str) -> str:
    """Days typed day first are written as ISO dates: "20.06.2012" always; "31/12/2012" and every other slashed
    date of the same question ("between 01/12/2022 and 31/12/2022") when one of them cannot be month first."""

    def iso(m: re.Match[str], day_first: bool) -> str:
        d, mo = (int(m[1]), int(m[2])) if day_first else (int(m[2]), int(m[1]))
        return f"{m[3]}-{mo:02d}-{d:02d}" if 1 <= mo <= 12 and 1 <= d <= 31 else m[0]

    text = _DOT_DAY.sub(lambda m: iso(m, True), text)
    if any(int(m[1]) > 12 and int(m[2]) <= 12 for m in _SLASH_DAY.finditer(text)):
        text = _SLASH_DAY.sub(lambda m: iso(m, True), text)
    return text


# "got the green light", "green-lit": the idiom for a positive FDA decision, approved where approvals are asked
_GREEN_LIGHT = re.compile(
    r"(?i)\b(?:(?:got|get|gets|getting|received?|receiving|was\s+given|were\s+given|given)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?:(?:the\s+)?fda'?s\s+|fda\s+)?"
    r"(?:green[\s-]?light(?:ed)?|nod|go[\s-]?ahead|thumbs[\s-]?up|ok|okay|all[\s-]?clear|seal\s+of\s+approval|"
    r"blessing|sign[\s-]?off)(?:\s+to\s+(?:sell|market|launch))?|green[\s-]?lit|green[\s-]?lighted|"
    r"(?:the\s+)?fda(?:'s)?\s+(?:green[\s-]?lights?|go[\s-]?ahead|thumbs[\s-]?up|blessing)|"
    r"green[\s-]?lights?\s+from\s+(?:the\s+)?fda)\b"
)
# the devices of the premarket approval track said in lay words where a decision is asked: "Medtronic's high-risk
# implants", "implants/high risk stuff", "its highest-risk devices"
_HIGH_RISK = re.compile(
    r"(?i)\b(?:(?:implants?|devices?)\s*/\s*)?(?:high(?:est)?[\s-]+risk|riskiest)\s+"
    r"(?:implants?|devices?|stuff|products?|things?|implantables?)\b"
)
_DECIDED = re.compile(
    r"(?i)\b(?:approv\w*|pmas?|sign(?:ed|s)?[\s-]+off|green[\s-]?l(?:igh)?it?\w*|decisions?|decided|nod|ok|okay)\b"
)
_FIELD_ASKED = re.compile(r"(?i)\b(?:gmdn|product\s+codes?|procodes?|regulation|class|category|term|panel)\b")
# a label's words quoted ('say "not made with NRL"'): the flag the words name, read as if said plainly
_QUOTED = re.compile(r"[\"“']([^\"”']{2,60})[\"”']")
_APPROVAL = re.compile(r"(?i)\b(?:pmas?|approv\w*|premarket\s+approvals?)\b")


# "Q1 2023 vs same quarter prior year": the same quarter of the year before, said
_SAME_QUARTER = re.compile(
    r"(?i)\b(Q[1-4])\s+((?:19|20)\d\d)(\s+(?:vs\.?|versus|and|compared\s+(?:with|to)|against)\s+)(?:the\s+)?same\s+"
    r"quarter\s+(?:of\s+)?(?:the\s+)?(?:prior|previous|last|preceding)\s+year\b"
)


def expand_shorthand(text: str) -> str:
    """The question's shorthand written out ("yr" -> "year", "FEI #" -> "FEI number"); a word said as a product code
    or as part of a firm's name is left as said."""
    text = _day_first(text)
    for pat, rep in _SHORT:

        def written(m: re.Match[str], rep: str = rep) -> str:
            return m[0] if _as_said(m) else m.expand(rep)

        text = re.sub(pat, written, text, flags=re.IGNORECASE)
    if not _REGISTRATION.search(text):  # "what device problem was listed?", "product problem listed?": the field of
        # the records found, never the registration listings
        text = re.sub(
            r"(?i)(\b(?:problems?|failure\s+modes?|causes?|reasons?|issues?))\s+(?:was\s+|were\s+|is\s+|are\s+|did\s+it\s+)?"
            r"(?:listed|list)(?=\s*\?*\s*$)",
            r"\1",
            text,
        )
    text = _SAME_QUARTER.sub(lambda m: f"{m[1]} {m[2]}{m[3]}{m[1]} {int(m[2]) - 1}", text)
    if _FIELD_ASKED.search(text):  # "what GMDN term is the X listed under": the verb, not the registration listings
        text = re.sub(r"(?i)\b(?:listed|filed|classified|categori[sz]ed)\s+(?=under\b|as\b)", "", text)
    text = _QUOTED.sub(lambda m: m[1] if tuple(m[1].lower().split()) in vocab.FILTER_PHRASES else m[0], text)
    if _DECIDED.search(_HIGH_RISK.sub("", text)):
        text = _HIGH_RISK.sub("PMA decisions", text)  # every decision of the track, not only original approvals
    text = _GREEN_LIGHT.sub(lambda m: "approved" if _APPROVAL.search(text) else "cleared", text)
    text = _PART_OF_FIRM.sub(r"\1", text)
    while (more := _BARE_CLASS.sub(r"\1class \2", text)) != text:
        text = more  # "class I vs II vs III": each one a class
    text = re.sub(  # "reg 9610240", "reg no 9610240", "reg number 9610240": an establishment's registration number
        r"(?i)\breg\.?\s+(?:(?:no|number|num|nbr|#)\.?\s*)?(?=\d{5,10}\b)", "registration number ", text
    )
    if re.search(r"(?i)\bregs\b|\breg\b(?<!(?-i:REG))", text):
        word = "registrations" if _REGISTRATION.search(text) else "regulations"
        text = re.sub(r"(?i)\bregs\b", word, text)
        text = re.sub(r"(?i)\breg\b(?<!(?-i:REG))", word[:-1], text)
    return re.sub(r"[ \t]+(?=[,?])", "", re.sub(r"[ \t]{2,}", " ", text)).strip()


def _sentences(text: str) -> list[str]:
    """The text's sentences; a full stop after an abbreviation or an initial ("St. Jude", "vs.", "Corp.") ends none."""
    out: list[str] = []
    for p in _SENTENCE.split(text):
        if out and _NO_END.search(out[-1]):
            out[-1] += " " + p
        else:
            out.append(p)
    return out


def _courtesy(remark: str) -> bool:
    """A remark in brackets made only of courtesy words ("(ballpark is fine)"); "(class I only please)" is no
    remark: it restricts."""
    return all(w in _COURTESY for w in re.findall(r"[a-z']+", remark.lower()))


def _own_clause(clause: str, rest: str) -> bool:
    """A For-clause about the asker's own work ("For our memo,", "For the annual PMS report,", "For a market-sizing
    exercise I need ..."), never a topic ("For an insulin pump,", "For a Class II device,")."""
    m = re.match(r"(?i)^\s*(?:for|as\s+part\s+of)\s+(\w+)", clause)
    if _RESTRICTS.search(clause):
        return False
    return bool(
        m and m[1].lower() not in ("a", "an", "the") or _WORK.search(clause) or re.match(r"(?i)(?:i|we)\b", rest)
    )


def _bracket(m: re.Match[str], keeps: Callable[[str], bool], noted: list[str]) -> str:
    """A bracket of capitalised words: a site beside a name ("(Vercelli)", "(Austin, TX)") is dropped as context; a
    firm, place, status or class said in it ("(Medtronic)", "(Puerto Rico)", "(Terminated)") is kept, unbracketed."""
    before = m.string[: m.start()]
    site = re.fullmatch(r"[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*,\s*[A-Z]{2}", m[1]) or _LEGAL_END.search(before)
    if _RESTRICTS.search(m[1]) or not site and keeps(m[1]):
        return " " + m[1]
    noted.append(m[1])
    return ""


# an ask's words for a device named before it ("How many recalls has that device type had?", "this device",
# "those devices"): the device the frame named
_DEVICE_REF = re.compile(
    r"(?i)\b(?:that|this|those|these|the\s+same|said)\s+(?:(?:kind|type|sort|class)\s+of\s+(?:device|product)s?|"
    r"(?:medical\s+)?(?:device|product)(?:\s+(?:types?|kinds?|categor(?:y|ies)|famil(?:y|ies)))?s?)\b|"
    # "which class has this at FDA?": "this" alone as the object of the ask, after a sentence that names the device
    r"(?:(?<=\bhas\s)|(?<=\bhave\s)|(?<=\bfor\s)|(?<=\bof\s)|(?<=\bis\s)|(?<=\bgets\s))this\b"
    r"(?=\s*(?:at|in|with|under|by|from)?\s*(?:the\s+)?(?:fda|us|usa|u\.s\.)?\s*[?.!]*\s*$)|"
    r"\b(?:this|it)(?=\s+(?:has|gets|got|had)\s*(?:at|in|with|under|by|from)?\s*(?:the\s+)?(?:fda|us|usa|u\.s\.)?"
    r"\s*[?.!]*\s*$)|"
    # "... something called a Somnera system. is that fda cleared?": "that" the subject of a clearance asked
    r"(?:(?<=\bis\s)|(?<=\bwas\s)|(?<=\bhas\s))(?:that|this|it)(?=\s+(?:(?:fda|FDA)[\s-]+)?(?:been\s+)?(?:cleared|approved)\b)"
)


def names_asker(text: str) -> bool:
    """The text is a department or a role of the asker's own ("Value analysis committee", "our OR manager")."""
    return bool(_DEPT_LEAD.search(text.strip(" ,.;:!?-")))


def _bind_device_ref(frames: list[str], parts: list[str], device_in: Callable[[str], str]) -> list[str]:
    """An ask that says "that device type" / "this device" / "those devices" after a sentence or a lead that names a
    device: the words are that device, written in place (the frame stays context)."""
    refs = [k for k, p in enumerate(parts) if _DEVICE_REF.search(p)]
    if not refs:
        return []
    before = frames + [p for k, p in enumerate(parts) if k < refs[0] and not _ASK.search(p)]
    for f in reversed(before):  # the nearest one
        if words := device_in(f):
            for k in refs:
                parts[k] = _DEVICE_REF.sub(words, parts[k])
            return [words]
    return []


def reframe(
    question: str,
    names_in: Callable[[str], list[str]],
    doubt: Callable[[str, str], bool] = lambda frame, ask: False,
    keeps: Callable[[str], bool] = lambda words: False,
    device_in: Callable[[str], str] = lambda text: "",
) -> Framed:
    """The question without its frame. `names_in(text)` gives the firms, devices, record numbers and periods a
    frame's text names (read with the question's own rules), which are kept beside the ask. `doubt(sentence, ask)`
    says when a sentence with no ask may still name what the ask is about ("We track infusion pumps. Any recalls?"):
    that sentence is read with the ask. `keeps(words)` says when the words of a bracket name a firm or a place to
    count by; a sentence or bracket that restricts ("Class II only.", "(class I only please)") stays with the ask."""
    text = expand_shorthand(question.strip())
    text = _GREETING.sub("", text)
    text = _MODAL.sub(lambda m: m[1], text)
    text = _US_OBJECT.sub(lambda m: m[1], text)
    text = _ENTITY_NOTE.sub("", text)
    noted: list[str] = []
    text = _PLACE_NOTE.sub(lambda m: _bracket(m, keeps, noted), text)
    uses = [m[0].strip(" ,-–—.?!:;") for m in _WHO_NEEDS.finditer(text)]
    text = _WHO_NEEDS.sub(lambda m: m[1], text)
    uses += [m[0].strip(" ,-–—.?!:;") for m in _DEPT_ASKS.finditer(text)]
    text = _DEPT_ASKS.sub(lambda m: m[1], text)
    uses += [m[0].strip(" ,-–—.?!:;") for m in _HEARSAY.finditer(text)]
    text = _HEARSAY.sub(lambda m: m[1], text)
    text = _TRAILING_PULL.sub("", text)
    tail = _TAIL_ASKER.search(text)
    if tail and not (_RESTRICTS.search(tail[0]) or _DATASET_WORD.search(tail[0]) or re.search(r"\d", tail[0])):
        uses.append(tail[0].strip(" ,-–—.?!"))
        text = text[: tail.start()] + ("?" if "?" in tail[0] else "")
    uses += [m[0].strip(" ,-–—") for m in _TAIL_CLAUSE.finditer(text)]
    text = _TAIL_CLAUSE.sub("", text)
    uses += [m[0].strip() for m in _OWN_USE.finditer(text)]
    text = _OWN_USE.sub("", text)
    remarks = [m[0].strip(" ()") for m in _REMARK.finditer(text) if _courtesy(m[0])]
    text = _REMARK.sub(lambda m: "" if _courtesy(m[0]) else " " + m[0].strip(" ()"), text)
    remarks += uses + noted
    out = Framed(text=text, context=[w for r in remarks for w in r.split()])
    if _YES_NO_TAIL.search(text) and _YES_NO_TAIL.sub("", text).strip():
        text = _YES_NO_TAIL.sub("", text).strip()
        parts = _sentences(text)
        last = parts[-1]
        if not (_YES_NO_HEAD.search(last) or _YES_NO_INSIDE.search(last)):  # "X class I recalls, yes or no": any?
            text = " ".join(parts[:-1] + ["any " + last])
        text = text.rstrip("?.! ") + "?"
    frames: list[str] = []
    colon = re.match(r"^([^:?]{2,120}):\s+(?=\S)", text)
    if (
        colon
        and (not _ASK.search(colon[1]) or _REVIEW_LEAD.match(colon[1]))
        and not re.search(r"\d", colon[1])
        and (_OWN_LEAD.search(colon[1]) or _DEPT_LEAD.search(colon[1]))
        and not _RESTRICTS.search(colon[1])
        and not (_DATASET_WORD.search(colon[1]) and not _WORK.search(colon[1]))
    ):
        frames.append(colon[1])
        text = text[colon.end() :]
    clause = _FOR_CLAUSE.match(text)
    if clause and not _ASK.search(clause[0]) and _own_clause(clause[0], text[clause.end() :]):
        frames.append(clause[0].strip(" ,"))
        text = text[clause.end() :]
    parts = [_LABEL.sub("", p) for p in _sentences(text)]
    for k, p in enumerate(parts):
        lead = _FOR_CLAUSE.match(p) if k else None  # "... predicate. For the risk analysis, what root cause ...?"
        lead = lead if lead and not _ASK.search(lead[0]) and _own_clause(lead[0], p[lead.end() :]) else None
        lead = lead or _WHEN_WE.match(p) or _OWN_DASH.match(p)  # "Before we send product to them for EO, ..."
        if lead and p[lead.end() :].strip() and not _RESTRICTS.search(lead[0]):
            frames.append(lead[0].strip(" ,"))
            parts[k] = p[lead.end() :]
    bound = _bind_device_ref(frames, parts, device_in)
    text = " ".join(parts)
    if len(parts) > 1:
        asks = [p for p in parts if _ASK.search(p) or _IMPERATIVE.search(p) or _REQUEST.search(p)]
        if any("?" in p for p in asks):
            asks = [
                p for p in asks if not (_OWN_STATEMENT.search(p) and not _STRONG_ASK.search(p) or _SHOWING.search(p))
            ]
        asks = [p for p in parts if p in asks or asks and (_RESTRICTS.search(p) or doubt(p, " ".join(asks)))]
        if asks and all(_BARE_ASK.match(p) for p in asks) and not any(_OWN_STATEMENT.search(p) for p in parts):
            asks = parts  # "recalls with employee error as the root cause. Total?": the sentence before is the ask's
        if asks and len(asks) < len(parts):
            frames += [p for p in parts if p not in asks]
            text = " ".join(asks)
    out.bound = bound
    out.frames = [f.strip(" ,;:-–—") for f in frames if f.strip(" ,;:-–—")]
    if not frames:
        out.text = text
        return out
    for f in frames:
        out.kept += [  # (a device bound into the ask, "that" for "a Somnera system", is not kept again)
            k for k in names_in(f) if k.lower() not in text.lower() and not any(b.lower() in k.lower() for b in bound)
        ]
    out.context += [w.strip(".,;:!?\"'()") for f in frames for w in f.split()]
    firms = [k for k in out.kept[:1] if not re.search(r"\d", k)]  # a period or record number is no "they"
    if firms and _PRONOUN.search(text):
        text = _PRONOUN.sub(lambda m: firms[0] + ("'s" if m[1].lower().startswith("their") else ""), text)
        out.kept = out.kept[1:]
    if out.kept:
        text = text.rstrip() + " " + " ".join(out.kept)
    out.text = re.sub(r"\s{2,}", " ", text).strip()
    return out
