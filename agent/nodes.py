"""The graph's nodes: start, direct reply, understand, clarify, plan, tools, reflect, answer (wired in graph.py)."""

from __future__ import annotations

import difflib
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from langgraph.types import interrupt

from . import guard, prompts
from .answer import (
    citations,
    clarify_text,
    grounded,
    interpreted_line,
    last_result,
    not_understood,
    query_answer,
    summary,
    write_answer,
)
from .events import ANSWER, ERROR, NOTE, STEP, TOKEN, TOOL_CALL, TOOL_RESULT, event
from .planner import call_key, plan_calls
from .quality import passes_quality
from .servers import surface
from .servers.surface import QUERY_TOOL
from .state import TURN_RESET, AgentState
from .tools import ToolContext, ToolError, run_tool
from .tools.base import ToolResult
from .tools.searchers import UnsupportedFilter
from .tools.specs import LABEL, SPECS
from .understand.accounting import account, place_dropped, weak_sides
from .understand.guards import confirm_zero, weak_zero
from .understand.interpret import apply_choice, interpret
from .understand.query_syntax import read_query, search_words
from .understand.refusals import refusal_reply, refuses
from .understand.spanish import to_english
from .understand.spoken import from_speech
from .understand.tokens import tokenize
from .understand.types import Clarification, Interpretation, LastResult
from .understand.vocab import DATASET_PHRASES, match_phrases
from .writing import field_label

__all__ = ["Nodes", "pick"]


def pick(reply: Any, clar: Clarification) -> int | None:
    """The index of the choice a reply names: its number (1-based) or its label; None when it names none."""
    text = str(reply if reply is not None else "").strip().lower().rstrip(".")
    if m := re.fullmatch(r"(?:#|no\.?|number|choice|option)?\s*(\d{1,2})", text):
        k = int(m[1]) - 1
        return k if 0 <= k < len(clar.choices) else None
    for k, c in enumerate(clar.choices):
        if text and (text == c.label.lower() or len(text) > 3 and text in c.label.lower()):
            return k
    return None


def _plain_words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


# the filters a dataset may not hold, in the words of the answer (never the tool's argument names)
_FILTER_WORDS = {
    "exclude_country": "place (outside a country)",
    "country": "country",
    "state": "US state",
    "city": "city",
    "date_from": "date",
    "date_to": "date",
}


def _said_other_dataset(question: str, ds: str, implied: list[str] | None = None) -> bool:
    """The model's reading chose a dataset the question did not give: another than the one it names ("maude reports
    ..." read as 510(k)s), or, when it names none, one that nothing said implies ("how many times has X gotten in
    trouble?" read as 510(k)s). `implied`: the datasets the rules read from the question's fields and filters."""
    found = match_phrases(tokenize(question), DATASET_PHRASES, "dataset", take=False)
    said = {tag for _, _, tag in found if not tag.endswith("?")}
    near = {"enforcement": "recall", "gudid": "udi"}  # one kind of record in two datasets
    said = {near.get(t, t) for t in said} or {near.get(t, t) for t in implied or []}
    return near.get(ds, ds) not in said


