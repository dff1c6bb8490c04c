// /developers: connecting an AI assistant to the tool endpoint in one copy-paste, for Claude (desktop and
// Claude Code), Cursor and VS Code, with OAuth (the assistant opens the browser and a member approves it) or
// with an API key; then what the endpoint offers besides tools (resources and prompts).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { listPrompts } from "../mcp/prompts.ts";
import { RESOURCE_TEMPLATES } from "../mcp/resources.ts";
import { Html } from "./layout.tsx";

interface Snippet {
  client: string;
  where: string;
  oauth: string;
  key: string;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);
/** A client's own placeholder syntax, `${NAME}`, written out as text. */
const placeholder = (name: string) => `\${${name}}`;

function snippets(base: string): Snippet[] {
  const url = `${base}/mcp`;
  return [
    {
      client: "Claude Code",
      where: "Run in a terminal; in Claude Code, /mcp then signs you in (OAuth).",
      oauth: `claude mcp add --transport http rivals ${url}`,
      key: `claude mcp add --transport http rivals ${url} \\\n  --header "Authorization: Bearer $RIVALS_API_KEY"`,
    },
    {
      client: "Claude Desktop",
      where:
        "With OAuth: Settings › Connectors › Add custom connector, and paste the URL. With an API key: claude_desktop_config.json (Settings › Developer › Edit config), through the mcp-remote bridge (Node.js).",
      oauth: url,
      key: json({
        mcpServers: {
          rivals: {
            command: "npx",
            args: ["-y", "mcp-remote", url, "--header", `Authorization:${placeholder("RIVALS_AUTH")}`],
            env: { RIVALS_AUTH: "Bearer YOUR_API_KEY" },
          },
        },
      }),
    },
    {
      client: "Cursor",
      where: "~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project).",
      oauth: json({ mcpServers: { rivals: { url } } }),
      key: json({
        mcpServers: {
          rivals: { url, headers: { Authorization: `Bearer ${placeholder("env:RIVALS_API_KEY")}` } },
        },
      }),
    },
    {
      client: "VS Code",
      where:
        ".vscode/mcp.json in the workspace (or MCP: Open User Configuration); the key is asked once and kept in VS Code's secret storage.",
      oauth: json({ servers: { rivals: { type: "http", url } } }),
      key: json({
        inputs: [
          { type: "promptString", id: "rivals-api-key", description: "Rivals API key", password: true },
        ],
        servers: {
          rivals: {
            type: "http",
            url,
            headers: { Authorization: `Bearer ${placeholder("input:rivals-api-key")}` },
          },
        },
      }),
    },
  ];
}

export function ConnectAssistants({ base }: { base: string }): JSX.Element {
  return (
    <section id="connect">
      <h2>Connect an AI assistant</h2>
      <p>
        With <strong>OAuth</strong>, the assistant opens your browser; a signed-in member of a paid workspace
        approves it and chooses its scopes (<code>read</code> to read, <code>write</code> for team actions,{" "}
        <code>spend</code> for research and battlecards), and the token reads that workspace only. With an{" "}
        <strong>API key</strong>, create one in{" "}
        <a href="/app/settings/integrations">Settings › Integrations</a> with the scopes it needs and keep it
        in an environment variable (<code>RIVALS_API_KEY</code> below), never in a shared file.
      </p>
      {snippets(base).map((s) => (
        <div class="connect-client">
          <h3 safe>{s.client}</h3>
          <p safe>{s.where}</p>
          <p>With OAuth:</p>
          <pre tabindex="0">
            <code safe>{s.oauth}</code>
          </pre>
          <p>With an API key:</p>
          <pre tabindex="0">
            <code safe>{s.key}</code>
          </pre>
        </div>
      ))}
      <h3>Resources and prompts</h3>
      <p>
        Besides its tools, the endpoint offers the workspace's records as resources to attach to a
        conversation (each as Markdown and as JSON; the same credential and <code>read</code> scope as the
        read tools):
      </p>
      <ul>
        {RESOURCE_TEMPLATES.map((r) => (
          <li>
            <code safe>{r.uriTemplate}</code> — <span safe>{r.description ?? ""}</span>
          </li>
        ))}
      </ul>
      <p>and prompts for the workflows a team repeats, which name the tools and resources they use:</p>
      <ul>
        {listPrompts().map((p) => (
          <li>
            <code safe>{p.name}</code>
            {p.arguments?.length ? <span safe>{` (${p.arguments.map((a) => a.name).join(", ")})`}</span> : ""}{" "}
            — <span safe>{p.description ?? ""}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
