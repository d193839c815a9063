// The official TypeScript MCP SDK 1.x client (@modelcontextprotocol/sdk@1.32.2, 2025-era only)
// against the conformance fixture server: the 2025-11-25 initialize handshake, list tools, call a
// tool, finish a multi-round elicitation tool (the fixture asks its questions as
// elicitation/create requests on the open connection), read a resource, get a prompt.
// Usage: node ts_client_v1.mjs stdio FIXTURE_BINARY | node ts_client_v1.mjs http URL
// Exits non-zero, naming the step, on any failure.
import { answerElicitation, check, runSteps } from './interop_steps.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [kind, target] = process.argv.slice(2);
if (process.argv.length !== 4 || !['stdio', 'http'].includes(kind)) {
  console.error('usage: node ts_client_v1.mjs stdio FIXTURE_BINARY | node ts_client_v1.mjs http URL');
  process.exit(2);
}

const LABEL = 'typescript 1.x client';

const client = new Client(
  { name: 'mcp-test-interop', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } } },
);
client.setRequestHandler(ElicitRequestSchema, async (request) => answerElicitation(request));

const transport = kind === 'stdio'
  ? new StdioClientTransport({ command: target, args: [] })
  : new StreamableHTTPClientTransport(new URL(target));

// The client hands the negotiated revision to its transport: note it on the way.
let version;
const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
transport.setProtocolVersion = (v) => {
  version = v;
  setProtocolVersion?.(v);
};

try {
  await client.connect(transport);
  check(LABEL, 'handshake (initialize picked 2025-11-25)', version === '2025-11-25', version);

  await runSteps(client, LABEL);
} catch (e) {
  console.error(`typescript 1.x client: ${e?.stack ?? e}`);
  process.exit(1);
} finally {
  await client.close().catch(() => {});
}
