"""The official Python MCP SDK client (mcp==2.3.0) against the conformance fixture server, in
mode "auto" (discover: 2026-07-28) or "legacy" (the 2025-11-25 initialize handshake): list
tools, call a tool, finish a multi-round elicitation tool (input_required rounds in 2026-07-28,
elicitation/create requests from the server in 2025-11-25), read a resource, get a prompt.
Usage: python_client.py stdio FIXTURE_BINARY [MODE] | python_client.py http URL [MODE]
Exits non-zero, naming the step, on any failure."""

import sys

import anyio
import mcp_types as types
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters


def check(step, condition, detail):
    if not condition:
        raise SystemExit(f"python client: {step} failed: {detail!r}")
    print(f"  ok  {step}")


async def elicit(context, params):
    # Answers the fixture's questions (the multi-round tool asks name, then color).
    props = (params.requested_schema or {}).get("properties", {})
    content = {"name": "Ada"} if "name" in props else {"color": "blue"}
    return types.ElicitResult(action="accept", content=content)


async def main(kind, target, mode="auto"):
    server = StdioServerParameters(command=target, args=[]) if kind == "stdio" else target
    async with Client(server, elicitation_callback=elicit, read_timeout_seconds=30, mode=mode) as client:
        version = client.protocol_version
        expected = "2025-11-25" if mode == "legacy" else "2026-07-28"
        check(f"handshake (mode={mode} picked {expected})", version == expected, version)

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
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in ("stdio", "http"):
        raise SystemExit("usage: python_client.py stdio FIXTURE_BINARY [MODE] | python_client.py http URL [MODE]")
    anyio.run(main, *sys.argv[1:])
