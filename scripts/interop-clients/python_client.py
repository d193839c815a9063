"""The official Python MCP SDK client (mcp==2.3.0) against the conformance fixture server, in
mode "auto" (discover: 2026-07-28) or "legacy" (the 2025-11-25 initialize handshake): list
tools, call a tool, finish a multi-round elicitation tool (input_required rounds in 2026-07-28,
elicitation/create requests from the server in 2025-11-25), read a resource, get a prompt.
Usage: python_client.py stdio FIXTURE_BINARY [MODE] | python_client.py http URL [MODE]
Exits non-zero, naming the step, on any failure."""

import sys

import anyio
import mcp_types as types
from interop_steps import answer_content, check, run_steps
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

LABEL = "python client"


async def elicit(context, params):
    return types.ElicitResult(action="accept", content=answer_content(params.requested_schema))


async def main(kind, target, mode="auto"):
    server = StdioServerParameters(command=target, args=[]) if kind == "stdio" else target
    async with Client(server, elicitation_callback=elicit, read_timeout_seconds=30, mode=mode) as client:
        version = client.protocol_version
        expected = "2025-11-25" if mode == "legacy" else "2026-07-28"
        check(LABEL, f"handshake (mode={mode} picked {expected})", version == expected, version)

        await run_steps(client, LABEL)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in ("stdio", "http"):
        raise SystemExit("usage: python_client.py stdio FIXTURE_BINARY [MODE] | python_client.py http URL [MODE]")
    anyio.run(main, *sys.argv[1:])
