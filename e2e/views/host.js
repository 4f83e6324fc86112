// A small MCP Apps host page: AppBridge from the pinned
// @modelcontextprotocol/ext-apps renders a tool's view the way a host does.
// Every MCP request goes through window.hostRPC, which the driver (drive.mjs)
// hands to the test's MCP client, connected to the real server.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

// The CSP the extension tells a host to apply when a view declares no
// domains (SEP-1865, "Host Behavior"), tightened to nothing from 'self'.
const hostCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'";

window.openedLinks = [];

// openView renders tool's view in a sandboxed iframe inside #slot, calls the
// tool (or takes result as given), and hands arguments and result to the
// view. It resolves to the result handed over.
window.openView = async ({ tool, args, theme, width, result }) => {
  const list = await window.hostRPC("tools/list", {});
  const def = list.tools.find((t) => t.name === tool);
  const uri = def && def._meta && def._meta.ui && def._meta.ui.resourceUri;
  if (!uri) throw new Error(`${tool} links no view`);
  const read = await window.hostRPC("resources/read", { uri });
  const content = read.contents[0];
  if (content.mimeType !== "text/html;profile=mcp-app") throw new Error(`${uri} is ${content.mimeType}`);
  const html = content.text.replace("<head>", `<head>\n<meta http-equiv="Content-Security-Policy" content="${hostCSP}">`);

  const slot = document.getElementById("slot");
  slot.replaceChildren();
  slot.style.width = `${width || 760}px`;
  document.documentElement.style.colorScheme = theme;
  document.body.style.background = theme === "dark" ? "#111" : "#eee";
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts allow-forms");
  iframe.title = `${tool} view`;
  iframe.style.cssText = "width:100%;height:200px;border:1px solid #8888;border-radius:8px;display:block";
  slot.append(iframe);

  const bridge = new AppBridge(null, { name: "e2e-host", version: "1.0.0" }, { serverTools: {}, openLinks: {}, logging: {} }, {
    hostContext: { theme, platform: "web", displayMode: "inline", toolInfo: { tool: def }, containerDimensions: { width: width || 760, maxHeight: 4000 } },
  });
  bridge.oncalltool = (params) => window.hostRPC("tools/call", params);
  bridge.onreadresource = (params) => window.hostRPC("resources/read", params);
  bridge.onopenlink = async ({ url }) => {
    window.openedLinks.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${Math.ceil(height) + 2}px`;
  };
  const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
  await initialized;

  const handed = result || (await window.hostRPC("tools/call", { name: tool, arguments: args }));
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(handed);
  return handed;
};
