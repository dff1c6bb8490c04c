// A real SMTP server on loopback (the `smtp-server` package) that keeps what it receives.
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** Headers and body with quoted-printable soft breaks and escapes undone. */
  decoded: string;
}

export interface TestSmtp {
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the next mail received (or one already waiting beyond `seen`). */
  next(seen?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "=" && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...new TextEncoder().encode(c));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

export async function startSmtp(auth = { user: "mailer", pass: "s3cret" }): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(a, _session, cb) {
      if (a.username === auth.user && a.password === auth.pass) cb(null, { user: a.username });
      else cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
        });
        for (const w of waiters.splice(0)) w();
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://${auth.user}:${auth.pass}@127.0.0.1:${port}`,
    port,
    mails,
    async next(seen = mails.length) {
      const deadline = Date.now() + 10_000;
      while (mails.length <= seen) {
        if (Date.now() > deadline) throw new Error("no mail arrived");
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      return mails[seen];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The invitation link in a received mail. */
export function inviteLink(mail: ReceivedMail): string {
  const m = /https?:\/\/[^\s"<>]+\/invite\/inv_[A-Za-z0-9_-]+/.exec(mail.decoded);
  if (!m) throw new Error(`no invitation link in:\n${mail.decoded}`);
  return m[0];
}
