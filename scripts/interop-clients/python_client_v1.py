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
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamablehttp_client


def check(step, condition, detail):
    if not condition:
        raise SystemExit(f"python 1.x client: {step} failed: {detail!r}")
    print(f"  ok  {step}")


async def elicit(context, params):
    # Answers the fixture's questions (the multi-round tool asks name, then color).
    props = (params.requestedSchema or {}).get("properties", {})
    content = {"name": "Ada"} if "name" in props else {"color": "blue"}
    return types.ElicitResult(action="accept", content=content)


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
            check("handshake (initialize picked 2025-11-25)", version == "2025-11-25", version)

            tools = await client.list_tools()
            names = [t.name for t in tools.tools]
            check("list tools", "test_simple_text" in names, names)

            result = await client.call_tool("test_simple_text", {})
            text = result.content[0].text
            check("call a tool", text == "This is a simple text response for testing.", text)

            result = await client.call_tool("test_input_required_result_multi_round", {})
            text = result.content[0].text
            check("finish a multi-round elicitation tool", text == "Completed both rounds: name = Ada, color = blue", text)

            resource = await client.read_resource("test://static-text")
            text = resource.contents[0].text
            check("read a resource", text == "This is the content of the static text resource.", text)

            prompt = await client.get_prompt("test_prompt_with_arguments", {"arg1": "hello", "arg2": "world"})
            text = prompt.messages[0].content.text
            check("get a prompt", text == "Prompt with arguments: arg1='hello', arg2='world'", text)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("stdio", "http"):
        raise SystemExit("usage: python_client_v1.py stdio FIXTURE_BINARY | python_client_v1.py http URL")
    anyio.run(main, *sys.argv[1:])
