"""The MCP server: the offered tools of `tiers.CAPABILITIES`, on stdio, with the official SDK.

stdout carries the protocol only; logging goes to stderr and the bridge's log file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from bridge.assistant import tools
from bridge.assistant.tiers import offered
from bridge.identity import BRIDGE_VERSION
from bridge.runtime import Runtime

INSTRUCTIONS = (
    "Relay fills job applications from the person's own profile, in their browser. Through these "
    "tools you can read their applications and saved answers, see what their profile can answer, "
    "draft an answer to one question (checked against their profile), plan how Relay would "
    "fill a form, and ask the person to save an answer (they approve it in Relay). You cannot "
    "fill a page or submit anything: the person does that. "
    "Self-identification answers, credentials and ID numbers are never given out."
)

T = TypeVar("T")
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
# Planning and drafting record a run (history, audit, cost) and change nothing else.
RECORD = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


def build(runtime: Runtime) -> MCPServer:
    server: MCPServer = MCPServer(name="relay", instructions=INSTRUCTIONS, version=BRIDGE_VERSION)

    async def run_tool(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        try:
            # The runtime is synchronous (store, model): it runs off the event loop.
            return await anyio.to_thread.run_sync(functools.partial(fn, runtime, *args))
        except tools.ToolFailed as exc:
            raise ToolError(str(exc)) from exc

    async def list_applications(
        include_unsubmitted: Annotated[bool, Field(description="also runs never submitted")]
        = False,
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
    ) -> dict[str, Any]:
        """The person's job applications, newest first: company, job title, status, when."""
        return await run_tool(tools.list_applications, include_unsubmitted, limit)

    async def get_application(application_id: int) -> dict[str, Any]:
        """One application with every field's final value and who set it."""
        return await run_tool(tools.get_application, application_id)

    async def search_saved_answers(
        query: Annotated[str, Field(max_length=500, description="words of a question")] = "",
        limit: Annotated[int, Field(ge=1, le=200)] = 20,
    ) -> dict[str, Any]:
        """The person's saved answers to application questions, closest to the query first."""
        return await run_tool(tools.search_saved_answers, query, limit)

    async def profile_summary() -> dict[str, Any]:
        """What the person's profile can answer (facts by path), and what is kept private."""
        return await run_tool(tools.profile_summary)

    async def draft_answer(
        question: Annotated[str, Field(min_length=1, max_length=2000)],
        job_text: Annotated[str, Field(max_length=200_000, description="the posting")] = "",
        job_title: Annotated[str, Field(max_length=500)] = "",
        url: Annotated[str, Field(max_length=2000)] = "",
        max_length: Annotated[int | None, Field(ge=1, le=100_000)] = None,
    ) -> dict[str, Any]:
        """Draft an answer to one application question from the person's profile and resume.

        The draft lists the facts it rests on; a claim the profile does not support is refused
        (status "leave" with the reason). Uses the person's model, within their spending caps."""
        return await run_tool(tools.draft_answer, question, job_text, job_title, url, max_length)

    async def plan_fill(
        fields: Annotated[list[tools.PlanField], Field(min_length=1, max_length=500)],
        url: Annotated[str, Field(max_length=2000)] = "",
        title: Annotated[str, Field(max_length=500)] = "",
        job_text: Annotated[str, Field(max_length=200_000)] = "",
    ) -> dict[str, Any]:
        """How Relay would answer each field of a form: value, confidence, status and reason.

        Only a plan: nothing is filled and nothing is submitted; the person does both."""
        return await run_tool(tools.plan_fill, fields, url, title, job_text)

    async def save_answer(
        question: Annotated[str, Field(min_length=1, max_length=500)],
        answer: Annotated[str, Field(min_length=1, max_length=20_000)],
        section: Annotated[str, Field(max_length=500)] = "",
        options: Annotated[list[str] | None, Field(max_length=500)] = None,
        wait_seconds: Annotated[float, Field(ge=0, le=600)] = 120,
    ) -> dict[str, Any]:
        """Ask the person to save an answer to a question, for Relay to use next time.

        Nothing is saved until the person approves it in Relay (`relay approvals`); this waits
        up to `wait_seconds` for their decision, then says whether it was saved, declined or is
        still pending."""
        return await run_tool(
            tools.save_answer, question, answer, section, options or [], wait_seconds
        )

    available: dict[str, tuple[Callable[..., Any], ToolAnnotations]] = {
        "list_applications": (list_applications, READ),
        "get_application": (get_application, READ),
        "search_saved_answers": (search_saved_answers, READ),
        "profile_summary": (profile_summary, READ),
        "draft_answer": (draft_answer, RECORD),
        "plan_fill": (plan_fill, RECORD),
        "save_answer": (save_answer, RECORD),
    }
    for name in offered():
        if name not in available:
            continue  # in the table before it is built: nothing to offer yet
        fn, annotations = available[name]
        server.add_tool(fn, name=name, annotations=annotations, structured_output=True)
    return server


def run() -> int:
    import logging

    from bridge.logs import setup_host_logging

    # The CLI's own stderr handler would repeat every line the bridge's log file gets.
    logging.getLogger().handlers.clear()
    setup_host_logging()
    runtime = Runtime(door="mcp")
    try:
        anyio.run(build(runtime).run_stdio_async)
    finally:
        runtime.close()
    return 0
