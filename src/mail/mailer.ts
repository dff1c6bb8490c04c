// Outgoing mail over SMTP (RIVALS_SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://…:465), through
// nodemailer: STARTTLS when the server offers it, AUTH from the URL's user and password.
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export class MailNotConfigured extends Error {}

export function mailConfigured(config: Config): boolean {
  return !!config.smtpUrl;
}

function transportOptions(smtpUrl: string) {
  let u: URL;
  try {
    u = new URL(smtpUrl);
  } catch {
    throw new Error("RIVALS_SMTP_URL must be a URL such as smtp://user:pass@mail.example.com:587");
  }
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:")
    throw new Error("RIVALS_SMTP_URL must start with smtp:// or smtps://");
  const secure = u.protocol === "smtps:";
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username
      ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } }
      : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  };
}

/** Sends one message; throws when SMTP is not configured or the server refuses it. */
export async function sendMail(config: Config, mail: Mail): Promise<{ messageId: string }> {
  if (!config.smtpUrl) throw new MailNotConfigured("RIVALS_SMTP_URL is not set");
  const transport = nodemailer.createTransport(transportOptions(config.smtpUrl));
  try {
    const info = await transport.sendMail({
      from: config.mailFrom,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
    });
    return { messageId: String(info.messageId) };
  } finally {
    transport.close();
  }
}
