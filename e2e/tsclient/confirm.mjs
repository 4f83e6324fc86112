// Drives the server with the official TypeScript MCP SDK client over stdio,
// as a host that asks its user: the client declares elicitation (unless the
// plan says not to) and answers each elicitation/create with the action the
// plan gives for that step. Run by go test ./e2e (TestTypeScriptClient...).
//
// argv[2] is the plan, JSON:
//   {"command": "...", "args": [...], "env": {...}, "elicitation": true,
//    "steps": [{"tool": "...", "arguments": {...}, "answer": "accept"}]}
// A string argument "$company" is replaced by the id of the first company
// search_companies finds. stdout is one JSON array: per step, the question
// the user was shown (null if none) and the tool's result.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const plan = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({
  command: plan.command,
  args: plan.args,
  env: plan.env,
  stderr: "inherit",
});
const capabilities = plan.elicitation ? { elicitation: { form: {} } } : {};
const client = new Client({ name: "e2e-ts-host", version: "1.0.0" }, { capabilities });

let answer = null;
let asked = null;
if (plan.elicitation) {
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked = req.params.message;
    return { action: answer };
  });
}

await client.connect(transport);
let company = null;
const out = [];
for (const step of plan.steps) {
  if (JSON.stringify(step.arguments).includes("$company") && company === null) {
    const found = await client.callTool({ name: "search_companies", arguments: { query: "a", limit: 1 } });
    company = found.structuredContent.companies[0].id;
  }
  const args = JSON.parse(JSON.stringify(step.arguments).replaceAll("$company", company ?? ""));
  answer = step.answer ?? null;
  asked = null;
  const result = await client.callTool({ name: step.tool, arguments: args });
  out.push({ tool: step.tool, asked, result });
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
