// The browser's only network: a proxy on loopback that refuses everything. Chromium is started with it as its
// proxy for every scheme (loopback included) and resolves no name itself, so a connection it opens on its own —
// a WebSocket, a popup, a service worker's script, a frame or worker the DevTools session does not answer, a
// prefetch, WebRTC over TCP — reaches this listener and ends with a 403. What a page may load is answered
// through the DevTools Fetch domain by the one fetcher (browser.ts), which applies the address guard, robots.txt
// and the rewrite table; a tunnel here could apply none of them to encrypted bytes, so there is none.
import { createServer, type Server, type Socket } from "node:net";

export interface Cage {
  /** The proxy's address for --proxy-server. */
  proxy: string;
  /** Connections refused so far. */
  refused: number;
  stop(): void;
}

const REFUSAL = "HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
/** The first line of a request is read, at most this much, then the connection is answered and closed. */
const FIRST_LINE_MAX = 2048;

export async function startCage(): Promise<Cage> {
  const sockets = new Set<Socket>();
  const cage: Cage = { proxy: "", refused: 0, stop: () => {} };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.setTimeout(5000, () => socket.destroy());
    let seen = "";
    let answered = false;
    socket.on("data", (chunk: Buffer) => {
      if (answered) return;
      seen += chunk.toString("latin1");
      const eol = seen.indexOf("\r\n");
      if (eol === -1 && seen.length < FIRST_LINE_MAX) return;
      answered = true;
      cage.refused++;
      socket.end(REFUSAL);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the browser's proxy has no port");
  cage.proxy = `http://127.0.0.1:${address.port}`;
  cage.stop = () => {
    server.close();
    for (const s of sockets) s.destroy();
  };
  // The proxy never keeps the process alive on its own.
  server.unref();
  return cage;
}