@dataclass
class Nodes:
    ctx: ToolContext
    model: Any  # a ChatModel from agent.models, or None
    max_iterations: int
    emit: Callable[[dict], None]
    render_budget: int = 1800
    said: set = field(default_factory=set)  # notes said once per assistant

    # -- start / direct ------------------------------------------------------------------------------
    def start(self, state: AgentState) -> dict:
        said = state["messages"][-1]["content"] if state.get("messages") else ""
        question = search_words(from_speech(to_english(said)))  # Spanish read in English; dictated forms and a
        # database searcher's words ("number of results?") written as typed
        last = state.get("last") or {}
        route = guard.classify(question, has_context=bool(last.get("codes") or last.get("firms")))
        if refuses(route, question):
            route = "out_of_scope"  # asks for what no record holds: refused, never answered with counts
        elif route == "ask" and read_query(question, last.get("query") or None):
            route = "query"  # written in the openFDA search syntax: run as the request it spells
        self.emit(event(STEP, step="guard", route=route))
        return {**TURN_RESET, "question": question, "route": route}

    def direct(self, state: AgentState) -> dict:
        if state["route"] == "query":
            return self._query(state)
        refusal = refusal_reply(state.get("question", "")) if state["route"] == "out_of_scope" else None
        return self._final(state, refusal or guard.reply(state["route"]), [])

    def _query(self, state: AgentState) -> dict:
        """A question in the openFDA search syntax, answered by the request it spells, with the request to replay."""
        last = state.get("last") or {}
        q = read_query(state["question"], last.get("query") or None)
        assert q is not None
        args = {"endpoint": q.endpoint, **q.params(), "limit": 1000 if q.count else 10}
        self.emit(event(TOOL_CALL, tool=QUERY_TOOL, args=args))
        called = surface.call(self.ctx.api, QUERY_TOOL, args)  # the MCP and HTTP servers' openfda_query
        out_ = called.structured or {}
        results, total, prov = out_.get("results", []), out_.get("total", 0), out_.get("provenance", [{}])[0]
        spec = SPECS.get(q.endpoint)
        id_field = spec.ids[0] if spec else ""
        at = spec.row.get(id_field, id_field) if spec else id_field
        rows = [] if q.count or not id_field else [{id_field: surface.first_value(r, at)} for r in results]
        result = ToolResult(
            tool=QUERY_TOOL, total=total, rows=rows, id_fields=[id_field] if rows else [], provenance=[prov]
        )
        self.emit(event(TOOL_RESULT, tool=QUERY_TOOL, ok=called.error is None, summary=f"total {total}"))
        ids = [
            str(r[id_field])
            + "".join(f" ({field_label(f)}: {surface.first_value(rec, f)})" for f in q.shown if f != at)
            for r, rec in zip(rows, results)
            if r[id_field]
        ]
        as_of = result.provenance[0].as_of
        text = query_answer(q, total, results, as_of, result.provenance[0].cite(), ids)
        if not total and not q.count and (near := self._near_value(q)):
            text = f"{text.split(chr(10), 1)[0]}\n\n{near}\n\n{text.split('Sources:', 1)[-1].join(['Sources:', ''])}"
        out = self._final(state, text, [result.model_dump(mode="json")])
        found = [str(r[id_field]) for r in rows if r[id_field]]
        last_ = LastResult(dataset=q.endpoint, query={"endpoint": q.endpoint, "search": q.search})
        if len(found) == 1:  # one record found: "its recall class?" asks a field of it, as after any answer
            named, _ = interpret(self.ctx, f"{LABEL.get(q.endpoint, q.endpoint)} {found[0]}", None)
            if named.understood:
                last_ = last_result(named, [], []).model_copy(update={"query": last_.query, "dataset": q.endpoint})
        out["last"] = last_.model_dump(mode="json")
        return out

    def _brand(self, words: list[str]) -> set[str]:
        """The words that are a firm's name in the data and no device word ("oec" of "OEC c-arm")."""
        from mirror.lookup.lexicon import device_word_reach, firm_words

        firms = firm_words(self.ctx.api, words)
        reach = device_word_reach(self.ctx.api, sorted(firms)) if firms else {}
        return {w for w in firms if not reach.get(w)}

    def _device_words(self, words: list[str]) -> set[str]:
        """The words that name devices in the product codes' names ("insulin", "pump")."""
        from mirror.lookup.lexicon import device_word_reach

        return {w for w, n in device_word_reach(self.ctx.api, words).items() if n}

    def _near_value(self, q: Any) -> str:
        """A quoted value no record holds, beside a value the records do hold that is spelled almost the same
        (root_cause_description:"Employe error", where recalls say "Employee error"): no figure, and the value to
        ask with. A zero for a misspelled value would be a confident wrong figure."""
        for m in re.finditer(r'(?<!NOT )(?<![\w.])([a-z][\w.]*):"([^"]{3,})"', q.search):
            name, value = m[1].removesuffix(".exact"), m[2]
            args = {"endpoint": q.endpoint, "count": f"{name}.exact", "limit": 1000}
            terms = [
                str(r.get("term"))
                for r in (surface.call(self.ctx.api, QUERY_TOOL, args).structured or {}).get("results", [])
                if r.get("term")
            ]
            lows = {t.lower(): t for t in terms}
            close = difflib.get_close_matches(value.lower(), list(lows), n=1, cutoff=0.8)
            if close and close[0] != value.lower():
                held = lows[close[0]]
                label = field_label(name.rsplit(".", 1)[-1])
                return (
                    f'I give no figure: "{value}" is not a {label} that any of these records holds, and "{held}" is '
                    f"one they hold, spelled almost the same. If that is what you meant, ask again with "
                    f'{name}:"{held}".'
                )
        return ""

    # -- understand / clarify ---------------------------------------------------------------------------
    def understand(self, state: AgentState) -> dict:
        last = LastResult(**state["last"]) if state.get("last") else None
        it, clar = interpret(self.ctx, state["question"], last)
        said = state["messages"][-1]["content"] if state.get("messages") else ""
        if said and said.strip() != state["question"] and _plain_words(said) != _plain_words(state["question"]):
            it.notes.append(f'Your question was read as "{state["question"]}"')
        model_calls = 0
        if clar is not None and self.model is not None:
            clar, model_calls = self._model_order(it, clar)
        elif not it.understood and self.model is not None:
            it, clar, model_calls = self._model_fill(it, last)
        out: dict = {
            "interpretation": it.model_dump(mode="json"),
            "model_calls": model_calls,
            "clarify": clar.model_dump(mode="json") if clar else {},
        }
        return out

    def clarify(self, state: AgentState) -> dict:
        """Ask the person (a LangGraph interrupt); resume with their reply: a choice's number or label."""
        clar = Clarification(**state["clarify"])
        reply = interrupt({"question": clar.question, "choices": [c.label for c in clar.choices]})
        k = pick(reply, clar)
        if k is None:
            return {"skipped": True, "clarify": {}}
        it = apply_choice(Interpretation(**state["interpretation"]), clar.choices[k])
        it.confirmed = True  # a reading the person picked: its zero is said, not asked about again
        self.emit(event(STEP, step="clarify", picked=clar.choices[k].label))
        searched: dict = {}
        if state.get("calls") and any(key != "confirmed" for key in clar.choices[k].patch):  # a new search
            searched = {"calls": [], "evidence": [], "dropped": [], "iteration": 0, "phase": "search"}
        return {
            **searched,
            "interpretation": it.model_dump(mode="json"),
            "clarify": {},
            "picked": clar.choices[k].label,
            "messages": [{"role": "assistant", "content": clarify_text(clar)}, {"role": "user", "content": str(reply)}],
        }

    def _model_fill(self, it: Interpretation, last: LastResult | None) -> tuple[Interpretation, Any, int]:
        """The rules could not read the question: the model fills the reading's schema (dataset, device, firm,
        record number). Only words that are in the question are kept, and they are read again by the rules;
        the model never states a figure."""
        try:
            out = self.model.json(prompts.fill_messages(it.question), prompts.FILL_SCHEMA, max_tokens=96)
        except Exception as e:  # a model failing must not fail the user
            self.emit(event(ERROR, where="model reading", message=str(e)))
            return it, None, 1
        q = it.question.lower()
        parts = [str(out.get(k) or "").strip() for k in ("record", "device", "firm")]
        kept = [p for p in parts if len(p) > 1 and p.lower() in q]
        kept = list({p.lower(): p for p in reversed(kept)}.values())[::-1]  # one word read as two sides: one
        ds = out.get("dataset") if out.get("dataset") in prompts.DATASET_WORDS else None
        if not kept or ds is None or _said_other_dataset(it.question, ds, it.datasets):
            it.notes.append("The language model could not read it either")
            return it, None, 1
        words = (
            prompts.DATASET_WORDS[ds]
            + " "
            + " ".join(f"{'by ' if p == parts[2] else 'for ' if p == parts[1] else ''}{p}" for p in kept)
        )
        again, clar = interpret(self.ctx, words, last)
        if not again.understood:
            return it, None, 1
        again.question = it.question
        again.unexplained = [w for w in it.unexplained if w.lower() not in " ".join(kept).lower()]
        if again.unexplained and not again.narrowed():  # "defib fda class?" read as "classification":
            it.notes.append("The language model could not read it either")  # a count of the whole dataset
            return it, None, 1
        again.notes.append(f'read with the help of {getattr(self.model, "name", "the model")} as "{words}"')
        again.confidence = min(again.confidence, 0.6)
        return again, clar, 1

    def _model_order(self, it: Interpretation, clar: Clarification) -> tuple[Clarification, int]:
        """The model suggests which choice fits the question (constrained to the choices); it is listed first.
        The person still picks: a model's guess never becomes a figure on its own."""
        schema = {
            "type": "object",
            "properties": {"choice": {"type": "integer", "minimum": 1, "maximum": len(clar.choices)}},
            "required": ["choice"],
        }
        try:
            out = self.model.json(
                prompts.choose_messages(it.question, clar.question, [c.label for c in clar.choices]),
                schema,
                max_tokens=16,
            )
        except Exception as e:  # a model failing must not fail the user
            self.emit(event(ERROR, where="model choice", message=str(e)))
            return clar, 1
        k = int(out.get("choice", 1)) - 1
        if 0 < k < len(clar.choices):
            choices = [clar.choices[k]] + [c for i, c in enumerate(clar.choices) if i != k]
            choices[0] = choices[0].model_copy(update={"label": choices[0].label + " (suggested)"})
            clar = clar.model_copy(update={"choices": choices})
        return clar, 1

    # -- plan / tools / reflect -------------------------------------------------------------------------
    def plan(self, state: AgentState) -> dict:
        it = Interpretation(**state["interpretation"])
        dropped = set(state.get("dropped", []))
        calls = []
        for c in plan_calls(it):
            args = {k: v for k, v in c["args"].items() if k not in dropped}
            if "filters" in args:
                args["filters"] = {k: v for k, v in args["filters"].items() if f"filters.{k}" not in dropped}
                if not args["filters"]:
                    args.pop("filters")
            calls.append({**c, "args": args})
        done = {c["key"] for c in state.get("calls", []) if c.get("ok")}
        fresh = [c for c in calls if call_key(c["tool"], c["args"]) not in done]
        if state.get("iteration"):
            failed = {call_key(c["tool"], c["args"]) for c in state.get("calls", []) if not c.get("ok")}
            fresh = [c for c in fresh if call_key(c["tool"], c["args"]) not in failed]
        self.emit(
            event(
                STEP,
                step="plan",
                calls=[{"tool": c["tool"], "args": c["args"]} for c in fresh],
                interpretation=state["interpretation"],
            )
        )
        return {"plan": fresh, "phase": "done"}

    def tools(self, state: AgentState) -> dict:
        plan = state.get("plan", [])
        for c in plan:
            self.emit(event(TOOL_CALL, tool=c["tool"], args=c["args"]))
        with ThreadPoolExecutor(max_workers=min(4, max(1, len(plan)))) as pool:
            outcomes = list(pool.map(self._run_one, plan))
        evidence, calls = list(state.get("evidence", [])), list(state.get("calls", []))
        for c, (result, error, unsupported) in zip(plan, outcomes):
            rec = {
                "tool": c["tool"],
                "args": c["args"],
                "key": call_key(c["tool"], c["args"]),
                "ok": error is None,
                "dataset": c.get("dataset", ""),
                "label": c.get("label", ""),
            }
            if error is None and result is not None:
                rec.update(
                    result_index=len(evidence),
                    summary=summary(result),
                    queries=[p["query"] for p in result["provenance"]],
                )
                evidence.append(result)
            else:
                rec.update(summary=error, unsupported=unsupported)
            calls.append(rec)
            self.emit(event(TOOL_RESULT, tool=c["tool"], ok=error is None, summary=rec["summary"]))
        return {"evidence": evidence, "calls": calls, "plan": []}

    def _run_one(self, call: dict) -> tuple[dict | None, str | None, list[str]]:
        try:
            return run_tool(self.ctx, call["tool"], call["args"]).model_dump(mode="json"), None, []
        except UnsupportedFilter as e:
            return None, str(e), [f.split("/")[0] for f in e.filters]
        except ToolError as e:
            return None, str(e), []
        except Exception as e:  # a tool error comes back as text and never crashes the run
            return None, f"{type(e).__name__}: {e}", []

    def reflect(self, state: AgentState) -> dict:
        """Loop back once when a dataset cannot apply a filter: that search runs without it (said in a note)."""
        iteration, dropped = state.get("iteration", 0), list(state.get("dropped", []))
        new = [
            f for c in state.get("calls", []) if not c.get("ok") for f in c.get("unsupported", []) if f not in dropped
        ]
        if new and iteration + 1 < self.max_iterations:
            self.emit(event(STEP, step="reflect", decision="retry without " + ", ".join(new)))
            return {"dropped": dropped + new, "phase": "search", "iteration": iteration + 1}
        self.emit(event(STEP, step="reflect", decision="answer"))
        return {"iteration": iteration + 1, "phase": "done"}

    # -- answer ---------------------------------------------------------------------------------------
    def answer(self, state: AgentState) -> dict:
        it = Interpretation(**state["interpretation"]) if state.get("interpretation") else Interpretation()
        evidence, calls = state.get("evidence", []), state.get("calls", [])
        if not it.understood:
            return self._final(state, not_understood(it), [])
        notes = [
            f"the {_FILTER_WORDS.get(d.replace('filters.', ''), d.replace('filters.', '').replace('_', ' '))} filter "
            "does not apply to one of the datasets, so that search ran without it"
            for d in state.get("dropped", [])
        ]
        if not evidence and not calls:
            return self._final(state, not_understood(it), [])
        totals = [
            evidence[c["result_index"]].get("total", 0)
            for c in calls
            if c.get("result_index") is not None and not c.get("label", "").startswith("supplements")
        ]
        if why := weak_zero(it, totals, self._brand, self._device_words) or weak_sides(
            it, totals
        ):  # a zero over a doubtful reading: asked back
            reading = interpreted_line(it).removeprefix("Interpreted as: ").split(" Words not used:")[0].rstrip(".")
            clar = confirm_zero(it, why, reading)
            self.emit(event(STEP, step="understand", clarify=clar.question))  # the app: "Asked which reading ..."
            return {"clarify": clar.model_dump(mode="json")}
        held, lead = account(it, totals, state.get("dropped", []))  # every filter applied, every measure computed
        if held:
            return self._final(state, f"{interpreted_line(it)}\n\n{held}", [])
        said = it.model_copy(update={"place": None}) if place_dropped(it, state.get("dropped", [])) else it
        text = write_answer(said, evidence, calls, notes)  # a place the search ran without is not said of its counts
        if lead:
            head, _, rest = text.partition("\n\n")
            text = f"{head}\n\n{lead} {rest}" if rest else f"{lead} {head}"
        model_calls = state.get("model_calls", 0)
        if self.model is not None and evidence and self._summaries_allowed():
            narrative, used = self._narrative(state["question"], evidence, text)
            model_calls += used
            if narrative:
                head, _, rest = text.partition("\n\n")
                text = f"{head}\n\nSummary: {narrative}\n\n{rest}"
        last = last_result(it, evidence, calls)
        out = self._final(state, text, evidence, model_calls)
        out["last"] = last.model_dump(mode="json")
        return out

    def _summaries_allowed(self) -> bool:
        ok, note = passes_quality(self.model)
        if not ok and note and note not in self.said:
            self.said.add(note)
            self.emit(event(NOTE, message=note))
        return ok

    def _narrative(self, question: str, evidence: list[dict], facts: str) -> tuple[str, int]:
        chunks = []
        try:
            for chunk in self.model.text(prompts.answer_messages(question, facts)):
                chunks.append(chunk)
                self.emit(event(TOKEN, text=chunk))
        except Exception as e:
            self.emit(event(ERROR, where="model answer", message=str(e)))
            return "", 1
        kept, removed = grounded("".join(chunks), evidence, question)
        if removed:
            self.emit(event(NOTE, message=f"grounding removed {len(removed)} unsupported sentence(s)"))
        return (kept if kept and any(ch.isdigit() for ch in kept) else ""), 1

    def _final(self, state: AgentState, text: str, evidence: list[dict], model_calls: int | None = None) -> dict:
        cites = citations(evidence)
        provenance = [p for e in evidence for p in e.get("provenance", [])]
        self.emit(event(ANSWER, answer=text, citations=cites, provenance=provenance))
        out: dict[str, Any] = {"answer": text, "citations": cites, "messages": [{"role": "assistant", "content": text}]}
        if model_calls is not None:
            out["model_calls"] = model_calls
        return out
