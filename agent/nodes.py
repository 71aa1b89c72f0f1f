"""The graph's nodes: start, direct reply, plan, tools, reflect, answer (wired together in graph.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from . import guard, prompts
from .answer import citations, grounded, summary, template_answer
from .events import ANSWER, ERROR, NOTE, STEP, TOKEN, TOOL_CALL, TOOL_RESULT, event
from .intent import Intent, parse_intent
from .planner import call_key, plan_schema, resolver_calls, searcher_calls
from .state import TURN_RESET, AgentState
from .tools import ToolContext, ToolError, run_tool, validate
from .tools.context import ResolvedDevice, ResolverContext

__all__ = ["Nodes"]


@dataclass
class Nodes:
    ctx: ToolContext
    model: Any                      # a ChatModel from agent.models, or None
    max_iterations: int
    emit: Callable[[dict], None]
    render_budget: int = 1800

    # -- start / direct ------------------------------------------------------------------------------
    def start(self, state: AgentState) -> dict:
        question = state["messages"][-1]["content"] if state.get("messages") else ""
        resolved = ResolverContext(**(state.get("resolved") or {}))
        route = guard.classify(question, has_context=bool(resolved.devices or resolved.firms))
        self.emit(event(STEP, step="guard", route=route))
        return {**TURN_RESET, "question": question, "route": route, "resolved": resolved.model_dump()}

    def direct(self, state: AgentState) -> dict:
        text = guard.reply(state["route"])
        return self._final(state, text, [])

    # -- plan ----------------------------------------------------------------------------------------
    def plan(self, state: AgentState) -> dict:
        it = Intent(**state["intent"]) if state.get("intent") else parse_intent(state["question"], self._today())
        resolved = ResolverContext(**state["resolved"])
        phase = state.get("phase") or "resolve"
        calls: list[dict] = []
        notes = list(state.get("notes", []))
        if phase == "resolve":
            calls = resolver_calls(it, resolved)
            phase = "search" if calls else "search_now"
        if phase in ("search", "search_now") and not calls:
            drop = {n.split(":", 1)[1] for n in notes if n.startswith("dropped:")}
            calls = searcher_calls(it, state.get("evidence", []), resolved, drop)
            phase = "done"
            if it.product_codes:   # codes given directly are context for follow-ups too
                resolved = resolved.model_copy(update={"devices": [ResolvedDevice(product_code=c) for c in it.product_codes]})
        model_calls = state.get("model_calls", 0)
        searched = any(not c["tool"].startswith("resolve_") for c in state.get("calls", []))
        if not calls and phase == "done" and not searched and self.model is not None and not state.get("iteration"):
            calls, used, note = self._model_plan(state["question"])   # the rules found nothing to search
            model_calls += used
            notes += [note] if note else []
        done = {c["key"] for c in state.get("calls", [])}
        fresh, seen = [], set()
        for c in calls:   # identical calls run once per question
            key = call_key(c["tool"], c["args"])
            if key not in done and key not in seen:
                seen.add(key)
                fresh.append(c)
        self.emit(event(STEP, step="plan", phase=phase, calls=[{"tool": c["tool"], "args": c["args"]} for c in fresh]))
        return {"intent": it.to_dict(), "plan": fresh, "phase": phase, "model_calls": model_calls, "notes": notes,
                "resolved": resolved.model_dump()}

    def _model_plan(self, question: str) -> tuple[list[dict], int, str]:
        """Ask the model for tool calls (schema-constrained); invalid ones are repaired or reported."""
        try:
            out = self.model.json(prompts.plan_messages(question), plan_schema())
        except Exception as e:   # a model failing mid-run must not fail the user
            self.emit(event(ERROR, where="model plan", message=str(e)))
            return [], 1, f"the model could not plan ({e}); answered from the question's words only"
        calls = []
        for c in (out.get("calls") or [])[:3]:
            try:
                args = validate(c.get("tool", ""), c.get("args") or {}).model_dump(exclude_defaults=True, mode="json")
                calls.append({"tool": c["tool"], "args": args})
            except ToolError as e:
                self.emit(event(NOTE, message=f"model's call repaired away: {e}"))
        return calls, 1, ""

    def _today(self):
        from datetime import date
        dates = [d for d in self.ctx.api.datasets().values() if d]
        return date.fromisoformat(max(dates)) if dates else date.today()

    # -- tools ----------------------------------------------------------------------------------------
    def tools(self, state: AgentState) -> dict:
        self.ctx.resolved = ResolverContext(**state["resolved"])
        plan = state.get("plan", [])
        for c in plan:
            self.emit(event(TOOL_CALL, tool=c["tool"], args=c["args"]))
        with ThreadPoolExecutor(max_workers=min(4, max(1, len(plan)))) as pool:
            outcomes = list(pool.map(self._run_one, plan))
        evidence = list(state.get("evidence", []))
        calls = list(state.get("calls", []))
        for c, (result, error) in zip(plan, outcomes):
            rec = {"tool": c["tool"], "args": c["args"], "key": call_key(c["tool"], c["args"]), "ok": error is None}
            if error is None:
                rec["result_index"] = len(evidence)
                rec["summary"] = summary(result)
                rec["queries"] = [p["query"] for p in result["provenance"]]
                evidence.append(result)
            else:
                rec["summary"] = error
            calls.append(rec)
            self.emit(event(TOOL_RESULT, tool=c["tool"], ok=error is None, summary=rec["summary"]))
            if error is None and not c["tool"].startswith("resolve_"):   # what a follow-up's "those" refers to
                self.ctx.resolved.last_filters = {k: c["args"][k] for k in ("product_codes", "manufacturer", "country",
                                                                            "state") if c["args"].get(k)}
        return {"evidence": evidence, "calls": calls, "plan": [], "resolved": self.ctx.resolved.model_dump()}

    def _run_one(self, call: dict) -> tuple[dict | None, str | None]:
        try:
            return run_tool(self.ctx, call["tool"], call["args"]).model_dump(mode="json"), None
        except ToolError as e:
            return None, str(e)
        except Exception as e:   # a tool error comes back as text and never crashes the run
            return None, f"{type(e).__name__}: {e}"

    # -- reflect --------------------------------------------------------------------------------------
    def reflect(self, state: AgentState) -> dict:
        """Loop back when the plan is not finished or a filter a dataset lacks can be dropped (said in a note)."""
        notes = list(state.get("notes", []))
        iteration = state.get("iteration", 0)
        if state.get("phase") != "done":
            return {"iteration": iteration}
        retry = []
        for c in state.get("calls", []):
            if not c["ok"] and "cannot filter by" in c["summary"]:
                bad = c["summary"].split("cannot filter by", 1)[1].split(";")[0].strip()
                for name in bad.split(", "):
                    note = f"dropped:{name.split('/')[0]}"
                    if note not in notes:
                        retry.append(note)
        if retry and iteration + 1 < self.max_iterations:
            notes += retry
            self.emit(event(STEP, step="reflect", decision="retry without " + ", ".join(r[8:] for r in retry)))
            return {"notes": notes, "phase": "search_now", "iteration": iteration + 1}
        self.emit(event(STEP, step="reflect", decision="answer"))
        return {"iteration": iteration + 1}

    # -- answer ---------------------------------------------------------------------------------------
    def answer(self, state: AgentState) -> dict:
        evidence, calls = state.get("evidence", []), state.get("calls", [])
        notes = [n if not n.startswith("dropped:") else f"the filter {n[8:]} does not apply to one dataset, "
                 "so that search ran without it" for n in state.get("notes", [])]
        for e in evidence:
            notes += e.get("notes", [])[:2]
        if not evidence and not calls:
            return self._final(state, guard.OFF_TOPIC if not state.get("intent", {}).get("device_text")
                               else f"I could not identify a device, firm or dataset in \"{state['question']}\". "
                                    + guard.HELP, [])
        text = template_answer(evidence, calls, list(dict.fromkeys(notes)))
        model_calls = state.get("model_calls", 0)
        if self.model is not None and evidence:
            narrative, used = self._narrative(state["question"], evidence, text)
            model_calls += used
            if narrative:
                text = narrative + "\n\n" + text
        return self._final(state, text, evidence, model_calls)

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
        return (f"Summary: {kept}" if kept and any(ch.isdigit() for ch in kept) else ""), 1

    def _final(self, state: AgentState, text: str, evidence: list[dict], model_calls: int | None = None) -> dict:
        cites = citations(evidence)
        provenance = [p for e in evidence for p in e.get("provenance", [])]
        self.emit(event(ANSWER, answer=text, citations=cites, provenance=provenance))
        out = {"answer": text, "citations": cites, "messages": [{"role": "assistant", "content": text}]}
        if model_calls is not None:
            out["model_calls"] = model_calls
        return out

