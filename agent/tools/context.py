"""The state tools share: the mirror they read and what the resolvers found (reused by later turns)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from mirror.api import Api
from mirror.settings import Settings

from .base import RENDER_BUDGET, ROW_CAP

__all__ = ["ResolvedDevice", "ResolvedFirm", "ResolvedLocation", "ResolverContext", "ToolContext"]


class ResolvedDevice(BaseModel):
    product_code: str
    device_name: str = ""
    device_class: str = ""
    score: float = 0.0


class ResolvedFirm(BaseModel):
    canonical: str
    key: str = ""
    variants: list[str] = Field(default_factory=list)


class ResolvedLocation(BaseModel):
    kind: str = ""  # country | us_state | region
    code: str = ""  # ISO 3166-1 alpha-2 country or USPS state code
    name: str = ""


class ResolverContext(BaseModel):
    """What resolvers found, merged across turns: later searches default to these keys."""

    devices: list[ResolvedDevice] = Field(default_factory=list)
    firms: list[ResolvedFirm] = Field(default_factory=list)
    location: ResolvedLocation | None = None
    last_filters: dict = Field(default_factory=dict, description="Keys the previous question searched with")

    def product_codes(self) -> list[str]:
        return [d.product_code for d in self.devices]

    def merge(self, other: "ResolverContext") -> "ResolverContext":
        codes = {d.product_code: d for d in self.devices}
        codes.update({d.product_code: d for d in other.devices})
        firms = {f.canonical: f for f in self.firms}
        firms.update({f.canonical: f for f in other.firms})
        return ResolverContext(
            devices=list(codes.values()),
            firms=list(firms.values()),
            location=other.location or self.location,
            last_filters=other.last_filters or self.last_filters,
        )


@dataclass
class ToolContext:
    """Passed to every tool: the mirror (read-only) and the resolver context, plus output limits."""

    api: Api
    resolved: ResolverContext = field(default_factory=ResolverContext)
    row_cap: int = ROW_CAP
    render_budget: int = RENDER_BUDGET
    cache: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def open(cls, settings: Settings | None = None, **kw) -> "ToolContext":
        return cls(Api(settings or Settings()), **kw)

    def close(self) -> None:
        self.api.close()
