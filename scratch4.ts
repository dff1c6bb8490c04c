import { readFileSync } from "node:fs";
import { extractPage } from "./src/engine/extract/page.ts";
import { normalise, compare } from "./src/engine/compare/index.ts";
import { classify } from "./src/engine/classify/index.ts";
function run(host: string, file: string, path: string, kind: string, edits: [string, string][]) {
  const a = readFileSync(`test/fixtures/web/sites/${host}/v1/${file}`, "utf8");
  let b = a; for (const [x, y] of edits) { if (!b.includes(x)) throw new Error(x); b = b.replace(x, y); }
  const u = `https://${host}${path}`;
  const p = normalise(extractPage(a, u)), n = normalise(extractPage(b, u));
  const ch = compare(p, n, [p]);
  console.log("===", host, file, JSON.stringify(edits).slice(0, 80));
  for (const c of ch) console.log("  ch", c.kind, "|", c.subject, "|", c.excerpt.slice(0, 120));
  for (const d of classify(ch, { competitor: { id: 1, name: "Brightloop" }, pageKind: kind, observedAt: "2026-01-01T00:00:00Z", previous: p, snapshot: n })) console.log("  DRAFT", d.type, d.severity, "|", d.title, "|", d.evidence[0]?.text?.slice(0, 100));
}
run("brightloop.example", "pricing.html", "/pricing", "pricing", [['data-yearly="$1,190">$119</span>', 'data-yearly="$1,390">$139</span>']]);
run("brightloop.example", "pricing.html", "/pricing", "pricing", [['Add 10,000 sessions for $25 per month', 'Add 10,000 sessions for $35 per month']]);
const q = readFileSync("test/fixtures/web/sites/quantive.example/v1/pricing.html", "utf8");
const m = /US\$[\d,]+/.exec(q); console.log(m?.[0]);
if (m) run("quantive.example", "pricing.html", "/pricing", "pricing", [[m[0], "US$30,000"]]);
const nw = readFileSync("test/fixtures/web/sites/northwind.example/v1/careers.html", "utf8");
console.log(nw.match(/<li[^>]*>[\s\S]{0,200}?<\/li>/g)?.slice(0,3));
