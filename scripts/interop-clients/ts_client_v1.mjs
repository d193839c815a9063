// The official TypeScript MCP SDK 1.x client (@modelcontextprotocol/sdk@1.32.2, 2025-era only)
// against the conformance fixture server: the 2025-11-25 initialize handshake, list tools, call a
// tool, finish a multi-round elicitation tool (the fixture asks its questions as
// elicitation/create requests on the open connection), read a resource, get a prompt.
// Usage: node ts_client_v1.mjs stdio FIXTURE_BINARY | node ts_client_v1.mjs http URL
// Exits non-zero, naming the step, on any failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [kind, target] = process.argv.slice(2);
if (process.argv.length !== 4 || !['stdio', 'http'].includes(kind)) {
  console.error('usage: node ts_client_v1.mjs stdio FIXTURE_BINARY | node ts_client_v1.mjs http URL');
  process.exit(2);
}

function check(step, condition, detail) {
  if (!condition) {
    console.error(`typescript 1.x client: ${step} failed: ${JSON.stringify(detail)}`);
    process.exit(1);
  }
  console.log(`  ok  ${step}`);
}

const client = new Client(
  { name: 'mcp-test-interop', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } } },
);
// Answers the fixture's questions (the multi-round tool asks name, then color).
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  const properties = request.params.requestedSchema?.properties ?? {};
  return { action: 'accept', content: 'name' in properties ? { name: 'Ada' } : { color: 'blue' } };
});

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
  check('handshake (initialize picked 2025-11-25)', version === '2025-11-25', version);

  const tools = await client.listTools();
  const names = tools.tools.map((t) => t.name);
  check('list tools', names.includes('test_simple_text'), names);

  let result = await client.callTool({ name: 'test_simple_text', arguments: {} });
  check('call a tool', result.content[0].text === 'This is a simple text response for testing.', result);

  result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
  check('finish a multi-round elicitation tool',
    result.content[0].text === 'Completed both rounds: name = Ada, color = blue', result);

  const resource = await client.readResource({ uri: 'test://static-text' });
  check('read a resource',
    resource.contents[0].text === 'This is the content of the static text resource.', resource);

  const prompt = await client.getPrompt({
    name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' },
  });
  check('get a prompt',
    prompt.messages[0].content.text === "Prompt with arguments: arg1='hello', arg2='world'", prompt);
} catch (e) {
  console.error(`typescript 1.x client: ${e?.stack ?? e}`);
  process.exit(1);
} finally {
  await client.close().catch(() => {});
}
