"""An MCP server on the official Python SDK (mcp==2.3.0) as an OAuth resource server, for the
corpus of scripts/corpus.

It trusts one authorization server (the ISSUER argument: an `mcp-test auth-server`) the way the
SDK's own examples do: `AuthSettings` (issuer, this server's URL as the resource, required
scope `mcp`, tokens checked against that resource) and a `TokenVerifier` that asks the issuer's
RFC 7662 introspection endpoint about each token, with the HTTP client the SDK already depends
on. The SDK then answers 401 / 403 with its `WWW-Authenticate` challenges and serves the
protected-resource metadata (RFC 9728). One read-only tool.

Usage:
    python_auth_server.py ISSUER
It listens on a free 127.0.0.1 port, prints `listening on 127.0.0.1:PORT` to stderr, and serves
stateful Streamable HTTP at /mcp.
"""

import socket
import sys
from typing import Annotated, Any

import anyio
import httpx2
import uvicorn
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

SCOPE = "mcp"


class IntrospectionVerifier:
    """A token is valid when the issuer's introspection endpoint says it is active."""

    def __init__(self, issuer: str) -> None:
        self.endpoint = f"{issuer.rstrip('/')}/introspect"

    async def verify_token(self, token: str) -> AccessToken | None:
        async with httpx2.AsyncClient(timeout=10) as client:
            reply = await client.post(self.endpoint, data={"token": token})
        if reply.status_code != 200:
            return None
        claims: dict[str, Any] = reply.json()
        if not claims.get("active"):
            return None
        audience = claims.get("aud")
        resource = audience[0] if isinstance(audience, list) and audience else audience
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id", "")),
            scopes=str(claims.get("scope", "")).split(),
            expires_at=claims.get("exp"),
            resource=resource if isinstance(resource, str) else None,
            subject=claims.get("sub"),
            claims=claims,
        )


def build(issuer: str, resource: str) -> MCPServer:
    server = MCPServer(
        "corpus-python-auth",
        version="1.0.0",
        token_verifier=IntrospectionVerifier(issuer),
        auth=AuthSettings(
            issuer_url=issuer,
            resource_server_url=resource,
            required_scopes=[SCOPE],
            validate_token_resource=True,
        ),
    )

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def add(
        a: Annotated[int, Field(ge=0, le=1000, description="The first addend, 0 to 1000")],
        b: Annotated[int, Field(ge=0, le=1000, description="The second addend, 0 to 1000")],
    ) -> str:
        """Adds two small non-negative integers."""
        return str(a + b)

    return server


async def serve(issuer: str) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    host, port = sock.getsockname()
    server = build(issuer, f"http://{host}:{port}/mcp")
    config = uvicorn.Config(server.streamable_http_app(), log_level="warning")
    http = uvicorn.Server(config)
    print(f"listening on {host}:{port}", file=sys.stderr, flush=True)
    await http.serve(sockets=[sock])


def main() -> None:
    if len(sys.argv) != 2 or not sys.argv[1].startswith("http://127.0.0.1:"):
        raise SystemExit("usage: python_auth_server.py http://127.0.0.1:PORT (the issuer; tokens go to 127.0.0.1 only)")
    anyio.run(serve, sys.argv[1])


if __name__ == "__main__":
    main()
