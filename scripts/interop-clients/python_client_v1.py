"""The official Python MCP SDK 1.x client (mcp==1.30.0, 2025-era only) against the conformance
fixture server: the 2025-11-25 initialize handshake, list tools, call a tool, finish a
multi-round elicitation tool (the fixture asks its questions as elicitation/create requests on
the open connection), read a resource, get a prompt.
Usage: python_client_v1.py stdio FIXTURE_BINARY | python_client_v1.py http URL
Exits non-zero, naming the step, on any failure."""

import sys
from contextlib import asynccontextmanager
from datetime import timedelta

import anyio
import mcp.types as types
from interop_steps import answer_content, check, run_steps
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamablehttp_client


LABEL = "python 1.x client"


async def elicit(context, params):
    return types.ElicitResult(action="accept", content=answer_content(params.requestedSchema))


@asynccontextmanager
async def streams(kind, target):
    if kind == "stdio":
        async with stdio_client(StdioServerParameters(command=target, args=[])) as (read, write):
            yield read, write
    else:
        async with streamablehttp_client(target) as (read, write, _session_id):
            yield read, write


async def main(kind, target):
    async with streams(kind, target) as (read, write):
        async with ClientSession(
            read, write, read_timeout_seconds=timedelta(seconds=30), elicitation_callback=elicit
        ) as client:
            init = await client.initialize()
            version = str(init.protocolVersion)
            check(LABEL, "handshake (initialize picked 2025-11-25)", version == "2025-11-25", version)

            await run_steps(client, LABEL)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("stdio", "http"):
        raise SystemExit("usage: python_client_v1.py stdio FIXTURE_BINARY | python_client_v1.py http URL")
    anyio.run(main, *sys.argv[1:])
