// Signing a webhook message as the Standard Webhooks specification says: the headers webhook-id,
// webhook-timestamp (seconds) and webhook-signature (`v1,` and the base64 HMAC-SHA256 of
// `${id}.${timestamp}.${body}`, keyed with the base64 part of the whsec_ secret).
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new signing secret: whsec_ and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString("base64")}`;
}

export function webhookSignature(secret: string, msgId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${msgId}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three headers of one try (a retry is signed again with its own timestamp). */
export function webhookHeaders(
  secret: string,
  msgId: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": msgId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": webhookSignature(secret, msgId, timestamp, body),
  };
}
