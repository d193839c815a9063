"""A short session of the official Python MCP SDK client (mcp==2.3.0) with
@modelcontextprotocol/server-everything over stdio, for scripts/cassettes to record through
`mcp-test record` and serve back with `mcp-test serve --cassette`: list tools, call echo and
get-sum, list and read resources, list prompts and get the simple one.
Usage: everything_session.py SERVER_COMMAND [MODE]
Exits non-zero, naming the step, on any failure."""

import sys

import anyio
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters


def check(step, condition, detail):
    if not condition:
        raise SystemExit(f"everything session: {step} failed: {detail!r}")
    print(f"  ok  {step}")


async def main(command, mode="auto"):
    server = StdioServerParameters(command=command, args=[])
    async with Client(server, read_timeout_seconds=30, mode=mode) as client:
        tools = await client.list_tools()
        names = [t.name for t in tools.tools]
        check("list tools", "echo" in names and "get-sum" in names, names)

        result = await client.call_tool("echo", {"message": "cassette"})
        text = result.content[0].text
        check("call echo", "cassette" in text, text)

        result = await client.call_tool("get-sum", {"a": 2, "b": 3})
        text = result.content[0].text
        check("call get-sum", "5" in text, text)

        resources = await client.list_resources()
        uris = [str(r.uri) for r in resources.resources]
        check("list resources", len(uris) > 0, uris)
        read = await client.read_resource(uris[0])
        check("read a resource", len(read.contents) > 0, uris[0])

        prompts = await client.list_prompts()
        names = [p.name for p in prompts.prompts]
        check("list prompts", "simple-prompt" in names, names)
        prompt = await client.get_prompt("simple-prompt", {})
        check("get the simple prompt", len(prompt.messages) > 0, prompt)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        raise SystemExit("usage: everything_session.py SERVER_COMMAND [MODE]")
    anyio.run(main, *sys.argv[1:])
