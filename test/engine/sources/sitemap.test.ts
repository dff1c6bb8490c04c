// sitemap.xml (urlset, sitemapindex, prefixes, CDATA, entities, extensions, plain text, bounds) and
// security.txt (RFC 9116 fields, signed files, HTML in its place). Bad input gives empty results.
import { expect, test } from "bun:test";
import { parseSecurityTxt } from "../../../src/engine/sources/securityTxt.ts";
import { parseSitemap, SITEMAP_MAX_URLS } from "../../../src/engine/sources/sitemap.ts";

test("urlset: page URLs in order, entities decoded, CDATA read, image/video locs ignored, duplicates dropped", () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <!-- <url><loc>https://globex.example/commented-out</loc></url> -->
  <url>
    <loc>https://globex.example/</loc>
    <lastmod>2025-03-01</lastmod>
    <xhtml:link rel="alternate" hreflang="de" href="https://globex.example/de/"/>
  </url>
  <url>
    <image:image><image:loc>https://cdn.globex.example/hero.png</image:loc></image:image>
    <loc>https://globex.example/pricing?plan=team&amp;period=year</loc>
  </url>
  <url><loc><![CDATA[https://globex.example/changelog]]></loc></url>
  <url><loc> https://globex.example/ </loc></url>
  <url><loc>javascript:alert(1)</loc></url>
  <url><lastmod>2025-01-01</lastmod></url>
</urlset>`;
  expect(parseSitemap(xml)).toEqual({
    urls: [
      "https://globex.example/",
      "https://globex.example/pricing?plan=team&period=year",
      "https://globex.example/changelog",
    ],
    sitemaps: [],
  });
});

test("sitemapindex with namespace prefixes gives child sitemaps", () => {
  const xml = `<?xml version="1.0"?>
<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sm:sitemap><sm:loc>https://initech.example/sitemap-pages.xml</sm:loc><sm:lastmod>2025-03-01</sm:lastmod></sm:sitemap>
  <sm:sitemap><sm:loc>https://initech.example/sitemap-blog.xml.gz</sm:loc></sm:sitemap>
</sm:sitemapindex>`;
  expect(parseSitemap(xml)).toEqual({
    urls: [],
    sitemaps: ["https://initech.example/sitemap-pages.xml", "https://initech.example/sitemap-blog.xml.gz"],
  });
});

test("relative locs resolve against the sitemap URL when given; a plain-text sitemap lists URLs", () => {
  expect(
    parseSitemap("<urlset><url><loc>/about</loc></url></urlset>", "https://a.example/sitemap.xml"),
  ).toEqual({
    urls: ["https://a.example/about"],
    sitemaps: [],
  });
  expect(parseSitemap("<urlset><url><loc>/about</loc></url></urlset>").urls).toEqual([]);
  expect(parseSitemap("https://a.example/\nhttps://a.example/pricing\r\n# comment\nnot a url\n")).toEqual({
    urls: ["https://a.example/", "https://a.example/pricing"],
    sitemaps: [],
  });
});

test("bounded: no more than SITEMAP_MAX_URLS entries", () => {
  const n = SITEMAP_MAX_URLS + 10;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`<url><loc>https://big.example/p/${i}</loc></url>`);
  const out = parseSitemap(`<urlset>${parts.join("")}</urlset>`);
  expect(out.urls).toHaveLength(SITEMAP_MAX_URLS);
});

test("not a sitemap: HTML, garbage, empty, non-strings", () => {
  const empty = { urls: [], sitemaps: [] };
  expect(parseSitemap("<!doctype html><html><body><a href='https://x.example/'>x</a></body></html>")).toEqual(
    empty,
  );
  expect(parseSitemap("<urlset><url><loc>https://x.example/</url>")).toEqual(empty);
  expect(parseSitemap("")).toEqual(empty);
  expect(parseSitemap(null as unknown as string)).toEqual(empty);
});

test("security.txt: RFC 9116 fields, comments, case-insensitive names, ISO expiry", () => {
  const txt = `# Our security policy
Contact: mailto:security@globex.example
contact: https://globex.example/security/report
Expires: 2026-12-31T23:00:00.000Z
Encryption: https://globex.example/pgp-key.txt
Acknowledgments: https://globex.example/security/hall-of-fame
Preferred-Languages: en, de, fr-CA
Canonical: https://globex.example/.well-known/security.txt
Policy: https://globex.example/security/policy
Hiring: https://globex.example/careers/security
CSAF: https://globex.example/.well-known/csaf/provider-metadata.json
Unknown-Field: whatever
Contact: not a uri
`;
  expect(parseSecurityTxt(txt)).toEqual({
    contact: ["mailto:security@globex.example", "https://globex.example/security/report"],
    expires: "2026-12-31T23:00:00.000Z",
    encryption: ["https://globex.example/pgp-key.txt"],
    acknowledgments: ["https://globex.example/security/hall-of-fame"],
    preferred_languages: ["en", "de", "fr-CA"],
    canonical: ["https://globex.example/.well-known/security.txt"],
    policy: ["https://globex.example/security/policy"],
    hiring: ["https://globex.example/careers/security"],
    csaf: ["https://globex.example/.well-known/csaf/provider-metadata.json"],
    signed: false,
  });
});

test("security.txt: a cleartext-signed file is read without its armor and signature", () => {
  const txt = `-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA512

Contact: mailto:sec@initech.example
Expires: 2026-06-30T00:00:00Z
- Policy: https://initech.example/disclosure
-----BEGIN PGP SIGNATURE-----

iQIzBAEBCgAdFiEE...
-----END PGP SIGNATURE-----
`;
  const out = parseSecurityTxt(txt);
  expect(out?.signed).toBe(true);
  expect(out?.contact).toEqual(["mailto:sec@initech.example"]);
  expect(out?.policy).toEqual(["https://initech.example/disclosure"]);
  expect(out?.expires).toBe("2026-06-30T00:00:00.000Z");
});

test("security.txt: an HTML page, an empty body or prose give null", () => {
  expect(parseSecurityTxt("<!DOCTYPE html><html><body>Not found</body></html>")).toBeNull();
  expect(parseSecurityTxt("")).toBeNull();
  expect(parseSecurityTxt("Please email us about security issues.")).toBeNull();
  expect(parseSecurityTxt(undefined as unknown as string)).toBeNull();
});

test("security.txt: a bare e-mail address in Contact reads as its mailto: URI", () => {
  expect(
    parseSecurityTxt("Contact: security@hooli.example\nExpires: 2027-01-01T00:00:00Z\n")?.contact,
  ).toEqual(["mailto:security@hooli.example"]);
});
