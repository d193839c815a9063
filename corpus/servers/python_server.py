"""A small MCP server on the official Python SDK (mcp==2.3.0), for the corpus of scripts/corpus.

It is what a careful user of the SDK would write, nothing more: three read-only tools (one with
a numeric range, one with an enum and a structured result, one with a length-bounded string), one
potentially destructive tool, a static resource and a prompt with a required argument. The SDK
serves both eras: 2026-07-28 (`server/discover`, per-request `_meta`) and 2025-11-25
(`initialize`).

Usage:
    python_server.py stdio
    python_server.py http             stateful Streamable HTTP (sessions)
    python_server.py http-stateless   stateless Streamable HTTP
Over HTTP it listens on a free 127.0.0.1 port and prints `listening on 127.0.0.1:PORT` to stderr;
the endpoint is /mcp.
"""

import socket
import sys
from typing import Annotated, Literal

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

server = MCPServer("corpus-python", version="1.0.0")

NOTES = {"welcome": "Hello from the corpus server."}


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def add(
    a: Annotated[int, Field(ge=0, le=1000, description="The first addend, 0 to 1000")],
    b: Annotated[int, Field(ge=0, le=1000, description="The second addend, 0 to 1000")],
) -> str:
    """Adds two small non-negative integers."""
    return str(a + b)


class Temperature(BaseModel):
    value: float
    unit: Literal["celsius", "fahrenheit"]


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def convert_temperature(
    value: Annotated[float, Field(ge=-273.15, le=10000, description="The temperature to convert")],
    to: Annotated[Literal["celsius", "fahrenheit"], Field(description="The unit to convert to")],
) -> Temperature:
    """Converts a temperature between Celsius and Fahrenheit; the input is in the other unit."""
    converted = value * 9 / 5 + 32 if to == "fahrenheit" else (value - 32) * 5 / 9
    return Temperature(value=round(converted, 2), unit=to)


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def read_note(
    name: Annotated[str, Field(min_length=1, max_length=40, description="The note's name")],
) -> str:
    """Reads a note by name."""
    if name not in NOTES:
        raise ValueError(f"no note named {name!r}; notes: {sorted(NOTES)}")
    return NOTES[name]


@server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))
def delete_note(name: Annotated[str, Field(min_length=1, max_length=40)]) -> str:
    """Deletes a note (destructive: check does not call it unless told to)."""
    NOTES.pop(name, None)
    return f"deleted {name}"


@server.resource("notes://welcome", name="welcome", mime_type="text/plain")
def welcome_note() -> str:
    """The welcome note."""
    return NOTES.get("welcome", "")


@server.prompt()
def review_code(code: str, language: str = "python") -> str:
    """Asks for a review of a piece of code."""
    return f"Please review this {language} code:\n\n{code}"


async def serve_http(stateless: bool) -> None:
    app = server.streamable_http_app(stateless_http=stateless)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    host, port = sock.getsockname()
    config = uvicorn.Config(app, log_level="warning")
    http = uvicorn.Server(config)
    print(f"listening on {host}:{port}", file=sys.stderr, flush=True)
    await http.serve(sockets=[sock])


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) == 2 else ""
    if mode == "stdio":
        server.run("stdio")
    elif mode in ("http", "http-stateless"):
        anyio.run(serve_http, mode == "http-stateless")
    else:
        raise SystemExit("usage: python_server.py stdio | http | http-stateless")


if __name__ == "__main__":
    main()
