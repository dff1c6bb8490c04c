// The page's own words put back where the comparison masked them: a placeholder is replaced by what the page
// wrote there, told apart by the words around it or by the texts next to it; one nothing accounts for goes.
import { expect, test } from "bun:test";
import { normalise, withOriginals } from "../../../src/engine/compare/normalise.ts";
import { quoted, withoutPlaceholders } from "../../../src/engine/compare/originals.ts";
import { extractPage } from "../../../src/engine/extract/page.ts";

const html = `<html><head><title>Blog — Quantive</title></head><body><main>
<h2>Quantive acquires Lumen, the open-source metrics catalog</h2><p>Nov 18, 2026</p>
<h2>Older post about dashboards</h2><p>Oct 2, 2026</p>
<p>Brightloop, the privacy-first session replay platform, today announced a partnership on 12 November 2026 with Fivetran.</p>
</main></body></html>`;

test("a placeholder is replaced by the page's words; a date line alone by the one next to the text quoted", () => {
  const { result: snap, originals } = withOriginals(() =>
    normalise(extractPage(html, "https://quantive.example/blog")),
  );
  expect(JSON.stringify(snap)).toContain("⟨date⟩");
  expect(JSON.stringify(snap)).not.toContain("Nov 18, 2026");
  expect(
    quoted(
      'Quantive published "Quantive acquires Lumen, the open-source metrics catalog" on its blog page on ⟨date⟩.',
      originals,
    ),
  ).toBe(
    'Quantive published "Quantive acquires Lumen, the open-source metrics catalog" on its blog page on Nov 18, 2026.',
  );
  expect(quoted("Older post about dashboards — ⟨date⟩", originals)).toBe(
    "Older post about dashboards — Oct 2, 2026",
  );
  expect(
    quoted(
      "Brightloop, the privacy-first session replay platform, ⟨ago⟩ announced a partnership on ⟨date⟩ with",
      originals,
    ),
  ).toBe(
    "Brightloop, the privacy-first session replay platform, today announced a partnership on 12 November 2026 with",
  );
});

test("a placeholder nothing accounts for is left out with its separator", () => {
  expect(quoted("Funding news · ⟨date⟩ · Maya Chen", [])).toBe("Funding news · Maya Chen");
  expect(withoutPlaceholders("Published on its blog on ⟨date⟩.")).toBe("Published on its blog.");
  expect(withoutPlaceholders("⟨date⟩ LISBON — news")).toBe("LISBON — news");
});
