// What a delivery says when a competitor's site chose the words: a signal title or competitor name never becomes
// a mention, a link or markup in Slack (blocks and the fallback text) or in the email's HTML.
import { describe, expect, test } from "bun:test";
import { composeEmail, composeSlack, type DeliverySignal } from "../../../src/engine/deliver/compose.ts";
import { slackEscape } from "../../../src/engine/deliver/slackText.ts";

const BASE = "https://rivals.example";
const HOSTILE = "<!channel> Reset at <https://phish.example/login|your account> & <@U123> <b>now</b>";
const signals: DeliverySignal[] = [
  {
    id: 7,
    competitor: "Evil <!here> Co",
    title: HOSTILE,
    severity: "high",
    source_url: "https://evil.example/",
  },
  { id: 8, competitor: "Globex", title: "Globex raises Team from $59 to $69", severity: "medium" },
];

/** Every `<…>` Slack would read: ours are the app links only. */
const controls = (mrkdwn: string) => [...mrkdwn.matchAll(/<([^>]*)>/g)].map((m) => m[1]);

describe("Slack", () => {
  test("the escaper: &, < and > only, as Slack documents", () => {
    expect(slackEscape("a & b <!channel> <x|y> *bold*")).toBe(
      "a &amp; b &lt;!channel&gt; &lt;x|y&gt; *bold*",
    );
  });

  test("the fallback text and every block carry the site's words as text, never a mention or a link", () => {
    const msg = composeSlack("Acme & Co", signals, BASE) as {
      text: string;
      blocks: { type: string; text?: { type: string; text: string }; elements?: { text: string }[] }[];
    };
    expect(msg.text).not.toMatch(/[<>]/);
    expect(msg.text).not.toMatch(/&(?!amp;|lt;|gt;)/);
    expect(msg.text).toContain("&lt;!channel&gt;");
    const mrkdwn = msg.blocks.flatMap((b) => [
      ...(b.text?.type === "mrkdwn" ? [b.text.text] : []),
      ...(b.elements ?? []).map((e) => e.text),
    ]);
    for (const m of mrkdwn)
      for (const c of controls(m)) expect(c).toMatch(/^https:\/\/rivals\.example\/app\/[^|<>]*(\|[^<>]*)?$/);
    const all = mrkdwn.join("\n");
    expect(all).toContain("&lt;!channel&gt;");
    expect(all).toContain("&lt;https://phish.example/login|your account&gt;");
    expect(all).toContain("Evil &lt;!here&gt; Co");
    expect(all).not.toMatch(/&(?!amp;|lt;|gt;)/);
  });
});

describe("email", () => {
  test("the HTML part escapes the site's words; the text part and the subject are plain text", () => {
    const mail = composeEmail("Acme & Co", signals, BASE);
    expect(mail.html).not.toContain("<!channel>");
    expect(mail.html).not.toContain("<b>now</b>");
    expect(mail.html).toContain("&lt;b&gt;now&lt;/b&gt;");
    expect(mail.html).toContain("Acme &amp; Co");
    expect([...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual([
      `${BASE}/app/signals/7`,
      "https://evil.example/",
      `${BASE}/app/signals/8`,
      `${BASE}/app/`,
    ]);
    expect(mail.text).toContain(HOSTILE);
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });
});
